"""check_rdata_peers.py -- RDATA read as BIND and dnspython read it.

Random and mutated RDATA texts for every type zonepuny reads strictly (fields drawn from valid and
invalid forms of each field's kind: numbers out of range, odd hex, bad base64 and base32hex,
unknown mnemonics, impossible dates, quoted names ...) go through three readers:
  - BIND: named-compilezone over one zone of all the records; the lines it refuses come from its
    messages, and the records it takes from its output, read back by dnspython into wire form
    (for what dnspython cannot read, BIND's own octets: its raw zone format);
  - dnspython: dns.rdata.from_text, to_wire;
  - zonepuny: --check --fragment for the lines it refuses (no whole-zone checks, as BIND's -k
    ignore), and, for the octets, its output of a copy of the zone with those lines commented
    out, every type written in RFC 3597 form (--generic).
Where BIND and dnspython agree (both refuse, or both take with the same octets), zonepuny must
agree with them. Where they disagree, zonepuny must side with one of them, and never take what
BIND refuses: its exit 0 means BIND loads the zone. For BIND 9.18's types that dnspython does
not read (A6, SINK, RKEY, DSYNC, HHIT, BRID, DOA, RESINFO, WALLET, TA), BIND alone is the oracle
and zonepuny must agree with it. zonepuny may refuse what BIND takes only for a reason of
STRICTER (its message says which), and the records of DELIBERATE, which BIND must still take.
Counts are printed.
"""
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import Tally  # noqa: E402
from peers import (FIRST, ZONEPUNY, bind, bind_octets, have, run, wire_of,  # noqa: E402
                   write_zone, zonepuny)

import dns.name  # noqa: E402
import dns.rdata  # noqa: E402
import dns.rdataclass  # noqa: E402
import dns.rdatatype  # noqa: E402

ORIGIN = dns.name.from_text("example.")

