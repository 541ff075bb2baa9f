#!/usr/bin/env bash
# check_costs.sh -- what a zone costs zonepuny grows in proportion to the zone, never faster:
# each hostile shape below is run at n and at 4n, and the instructions spent (valgrind's
# callgrind counts them: the same for the same input whatever the machine is doing, unlike a
# time) must grow less than 8-fold, where linear cost is 4-fold and quadratic 16-fold.
#  - runs of NUL octets in a comment, a quoted string, a field, and in the rest of a quoted
#    string and of a comment in a record already in error: flex ends its buffer with a NUL, and
#    a token that holds NULs is scanned again from its start at each one.
#  - one name with many types (named's load limits group a run of lines by type), and a
#    delegation with many NS records followed by as many glue names (each owner is asked
#    whether it is one of the delegation's targets).
# And the whole-zone checks cost what reading costs, about: a zone of the shape the benchmarks
# use (tools/genzone.py) with the checks, against --fragment (reading, names and the record's
# own checks only), at most 2.2 times (1.8 measured; a set emptied per RRset at the cost of its
# capacity once made it 3.3).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp
command -v valgrind > /dev/null || { skip "valgrind is not installed"; finish; }
# (under ASan or valgrind's memcheck the binary is another's to run)
plain_binary || { skip "zonepuny is no plain binary to count the instructions of"; finish; }

# shape NAME N: a zone whose one hostile record has N of what NAME repeats
shape() {
  "$PYTHON" - "$1" "$2" > "$tmp/z.zone" <<'EOF'
import sys
name, n = sys.argv[1], int(sys.argv[2])
head = b"$ORIGIN ex.\n$TTL 1\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n"
body = {
    "comment": b"x A 192.0.2.2 ; " + b"\0" * n,
    "quoted": b'x TXT "a' + b"\0" * n + b'"',
    "field": b"x TXT a" + b"\0" * n,
    "quoted-rest": b'x TXT "\x07 ' + b"\0\\" * (n // 2) + b'"',
    "comment-rest": b"x TXT bad( ; " + b"\0" * n,
    "types": b"".join(b"x TYPE%d \\# 0\n" % (1000 + i) for i in range(n)),
    "glue": b"".join(b"sub NS g%d.sub\n" % i for i in range(n))
            + b"".join(b"g%d.sub A 192.0.2.1\n" % i for i in range(n)),
}[name]
sys.stdout.buffer.write(head + body + b"\ny A 192.0.2.3\n")
EOF
}

for s in comment quoted field quoted-rest comment-rest types glue; do
  n=20000
  case $s in types|glue) n=4000 ;; esac
  shape "$s" $n
  a=$(instructions "$tmp/z.zone")
  shape "$s" $((n * 4))
  b=$(instructions "$tmp/z.zone")
  if [ -n "$a" ] && [ -n "$b" ] && [ "$b" -lt $((a * 8)) ]; then
    ok
  else
    bad "$s: ${a:-?} instructions at $n, ${b:-?} at $((n * 4)) (under 8 times wanted): $(head -3 "$tmp/cg.err")"
  fi
  echo "$s: $a instructions at $n, $b at $((n * 4))"
done

"$PYTHON" "$repo_dir/tools/genzone.py" --records 30000 --seed 7 "$tmp/g.zone"
whole=$(instructions "$tmp/g.zone")
part=$(instructions --fragment "$tmp/g.zone")
if [ -n "$whole" ] && [ -n "$part" ] && [ $((whole * 10)) -le $((part * 22)) ]; then
  ok
else
  bad "whole-zone checks: ${whole:-?} instructions, ${part:-?} with --fragment (2.2 times at most)"
fi
echo "whole-zone checks: $whole instructions, $part with --fragment"
finish
