#!/usr/bin/env bash
# check_dnssec.sh -- signed zones verified (--dnssec). Zones are signed here by the real
# signers (BIND's dnssec-signzone, one per algorithm, NSEC and NSEC3 with and without opt-out;
# ldns-signzone, with ZONEMD of SHA-384 and SHA-512), and each must pass --check as it passes
# dnssec-verify and kzonecheck (ldns-verify-zone and dnspython for ZONEMD); the zone zonepuny
# writes from one must verify with them again. Broken copies (a record changed after signing,
# beside a DNAME too, an RRSIG removed, a name added unsigned, an NSEC or NSEC3 removed, a
# bitmap edited, an orphan NSEC3, signatures expired or not yet valid, a key removed, no SEP
# key, a CDS or CDNSKEY of no key, a ZONEMD digest wrong) must be refused with the check that
# names the fault, as the peers that check it refuse them; named-checkzone loads each (named
# would serve it), the deliberate difference doc/checks.md states, counted here. A zone with
# every DNSKEY removed is one error at its first RRSIG. Zones whose DNSSEC records come after
# 300 others are verified from a file (read a second time), as dnssec-verify judges them, and
# warned from a pipe or a FIFO; their conversion writes what it wrote before, and nothing is
# told twice.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
for tool in dnssec-keygen dnssec-signzone dnssec-verify dnssec-dsfromkey kzonecheck ldns-keygen \
            ldns-signzone ldns-verify-zone named-checkzone; do
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

# signed OUT EXTRA SIGNZONE-ARGS...: the base zone and the lines of file EXTRA, signed with the
# keys made last, one record a line
signed() {
  local out=$1 extra=$2
  shift 2
  cat "$tmp/base.zone" "$extra" "$kdir/$ksk.key" "$kdir/$zsk.key" > "$tmp/in.zone"
  (cd "$kdir" && dnssec-signzone -q -O full -o example. -f "$out" "$@" "$tmp/in.zone") \
    > /dev/null
}

# sign OUT ALG SIGNZONE-ARGS...: the base zone with both keys of ALG
sign() {
  local out=$1 alg=$2
  shift 2
  keys "$alg"
  signed "$out" /dev/null "$@"
}

