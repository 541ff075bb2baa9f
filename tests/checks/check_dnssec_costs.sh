#!/usr/bin/env bash
# check_dnssec_costs.sh -- what a hostile signed zone costs the DNSSEC verification grows in
# proportion to the zone, with a bound one can see and set, and what validators refuse is
# refused by name. Costs are instructions (valgrind's callgrind: the same for the same input on
# any machine, unlike a time), at n and at 4n: under 8-fold wanted, where linear is 4-fold and
# quadratic 16-fold; memory is the peak RSS against a generous bound.
#  - NSEC3 iterations above 150 (RFC 9276): an error, nothing hashed (65,535 iterations and a
#    255-octet salt cost what 0 iterations do);
#  - RSA keys of an exponent past 35 bits, of 0 or 1, even, of an even modulus, of a modulus
#    outside 512 (1024 for RSASHA512) to 4096 bits; a P-256 key off its curve; Ed25519 and
#    Ed448 keys of small order or not canonical: "not a public key", with why;
#  - KeyTrap (CVE-2023-50387): decoy ECDSA DNSKEYs of the signing key's tag and algorithm,
#    before it in canonical order: at most --max-key-tries of them tried per RRSIG, the
#    signature then an error; with the bound raised the zone verifies, as dnssec-verify -z says;
#  - the same decoys and many CDS records of their tag at the apex: each CDS digests at most
#    --max-key-tries of them, and one beyond the bound says so;
#  - ZONEMD (RFC 8976) in an unsigned zone: verified, a wrong one an error as ldns-verify-zone
#    says;
#  - one name of many TXT records and RRSIGs within --check-memory; one name of many types.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp
for tool in dnssec-keygen dnssec-signzone dnssec-verify; do
  command -v "$tool" > /dev/null || { skip "no $tool (make deps-test)"; finish; }
done
have_callgrind=1
command -v valgrind > /dev/null || { have_callgrind=0; skip "valgrind is not installed: no costs"; }
plain_binary || { have_callgrind=0; skip "zonepuny is no plain binary to count the instructions of"; }
zp=$ZONEPUNY

# grows WHAT A B: B (the cost at 4n) under 8 times A (at n)
grows() {
  if [ -n "$2" ] && [ -n "$3" ] && [ "$3" -lt $(($2 * 8)) ]; then
    ok
  else
    bad "$1: ${2:-?} instructions at n, ${3:-?} at 4n (under 8 times wanted): $(head -3 "$tmp/cg.err")"
  fi
  echo "$1: $2 instructions at n, $3 at 4n"
}

# says WHAT FILE PATTERN: FILE (zonepuny's messages) holds PATTERN
says() {
  grep -q -e "$3" "$2" && ok || bad "$1: no '$3' in: $(grep -v '^ ' "$2" | head -5)"
}

cat > "$tmp/base.zone" <<'Z'
$ORIGIN example.
$TTL 3600
@ IN SOA ns1 hostmaster 1 7200 3600 1209600 3600
@ IN NS ns1
ns1 IN A 192.0.2.1
www IN A 192.0.2.2
Z

# hosts N: N names with an address
hosts() { for i in $(seq 1 "$1"); do echo "h$i IN A 192.0.2.$((i % 250 + 1))"; done; }

# csk DIR ALG: a key of ALG that signs everything (flags 257), in DIR; its file name in key
csk() {
  mkdir -p "$1"
  key=$(cd "$1" && dnssec-keygen -q -P 19700101000000 -A 19700101000000 -a "$2" -f KSK example.)
}

# sign DIR IN OUT ARGS...: IN signed with the keys of DIR (-z: the KSK signs everything)
sign() {
  local dir=$1 in=$2 out=$3
  shift 3
  (cd "$dir" && dnssec-signzone -z -q -O full -o example. -f "$out" "$@" "$in") > /dev/null 2> "$tmp/sign.err"
}

