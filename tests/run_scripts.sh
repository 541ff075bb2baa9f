#!/usr/bin/env bash
# run_scripts.sh -- run every tests/check_*.{sh,py}; each prints its own result and exits non-zero on failure.
set -u
cd "$(dirname "$0")/.."
: "${PYTHON:=/usr/bin/python3}" "${ZONEPUNY:=$PWD/build/zonepuny}" "${BUILD:=build}"
export PYTHON ZONEPUNY BUILD
pass=0 fail=0
for t in tests/check_*.sh tests/check_*.py; do
  [ -e "$t" ] || continue
  echo "== $t"
  case "$t" in
    *.py) "$PYTHON" "$t" ;;
    *)    bash "$t" ;;
  esac
  if [ $? -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $t"; fi
done
echo "scripts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
