#!/usr/bin/env bash
# check_fuzz_smoke.sh -- every libFuzzer harness for 10 s (FUZZ_SMOKE_SECONDS), only under CI or
# with FUZZ=1 so that a local `make check` stays quick. A skip is reported as not run.
set -u
cd "$(dirname "$0")/.."
if [ -z "${CI-}" ] && [ "${FUZZ-}" != 1 ]; then
  echo "fuzz smoke: skipped (set FUZZ=1)"
  echo "0 passed, 0 failed"
  exit 0
fi
# The harnesses are sanitizer builds already; the ASan pass of the suite need not repeat them.
if [ "${BUILD:-build}" != build ]; then
  echo "fuzz smoke: skipped in $BUILD (runs with the plain suite)"
  echo "0 passed, 0 failed"
  exit 0
fi
secs=${FUZZ_SMOKE_SECONDS:-10}
pass=0 fail=0
mkdir -p build-fuzz
if ! make -s fuzz-build >build-fuzz/build.log 2>&1; then
  cat build-fuzz/build.log
  echo "FAIL: building the harnesses"
  echo "0 passed, 1 failed"
  exit 1
fi
for h in fuzz/fuzz_*.c; do
  n=${h#fuzz/fuzz_}
  n=${n%.c}
  if bash fuzz/run.sh "$n" "$secs" >"build-fuzz/smoke-$n.log" 2>&1; then
    pass=$((pass + 1))
    echo "ok: $n ($(grep -o 'Done [0-9]* runs' "build-fuzz/smoke-$n.log"))"
  else
    fail=$((fail + 1))
    tail -40 "build-fuzz/smoke-$n.log"
    echo "FAIL: $n (log build-fuzz/smoke-$n.log, crash in build-fuzz/artifacts/)"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