# Each field kind: valid forms first, then forms a strict reader refuses.
KIND = {
    "name": ["a.example.", "b", "@", "xn--bcher-kva.example.", "*.w", "_sip._tcp"],
    "name!": ["\"q\"", "a..b", "-"],
    "u8": ["0", "1", "255", "13"],
    "u8!": ["256", "-1", "+1", "0x1", "1.0"],
    "u16": ["0", "10", "65535"],
    "u16!": ["65536", "-1", "1e3"],
    "u32": ["0", "2024010101", "4294967295"],
    "u32!": ["4294967296", "-5"],
    "period": ["3600", "1h", "1w2d", "0"],
    "period!": ["1x", "h", "4294967296"],
    "a": ["192.0.2.1", "0.0.0.0"],
    "a!": ["192.0.2", "192.0.2.256", "01.2.3.4"],
    "aaaa": ["2001:db8::1", "::", "::ffff:192.0.2.1"],
    "aaaa!": ["2001:db8:::1", "g::1"],
    "str": ["x", "\"a b\"", "\"\"", "\\065"],
    "str!": ["\"" + "x" * 256 + "\""],
    "hex": ["aabb", "AABB", "00", "aa bb", "2bb183af5f22588179a53b0a98631fad1a292118"],
    "hex!": ["abc", "zz", "a b c"],
    "b64": ["AwEAAQ==", "AQID", "AA==", "AwEA AQ=="],
    "b64!": ["AwE", "A===", "AB==", "AwEAAQ", "****"],
    "alg": ["8", "RSASHA256", "ECDSAP256SHA256", "ED25519", "253"],
    "alg!": ["256", "RSA", "FOO"],
    "type": ["A", "NS", "TYPE1234", "RRSIG"],
    "type!": ["FOO", "TYPE65536"],
    "time": ["20240229000000", "20030322173103", "0", "4294967295", "21060207062815"],
    "time!": ["20230229000000", "20240101240000", "19691231235959", "4294967296", "2024010100000x"],
    "bitmap": ["A", "A MX RRSIG NSEC", "TYPE1234", "NS SOA"],
    "bitmap!": ["FOO", "A TYPE65536"],
    "salt": ["-", "aabbccdd", "00"],
    "salt!": ["abc", "xyz"],
    "hash": ["2t7b4g4vsa5smi47k61mv5bv1a22bojr", "2t7b4g4v"],
    "hash!": ["2t7", "2t7b4g4w", "2T7B4G4V="],
    "tag": ["issue", "iodef", "tbs"],
    "tag!": ["is-sue", "\"\""],
    "value": ["\"ca.example.net\"", "\"\"", "ca.example.net"],
    "target": ["\"ftp://ftp1.example.com/public\"", "\"https://x/\""],
    "target!": ["ftp://x", "\"\""],
    "eui48": ["00-00-5e-00-53-2a"],
    "eui48!": ["00-00-5e-00-53", "00:00:5e:00:53:2a"],
    "eui64": ["00-00-5e-ef-10-00-00-2a"],
    "eui64!": ["00-00-5e-ef-10-00-00"],
    "ilnp": ["0014:4fff:ff20:ee64", "2001:0DB8:1140:1000"],
    "ilnp!": ["0014:4fff:ff20", "00014:4fff:ff20:ee64"],
    "apl": ["1:192.0.2.0/24", "!1:192.0.2.255/24", "2:2001:db8::/32", "1:0.0.0.0/0",
            "2:::/0"],
    "apl!": ["1:192.0.2.1/33", "3:192.0.2.0/24", "1:2001:db8::/32", "1:192.0.2.0"],
    "certtype": ["PKIX", "PGP", "URI", "1", "65535"],
    "certtype!": ["FOO", "65536"],
    "lat": ["52 22 23.5 N", "52 N", "0 S", "90 S", "52 22 N"],
    "lat!": ["91 N", "52 60 N", "52 22 60 N", "52 22 23 X"],
    "lon": ["4 53 32 E", "4 E", "180 W", "0 0 0.001 E"],
    "lon!": ["181 E", "4 53 32.0001 E"],
    "alt": ["10", "-2.00m", "0m", "42849672.95m", "-100000"],
    "alt!": ["42849673", "-100000.01", "10mm"],
    "size": ["1.5m", "0", "10000m", "90000000", "1", "90000000.01", "99999999.99"],
    "size!": ["100000000", "-1"],
    "gateway": ["0 2 .", "1 2 192.0.2.38", "2 1 2001:db8::1", "3 2 gw.example.", "3 2 GW"],
    # SVCB and HTTPS parameters (RFC 9460 section 2.1 and 7; appendix D among them); a record
    # draws several, so duplicate keys, mandatory keys missing and AliasMode come up too
    "svc": ["alpn=h2", "alpn=h2,h3", "alpn=\"h2,h3\"", "alpn=\"f\\\\\\\\oo\\\\,bar,h2\"",
            "alpn=f\\\\\\092oo\\092,bar,h2", "alpn=\"a b\"", "port=443", "port=\"53\"",
            "port=0053", "ipv4hint=192.0.2.1", "ipv4hint=192.0.2.1,192.0.2.2",
            "ipv6hint=2001:db8::1", "ipv6hint=\"2001:db8::198.51.100.100\"", "ech=AAAA",
            "ech=\"AA==\"", "key667=hello", "key667=\"hello\\210qoo\"", "key65535=x", "key1000",
            "key1000=\"\"", "no-default-alpn", "no-default-alpn=\"\"", "mandatory=alpn",
            "mandatory=port,alpn", "mandatory=key4", "key3=53", "key7=\"/q{?dns}\"",
            "key1=\"\\002h2\"",
            # the keys registered since, as keyNNNNN: BIND 9.18 and dnspython 2.3 know no name
            # of them (tests/output/check_svcb_keys.py holds the names to the peers that do)
            "key9=\"\\000\\029\\000\\023\"", "key10", "key10=\"\\003dns\\001q\"", "key11",
            "mandatory=key10"],
    "svc!": ["alpn", "port=65536", "port=+5", "ipv4hint=1.2.3", "ALPN=h2", "key0123=x",
             "\"port=53\"", "alpn=h2,", "ech=AB==", "ech=AAA", "mandatory=mandatory", "foo=bar",
             "ipv6hint=::1,,::2", "key1=\"\"", "key7=foo", "no-default-alpn=x", "port= 53",
             "mandatory=key01", "key70000=x", "alpn=h2,,h3", "key9=\"\\000\"",
             "key9=\"\\000\\001\\000\\001\"", "key10=\"\\000\"", "key10=dns", "key11=x"],
    # the old and rare types, each whole
    "wks": ["192.0.2.1 6 25", "192.0.2.1 tcp 25 80", "192.0.2.1 17 53 65535", "192.0.2.1 UDP",
            "192.0.2.1 6"],
    "wks!": ["192.0.2.1 icmp 1", "192.0.2.1 6 65536", "192.0.2 6 25", "192.0.2.1 256 1"],
    "nsap": ["0x47.0005.80.005a00.0000.0001.e133.ffffff000162.00", "0x4700", "0X47"],
    "nsap!": ["47000580", "0x470", "0xzz", "0x"],
    "gpos": ["-32.6882 116.8652 10.0", "0 0 0", "\"1.5\" \"2\" \"3\"", "+1 -2 .5"],
    "gpos!": ["91 0 0", "foo 0 0", "0 181 0", "1 2"],
    "hip": ["2 200100107B1A74DF365639CC39F1D578 AwEAAQ==",
            "2 200100107B1A74DF365639CC39F1D578 AwEAAQ== rvs.example.", "1 00 AA== a. b"],
    "hip!": ["2 abc AwEAAQ==", "256 00 AA==", "2 00 AwE", "2 00"],
    "amtrelay": ["10 0 0 .", "10 1 1 203.0.113.15", "128 1 3 amtrelays.example.com.",
                 "0 0 2 2001:db8::15", "10 0 3 relay"],
    "amtrelay!": ["10 2 0 .", "10 0 4 .", "10 0 1 2001:db8::1", "10 0 0 a.", "256 0 0 ."],
    "atma": ["+16505551234", "39246f00e7c9", "39.246f.00e7c9"],
    "atma!": ["+1650-555", "+", "xyz", "123"],
    "gateway!": ["4 0 .", "0 0 a.", "1 2 2001:db8::1", "2 1 192.0.2.1"],
    # NXT's types (RFC 2535 section 5.2): 1 to 127, by name, TYPEnnn or number (as BIND)
    "nxt": ["A", "MX", "SIG", "NXT", "TYPE127", "a", "ns", "1", "127", "NINFO", "TYPE99"],
    "nxt!": ["TYPE128", "TYPE0", "FOO", "0", "128", "\"A\"", "CAA"],
    # BIND 9.18's types that ldns 1.8 does not know. A6 (RFC 2874 section 3.1.3): the prefix
    # length, the address but at 128 (its prefix bits ignored), the prefix name but at 0; RFC
    # 2874's own examples among them
    "a6": ["0 2001:db8::1", "64 ::1 pref.example.", "128 pref", "127 ::ffff a.",
           "1 ffff::1 a.", "9 ff81::1 b", "48 0::0 subscriber-x.ip6.a.net.", "64 ::1.2.3.4 @",
           "64 ::1:11:111:1111 subnet-1.ip6.x", "0 2345:00c1:ca11:1:1:11:111:1111", "0 ::",
           "120 ::ffff .", "8 ff01::1 a"],
    "a6!": ["129 ::1 a.", "0 ::1 a.", "128 :: a.", "64 ::1", "64 1.2.3.4 a.", "+64 ::1 a.",
            "64 \"::1\" a.", "128", "-1 ::1 a.", "64 ::1 a..b"],
    # an RKEY has no flags defined (draft-reid-dnsext-rkey section 2.1): BIND takes 0 only
    "rkeyflags": ["0", "00"],
    "rkeyflags!": ["1", "256", "65536"],
    # DSYNC (draft-ietf-dnsop-generalized-notify): a type by name, TYPEnnn or number (BIND
    # writes a name or TYPEnnn, the meta types by name too); the scheme NOTIFY or a number
    "dsynctype": ["CDS", "CSYNC", "cds", "TYPE59", "59", "0", "65535", "ANY", "TYPE0", "059",
                  "OPT", "TYPE65534"],
    "dsynctype!": ["FOO", "65536", "\"CDS\"", "1x", "TYPE65536"],
    "scheme": ["NOTIFY", "notify", "1", "0", "255", "01"],
    "scheme!": ["SCHEME1", "256", "+1", "0x1", "\"NOTIFY\""],
    # DOA's data (draft-durand-doa-over-dns): base64 in pieces, or "-" for none
    "doadata": ["-", "R0lGODlh", "R0lG ODlh", "AA=="],
    "doadata!": ["\"-\"", "AB==", "AwE", "- AA==", "R0lGODlh -"],
}