# edit OUT AWK-PROGRAM FILE: OUT is FILE through awk; a test fails if nothing changed
edit() {
  awk "$2" "$3" > "$1"
  cmp -s "$1" "$3" && bad "the edit making $(basename "$1") changed nothing"
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

# zonemd_peers FILE: "lv dp" exit statuses of ldns-verify-zone and dnspython's verify_digest,
# the peers that compute ZONEMD (dnssec-verify and kzonecheck 3.2 do not)
zonemd_peers() {
  ldns-verify-zone "$1" > /dev/null 2>&1
  local lv=$?
  /usr/bin/python3 -c 'import sys, dns.zone
dns.zone.from_file(sys.argv[1], "example.", relativize=False).verify_digest()' "$1" \
    > /dev/null 2>&1
  echo "$lv $?"
}

# refused_only NAME FILE CHECK [TIME]: --check refuses it with -WCHECK; named loads it (the
# difference from BIND, counted)
refused_only() {
  local name=$1 f=$2 check=$3 t=${4:-} args=()
  [ -n "$t" ] && args=(--time "$t")
  "$ZONEPUNY" --check "${args[@]}" "$f" > /dev/null 2> "$tmp/err"
  local rc=$?
  if [ $rc -eq 1 ] && grep -q "error: .*\[-W$check\]" "$tmp/err"; then ok "$name: refused"
  else bad "$name: exit $rc, wanted an error [-W$check]"; head -6 "$tmp/err"; fi
  if named-checkzone -q example. "$f" > /dev/null 2>&1; then
    ok "$name: named-checkzone loads it (deliberate difference)"
  else
    bad "$name: named-checkzone refuses it too"
  fi
}

# refused NAME FILE CHECK [TIME]: refused_only, and both peers refuse it
refused() {
  local name=$1 f=$2 check=$3 t=${4:-}
  refused_only "$@"
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
lk=$(cd "$tmp" && ldns-keygen -a ECDSAP256SHA256 -k example.)
lz=$(cd "$tmp" && ldns-keygen -a ECDSAP256SHA256 example.)
(cd "$tmp" && ldns-signzone -f ldns.zone base.zone "$lk" "$lz") > /dev/null 2>&1
accepted "ldns-signzone" "$tmp/ldns.zone"

# ---- ZONEMD (RFC 8976) of SHA-384 and SHA-512, by ldns-signzone ----
for h in 1 2; do
  (cd "$tmp" && ldns-signzone -z "1:$h" -f "zonemd$h.zone" base.zone "$lk" "$lz") > /dev/null 2>&1
  grep -q "ZONEMD.*1 1 $h " "$tmp/zonemd$h.zone" || bad "ldns-signzone -z 1:$h made no ZONEMD"
  accepted "ZONEMD, hash $h" "$tmp/zonemd$h.zone"
  p=$(zonemd_peers "$tmp/zonemd$h.zone")
  [ "$p" = "0 0" ] && ok "ZONEMD, hash $h: digest peers accept" ||
    bad "ZONEMD, hash $h: ldns-verify-zone, dnspython $p"
  "$ZONEPUNY" "$tmp/zonemd$h.zone" > "$tmp/out.zone" 2> /dev/null
  p=$(zonemd_peers "$tmp/out.zone")
  [ "$p" = "0 0" ] && ok "ZONEMD, hash $h: output's digest verifies" ||
    bad "ZONEMD, hash $h: zonepuny's output: ldns-verify-zone, dnspython $p"
done

# ---- CDS and CDNSKEY of the KSK ----
keys ECDSAP256SHA256
{ dnssec-dsfromkey -C -2 "$kdir/$ksk.key"
  grep -v '^;' "$kdir/$ksk.key" | sed 's/ DNSKEY / CDNSKEY /'; } > "$tmp/cds.txt"
signed "$tmp/cds.zone" "$tmp/cds.txt"
accepted "CDS and CDNSKEY of the KSK" "$tmp/cds.zone"

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
# a CDS of the KSK with its digest changed; a CDS and CDNSKEY of a key the zone does not hold
edit "$tmp/cds-bad.txt" '$3 == "CDS" {$7 = ($7 ~ /^0/ ? "1" : "0") substr($7, 2)} {print}' \
  "$tmp/cds.txt"
signed "$tmp/cds-bad.zone" "$tmp/cds-bad.txt"
other=$(cd "$tmp" && dnssec-keygen -q -a ECDSAP256SHA256 -f KSK example.)
{ dnssec-dsfromkey -C -2 "$tmp/$other.key"
  grep -v '^;' "$tmp/$other.key" | sed 's/ DNSKEY / CDNSKEY /'; } > "$tmp/cds-other.txt"
signed "$tmp/cds-other.zone" "$tmp/cds-other.txt"
for v in cds-bad cds-other; do
  refused_only "$v" "$tmp/$v.zone" cds
  kzonecheck -d on -o example. "$tmp/$v.zone" > /dev/null 2>&1 &&
    bad "$v: kzonecheck accepts it" || ok "$v: kzonecheck refuses"
done

# NSEC: one removed, a bitmap edited
edit "$tmp/nonsec.zone" '!($4 == "NSEC" && $1 == "ns1.example.")' "$z"
refused "NSEC removed" "$tmp/nonsec.zone" nsec-chain
edit "$tmp/bitmap.zone" '$4 == "NSEC" && $1 == "www.example." {sub(/ AAAA/, "")} {print}' "$z"
refused "NSEC bitmap edited" "$tmp/bitmap.zone" nsec-bitmap
# NSEC3: www's removed, its bitmap edited, an orphan added; opt-out: the secure delegation's
# removed (only an insecure one may go without)
n3=$tmp/nsec3.zone
edit "$tmp/nonsec3.zone" '!($4 == "NSEC3" && $10 == "A" && $11 == "AAAA")' "$n3"
refused "NSEC3 removed" "$tmp/nonsec3.zone" nsec-chain
edit "$tmp/bitmap3.zone" '$4 == "NSEC3" && $10 == "A" && $11 == "AAAA" {sub(/ AAAA/, "")} {print}' \
  "$n3"
refused "NSEC3 bitmap edited" "$tmp/bitmap3.zone" nsec-bitmap
edit "$tmp/orphan3.zone" '{print} $4 == "NSEC3" && !done {
  $1 = "00000000000000000000000000000000.example."; print; done = 1}' "$n3"
refused "an orphan NSEC3" "$tmp/orphan3.zone" nsec-chain
edit "$tmp/optout-ds.zone" '!($4 == "NSEC3" && $10 == "NS" && $11 == "DS")' "$tmp/optout.zone"
refused "opt-out: a secure delegation's NSEC3 removed" "$tmp/optout-ds.zone" nsec-chain
# ZONEMD: a digest that is not the zone's, signed as it is
keys ECDSAP256SHA256
echo "@ IN ZONEMD 1 1 1 $(printf '%096d' 0)" > "$tmp/zonemd.txt"
signed "$tmp/zonemd-bad.zone" "$tmp/zonemd.txt"
refused_only "ZONEMD digest wrong" "$tmp/zonemd-bad.zone" zonemd
p=$(zonemd_peers "$tmp/zonemd-bad.zone")
case $p in
  0\ * | *\ 0) bad "ZONEMD digest wrong: a digest peer accepts it ($p)" ;;
  *) ok "ZONEMD digest wrong: ldns-verify-zone and dnspython refuse" ;;
