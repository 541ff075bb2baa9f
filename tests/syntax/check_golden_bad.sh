#!/usr/bin/env bash
# check_golden_bad.sh -- zones/bad/NAME.zone, one defect each: `zonepuny --check` prints exactly
# NAME.err (location, message, quoted line, caret, summary) and exits 1 (0 for an empty zone).
# The defects are in records: the zones are checked as pieces of a zone (--fragment), and the
# whole-zone checks have their own zones (tests/checks/). Arguments name the cases to run
# (NAME or NAME.zone), and only them; none: every zone and the cases made here.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir/zones/bad"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
cases=$(golden_cases "$@") || exit 1
for z in $cases; do
  base=${z%.zone}
  "$ZONEPUNY" --check --fragment "$z" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  want_rc=1
  grep -q ': error: ' "$base.err" || want_rc=0
  if cmp -s "$tmp/err" "$base.err" && [ $rc -eq $want_rc ] && [ ! -s "$tmp/out" ]; then
    ok "$z"
  else
    bad "$z (exit $rc, expected $want_rc)"; diff -u "$base.err" "$tmp/err" | head -20
  fi
done
[ $# -gt 0 ] && finish
# A 1 MB line, made here rather than committed: one error at its start, the next record read.
{ printf '$ORIGIN example.\n$TTL 300\na IN TXT '; head -c 1048576 /dev/zero | tr '\0' x
  printf '\nb IN A 192.0.2.1\n'; } > "$tmp/long-line.zone"
(cd "$tmp" && "$ZONEPUNY" --check --fragment long-line.zone) 2> "$tmp/err"
if head -1 "$tmp/err" | cmp -s - <(echo "long-line.zone:3:1: error: line longer than 786432 bytes") &&
   tail -1 "$tmp/err" | cmp -s - <(echo "zonepuny: 1 file, 1 record, 1 error, 0 warnings"); then
  ok "1 MB line"
else
  bad "1 MB line"; head -c 300 "$tmp/err"; tail -1 "$tmp/err"
fi
# A quoted string that runs past the line limit to the end of the file, no newline after it:
# one error, not one for the string and one more at the end of the file.
{ printf '$ORIGIN example.\n$TTL 300\na IN TXT "'; head -c 200000 /dev/zero | tr '\0' x; } \
  > "$tmp/long-end.zone"
(cd "$tmp" && "$ZONEPUNY" --check --fragment long-end.zone) 2> "$tmp/err"
if [ "$(grep -c ': error: ' "$tmp/err")" -eq 1 ] && tail -1 "$tmp/err" | grep -q ', 1 error,'; then
  ok "long string at the end"
else
  bad "long string at the end of the file"; cut -c1-100 "$tmp/err"
fi
finish