# The fields of each type, from its RFC; "?" marks an optional last field, "+" one or more. (SOA
# belongs at the apex only, and dnspython has no MB, MG or MR: test_rdata.c covers those.)
TYPES = {
    "A": ["a"], "NS": ["name"], "CNAME": ["name"], "PTR": ["name"], "DNAME": ["name"],
    "HINFO": ["str", "str"], "MINFO": ["name", "name"], "MX": ["u16", "name"],
    "TXT": ["str+"], "SPF": ["str+"], "RP": ["name", "name"], "AFSDB": ["u16", "name"],
    "X25": ["str"], "ISDN": ["str", "str?"], "RT": ["u16", "name"], "PX": ["u16", "name", "name"],
    "AAAA": ["aaaa"], "SRV": ["u16", "u16", "u16", "name"],
    "NAPTR": ["u16", "u16", "str", "str", "str", "name"], "KX": ["u16", "name"],
    "DS": ["u16", "alg", "u8", "hex"], "CDS": ["u16", "alg", "u8", "hex"],
    "SSHFP": ["u8", "u8", "hex"],
    "RRSIG": ["type", "alg", "u8", "u32", "time", "time", "u16", "name", "b64"],
    "NSEC": ["name", "bitmap"], "DNSKEY": ["u16", "u8", "alg", "b64"],
    "CDNSKEY": ["u16", "u8", "alg", "b64"], "DHCID": ["b64"],
    "NSEC3": ["u8", "u8", "u16", "salt", "hash", "bitmap?"],
    "NSEC3PARAM": ["u8", "u8", "u16", "salt"], "TLSA": ["u8", "u8", "u8", "hex"],
    "SMIMEA": ["u8", "u8", "u8", "hex"], "OPENPGPKEY": ["b64"],
    "CSYNC": ["u32", "u16", "bitmap?"], "ZONEMD": ["u32", "u8", "u8", "hex"],
    "NID": ["u16", "ilnp"], "L64": ["u16", "ilnp"], "L32": ["u16", "a"], "LP": ["u16", "name"],
    "EUI48": ["eui48"], "EUI64": ["eui64"], "URI": ["u16", "u16", "target"],
    "CAA": ["u8", "tag", "value"], "APL": ["apl?", "apl?", "apl?"],
    "CERT": ["certtype", "u16", "alg", "b64"],
    "LOC": ["lat", "lon", "alt", "size?", "size?", "size?"],
    "IPSECKEY": ["u8", "gateway", "b64"],
    "SVCB": ["u16", "name", "svc?", "svc?", "svc?", "svc?"],
    "WKS": ["wks"], "NSAP": ["nsap"], "GPOS": ["gpos"], "HIP": ["hip"], "AMTRELAY": ["amtrelay"],
    "ATMA": ["atma"], "EID": ["hex"], "NIMLOC": ["hex"],
    "KEY": ["u16", "u8", "alg", "b64?"],
    "SIG": ["type", "alg", "u8", "u32", "time", "time", "u16", "name", "b64"],
    "HTTPS": ["u16", "name", "svc?", "svc?", "svc?"],
    "NXT": ["name", "nxt?", "nxt?", "nxt?"],
    "A6": ["a6"], "SINK": ["u8", "u8", "u8", "b64?"], "NINFO": ["str+"],
    "RKEY": ["rkeyflags", "u8", "alg", "b64"], "DSYNC": ["dsynctype", "scheme", "u16", "name"],
    "HHIT": ["b64"], "BRID": ["b64"], "AVC": ["str+"],
    "DOA": ["u32", "u32", "u8", "str", "doadata"], "RESINFO": ["str+"], "WALLET": ["str+"],
    "TA": ["u16", "alg", "u8", "hex"],
}


