#!/usr/bin/env bash
# check_tables.sh -- regenerating the nameprep tables reproduces the committed src/nameprep_tables.c
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
: "${PYTHON:=/usr/bin/python3}"
make_tmp
if "$PYTHON" tools/gen_nameprep.py > "$tmp/nameprep_tables.c" &&
   cmp -s "$tmp/nameprep_tables.c" src/nameprep_tables.c; then
  ok
else
  bad "src/nameprep_tables.c differs from tools/gen_nameprep.py output (run make tables):"
  diff -u src/nameprep_tables.c "$tmp/nameprep_tables.c" | head -20
fi
finish
