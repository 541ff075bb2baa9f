#!/usr/bin/env bash
# check_limits.sh -- every front-end limit of doc/limits.md's table: the worst case is made
# here at test time (nothing big is committed); each must give its error, exit 1 and finish
# promptly (the timeout only guards against a hang; speed is measured in bench/run.sh).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp

head='$ORIGIN example.
$TTL 3600
@ IN SOA ns hostmaster 1 7200 3600 1209600 3600
@ IN NS ns
ns IN A 192.0.2.1'

# limit NAME FILE WANT_RC MESSAGE: zonepuny --check on FILE must exit WANT_RC within 60 s with
# MESSAGE (fixed string) on stderr.
limit() {
  local name=$1 file=$2 want=$3 msg=$4
  timeout "$hang" "$ZONEPUNY" --check "$file" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq "$want" ] && ok || bad "$name: exit $rc, want $want"
  grep -qF -- "$msg" "$tmp/err" && ok || { bad "$name: no \"$msg\""; head -c 600 "$tmp/err"; }
}

# line length: 786432 bytes is the limit, one more is an error
gen_line() {  # a TXT record whose line is exactly $1 bytes (without the newline), blanks padding it
  "$PYTHON" -c '
import sys
n = int(sys.argv[1]); pre = "t IN TXT"; s = "\"a\""
sys.stdout.write(pre + " " * (n - len(pre) - len(s)) + s)' "$1"
}
{ echo "$head"; gen_line 786432; echo; } > "$tmp/line-ok.zone"
[ "$(sed -n 6p "$tmp/line-ok.zone" | wc -c)" -eq 786433 ] || bad "generator: line is not 786432 bytes"
limit "line of 786432 bytes" "$tmp/line-ok.zone" 0 "0 errors"
{ echo "$head"; gen_line 786433; echo; echo 'after IN A 192.0.2.9'; } > "$tmp/line.zone"
limit "line of 786433 bytes" "$tmp/line.zone" 1 ":6:1: error: line longer than 786432 bytes"
grep -qF '1 error' "$tmp/err" && ok || bad "line limit: the next record was not read on"

# one record, parenthesised over many lines, past 1 MiB (1100 fields of 1000 bytes)
"$PYTHON" -c '
import sys
sys.stdout.write(sys.argv[1] + "\nbig IN TXT (\n")
for i in range(1100): sys.stdout.write("b" * 1000 + "\n")
sys.stdout.write(")\n")' "$head" > "$tmp/record.zone"
limit "record past 1 MiB" "$tmp/record.zone" 1 "error: record longer than 1048576 bytes"

# fields in one record: 131072 is the limit; a type list of every type (65,536 fields) is read
"$PYTHON" -c '
import sys
sys.stdout.write(sys.argv[1] + "\nmany IN TXT (\n" + "x\n" * 131073 + ")\n")' "$head" > "$tmp/fields.zone"
limit "131073 fields" "$tmp/fields.zone" 1 "error: more than 131072 fields in one record"
"$PYTHON" -c '
import sys
sys.stdout.write(sys.argv[1] + "\nmany IN CSYNC 1 0 (\n" +
                 "".join("TYPE%d\n" % t for t in range(1, 65536)) + ")\n")' "$head" > "$tmp/fields-ok.zone"
limit "65537 fields" "$tmp/fields-ok.zone" 0 "0 errors"
# past the field limit and then past 1 MiB (131,073 fields of 1 byte, the last on line
# 6 + 131073, then 10,000 of 100 bytes): the record is refused at that field and skipped, so
# the byte limit is never reported; the next record is read
"$PYTHON" -c '
import sys
sys.stdout.write(sys.argv[1] + "\nmany IN TXT (\n" + "x\n" * 131073 +
                 ("\"" + "x" * 98 + "\"\n") * 10000 + ")\n" + "after IN A 192.0.2.9\n")' \
  "$head" > "$tmp/fields-bytes.zone"
limit "131073 fields past 1 MiB" "$tmp/fields-bytes.zone" 1 ":131079:1: error: more than 131072 fields in one record"
grep -qF '1 file, 4 records, 1 error' "$tmp/err" && ok || bad "131073 fields past 1 MiB: not one error: $(tail -1 "$tmp/err")"

# $INCLUDE nesting: a chain of 17 files below the top one, each including the next
echo "$head" > "$tmp/inc.zone"
echo '$INCLUDE inc1.zone' >> "$tmp/inc.zone"
for i in $(seq 1 17); do
  printf 'n%d IN A 192.0.2.1\n$INCLUDE inc%d.zone\n' "$i" $((i + 1)) > "$tmp/inc$i.zone"
done
printf 'last IN A 192.0.2.1\n' > "$tmp/inc18.zone"
limit "\$INCLUDE 17 deep" "$tmp/inc.zone" 1 "error: \$INCLUDE nested deeper than 16 files"
# a file including itself is a loop, not a deep chain
printf '%s\n$INCLUDE self.zone\n' "$head" > "$tmp/self.zone"
limit "\$INCLUDE loop" "$tmp/self.zone" 1 'error: $INCLUDE loop'

# $INCLUDE fan-out: 16 levels of ten includes each would read the last file 10^15 times
echo "$head" > "$tmp/bomb.zone"
echo '$INCLUDE b1.zone' >> "$tmp/bomb.zone"
for i in $(seq 1 15); do
  for k in $(seq 1 10); do echo "\$INCLUDE b$((i + 1)).zone"; done > "$tmp/b$i.zone"
done
echo 'leaf IN A 192.0.2.1' > "$tmp/b16.zone"
limit "\$INCLUDE fan-out" "$tmp/bomb.zone" 1 "error: more than 10000 \$INCLUDE files in one zone"
timeout "$hang" "$ZONEPUNY" --check --max-errors 0 "$tmp/bomb.zone" >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && ok || bad "\$INCLUDE fan-out with --max-errors 0: exit $rc, not 1 (124: still running after $hang s)"

# $GENERATE: a huge range is refused at once, before anything is generated
for range in 1-4000000000 0-9223372036854775807 1-4000001 0-99999999999999999999999 \
             1-9223372036854775807/1; do
  printf '%s\n$GENERATE %s h$ A 192.0.2.1\n' "$head" "$range" > "$tmp/gen.zone"
  limit "\$GENERATE $range" "$tmp/gen.zone" 1 "\$GENERATE"
  grep -q 'records\|range' "$tmp/err" && ok || bad "\$GENERATE $range: message $(cat "$tmp/err")"
done
# the default bound, 4,000,000 records for the whole zone, reached by one line exactly
printf '%s\n$GENERATE 1-4000000 h$ A 192.0.2.1\n' "$head" > "$tmp/gen-ok.zone"
limit "\$GENERATE of exactly 4000000" "$tmp/gen-ok.zone" 0 "4000003 records, 0 errors"

# total errors: --max-errors stops reading; 0 means no limit
"$PYTHON" -c '
import sys
sys.stdout.write(sys.argv[1] + "\n" + "bad IN A 999.1.1.1\n" * 500)' "$head" > "$tmp/errors.zone"
limit "500 errors, default limit" "$tmp/errors.zone" 1 "too many errors (50), stopping"
timeout "$hang" "$ZONEPUNY" --check --max-errors 0 "$tmp/errors.zone" >/dev/null 2>"$tmp/err"
[ "$(grep -c ': error: ' "$tmp/err")" -eq 500 ] && ok || bad "--max-errors 0 did not report all 500"

finish
