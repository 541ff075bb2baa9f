#!/usr/bin/env bash
# check_golden.sh -- zones/NAME.zone converted by zonepuny gives exactly NAME.out on stdout and
# NAME.err on stderr (missing .err: nothing). NAME.args holds extra arguments. Exit status: 1
# when .err has an "error:" line, else 0. The .out files come from tools/gen_golden.py (oracles).
set -u
cd "$(dirname "$0")/../zones"
: "${ZONEPUNY:=../build/zonepuny}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for z in *.zone; do
  base=${z%.zone}
  [ -e "$base.out" ] || continue
  args=()
  [ -e "$base.args" ] && read -ra args < "$base.args"
  "$ZONEPUNY" "${args[@]}" "$z" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  want_err=/dev/null
  [ -e "$base.err" ] && want_err=$base.err
  want_rc=0
  grep -q ': error: ' "$want_err" && want_rc=1
  ok=1
  if ! cmp -s "$tmp/out" "$base.out"; then
    echo "FAIL: $z: stdout differs from $base.out"; diff -u "$base.out" "$tmp/out" | head -40; ok=0
  fi
  if ! cmp -s "$tmp/err" "$want_err"; then
    echo "FAIL: $z: stderr differs from $want_err"; diff -u "$want_err" "$tmp/err" | head -40; ok=0
  fi
  if [ "$rc" -ne "$want_rc" ]; then
    echo "FAIL: $z: exit status $rc, expected $want_rc"; ok=0
  fi
  if [ $ok -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
