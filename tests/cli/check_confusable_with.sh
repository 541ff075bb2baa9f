#!/usr/bin/env bash
# check_confusable_with.sh -- --confusable-with FILE's file as users get it wrong: a line that is
# no name, a file that is not there, a mode that reads no zone; and a conversion with -o that
# warns and still writes, and a --check of several zones each held to the list
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
zone() {
  printf '$ORIGIN %s\n$TTL 3600\n@ SOA ns1 hostmaster 1 7200 3600 1209600 3600\n@ NS ns1\n' "$1"
  printf 'ns1 A 192.0.2.1\n%s A 192.0.2.2\n' "$2"
}
zone a.example. 'login.paypa1' > "$tmp/a.example.zone"
zone b.example. 'shop.pаypal' > "$tmp/b.example.zone"
printf '# brands\n\npaypal   # the shop\n' > "$tmp/brands"

# a line that is no name: its place, exit 2, nothing checked
printf 'paypal\nbad..name\n' > "$tmp/bad"
"$ZONEPUNY" --check --confusable-with "$tmp/bad" "$tmp/a.example.zone" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "^$tmp/bad:2: error: 'bad..name' is no name" "$tmp/err" &&
  ! grep -q 'looks like' "$tmp/err" && ok || bad "a line that is no name: exit $rc, $(cat "$tmp/err")"

# a file that is not there
"$ZONEPUNY" --check --confusable-with "$tmp/none" "$tmp/a.example.zone" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "^zonepuny: error: --confusable-with $tmp/none: No such file" "$tmp/err" &&
  ok || bad "no file: exit $rc, $(cat "$tmp/err")"

# name conversion reads no zone
"$ZONEPUNY" --to-ascii --confusable-with "$tmp/brands" paypal > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "confusable-with is for zones" "$tmp/err" && ok ||
  bad "--to-ascii: exit $rc, $(cat "$tmp/err")"

# a conversion: the warning, and the zone written
"$ZONEPUNY" --confusable-with "$tmp/brands" -o "$tmp/a.out" "$tmp/a.example.zone" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "a.example.zone:6:1: warning: name login.paypa1.a.example. looks like paypal of --confusable-with ($tmp/brands:3)" "$tmp/err" &&
  grep -q '^login.paypa1.a.example.' "$tmp/a.out" && ok || bad "conversion: exit $rc, $(cat "$tmp/err")"

# --check of two zones: each one's look-alike, and -W no-confusable silences both
"$ZONEPUNY" --check --confusable-with "$tmp/brands" "$tmp/a.example.zone" "$tmp/b.example.zone" \
  2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c 'of --confusable-with' "$tmp/err")" = 2 ] &&
  grep -q 'shop.pаypal.b.example. (shop.xn--pypal-4ve.b.example.) looks like paypal' "$tmp/err" &&
  ok || bad "two zones: exit $rc, $(cat "$tmp/err")"
"$ZONEPUNY" --check --confusable-with "$tmp/brands" -W no-confusable "$tmp/a.example.zone" \
  "$tmp/b.example.zone" 2> "$tmp/err"
! grep -q 'confusable' "$tmp/err" && ok || bad "-W no-confusable: $(cat "$tmp/err")"
finish