# Records written out whole, after the random ones: forms a generator would rarely draw.
FIXED = [
    # "\\#" in TXT is RFC 3597 RDATA only before a length; else the text "#" (BIND; dnspython
    # refuses these, so zonepuny must side with BIND)
    ("TXT", "\\#"), ("TXT", "\\# abc"), ("TXT", "\\# -1"), ("TXT", "\\# \"2\" 0141"),
    ("TXT", "\\# 4294967296 x"), ("TXT", "\\# 02 0141"), ("TXT", "\\# 4294967295"),
    ("TXT", "a \\#"), ("SPF", "\\# abc"), ("HINFO", "\\# x y"),
    # GPOS values may be empty, as BIND reads them (dnspython refuses them)
    ("GPOS", "\"\" \"\" \"\""), ("GPOS", "\"\" 1 2"), ("GPOS", "1 \"\" 2"), ("GPOS", "1 2 \"\""),
    # NXT: no types at all, a type past 127
    ("NXT", "b."), ("NXT", "b. A TYPE128"), ("NXT", "b. A A"),
    # as BIND writes them: A6 of 128 with its blank address, SINK without data, DOA without
    # data, DSYNC with a meta type and another scheme
    ("A6", "128  pref."), ("SINK", "1 2 3"), ("DOA", "0 1 2 \"\" -"), ("DSYNC", "ANY 2 0 ."),
    ("DOA", "4294967295 4294967295 255 \"image/gif\" R0lGODlh"), ("DSYNC", "TYPE0 0 1 a."),
    ("A6", "64 ::1 a_b.example."), ("DSYNC", "CDS NOTIFY 1 *.example."),
]