esac

# no key with the SEP bit: dnssec-signzone -z signs everything with the one key given
keys ECDSAP256SHA256
cat "$tmp/base.zone" "$kdir/$zsk.key" > "$tmp/in.zone"
(cd "$kdir" && dnssec-signzone -q -O full -z -o example. -f "$tmp/nosep.zone" \
   "$tmp/in.zone" "$zsk") > /dev/null 2>&1
refused "no SEP key" "$tmp/nosep.zone" dnskey-sep

# ---- a signed zone with no DNSKEY left at its apex ----
# (dnssec-verify: "Zone contains no DNSSEC keys"; kzonecheck and ldns-verify-zone refuse it
# too; named loads it)
edit "$tmp/nodnskey.zone" '$4 != "DNSKEY"' "$z"
refused "every DNSKEY removed" "$tmp/nodnskey.zone" rrset-unsigned
ldns-verify-zone "$tmp/nodnskey.zone" > /dev/null 2>&1 &&
  bad "every DNSKEY removed: ldns-verify-zone accepts it" ||
  ok "every DNSKEY removed: ldns-verify-zone refuses"
# one error, at the zone's first RRSIG, naming the apex; auto and on alike
first_sig=$(awk '$4 == "RRSIG" {print NR; exit}' "$tmp/nodnskey.zone")
for mode in auto on; do
  "$ZONEPUNY" --check --dnssec=$mode "$tmp/nodnskey.zone" > /dev/null 2> "$tmp/err"
  rc=$?
  n=$(grep -c "error:" "$tmp/err")
  want_msg="^$tmp/nodnskey.zone:$first_sig:1: error: example\. has RRSIG records, the first here,"
  want_msg+=" but no DNSKEY RRset at its apex.*\[-Wrrset-unsigned\]$"
  if [ $rc -eq 1 ] && [ "$n" -eq 1 ] && grep -q "$want_msg" "$tmp/err"
  then ok "no DNSKEY, --dnssec=$mode: one error at the first RRSIG"
  else
    bad "no DNSKEY, --dnssec=$mode: exit $rc, $n errors, not one at line $first_sig"
    head -4 "$tmp/err"
  fi
