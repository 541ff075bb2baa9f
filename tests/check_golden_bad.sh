#!/usr/bin/env bash
# check_golden_bad.sh -- zones/bad/NAME.zone, one defect each: `zonepuny --check` prints exactly
# NAME.err (location, message, quoted line, caret, summary) and exits 1 (0 for an empty zone).
set -u
cd "$(dirname "$0")/../zones/bad"
: "${ZONEPUNY:=../../build/zonepuny}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for z in *.zone; do
  base=${z%.zone}
  "$ZONEPUNY" --check "$z" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  want_rc=1
  grep -q ': error: ' "$base.err" || want_rc=0
  if cmp -s "$tmp/err" "$base.err" && [ $rc -eq $want_rc ] && [ ! -s "$tmp/out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL: $z (exit $rc, expected $want_rc)"; diff -u "$base.err" "$tmp/err" | head -20
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