# What BIND takes and zonepuny refuses on purpose (doc/output.md), by zonepuny's message: a
# PRIVATEDNS key (DNSKEY, CDNSKEY, RKEY) that does not begin with a name, which BIND refuses in
# RFC 3597 form, the form RKEY is written in.
STRICTER = {"(PRIVATEDNS) without": "a PRIVATEDNS key without its name",
            # the values of the SVCB keys registered after RFC 9540 that their documents forbid,
            # octets to BIND 9.18 and dnspython 2.3, which know no such key
            "tls-supported-groups lists": "a tls-supported-groups value of no group, half of "
                                          "one or one twice",
            "docpath holds": "a docpath segment empty or cut short",
            "pvd has no value": "a pvd value"}
# The same, each a record BIND must still take: a type number with a sign in DSYNC (BIND's
# strtol; BIND writes none), KEYDATA (BIND's private type 65533, which it writes TYPE65533), RKEY
# flags in hex and a digest type by name, as for DNSKEY and DS; a GOST digest of another length
# than 32 octets, as for DS.
DELIBERATE = [
    ("DSYNC", "+59 NOTIFY 1 a."), ("DSYNC", "-0 NOTIFY 1 a."), ("DSYNC", "KEYDATA NOTIFY 1 a."),
    ("RKEY", "0x0 3 8 AwEAAQ=="),
    ("TA", "1 8 SHA-256 2bb183af5f22588179a53b0a98631fad1a292118b9a8b5a7f0ae4e2d4d8fdc83"),
    ("TA", "1 8 3 00"),
]


def text_for(rng, kinds):
    fields = []
    for k in kinds:
        base = k.rstrip("?+")
        if k.endswith("?") and rng.random() < 0.4:
            continue
        n = 1 + (rng.randrange(3) if k.endswith("+") else 0)
        for _ in range(n):
            bad = base + "!"
            if bad in KIND and rng.random() < 0.15:
                fields.append(rng.choice(KIND[bad]))
            else:
                fields.append(rng.choice(KIND[base]))
    r = rng.random()
    if r < 0.05 and fields:
        fields.pop()                       # a field missing
    elif r < 0.10:
        fields.append(rng.choice(KIND["u8"]))   # one too many
    return " ".join(fields)


# The types BIND 9.18 reads and ldns 1.8 does not (A6 and SINK ldns reads otherwise)
BIND_ONLY = {"A6", "SINK", "NINFO", "RKEY", "DSYNC", "HHIT", "BRID", "AVC", "DOA", "RESINFO",
             "WALLET", "TA"}