done
"$ZONEPUNY" --check --dnssec=off "$tmp/nodnskey.zone" > /dev/null 2>&1 &&
  ok "no DNSKEY, --dnssec=off: not verified" || bad "no DNSKEY, --dnssec=off: refused"

# ---- DNSSEC records after the first 256: --dnssec=auto reads a regular file again ----
# A zone of 300 hosts more, signed, then reordered with every DNSSEC record (RRSIG, NSEC,
# DNSKEY) at its end: signers write an RRSIG right after the SOA, so auto decides from the
# first 256 records; a file can be read again and verified, a pipe or a FIFO cannot.
keys ECDSAP256SHA256
for i in $(seq 300); do echo "h$i IN A 192.0.2.$((i % 250 + 1))"; done > "$tmp/hosts.txt"
signed "$tmp/big.zone" "$tmp/hosts.txt"
# piped NAME FILE WARNING: FILE through a pipe exits 0, warned of as WARNING says (a
# pattern), never verified (no error)
piped() {
  local rc
  cat "$2" | "$ZONEPUNY" --check -z example. - > /dev/null 2> "$tmp/err"
  rc=$?
  if [ $rc -eq 0 ] && grep -q "$3" "$tmp/err" && ! grep -q "error:" "$tmp/err"
  then ok "$1"
  else bad "$1: exit $rc"; head -3 "$tmp/err"; fi
}
# late IN OUT: IN's DNSSEC records moved to its end
late() {
  awk '$4 !~ /^(RRSIG|NSEC|NSEC3|NSEC3PARAM|DNSKEY)$/' "$1" > "$2"
  awk '$4 ~ /^(RRSIG|NSEC|NSEC3|NSEC3PARAM|DNSKEY)$/' "$1" >> "$2"
}
late "$tmp/big.zone" "$tmp/late-good.zone"
edit "$tmp/late-bogus.zone" '$4 == "A" && $1 == "www.example." {$5 = "192.0.2.99"} {print}' \
  "$tmp/late-good.zone"
first_dnssec=$(awk '$4 ~ /^(RRSIG|NSEC|DNSKEY)$/ {print NR; exit}' "$tmp/late-good.zone")
[ "${first_dnssec:-0}" -gt 300 ] && ok "reordered: the first DNSSEC record at line $first_dnssec" ||
  bad "reordered: the first DNSSEC record at line ${first_dnssec:-none}, not past 300"
