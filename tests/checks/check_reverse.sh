#!/usr/bin/env bash
# check_reverse.sh -- -W reverse across the zones of one run: a forward zone, its IPv4 and IPv6
# reverse zones, as a directory and as named.conf's zones. By hand (RFC 1035 section 3.5, RFC
# 3596 section 2.5 for the reverse names):
#   mail A 192.0.2.25: 25.2.0.192.in-addr.arpa. is in the run and names smtp, not mail: told
#   PTR 25 -> smtp.example.: smtp has no address in example., a zone of the run: told
#   PTR 99 -> gone.example.: likewise
#   near misses: ns1 (A and PTR agree), www's AAAA and its ip6.arpa PTR (32 nibbles of
#   2001:db8::80 reversed), outside A 198.51.100.7 (no reverse zone of the run covers it),
#   PTR 7 -> host.example.net. (no zone of the run holds it)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
z=$tmp/zones
mkdir "$z"
cat > "$z/example.zone" <<'ZONE'
$ORIGIN example.
$TTL 3600
@ SOA ns1 hostmaster 1 7200 3600 1209600 3600
@ NS ns1
ns1 A 192.0.2.1
mail A 192.0.2.25
www A 192.0.2.80
www AAAA 2001:db8::80
outside A 198.51.100.7
ZONE
cat > "$z/2.0.192.in-addr.arpa.zone" <<'ZONE'
$ORIGIN 2.0.192.in-addr.arpa.
$TTL 3600
@ SOA ns1.example. hostmaster.example. 1 7200 3600 1209600 3600
@ NS ns1.example.
1 PTR ns1.example.
25 PTR smtp.example.
80 PTR www.example.
99 PTR gone.example.
7 PTR host.example.net.
ZONE
cat > "$z/8.b.d.0.1.0.0.2.ip6.arpa.zone" <<'ZONE'
$ORIGIN 8.b.d.0.1.0.0.2.ip6.arpa.
$TTL 3600
@ SOA ns1.example. hostmaster.example. 1 7200 3600 1209600 3600
@ NS ns1.example.
0.8.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0 PTR www.example.
ZONE
cat > "$tmp/want" <<WANT
$z/example.zone:6:1: warning: A 192.0.2.25 at mail.example.: no PTR at 25.2.0.192.in-addr.arpa. names it, though that name is in a zone checked with it (forward-confirmed reverse DNS, which mail receivers ask for, fails) [-Wreverse]
$z/2.0.192.in-addr.arpa.zone:6:1: warning: PTR at 25.2.0.192.in-addr.arpa. names smtp.example., which has no address 192.0.2.25 though it is in a zone checked with it (forward-confirmed reverse DNS fails) [-Wreverse]
$z/2.0.192.in-addr.arpa.zone:8:1: warning: PTR at 99.2.0.192.in-addr.arpa. names gone.example., which has no address 192.0.2.99 though it is in a zone checked with it (forward-confirmed reverse DNS fails) [-Wreverse]
WANT

# a directory: the three messages, exit 0 (warnings)
"$ZONEPUNY" --check -W reverse "$z" 2> "$tmp/err"
rc=$?
grep -v '^zonepuny: ' "$tmp/err" > "$tmp/got"
[ $rc -eq 0 ] && cmp -s "$tmp/got" "$tmp/want" && ok || { bad "directory: exit $rc"; diff "$tmp/want" "$tmp/got"; }

# off by default; an error when asked
"$ZONEPUNY" --check "$z" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && ! grep -q reverse "$tmp/err" && ok || bad "default: exit $rc, $(cat "$tmp/err")"
"$ZONEPUNY" --check -W error=reverse "$z" 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ "$(grep -c ': error: .*\[-Wreverse\]' "$tmp/err")" = 3 ] && ok ||
  bad "-W error=reverse: exit $rc, $(cat "$tmp/err")"

# one zone alone: its reverse zone is not in the run, so nothing is told
"$ZONEPUNY" --check -W reverse "$z/example.zone" 2> "$tmp/err"
! grep -q reverse "$tmp/err" && ok || bad "one zone: $(cat "$tmp/err")"

# named.conf's zones: the same three
cat > "$tmp/named.conf" <<CONF
zone "example" { type primary; file "$z/example.zone"; };
zone "2.0.192.in-addr.arpa" { type primary; file "$z/2.0.192.in-addr.arpa.zone"; };
zone "8.b.d.0.1.0.0.2.ip6.arpa" { type primary; file "$z/8.b.d.0.1.0.0.2.ip6.arpa.zone"; };
CONF
"$ZONEPUNY" --check -W reverse --named-conf "$tmp/named.conf" 2> "$tmp/err"
rc=$?
grep -v '^zonepuny: ' "$tmp/err" > "$tmp/got"
[ $rc -eq 0 ] && cmp -s "$tmp/got" "$tmp/want" && ok || { bad "named.conf: exit $rc"; diff "$tmp/want" "$tmp/got"; }
# 40,000 addresses and their PTRs in 64K of --check-memory (sorted in runs on disk), one PTR
# naming another host: that one pair told, nothing else
big=$tmp/big
mkdir "$big"
{ printf '$ORIGIN big.\n$TTL 3600\n@ SOA ns1 hostmaster 1 7200 3600 1209600 3600\n@ NS ns1\n'
  printf 'ns1 A 10.255.255.1\n'
  awk 'BEGIN { for (i = 0; i < 40000; i++) printf "h%d A 10.%d.%d.%d\n", i, int(i / 65536), int(i / 256) % 256, i % 256 }'
} > "$big/big.zone"
{ printf '$ORIGIN 10.in-addr.arpa.\n$TTL 3600\n@ SOA ns1.big. hostmaster.big. 1 7200 3600 1209600 3600\n@ NS ns1.big.\n'
  printf '1.255.255 PTR ns1.big.\n'
  awk 'BEGIN { for (i = 0; i < 40000; i++) printf "%d.%d.%d PTR h%d.big.\n", i % 256, int(i / 256) % 256, int(i / 65536), (i == 12345 ? 54321 : i) }'
} > "$big/10.in-addr.arpa.zone"
"$ZONEPUNY" --check -W reverse --check-memory 64K "$big" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '\[-Wreverse\]' "$tmp/err")" = 2 ] &&
  grep -q 'A 10.0.48.57 at h12345.big.: no PTR at 57.48.0.10.in-addr.arpa. names it' "$tmp/err" &&
  grep -q 'PTR at 57.48.0.10.in-addr.arpa. names h54321.big., which has no address 10.0.48.57' "$tmp/err" &&
  ok || bad "40,000 pairs: exit $rc, $(grep -c Wreverse "$tmp/err") messages: $(head -3 "$tmp/err")"
finish