def knows(tname):
    """Whether dnspython reads the type's text (it has a class for it)."""
    try:
        return dns.rdata.get_rdata_class(dns.rdataclass.IN, dns.rdatatype.from_text(
            tname)) is not dns.rdata.GenericRdata
    except dns.rdatatype.UnknownRdatatype:
        return False


def main():
    t = Tally(shown=200)
    if not have("named-compilezone"):
        t.skip("named-compilezone not installed")
        t.finish()
    rng = random.Random(11)
    records = []                             # (line, owner, type, text)
    for tname, kinds in TYPES.items():
        for i in range(600 if tname in ("SVCB", "HTTPS") else 120):
            records.append((FIRST + len(records), "r%d" % len(records), tname,
                            text_for(rng, kinds)))
    for tname, text in FIXED + DELIBERATE:
        records.append((FIRST + len(records), "r%d" % len(records), tname, text))
    with tempfile.TemporaryDirectory() as tmp:
        zone = os.path.join(tmp, "r.zone")
        write_zone(zone, records)
        ours_bad, ours_wire = zonepuny(zone, TYPES)
        if ours_bad is None:
            t.bad("zonepuny refuses the zone without the lines it refused: " + ours_wire)
            t.finish()
        why = {int(m.group(1)): m.group(2) for m in re.finditer(
            r"r\.zone:(\d+):\d+: error: (.*)",
            run([ZONEPUNY, "--check", "--fragment", "--max-errors", "0", zone]).stderr)}
        bind_bad, taken = bind(zone)
        if bind_bad is None:
            t.bad("BIND refuses the zone without naming a line: " + taken)
            t.finish()
        octets = bind_octets(zone)
        if octets is None:
            t.bad("BIND refuses the zone without the lines it refused")
            t.finish()
    # the octets of what BIND takes: its text through dnspython, or BIND's own where dnspython
    # cannot read it (types it lacks, times before 1970)
    bind_wire = {owner: wire_of(tname, text, ORIGIN, octets.get(owner, ["?"])[0]) or "?"
                 for owner, (tname, text) in taken.items()}
    deliberate = set(DELIBERATE)
    agree = side = alone = stricter = 0
    for line, owner, tname, text in records:
        try:
            rd = dns.rdata.from_text("IN", tname, text, origin=ORIGIN)
            py = rd.to_wire(origin=ORIGIN).hex()
        except Exception:   # noqa: BLE001
            py = None
        bw = None if line in bind_bad else bind_wire.get(owner, "?")
        zw = None if line in ours_bad else ours_wire.get(owner, "?")
        what = "%s %s (BIND %s, dnspython %s, zonepuny %s)" % (tname, text, bw, py, zw)
        if bw == "+":
            bw = py if py is not None else "+"
        if (tname, text) in deliberate:
            if bw is not None and zw is None:
                t.ok()
            else:
                t.bad("not refused by zonepuny on purpose and taken by BIND: " + what)
        elif zw is None and bw is not None and any(k in why.get(line, "") for k in STRICTER):
            stricter += 1
            t.ok()
        elif tname in BIND_ONLY and not knows(tname):
            if zw == bw:
                alone += 1
                t.ok()
            else:
                t.bad("BIND alone reads %s, zonepuny differs: %s" % (tname, what))
        elif bw is None and zw is not None:
            # exit 0 means BIND loads the zone: what BIND refuses, zonepuny refuses
            t.bad("BIND refuses, zonepuny takes: " + what)
        elif bw == py:
            if zw == bw:
                agree += 1
                t.ok()
            else:
                t.bad("BIND and dnspython agree, zonepuny differs: " + what)
        elif zw in (bw, py) or (bw == "+" and zw is not None):
            side += 1
            t.ok()
        else:
            t.bad("zonepuny sides with neither: " + what)
    print("%d records: all three agree on %d; BIND and dnspython differ on %d, zonepuny with "
          "one of them; BIND and zonepuny agree on %d that dnspython cannot read; zonepuny "
          "refuses %d on purpose (%s), and %d more written out" %
          (len(records), agree, side, alone, stricter, ", ".join(STRICTER.values()),
           len(DELIBERATE)))
    t.need_pass("no record compared")
    t.finish()


if __name__ == "__main__":
    main()
