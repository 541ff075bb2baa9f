#!/usr/bin/env bash
# check_mail_costs.sh -- -W mail's count of SPF lookups over a hostile zone grows in proportion
# to the zone: SPF records that include one another in loops and fans (each of 1 to 5 includes of
# other records of the zone, chosen at random with a fixed seed), at n and at 4n records. Costs
# are instructions (callgrind: the same on any machine, unlike a time): under 8-fold wanted at
# 4n, where linear is 4-fold, and under 200,000 a record at 4n (the run's own cost included): a
# walk that followed every path to a depth of 10 would cost some 3^10 steps a record. Every
# record needs more than 10 lookups or reaches a loop, and each is told.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp
command -v valgrind > /dev/null || { skip "valgrind is not installed: no costs"; finish; }
plain_binary || { skip "zonepuny is no plain binary to count the instructions of"; finish; }
spf_zone() {  # spf_zone N FILE
  "$PYTHON" - "$1" > "$2" <<'PY'
import random, sys
n = int(sys.argv[1])
r = random.Random(7)
print("$ORIGIN example.\n$TTL 3600\n@ SOA ns1 hostmaster 1 7200 3600 1209600 3600\n@ NS ns1")
print("ns1 A 192.0.2.1")
for i in range(n):
    k = 1 + i % 5
    print('s%d TXT "v=spf1 a %s -all"' % (i, " ".join(
        "include:s%d.example" % r.randrange(n) for _ in range(k))))
PY
}
spf_zone 500 "$tmp/n.zone"
spf_zone 2000 "$tmp/4n.zone"
a=$(instructions -W mail "$tmp/n.zone")
told_a=$(grep -c 'or more DNS lookups' "$tmp/cg.err")
b=$(instructions -W mail "$tmp/4n.zone")
told_b=$(grep -c 'or more DNS lookups' "$tmp/cg.err")
if [ -n "$a" ] && [ -n "$b" ] && [ "$b" -lt $((a * 8)) ] && [ "$b" -lt $((2000 * 200000)) ]; then
  ok
else
  bad "SPF lookups: ${b:-?} instructions at 4n, ${a:-?} at n (under 8 times, and 200,000 a record)"
fi
echo "SPF lookups over 500 and 2,000 records: $a instructions at n, $b at 4n"
[ "$told_a" = 500 ] && [ "$told_b" = 2000 ] && ok || bad "SPF lookups told: $told_a of 500, $told_b of 2000"
finish
