#!/usr/bin/env bash
# check_scanner_backup.sh -- the scanner never backs up (doc/performance.md, "Front end alone"):
# flex -b writes its report of backing-up states to lex.backup, which must say there are none.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
src=$repo_dir/grammar/zone.l
make_tmp
(cd "$tmp" && flex -b -o /dev/null "$src")
if [ "$(head -1 "$tmp/lex.backup")" = "No backing up." ]; then
  ok
else
  bad "$(grep -c '^State' "$tmp/lex.backup") backing-up states in grammar/zone.l"
fi
finish
