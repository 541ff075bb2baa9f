#!/usr/bin/env bash
# check_tables.sh -- regenerating the tables reproduces the committed ones:
# src/idna/nameprep_tables.c (Python's Unicode 3.2 data) and src/idna/idna2008_tables.c (the
# Unicode 15.0.0 files of Debian's unicode-data and unicode-idna, which make deps-test installs) and
# src/idna/uts39_tables.c (unicode-data and tools/data/confusables-15.0.0.txt)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
: "${PYTHON:=/usr/bin/python3}"
make_tmp
for name in nameprep idna2008 uts39; do
  tool=tools/gen_$name.py table=src/idna/${name}_tables.c
  if "$PYTHON" "$tool" > "$tmp/out.c" && cmp -s "$tmp/out.c" "$table"; then
    ok "$table"
  else
    bad "$table differs from $tool output (run make tables):"
    diff -u "$table" "$tmp/out.c" | head -20
  fi
done
finish