mkfifo "$tmp/fifo"
for v in late-good late-bogus; do
  f=$tmp/$v.zone
  # the verdict is dnssec-verify's
  dnssec-verify -q -o example. "$f" > /dev/null 2>&1 && want=0 || want=1
  case $v:$want in
    late-good:0 | late-bogus:1) ok "$v: dnssec-verify exits $want" ;;
    *) bad "$v: dnssec-verify exits $want, not what the case is about" ;;
  esac
  "$ZONEPUNY" --check "$f" > /dev/null 2> "$tmp/err"
  rc=$?
  if [ $rc -eq $want ] && ! grep -q "dnssec-unverified" "$tmp/err" &&
     { [ $want -eq 0 ] || grep -q "error: RRSIG over www.example. A .*\[-Wrrsig-bogus\]" \
                            "$tmp/err"; }
  then ok "$v: a file is verified (exit $rc, as dnssec-verify)"
  else bad "$v, a file: exit $rc, dnssec-verify $want"; head -3 "$tmp/err"; fi
  piped "$v: a pipe is warned, not verified" "$f" "^-:$first_dnssec:1: warning: .*\[-Wdnssec-unverified\]"
  cat "$f" > "$tmp/fifo" &
  "$ZONEPUNY" --check -z example. "$tmp/fifo" > /dev/null 2> "$tmp/err"
  rc=$?
  wait
  [ $rc -eq 0 ] && grep -q "\[-Wdnssec-unverified\]" "$tmp/err" &&
    ok "$v: a FIFO is warned, not verified" || bad "$v, a FIFO: exit $rc"
  # a conversion writes what it wrote before the second reading: the zone as --dnssec=off
  # writes it, from a file and from a pipe; a bogus one from a file not at all
  "$ZONEPUNY" --dnssec=off "$f" > "$tmp/want.out" 2> /dev/null
  "$ZONEPUNY" "$f" > "$tmp/got.out" 2> /dev/null
  rc=$?
  if [ $want -eq 0 ]; then
    [ $rc -eq 0 ] && cmp -s "$tmp/got.out" "$tmp/want.out" && [ -s "$tmp/got.out" ] &&
      ok "$v: converted as before" || bad "$v: conversion exit $rc, or other output"
  else
    [ $rc -eq 1 ] && [ ! -s "$tmp/got.out" ] && ok "$v: nothing converted" ||
      bad "$v: conversion exit $rc, $(wc -c < "$tmp/got.out") octets written"
  fi
  cat "$f" | "$ZONEPUNY" > "$tmp/got.out" 2> /dev/null
  rc=$?
  [ $rc -eq 0 ] && cmp -s "$tmp/got.out" "$tmp/want.out" &&
    ok "$v: converted from a pipe as before" || bad "$v: conversion from a pipe: exit $rc"
  rm -f "$tmp/o.zone"
  "$ZONEPUNY" -o "$tmp/o.zone" "$f" 2> /dev/null
  rc=$?
  if [ $want -eq 0 ]; then
    [ $rc -eq 0 ] && cmp -s "$tmp/o.zone" "$tmp/want.out" && ok "$v: -o as before" ||
      bad "$v: -o: exit $rc"
  else
    [ $rc -eq 1 ] && [ ! -e "$tmp/o.zone" ] && ok "$v: -o writes nothing" || bad "$v: -o: exit $rc"
  fi
done
# nothing told twice: the second reading tells only what verification finds, so a late zone
# with faults of every kind (a syntax error, check-names told as records come, a TTL mismatch
# and an address as MX target told after the pass, a CDS of no DNSKEY's algorithm, an RRset
# added unsigned) is told exactly what --dnssec=on tells in one reading, and as often
{ cat "$tmp/late-bogus.zone"
  printf '%s\n' 'h2.example. 600 IN A 192.0.2.77' 'bad.example. IN A 999.1.1.1' \
    'under_score.example. IN A 192.0.2.1' 'mx.example. IN MX 10 192.0.2.1' \
    'example. IN CDS 1 8 2 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'
} > "$tmp/late-mixed.zone"
"$ZONEPUNY" --check --max-errors=0 "$tmp/late-mixed.zone" > /dev/null 2> "$tmp/auto.err"
rc_auto=$?
"$ZONEPUNY" --check --max-errors=0 --dnssec=on "$tmp/late-mixed.zone" > /dev/null 2> "$tmp/on.err"
rc_on=$?
grep -E ": (error|warning): " "$tmp/auto.err" | sort > "$tmp/auto.msgs"
grep -E ": (error|warning): " "$tmp/on.err" | sort > "$tmp/on.msgs"
kinds=0
for w in "invalid IPv4" Wcheck-names Wttl-mismatch Waddress-target Wcds Wrrsig-bogus \
         Wrrset-unsigned Wnsec-chain; do
  grep -q -- "$w" "$tmp/auto.msgs" && kinds=$((kinds + 1))
done
if [ $rc_auto -eq 1 ] && [ $rc_on -eq 1 ] && [ $kinds -eq 8 ] &&
   cmp -s "$tmp/auto.msgs" "$tmp/on.msgs" && [ -z "$(uniq -d "$tmp/auto.msgs")" ] &&
   [ "$(tail -1 "$tmp/auto.err")" = "$(tail -1 "$tmp/on.err")" ]
