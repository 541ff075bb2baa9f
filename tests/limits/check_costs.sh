#!/usr/bin/env bash
# check_costs.sh -- what a zone costs zonepuny grows in proportion to the zone, never faster:
# each hostile shape below is run at n and at 4n, and the instructions spent (valgrind's
# callgrind counts them: the same for the same input whatever the machine is doing, unlike a
# time) must grow less than 8-fold, where linear cost is 4-fold and quadratic 16-fold.
#  - runs of NUL octets in a comment, a quoted string, a field, and in the rest of a quoted
#    string and of a comment in a record already in error: flex ends its buffer with a NUL, and
#    a token that holds NULs is scanned again from its start at each one.
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
}[name]
sys.stdout.buffer.write(head + body + b"\ny A 192.0.2.3\n")
EOF
}

for s in comment quoted field quoted-rest comment-rest; do
  shape "$s" 20000
  a=$(instructions "$tmp/z.zone")
  shape "$s" 80000
  b=$(instructions "$tmp/z.zone")
  if [ -n "$a" ] && [ -n "$b" ] && [ "$b" -lt $((a * 8)) ]; then
    ok
  else
    bad "NULs, $s: ${a:-?} instructions at 20000, ${b:-?} at 80000 (under 8 times wanted): $(head -3 "$tmp/cg.err")"
  fi
  echo "NULs, $s: $a instructions at 20000, $b at 80000"
done
finish
