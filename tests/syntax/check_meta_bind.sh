#!/usr/bin/env bash
# check_meta_bind.sh -- query and meta types and classes (RFC 6895 sections 3.1, 3.2) are refused
# where BIND refuses them: one zone with a record of every type from 0 to 300 and a few beyond,
# and of every class name, each as RFC 3597 \# 0; the lines named-compilezone calls "invalid use
# of a meta type" (or refuses for class NONE or ANY) must be exactly the lines zonepuny refuses
# as query, meta or reserved.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
PATH=$PATH:/usr/sbin:/sbin
make_tmp
command -v named-compilezone >/dev/null || { skip "named-compilezone not installed"; finish; }

z=$tmp/meta.zone
{
  printf '$ORIGIN ex.\n$TTL 60\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n'
  for i in $(seq 0 300) 32768 32769 61440 65279 65280 65534 65535; do
    echo "t$i IN TYPE$i \\# 0"
  done
  echo "c1 IN ANY"
  echo "c2 ANY TXT \"a\""
  echo "c3 NONE TXT \"a\""
  echo "c4 CLASS254 TXT \"a\""
  echo "c5 CLASS255 TXT \"a\""
  echo "c6 IN TXT \"a\""
} > "$z"

named-compilezone -o /dev/null ex. "$z" > "$tmp/bind" 2>&1
# BIND: "meta type" for types; a class other than the zone's for NONE and ANY
grep -E "invalid use of a meta type|class '(NONE|ANY|CLASS25[45])' != zone class" "$tmp/bind" |
  grep -o "meta.zone:[0-9]*" | cut -d: -f2 | sort -un > "$tmp/bind.lines"
"$ZONEPUNY" --check --max-errors 0 "$z" > /dev/null 2> "$tmp/ours"
grep -E "is (a query or meta type|reserved|a query class), not zone data" "$tmp/ours" |
  grep -o "meta.zone:[0-9]*" | cut -d: -f2 | sort -un > "$tmp/ours.lines"

n=$(wc -l < "$tmp/bind.lines")
# 0, OPT, 128-255, and the five class lines: if BIND says fewer, it is not saying what we think
if [ "$n" -ge 135 ]; then ok; else bad "BIND refused only $n lines as meta"; head -5 "$tmp/bind"; fi
if cmp -s "$tmp/bind.lines" "$tmp/ours.lines"; then
  ok
else
  bad "lines refused as meta differ (< BIND, > zonepuny)"
  diff "$tmp/bind.lines" "$tmp/ours.lines" | head -20
fi
finish
