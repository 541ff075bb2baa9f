#!/usr/bin/env bash
# run_units.sh -- `make check-unit`: every criterion suite in turn, each run whatever the ones
# before it did, then one total over the tests of all of them (from each suite's JSON report:
# criterion's own lines leave skipped tests out) as "N passed, N failed, N skipped", the
# suites that failed named, and a failing exit when any did. Usage: run_units.sh SUITE... [::: ARGS...]: ARGS go to every suite (--jobs=2,
# --filter=...); $TEST_WRAP, when set, runs each suite (valgrind).
set -u
suites=()
while [ $# -gt 0 ] && [ "$1" != ::: ]; do suites+=("$1"); shift; done
[ $# -gt 0 ] && shift
report=$(mktemp)
trap 'rm -f "$report"' EXIT
pass=0 fail=0 skip=0 failed=()
for t in ${suites[@]+"${suites[@]}"}; do
  echo "== $t"
  : > "$report"
  ${TEST_WRAP:-} "$t" --json="$report" "$@"
  rc=$?
  # the report's totals come first, two spaces in: "passed", "failed", "errored", "skipped"
  count() { sed -n "s/^  \"$1\": \([0-9]*\),\$/\1/p" "$report" | head -1; }
  p=$(count passed) f=$(count failed) e=$(count errored) s=$(count skipped)
  if [ -n "$p" ] && [ -n "$f" ] && [ -n "$e" ] && [ -n "$s" ]; then
    pass=$((pass + p)) fail=$((fail + f + e)) skip=$((skip + s))
  else
    fail=$((fail + 1))   # (a suite that ended before its report: one failed test at least)
    rc=1
  fi
  [ "$rc" -ne 0 ] && failed+=("$t")
done
for t in ${failed[@]+"${failed[@]}"}; do echo "failed: $t"; done
echo "$pass passed, $fail failed, $skip skipped"
[ ${#failed[@]} -eq 0 ]
