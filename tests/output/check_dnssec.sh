#!/usr/bin/env bash
# check_dnssec.sh -- a signed zone passes through zonepuny with every signature still valid: a
# zone with mixed-case owners and RDATA names is signed here (dnssec-keygen, dnssec-signzone,
# NSEC), converted, and dnssec-verify must accept the result. Owners and the RDATA names of the
# types RFC 4034 section 6.2 lists are lowercased (the signer's canonical form does the same);
# NSEC's next name (RFC 6840 section 5.1) and HTTPS's target (RFC 9460) keep their case, or
# their signatures break.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
PATH=$PATH:/usr/sbin:/sbin
make_tmp
for tool in dnssec-keygen dnssec-signzone dnssec-verify; do
  command -v "$tool" >/dev/null || { skip "$tool not installed"; finish; }
done
cd "$tmp" || exit 1
cat > db.example <<'ZONE'
$ORIGIN Example.
$TTL 300
@ SOA NS1.Example. HostMaster.Example. 1 7200 3600 1209600 300
@ NS NS1
NS1 A 192.0.2.1
WWW CNAME NS1
Mail MX 10 NS1
Hip HTTPS 0 Alias.Example.
_sip._tcp SRV 0 5 5060 NS1
Txt TXT "Mixed Case Text"
ZONE
dnssec-keygen -q -a ECDSAP256SHA256 -K . Example. > /dev/null &&
  dnssec-keygen -q -f KSK -a ECDSAP256SHA256 -K . Example. > /dev/null || { bad "dnssec-keygen"; finish; }
for k in K*.key; do echo "\$INCLUDE $k" >> db.example; done
if ! dnssec-signzone -q -o Example. -K . -O full -f signed.zone db.example > sign.log 2>&1; then
  bad "dnssec-signzone"; cat sign.log; finish
fi
dnssec-verify -q -o Example. signed.zone > /dev/null 2>&1 && ok "the signer's zone verifies" ||
  bad "the signer's own zone does not verify"
# the signer writes mixed-case NSEC next names: else this test would prove nothing
grep -qE 'NSEC[[:space:]]+[A-Za-z_.]*[A-Z]' signed.zone && ok "mixed-case NSEC next names" ||
  bad "dnssec-signzone wrote no mixed-case NSEC next name"
if "$ZONEPUNY" signed.zone > out.zone 2> err; then ok; else bad "zonepuny refuses the signed zone"; cat err; fi
if dnssec-verify -q -o Example. out.zone > verify.log 2>&1; then
  ok "zonepuny's output verifies"
else
  bad "zonepuny's output does not verify"; head -10 verify.log
fi
finish
