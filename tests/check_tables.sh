#!/usr/bin/env bash
# check_tables.sh -- regenerating the nameprep tables reproduces the committed src/nameprep_tables.c
set -u
cd "$(dirname "$0")/.."
: "${PYTHON:=/usr/bin/python3}"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
pass=0 fail=0
if "$PYTHON" tools/gen_nameprep.py > "$tmp" && cmp -s "$tmp" src/nameprep_tables.c; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "src/nameprep_tables.c differs from tools/gen_nameprep.py output (run make tables):"
  diff -u src/nameprep_tables.c "$tmp" | head -20
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
