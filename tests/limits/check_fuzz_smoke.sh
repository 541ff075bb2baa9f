#!/usr/bin/env bash
# check_fuzz_smoke.sh -- every libFuzzer harness for 10 s (FUZZ_SMOKE_SECONDS), only under CI or
# with FUZZ=1 so that a local `make check` stays quick. Not run, it reports a skip (exit 77).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
if [ -z "${CI-}" ] && [ "${FUZZ-}" != 1 ]; then
  skip "fuzz smoke: not run (set FUZZ=1)"
  finish
fi
# The harnesses are sanitizer builds already; the ASan pass of the suite need not repeat them.
if [ "${BUILD:-build}" != build ]; then
  skip "fuzz smoke: not run in $BUILD (runs with the plain suite)"
  finish
fi
secs=${FUZZ_SMOKE_SECONDS:-10}
mkdir -p build-fuzz
if ! make -s fuzz-build >build-fuzz/build.log 2>&1; then
  cat build-fuzz/build.log
  bad "building the harnesses"
  finish
fi
for h in fuzz/fuzz_*.c; do
  n=${h#fuzz/fuzz_}
  n=${n%.c}
  if bash fuzz/run.sh "$n" "$secs" >"build-fuzz/smoke-$n.log" 2>&1; then
    ok "$n"
    echo "ok: $n ($(grep -o 'Done [0-9]* runs' "build-fuzz/smoke-$n.log"))"
  else
    tail -40 "build-fuzz/smoke-$n.log"
    bad "$n (log build-fuzz/smoke-$n.log, crash in build-fuzz/artifacts/)"
  fi
done
finish
