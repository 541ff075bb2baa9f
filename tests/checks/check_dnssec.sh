#!/usr/bin/env bash
# check_dnssec.sh -- signed zones verified (--dnssec). Zones are signed here by the real
# signers (BIND's dnssec-signzone, one per algorithm, NSEC and NSEC3 with and without opt-out;
# ldns-signzone), and each must pass --check as it passes dnssec-verify and kzonecheck; the
# zone zonepuny writes from one must verify with both again. Broken copies (a record changed
# after signing, beside a DNAME too, an RRSIG removed, a name added unsigned, signatures expired
# or not yet valid, a key removed, no SEP key) must be refused with the check that names the
# fault, as dnssec-verify and kzonecheck refuse them; named-checkzone loads each (named would
# serve it), the deliberate difference doc/checks.md states, counted here.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
for tool in dnssec-keygen dnssec-signzone dnssec-verify kzonecheck ldns-keygen ldns-signzone \
            named-checkzone; do
  command -v "$tool" > /dev/null || { echo "no $tool (make deps-test)"; exit 77; }
done

cat > "$tmp/base.zone" <<'EOF'
$ORIGIN example.
$TTL 3600
@ IN SOA ns1 hostmaster 1 7200 3600 1209600 3600
@ IN NS ns1
@ IN NS ns.other.net.
ns1 IN A 192.0.2.1
www IN A 192.0.2.2
www IN AAAA 2001:db8::2
Mail IN A 192.0.2.4
@ IN MX 10 Mail
*.wild IN TXT "wild"
sub IN NS ns.sub
ns.sub IN A 192.0.2.3
sub IN DS 12345 13 2 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
insecure IN NS ns.other.net.
dn IN DNAME other.net.
dn IN A 192.0.2.6
EOF

# keys ALG: a KSK and a ZSK of the algorithm in a folder of their own, $kdir, their file names
# in ksk and zsk; published and active since 1970, so that signatures may start in the past
nkeys=0
keys() {
  nkeys=$((nkeys + 1))
  kdir=$tmp/k.$nkeys
  mkdir "$kdir"
  local when=(-P 19700101000000 -A 19700101000000)
  ksk=$(cd "$kdir" && dnssec-keygen -q "${when[@]}" -a "$1" -f KSK example.)
  zsk=$(cd "$kdir" && dnssec-keygen -q "${when[@]}" -a "$1" example.)
}

# sign OUT ALG SIGNZONE-ARGS...: the base zone with both keys of ALG, one record a line
sign() {
  local out=$1 alg=$2
  shift 2
  keys "$alg"
  cat "$tmp/base.zone" "$kdir/$ksk.key" "$kdir/$zsk.key" > "$tmp/in.zone"
  (cd "$kdir" && dnssec-signzone -q -O full -o example. -f "$out" "$@" "$tmp/in.zone") \
    > /dev/null
}

# peers FILE: "dv kz" exit statuses of dnssec-verify and kzonecheck (-t as --time) on FILE
peers() {
  local t=${2:-}
  dnssec-verify -q -o example. "$1" > /dev/null 2>&1
  local dv=$?
  if [ -n "$t" ]; then kzonecheck -d on -t "$t" -o example. "$1" > /dev/null 2>&1
  else kzonecheck -d on -o example. "$1" > /dev/null 2>&1; fi
  echo "$dv $?"
}

# accepted NAME FILE: --check takes it with no error; both peers take it, and zonepuny's output
# of it still verifies with both
accepted() {
  local name=$1 f=$2
  "$ZONEPUNY" --check --dnssec=on "$f" > /dev/null 2> "$tmp/err"
  local rc=$?
  if [ $rc -eq 0 ] && ! grep -q "error:" "$tmp/err"; then ok "$name: accepted"
  else bad "$name: exit $rc"; head -5 "$tmp/err"; fi
  local p
  p=$(peers "$f")
  [ "$p" = "0 0" ] && ok "$name: peers accept" || bad "$name: peers (dnssec-verify, kzonecheck) $p"
  if "$ZONEPUNY" "$f" > "$tmp/out.zone" 2> /dev/null; then
    p=$(peers "$tmp/out.zone")
    [ "$p" = "0 0" ] && ok "$name: output verifies" ||
      bad "$name: zonepuny's output: dnssec-verify, kzonecheck $p"
  else
    bad "$name: conversion failed"
  fi
}

