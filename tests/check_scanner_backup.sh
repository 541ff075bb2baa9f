#!/usr/bin/env bash
# check_scanner_backup.sh -- the scanner never backs up (README "Performance (front end alone)"):
# flex -b writes its report of backing-up states to lex.backup, which must say there are none.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)/grammar/zone.l
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && flex -b -o /dev/null "$src")
if [ "$(head -1 "$tmp/lex.backup")" = "No backing up." ]; then
  echo "1 passed, 0 failed"
else
  grep -c '^State' "$tmp/lex.backup" | sed 's/$/ backing-up states in grammar\/zone.l/'
  echo "0 passed, 1 failed"
  exit 1
fi