# ---- NSEC3 iterations ----
csk "$tmp/k3" ED25519
salt=$(printf 'ab%.0s' $(seq 255))
# nsec3 N OUT ITERATIONS: N hosts signed with NSEC3, then given ITERATIONS and a 255-octet salt
nsec3() {
  { cat "$tmp/base.zone"; hosts "$1"; cat "$tmp/k3/$key.key"; } > "$tmp/n3.in"
  sign "$tmp/k3" "$tmp/n3.in" "$tmp/n3.signed" -3 - || { bad "dnssec-signzone -3: $(cat "$tmp/sign.err")"; return; }
  if [ "$3" = 0 ]; then cp "$tmp/n3.signed" "$2"; return; fi
  awk -v s="$salt" -v it="$3" '$4 == "NSEC3PARAM" || $4 == "NSEC3" { $7 = it; $8 = s } { print }' \
    "$tmp/n3.signed" > "$2"
}
nsec3 30 "$tmp/n3-clean.zone" 0
nsec3 30 "$tmp/n3-hostile.zone" 65535
"$zp" --check "$tmp/n3-clean.zone" > "$tmp/out" 2>&1 && ok || bad "NSEC3, 0 iterations: $(head -3 "$tmp/out")"
"$zp" --check "$tmp/n3-hostile.zone" > "$tmp/out" 2>&1
[ $? = 1 ] && ok || bad "NSEC3, 65535 iterations: not exit 1"
says "NSEC3, 65535 iterations" "$tmp/out" "error: NSEC3PARAM with 65535 additional iterations, more than 150: .*\[-Wnsec3-iterations\]"
nsec3 30 "$tmp/n3-151.zone" 151
"$zp" --check "$tmp/n3-151.zone" > "$tmp/out" 2>&1
says "NSEC3, 151 iterations" "$tmp/out" "NSEC3PARAM with 151 additional iterations, more than 150"
nsec3 30 "$tmp/n3-150.zone" 150
"$zp" --check "$tmp/n3-150.zone" > "$tmp/out" 2>&1
grep -q "more than 150" "$tmp/out" && bad "NSEC3, 150 iterations: refused as more than 150" || ok
if [ "$have_callgrind" = 1 ]; then
  a=$(instructions "$tmp/n3-clean.zone")
  b=$(instructions "$tmp/n3-hostile.zone")
  if [ -n "$a" ] && [ -n "$b" ] && [ "$b" -lt $((a * 2)) ]; then ok; else
    bad "NSEC3, 65535 iterations and a 255-octet salt: ${b:-?} instructions, 0 iterations ${a:-?} (under twice wanted)"
  fi
  echo "NSEC3 over 30 names: $a instructions at 0 iterations, $b at 65535 with a 255-octet salt"
  nsec3 120 "$tmp/n3-hostile4.zone" 65535
  grows "NSEC3 of 65535 iterations, 30 and 120 names" "$b" "$(instructions "$tmp/n3-hostile4.zone")"
fi