# refused NAME FILE CHECK [TIME]: --check refuses it with -WCHECK; both peers refuse it; named
# loads it (the difference from BIND, counted)
refused() {
  local name=$1 f=$2 check=$3 t=${4:-} args=()
  [ -n "$t" ] && args=(--time "$t")
  "$ZONEPUNY" --check "${args[@]}" "$f" > /dev/null 2> "$tmp/err"
  local rc=$?
  if [ $rc -eq 1 ] && grep -q "error: .*\[-W$check\]" "$tmp/err"; then ok "$name: refused"
  else bad "$name: exit $rc, wanted an error [-W$check]"; head -6 "$tmp/err"; fi
  local p
  p=$(peers "$f" "$t")
  if [ -z "$t" ]; then
    case $p in
      0\ * | *\ 0) bad "$name: a peer accepts it ($p)" ;;
      *) ok "$name: peers refuse" ;;
    esac
  else   # (dnssec-verify has no --time: kzonecheck -t alone)
    case $p in
      *\ 0) bad "$name: kzonecheck -t accepts it" ;;
      *) ok "$name: kzonecheck refuses" ;;
    esac
  fi
  if named-checkzone -q example. "$f" > /dev/null 2>&1; then
    ok "$name: named-checkzone loads it (deliberate difference)"
  else
    bad "$name: named-checkzone refuses it too"
  fi
}

# ---- each algorithm, NSEC ----
for alg in RSASHA256 RSASHA512 ECDSAP256SHA256 ECDSAP384SHA384 ED25519 ED448; do
  sign "$tmp/$alg.zone" "$alg"
  accepted "$alg" "$tmp/$alg.zone"
done

# ---- NSEC3, with and without opt-out; ldns-signzone ----
sign "$tmp/nsec3.zone" ECDSAP256SHA256 -3 aabbccdd
accepted "NSEC3" "$tmp/nsec3.zone"
sign "$tmp/optout.zone" ECDSAP256SHA256 -3 - -A
accepted "NSEC3 opt-out" "$tmp/optout.zone"
( cd "$tmp" && k=$(ldns-keygen -a ECDSAP256SHA256 -k example.) &&
  z=$(ldns-keygen -a ECDSAP256SHA256 example.) &&
  ldns-signzone -f ldns.zone base.zone "$k" "$z" ) > /dev/null 2>&1
accepted "ldns-signzone" "$tmp/ldns.zone"

# ---- broken copies ----
z=$tmp/ECDSAP256SHA256.zone
sed 's/192\.0\.2\.2$/192.0.2.9/' "$z" > "$tmp/changed.zone"
refused "A record changed after signing" "$tmp/changed.zone" rrsig-bogus
sed 's/192\.0\.2\.6$/192.0.2.66/' "$z" > "$tmp/changed-dname.zone"
refused "an A beside a DNAME changed after signing" "$tmp/changed-dname.zone" rrsig-bogus
awk '!($4 == "RRSIG" && $5 == "AAAA" && $1 == "www.example.")' "$z" > "$tmp/nosig.zone"
refused "RRSIG removed" "$tmp/nosig.zone" rrset-unsigned
printf 'new.example. 3600 IN A 192.0.2.7\n' | cat "$z" - > "$tmp/added.zone"
refused "name added unsigned" "$tmp/added.zone" rrset-unsigned
zsk_tag=$(awk '$4 == "RRSIG" && $5 == "A" {print $11; exit}' "$z")
awk -v t="$zsk_tag" '!($4 == "DNSKEY" && $5 == 256)' "$z" > "$tmp/nokey.zone"
refused "ZSK removed" "$tmp/nokey.zone" rrset-unsigned
sign "$tmp/expired.zone" ECDSAP256SHA256 -P -s 20200101000000 -e 20200201000000
refused "signatures expired" "$tmp/expired.zone" rrsig-validity
sign "$tmp/future.zone" ECDSAP256SHA256 -P -s now+2592000 -e now+5184000
refused "signatures not yet valid" "$tmp/future.zone" rrsig-validity
refused "--time past the expiration" "$z" rrsig-validity 20400101000000
# no key with the SEP bit: dnssec-signzone -z signs everything with the one key given
keys ECDSAP256SHA256
cat "$tmp/base.zone" "$kdir/$zsk.key" > "$tmp/in.zone"
(cd "$kdir" && dnssec-signzone -q -O full -z -o example. -f "$tmp/nosep.zone" \
   "$tmp/in.zone" "$zsk") > /dev/null 2>&1