then ok "a late zone read twice: each message once, as --dnssec=on tells them"
else
  bad "a late zone read twice: exit $rc_auto ($rc_on with --dnssec=on), $kinds kinds of 8"
  diff "$tmp/auto.msgs" "$tmp/on.msgs" | head -6
fi
# with -Wno-dnssec-unverified a pipe says nothing, and the file is still verified
"$ZONEPUNY" --check -Wno-dnssec-unverified "$tmp/late-bogus.zone" > /dev/null 2>&1
[ $? -eq 1 ] && ok "-Wno-dnssec-unverified: a late file still verified" ||
  bad "-Wno-dnssec-unverified: a late file not verified"

# ---- warnings, options ----
sign "$tmp/iter.zone" ECDSAP256SHA256 -3 aabbccdd -H 5
"$ZONEPUNY" --check "$tmp/iter.zone" > /dev/null 2> "$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "warning: .*\[-Wnsec3-iterations\]" "$tmp/err"; then
  ok "NSEC3 with 5 iterations: warned (RFC 9276)"
else
  bad "NSEC3 with 5 iterations: exit $rc"; head -3 "$tmp/err"
fi
"$ZONEPUNY" --check --sig-min-validity 60d "$z" > /dev/null 2> "$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "warning: .*\[-Wrrsig-expiring\]" "$tmp/err"; then
  ok "30-day signatures under --sig-min-validity 60d: warned"
else
  bad "--sig-min-validity 60d: exit $rc"; head -3 "$tmp/err"
fi
"$ZONEPUNY" --check -Wno-rrsig-bogus "$tmp/changed.zone" > /dev/null 2> "$tmp/err" &&
  ! grep -q "rrsig-bogus" "$tmp/err" && ok "-Wno-rrsig-bogus: not told" ||
  bad "-Wno-rrsig-bogus: still told"
"$ZONEPUNY" --check -Wno-nsec-chain -Wno-rrset-unsigned "$tmp/nonsec3.zone" > /dev/null \
  2> "$tmp/err" && ! grep -q "nsec-chain" "$tmp/err" && ok "-Wno-nsec-chain: not told" ||
  bad "-Wno-nsec-chain: still told"
"$ZONEPUNY" --check --dnssec=off "$tmp/changed.zone" > /dev/null 2>&1 &&
  ok "--dnssec=off: not verified" || bad "--dnssec=off still verifies"
"$ZONEPUNY" --check --dnssec=on "$tmp/base.zone" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "\[-Wrrset-unsigned\]" "$tmp/err" &&
  ok "--dnssec=on, unsigned zone: an error" || bad "--dnssec=on takes an unsigned zone"
"$ZONEPUNY" --check "$tmp/base.zone" > /dev/null 2>&1 &&
  ok "--dnssec=auto, unsigned zone: nothing to verify" || bad "auto refuses an unsigned zone"
# a signed zone (changed after signing) whose first DNSSEC record comes after 300 unsigned
# records: under auto, verified from a file (read a second time), warned from a pipe
{ head -3 "$tmp/changed.zone"; for i in $(seq 300); do echo "h$i.example. 3600 IN A 192.0.2.5"; done
  tail -n +4 "$tmp/changed.zone"; } | grep -v "RRSIG\s*SOA" > "$tmp/late.zone"
"$ZONEPUNY" --check --max-errors=0 "$tmp/late.zone" > /dev/null 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "\[-Wrrsig-bogus\]" "$tmp/err" &&
   grep -q "h1.example. A has no RRSIG.*\[-Wrrset-unsigned\]" "$tmp/err" &&
   ! grep -q "dnssec-unverified" "$tmp/err"
then ok "auto: a late signed zone in a file is verified"
else bad "auto, late DNSSEC records in a file: exit $rc"; head -3 "$tmp/err"; fi
piped "auto: a late signed zone through a pipe is warned" "$tmp/late.zone" "warning: .*\[-Wdnssec-unverified\]"
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