# ---- keys validators refuse ----
"$PYTHON" - > "$tmp/bad.keys" <<'PY'
import base64, random
random.seed(7)
def rsa(e, mod):
    eb = e.to_bytes((e.bit_length() + 7) // 8 or 1, 'big')
    return bytes([len(eb)]) + eb + mod
def modulus(bits, odd=True):
    m = random.getrandbits(bits) | 1 << (bits - 1)
    m = m | 1 if odd else m & ~1
    return m.to_bytes((bits + 7) // 8, 'big')
keys = [
    (8, rsa((1 << 40) + 1, modulus(1024)), "its RSA exponent has 41 bits, more than the 35"),
    (8, rsa(1, modulus(1024)), "its RSA exponent is 0 or 1"),
    (8, rsa(65536, modulus(1024)), "its RSA exponent is even"),
    (8, rsa(65537, modulus(1024, odd=False)), "its RSA modulus is even"),
    (8, rsa(65537, modulus(4104)), "its RSA modulus has 4104 bits, not 512 to 4096"),
    (8, rsa(65537, modulus(504)), "its RSA modulus has 504 bits, not 512 to 4096"),
    (10, rsa(65537, modulus(768)), "its RSA modulus has 768 bits, not 1024 to 4096"),
    (13, bytes(31) + b'\x01' + bytes(31) + b'\x01', r"its (x, y) is not a point of P-256"),
    (13, bytes(40), "its key is 40 octets, not the 64"),
    (15, b'\x01' + bytes(31), "it is a point of small order of Ed25519"),
    (15, bytes.fromhex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa'),
     "it is a point of small order of Ed25519"),
    (15, bytes.fromhex('ed' + 'ff' * 30 + '7f'), "its y is not below the prime of Ed25519"),
    (15, bytes.fromhex('02' + '00' * 31), "it is not a point of Ed25519"),
    (16, b'\x01' + bytes(56), "it is a point of small order of Ed448"),
    (16, bytes(56) + b'\x01', "its last octet is not 0 or 0x80"),
]
for alg, k, why in keys:
    print('%d|%s|%s' % (alg, base64.b64encode(k).decode(), why))
PY
csk "$tmp/k2" ECDSAP256SHA256
{ cat "$tmp/base.zone"; cat "$tmp/k2/$key.key"; } > "$tmp/k2.in"
sign "$tmp/k2" "$tmp/k2.in" "$tmp/k2.signed" || bad "dnssec-signzone: $(cat "$tmp/sign.err")"
"$zp" --check "$tmp/k2.signed" > "$tmp/out" 2>&1 && ok || bad "the zone with a good key: $(head -3 "$tmp/out")"
while IFS='|' read -r alg k why; do
  # (added after signing: the DNSKEY RRset's signature breaks too, and the key is told apart)
  awk -v k="$k" -v a="$alg" '{ print } $4 == "SOA" && !done { print "example. 3600 IN DNSKEY 256 3 " a " " k; done = 1 }' \
    "$tmp/k2.signed" > "$tmp/k2.bad"
  "$zp" --check "$tmp/k2.bad" > "$tmp/out" 2>&1
  says "a DNSKEY of algorithm $alg, $why" "$tmp/out" "error: DNSKEY [0-9]*: not a public key of algorithm $alg: $why"
done < "$tmp/bad.keys"
# good RSA keys (RSASHA512 of 1024 bits, the least; an exponent of 33 bits): no message
for a in "RSASHA512 -b 1024" "RSASHA1 -b 1024 -e"; do
  mkdir -p "$tmp/k2r"
  rm -f "$tmp/k2r"/K*
  key=$(cd "$tmp/k2r" && dnssec-keygen -q -P 19700101000000 -A 19700101000000 -f KSK -a $a example. 2>/dev/null) || { skip "dnssec-keygen -a $a"; continue; }
  { cat "$tmp/base.zone"; cat "$tmp/k2r/$key.key"; } > "$tmp/k2r.in"
  sign "$tmp/k2r" "$tmp/k2r.in" "$tmp/k2r.signed" || { bad "dnssec-signzone, $a: $(cat "$tmp/sign.err")"; continue; }
  "$zp" --check "$tmp/k2r.signed" > "$tmp/out" 2>&1 && ok || bad "a zone signed with $a: $(head -3 "$tmp/out")"
done

# ---- KeyTrap ----
csk "$tmp/k1" ECDSAP256SHA256
# decoys N: N valid P-256 DNSKEYs of the key's tag and algorithm whose flags (0x0100 and
# unassigned bits) put them before it in canonical order; the key is given flags 0x2101 (an
# unassigned bit more, which validators ignore, RFC 4034 section 2.1.1) and its files renamed
# after its new tag
"$PYTHON" - "$tmp/k1/$key.key" 50 > "$tmp/decoys" 2> "$tmp/newtag" <<'PY'
import base64, random, sys
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization
def tag(rdata):
    ac = sum(b if i & 1 else b << 8 for i, b in enumerate(rdata))
    return (ac + (ac >> 16 & 0xffff)) & 0xffff
path, n = sys.argv[1], int(sys.argv[2])
lines = open(path).read().splitlines()
i = [k for k, l in enumerate(lines) if ' DNSKEY ' in l and not l.startswith(';')][0]
f = lines[i].split()
at = f.index('DNSKEY')
key = base64.b64decode(''.join(f[at + 4:]))
f[at + 1] = str(0x2101)
lines[i] = ' '.join(f)
open(path, 'w').write('\n'.join(lines) + '\n')
want = tag(bytes([0x21, 0x01, 3, 13]) + key)
print(want, file=sys.stderr)
out = 0
while out < n:
    pub = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)[1:]
    rest = tag(bytes([0, 0, 3, 13]) + pub)
    for c in ((want - rest) % 65536, (want - rest - 1) % 65536, (want - rest + 1) % 65536):
        # a zone key, nor REVOKE, SEP, BIND's extended flags (0x1000) or 0x2000 and up
        if c & 0xf181 == 0x0100 and tag(bytes([c >> 8, c & 255, 3, 13]) + pub) == want:
            print('@ 3600 IN DNSKEY %d 3 13 %s' % (c, base64.b64encode(pub).decode()))
            out += 1
            break
PY
newkey=$(printf 'Kexample.+013+%05d' "$(cat "$tmp/newtag")")
mv "$tmp/k1/$key.key" "$tmp/k1/$newkey.key"
mv "$tmp/k1/$key.private" "$tmp/k1/$newkey.private"
# keytrap N OUT: N hosts and N decoys, signed
keytrap() {
  { cat "$tmp/base.zone"; hosts "$1"; cat "$tmp/k1/$newkey.key"; head -"$1" "$tmp/decoys"; } > "$tmp/kt.in"
  sign "$tmp/k1" "$tmp/kt.in" "$2" || bad "dnssec-signzone, $1 decoys: $(grep -v 'file not found' "$tmp/sign.err" | head -3)"
}
keytrap 25 "$tmp/kt25.zone"
keytrap 12 "$tmp/kt12.zone"
keytrap 48 "$tmp/kt48.zone"
dnssec-verify -z -q -o example. "$tmp/kt25.zone" > "$tmp/out" 2>&1 && ok || bad "dnssec-verify -z refuses the KeyTrap zone: $(head -3 "$tmp/out")"
"$zp" --check "$tmp/kt25.zone" > "$tmp/out" 2>&1
[ $? = 1 ] && ok || bad "KeyTrap, 25 decoys: not exit 1"
says "KeyTrap, 25 decoys" "$tmp/out" "error: RRSIG over example. SOA by key $(cat "$tmp/newtag") (algorithm 13): not verified by the first 8 of the 26 apex DNSKEYs of that tag and algorithm, as many as --max-key-tries"
"$zp" --check --max-key-tries 26 "$tmp/kt25.zone" > "$tmp/out" 2>&1 && ok || bad "KeyTrap, --max-key-tries 26: $(head -3 "$tmp/out")"
"$zp" --check --max-key-tries 0 "$tmp/kt25.zone" > "$tmp/out" 2>&1 && ok || bad "KeyTrap, --max-key-tries 0: $(head -3 "$tmp/out")"
"$zp" --check --max-key-tries 25 "$tmp/kt25.zone" > "$tmp/out" 2>&1
says "KeyTrap, --max-key-tries 25" "$tmp/out" "not verified by the first 25 of the 26"
"$zp" --check --max-key-tries x "$tmp/kt25.zone" > "$tmp/out" 2>&1
[ $? = 2 ] && ok || bad "--max-key-tries x: not a usage error"
"$zp" --help | grep -q -e "--max-key-tries N" && ok || bad "--help does not name --max-key-tries"
if [ "$have_callgrind" = 1 ]; then
  grows "KeyTrap, 12 and 48 names and decoys" "$(instructions "$tmp/kt12.zone")" "$(instructions "$tmp/kt48.zone")"
fi

# ---- CDS against the same decoys ----
# (the CDS of the real key, from dnssec-dsfromkey: the key sorts after the 25 decoys of its tag)
cds=$(dnssec-dsfromkey -2 "$tmp/k1/$newkey.key" | awk '{ print $4, $5, $6, $7 }')
{ cat "$tmp/kt25.zone"; echo "example. 3600 IN CDS $cds"; } > "$tmp/cds25.zone"
"$zp" --check --max-errors 0 -W no-rrset-unsigned -W no-nsec-bitmap "$tmp/cds25.zone" > "$tmp/out" 2>&1
says "CDS past 25 decoys" "$tmp/out" "CDS (key tag $(cat "$tmp/newtag"), algorithm 13): none of the first 8 apex DNSKEYs of its key tag and algorithm is the key it names, and 18 more share them, left untried (--max-key-tries 8) \\[-Wcds\\]"
"$zp" --check -W no-rrset-unsigned -W no-nsec-bitmap --max-key-tries 26 "$tmp/cds25.zone" > "$tmp/out" 2>&1 && ok ||
  bad "CDS past 25 decoys, --max-key-tries 26: $(grep -v '^ ' "$tmp/out" | head -3)"
if [ "$have_callgrind" = 1 ]; then
  # cdsmany N OUT: the zone of N decoys, and 40 N CDS records of their tag that name no key
  cdsmany() {
    { cat "$tmp/kt$1.zone"
      for i in $(seq 1 $((40 * $1))); do
        echo "example. 3600 IN CDS $(cat "$tmp/newtag") 13 2 $(printf '%064x' "$i")"
      done; } > "$2"
  }
  cdsmany 12 "$tmp/cds-a.zone"
  cdsmany 48 "$tmp/cds-b.zone"
  grows "CDS, 12 decoys and 480 CDS, 48 and 1,920" "$(instructions -q --max-errors 0 "$tmp/cds-a.zone")" \
    "$(instructions -q --max-errors 0 "$tmp/cds-b.zone")"
fi

# ---- ZONEMD in an unsigned zone ----
"$PYTHON" - "$tmp/base.zone" "$tmp/zmd.zone" <<'PY'
import sys, dns.zone, dns.zonetypes, dns.rdataset
src = open(sys.argv[1]).read() + ''.join('h%d IN A 192.0.2.%d\n' % (i, i + 1) for i in range(10))
z = dns.zone.from_text(src, 'example.', relativize=False)
md = z.compute_digest(dns.zonetypes.DigestHashAlgorithm.SHA384)
z.replace_rdataset('example.', dns.rdataset.from_rdata(3600, md))
z.to_file(sys.argv[2], relativize=False, want_origin=True)
PY
sed 's/\(ZONEMD 1 1 1 \)[0-9a-f]/\1f/' "$tmp/zmd.zone" > "$tmp/zmd-bad.zone"
cmp -s "$tmp/zmd.zone" "$tmp/zmd-bad.zone" && bad "the ZONEMD edit changed nothing"
"$zp" --check "$tmp/zmd.zone" > "$tmp/out" 2>&1 && ok || bad "unsigned zone, right ZONEMD: $(head -3 "$tmp/out")"
"$zp" --check "$tmp/zmd-bad.zone" > "$tmp/out" 2>&1
[ $? = 1 ] && ok || bad "unsigned zone, wrong ZONEMD: not exit 1"
says "unsigned zone, wrong ZONEMD" "$tmp/out" "error: ZONEMD: the digest of the zone (RFC 8976, SOA serial 1) is not the one the record holds \[-Wzonemd\]"
if command -v ldns-verify-zone > /dev/null; then
  # (it refuses any zone without DNSKEY; its digest verdict is the line that counts)
  ldns-verify-zone "$tmp/zmd-bad.zone" 2>&1 | grep -q "zone digest" && ok || bad "ldns-verify-zone takes the wrong ZONEMD"
  ldns-verify-zone "$tmp/zmd.zone" 2>&1 | grep -q "zone digest" && bad "ldns-verify-zone refuses the right ZONEMD" || ok
fi
"$zp" --check --dnssec=off "$tmp/zmd-bad.zone" > "$tmp/out" 2>&1 && ok || bad "--dnssec=off verifies ZONEMD"

# ---- one name of many records, of many types ----
csk "$tmp/k5" ED25519
{ cat "$tmp/base.zone"; cat "$tmp/k5/$key.key"; } > "$tmp/k5.in"
sign "$tmp/k5" "$tmp/k5.in" "$tmp/k5.signed" || bad "dnssec-signzone: $(cat "$tmp/sign.err")"
tag=$((10#${key##*+}))
# big N OUT [M]: N TXT records at one name and M (150) RRSIGs over them by the apex key
big() {
  { cat "$tmp/k5.signed"
    for i in $(seq 1 "$1"); do echo "big.example. 3600 IN TXT \"record $i of the name\""; done
    for i in $(seq 1 "${3:-150}"); do
      echo "big.example. 3600 IN RRSIG TXT 15 2 3600 20300101000000 20200101000000 $tag example. $(printf '%064d' "$i" | base64 -w0)"
    done; } > "$2"
}
big 40000 "$tmp/big40k.zone"
/usr/bin/time -f %M -o "$tmp/rss" "$zp" --check --max-errors 0 --check-memory 64K "$tmp/big40k.zone" > "$tmp/out" 2>&1
[ $? = 2 ] && ok || bad "40,000 TXT at one name, --check-memory 64K: not exit 2"
says "40,000 TXT at one name, --check-memory 64K" "$tmp/out" "zonepuny: error: .*big40k.zone: the records at big.example. need more than 262144 bytes, the share of --check-memory"
within "40,000 TXT at one name, --check-memory 64K" "$(tail -1 "$tmp/rss")" $((32 * 1024))
/usr/bin/time -f %M -o "$tmp/rss" "$zp" --check --max-errors 0 --check-memory 64M "$tmp/big40k.zone" > "$tmp/out" 2>&1
[ $? = 1 ] && ok || bad "40,000 TXT at one name, --check-memory 64M: not exit 1: $(grep -v '^ ' "$tmp/out" | tail -2)"
says "40,000 TXT at one name, --check-memory 64M" "$tmp/out" "RRSIG over big.example. TXT by key $tag (algorithm 15) does not verify"
says "40,000 TXT and 150 RRSIGs at one name" "$tmp/out" "error: big.example. TXT: none of the first 8 of its RRSIGs by apex keys verifies with algorithm 15, and 142 more are left unverified: as many as --max-key-tries lets one RRset try"
[ "$(grep -c 'RRSIG over big.example. TXT' "$tmp/out")" = 8 ] && ok ||
  bad "40,000 TXT and 150 RRSIGs at one name: $(grep -c 'RRSIG over big.example. TXT' "$tmp/out") RRSIGs told, not the 8 verified"
within "40,000 TXT at one name and 150 RRSIGs, --check-memory 64M" "$(tail -1 "$tmp/rss")" $((64 * 1024 + 16 * 1024))
echo "40,000 TXT and 150 RRSIGs at one name, --check-memory 64M: $(tail -1 "$tmp/rss") KiB"
if [ "$have_callgrind" = 1 ]; then
  # (each RRSIG verified costs the RRset's size: at most --max-key-tries of them are)
  big 2500 "$tmp/big-a.zone" 150
  big 10000 "$tmp/big-b.zone" 600
  grows "2,500 TXT at one name and 150 RRSIGs, 10,000 and 600" \
    "$(instructions --max-errors 0 --check-memory 64M "$tmp/big-a.zone")" \
    "$(instructions --max-errors 0 --check-memory 64M "$tmp/big-b.zone")"
  # the walk's own cost: --dnssec=on less --dnssec=off (named's loader model is another's)
  types() {
    { cat "$tmp/k5.signed"
      for i in $(seq 1000 $((999 + $1))); do echo "many.example. 3600 IN TYPE$i \\# 1 00"; done; } > "$2"
  }
  walk() {
    local on off
    on=$(instructions -q --max-errors 0 --max-types-per-name 0 --check-memory 64M -W no-rrset-unsigned \
         -W no-nsec-chain -W no-nsec-bitmap --dnssec=on "$1")
    off=$(instructions -q --max-errors 0 --max-types-per-name 0 --check-memory 64M -W no-rrset-unsigned \
          -W no-nsec-chain -W no-nsec-bitmap --dnssec=off "$1")
    [ -n "$on" ] && [ -n "$off" ] && echo $((on - off))
  }
  types 2500 "$tmp/types-a.zone"
  types 10000 "$tmp/types-b.zone"
  grows "the walk over one name of 2,500 and 10,000 types" "$(walk "$tmp/types-a.zone")" "$(walk "$tmp/types-b.zone")"
fi
finish
