#!/usr/bin/env bash
# check_peers.sh -- every converted sample zone (zones/*.zone with a .out and no errors) loads in
# BIND (named-checkzone), NSD (nsd-checkzone), ldns (ldns-read-zone) and Knot (kzonecheck); and
# zonepuny is idempotent: its output fed back in gives the same bytes.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir/zones"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
PATH=$PATH:/usr/sbin:/sbin
make_tmp
check() {
  local what=$1; shift
  if "$@" > "$tmp/log" 2>&1; then ok "$what"; else
    bad "$what: $*"; head -20 "$tmp/log"; fi
}
for z in *.zone; do
  base=${z%.zone}
  [ -e "$base.out" ] || continue
  [ -s "$base.err" ] && continue
  args=()
  [ -e "$base.args" ] && read -ra args < "$base.args"
  case " ${args[*]-} " in *" --unicode "*) continue ;; esac
  out=$tmp/$base.out
  "$ZONEPUNY" "${args[@]}" "$z" > "$out" 2>/dev/null || { bad "$z does not convert"; continue; }
  origin=$(awk '$4 == "SOA" { print $1; exit }' "$out")
  [ -n "$origin" ] || { bad "$z has no SOA"; continue; }
  check "$z: BIND" named-checkzone -q "$origin" "$out"
  check "$z: NSD" nsd-checkzone "$origin" "$out"
  check "$z: ldns" ldns-read-zone "$out"
  check "$z: Knot" kzonecheck -o "$origin" "$out"
  "$ZONEPUNY" "${args[@]}" "$out" > "$out.again" 2>/dev/null
  check "$z: idempotent" cmp "$out" "$out.again"
done
# every-type.zone (no .out: check_knot.sh holds its table): its default output loads in the three
# servers; with every type as text (--generic none) in BIND, which reads every type's text; both
# read back by zonepuny to the same bytes. (ldns 1.8 knows no AMTRELAY.)
for mode in default none; do
  out=$tmp/every-$mode.out
  gen=(); [ $mode = none ] && gen=(--generic none)
  "$ZONEPUNY" "${gen[@]}" every-type.zone > "$out" 2> "$tmp/err" || { bad "every-type.zone ($mode)"; cat "$tmp/err"; continue; }
  check "every-type.zone ($mode): BIND" named-checkzone -q example. "$out"
  if [ $mode = default ]; then
    check "every-type.zone: NSD" nsd-checkzone example. "$out"
    check "every-type.zone: Knot" kzonecheck -o example. "$out"
  fi
  "$ZONEPUNY" "${gen[@]}" "$out" > "$out.again" 2>/dev/null
  check "every-type.zone ($mode): idempotent" cmp "$out" "$out.again"
done
need_pass "no converted sample zone"
finish
