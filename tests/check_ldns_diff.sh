#!/usr/bin/env bash
# check_ldns_diff.sh -- end to end against ldns: a generated 20,000-record zone with 30% UTF-8
# owner names (tools/genzone.py), converted by zonepuny, must be byte for byte what
# ldns-read-zone prints for the same zone written in ACE by Python's encodings.idna.
set -u
cd "$(dirname "$0")/.."
: "${ZONEPUNY:=build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for seed in 1 2; do
  "$PYTHON" tools/genzone.py --records 20000 --seed $seed --ace "$tmp/ace.zone" "$tmp/idn.zone"
  "$ZONEPUNY" "$tmp/idn.zone" > "$tmp/ours" 2> "$tmp/err"
  rc=$?
  ldns-read-zone "$tmp/ace.zone" > "$tmp/ldns" 2>/dev/null
  if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/ours" "$tmp/ldns"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: seed $seed (exit $rc)"; head -5 "$tmp/err"; diff "$tmp/ldns" "$tmp/ours" | head -10
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
