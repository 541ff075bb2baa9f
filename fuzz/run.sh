#!/usr/bin/env bash
# run.sh -- run one libFuzzer harness: fuzz/run.sh NAME SECONDS [extra libFuzzer flags]
# The working corpus is build-fuzz/corpus/NAME (grown by the run); fuzz/corpus/NAME holds the
# committed seeds and is only read. Crashes land in build-fuzz/artifacts/NAME-*.
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 secs=$2
shift 2
bin=build-fuzz/fuzz_$name
work=build-fuzz/corpus/$name
mkdir -p "$work" build-fuzz/artifacts
seeds=()
[ -d fuzz/corpus/"$name" ] && seeds=(fuzz/corpus/"$name")
args=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
      -artifact_prefix=build-fuzz/artifacts/"$name"-)
[ -f fuzz/"$name".dict ] && args+=(-dict=fuzz/"$name".dict)
# The third-party leaks of tests/lsan.supp (ldns) are not ours to find again.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
echo "== fuzz $name for ${secs}s"
"$bin" "${args[@]}" "$@" "$work" "${seeds[@]}"
