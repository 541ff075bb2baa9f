#!/usr/bin/env bash
# sanitizer_logs.sh -- fail when a sanitizer or valgrind left a report in DIR (one file per
# process). Reports are printed so the failure explains itself.
set -u
dir=${1:?usage: sanitizer_logs.sh DIR}
n=0
for f in "$dir"/*; do
  [ -s "$f" ] || continue
  n=$((n + 1))
  echo "== report $f"
  cat "$f"
done
if [ "$n" -eq 0 ]; then
  echo "sanitizer/valgrind reports in $dir: none"
else
  echo "sanitizer/valgrind reports in $dir: $n (see above)"
  exit 1
fi
