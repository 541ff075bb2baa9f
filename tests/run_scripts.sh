#!/usr/bin/env bash
# run_scripts.sh -- run every tests/*/check_*.{sh,py} (the harness: tests/lib.sh, tests/lib.py).
# A script passes when it exits 0, is skipped when it exits 77 (it ran nothing), and fails on
# any other status; a skip is never counted as a pass. Each script ends with its own summary
# line "N passed, N failed, N skipped"; those are added up into the "checks:" line. The last
# line counts scripts: "scripts: N passed, N failed, N skipped"; the exit status is 1 when a
# script failed, else 0.
set -u
cd "$(dirname "$0")/.."
: "${PYTHON:=/usr/bin/python3}" "${ZONEPUNY:=$PWD/build/zonepuny}" "${BUILD:=build}"
export PYTHON ZONEPUNY BUILD
# importing tests/lib.py would leave a tests/__pycache__ behind
export PYTHONDONTWRITEBYTECODE=1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
pass=0 fail=0 skipped=0 failed_scripts=()
checks_pass=0 checks_fail=0 checks_skip=0
for t in tests/*/check_*; do
  case $t in *.sh | *.py) ;; *) continue ;; esac
  echo "== $t"
  # stdout goes through tee for the summary line (-u: Python's lines as they come, not in one
  # block at exit); stderr is left alone
  case "$t" in
    *.py) "$PYTHON" -u "$t" ;;
    *)    bash "$t" ;;
  esac | tee "$log"
  rc=${PIPESTATUS[0]}
  case $rc in
    0)  pass=$((pass + 1)) ;;
    77) skipped=$((skipped + 1)); echo "SKIPPED: $t" ;;
    *)  fail=$((fail + 1)); failed_scripts+=("$t"); echo "FAILED: $t (exit $rc)" ;;
  esac
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -1)
  if [ -n "$summary" ]; then
    read -r p _ f _ s _ <<< "${summary//,/}"
    checks_pass=$((checks_pass + p)) checks_fail=$((checks_fail + f))
    checks_skip=$((checks_skip + s))
  fi
done
echo "checks: $checks_pass passed, $checks_fail failed, $checks_skip skipped"
for t in ${failed_scripts[@]+"${failed_scripts[@]}"}; do echo "failed: $t"; done
echo "scripts: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
