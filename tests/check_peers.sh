#!/usr/bin/env bash
# check_peers.sh -- every converted sample zone (zones/*.zone with a .out and no errors) loads in
# BIND (named-checkzone), NSD (nsd-checkzone) and ldns (ldns-read-zone); and zonepuny is
# idempotent: its output fed back in gives the same bytes.
set -u
cd "$(dirname "$0")/../zones"
: "${ZONEPUNY:=../build/zonepuny}"
PATH=$PATH:/usr/sbin:/sbin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {
  local what=$1; shift
  if "$@" > "$tmp/log" 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $what: $*"; head -20 "$tmp/log"; fi
}
for z in *.zone; do
  base=${z%.zone}
  [ -e "$base.out" ] || continue
  [ -s "$base.err" ] && continue
  args=()
  [ -e "$base.args" ] && read -ra args < "$base.args"
  case " ${args[*]-} " in *" --unicode "*) continue ;; esac
  out=$tmp/$base.out
  "$ZONEPUNY" "${args[@]}" "$z" > "$out" 2>/dev/null || { fail=$((fail + 1)); echo "FAIL: $z does not convert"; continue; }
  origin=$(awk '$4 == "SOA" { print $1; exit }' "$out")
  [ -n "$origin" ] || { fail=$((fail + 1)); echo "FAIL: $z has no SOA"; continue; }
  check "$z: BIND" named-checkzone -q "$origin" "$out"
  check "$z: NSD" nsd-checkzone "$origin" "$out"
  check "$z: ldns" ldns-read-zone "$out"
  "$ZONEPUNY" "${args[@]}" "$out" > "$out.again" 2>/dev/null
  check "$z: idempotent" cmp "$out" "$out.again"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