refused "no SEP key" "$tmp/nosep.zone" dnskey-sep

# ---- warnings, options ----
"$ZONEPUNY" --check --sig-min-validity 60d "$z" > /dev/null 2> "$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "warning: .*\[-Wrrsig-expiring\]" "$tmp/err"; then
  ok "30-day signatures under --sig-min-validity 60d: warned"
else
  bad "--sig-min-validity 60d: exit $rc"; head -3 "$tmp/err"
fi
"$ZONEPUNY" --check --dnssec=off "$tmp/changed.zone" > /dev/null 2>&1 &&
  ok "--dnssec=off: not verified" || bad "--dnssec=off still verifies"
"$ZONEPUNY" --check --dnssec=on "$tmp/base.zone" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "\[-Wrrset-unsigned\]" "$tmp/err" &&
  ok "--dnssec=on, unsigned zone: an error" || bad "--dnssec=on takes an unsigned zone"
"$ZONEPUNY" --check "$tmp/base.zone" > /dev/null 2>&1 &&
  ok "--dnssec=auto, unsigned zone: nothing to verify" || bad "auto refuses an unsigned zone"
# a signed zone whose first DNSSEC record comes late: warned, not verified, under auto
{ head -3 "$tmp/changed.zone"; for i in $(seq 300); do echo "h$i.example. 3600 IN A 192.0.2.5"; done
  tail -n +4 "$tmp/changed.zone"; } | grep -v "RRSIG\s*SOA" > "$tmp/late.zone"
"$ZONEPUNY" --check "$tmp/late.zone" > /dev/null 2> "$tmp/err"
if grep -q "warning: .*\[-Wdnssec-unverified\]" "$tmp/err" && ! grep -q "rrsig-bogus" "$tmp/err"
then ok "auto: a late signed zone is warned"
else bad "auto, late DNSSEC records"; head -3 "$tmp/err"; fi
"$ZONEPUNY" --check --dnssec=on "$tmp/late.zone" > /dev/null 2> "$tmp/err"
grep -q "h1.example. A has no RRSIG.*\[-Wrrset-unsigned\]" "$tmp/err" &&
  ok "--dnssec=on verifies a late signed zone" || bad "--dnssec=on, late DNSSEC records"
for bad_arg in --dnssec=maybe --time=2026-11-26 --time=20261340000000 --sig-min-validity=x; do
  "$ZONEPUNY" --check "$bad_arg" "$z" > /dev/null 2>&1
  [ $? -eq 2 ] && ok "$bad_arg refused" || bad "$bad_arg taken"
done
# --time in both forms: the signatures' last second, and one past it
exp=$(awk '$4 == "RRSIG" {print $9; exit}' "$z")
secs=$(date -u -d "${exp:0:8} ${exp:8:2}:${exp:10:2}:${exp:12:2}" +%s)
"$ZONEPUNY" --check --sig-min-validity 0 --time "$exp" "$z" > /dev/null 2>&1 &&
  ok "--time at the expiration: valid" || bad "--time $exp: refused"
"$ZONEPUNY" --check --time "$((secs + 1))" "$z" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "rrsig-validity" "$tmp/err" && ok "--time a second past: expired" ||
  bad "--time $((secs + 1)): not refused"
finish
