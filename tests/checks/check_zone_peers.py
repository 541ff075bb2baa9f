"""check_zone_peers.py -- zonepuny's whole-zone checks against BIND's and Knot's verdicts.

zonepuny --check means "error" exactly where BIND refuses a zone, and "warning" where BIND loads
it but serves it otherwise than the file says. This script holds it to that on some 600 tiny
zones. Each is a small valid base zone (SOA; apex NS with in-zone addresses; hosts; a delegation
with glue; MX and SRV with existing targets; a CNAME; a DNAME; two wildcards, one an alias; an
empty non-terminal) with mutations: first each mutation alone (every NS/MX/SRV target kind at
each place), then 1-3 random ones (fixed seed). They add data beside a CNAME, a second
CNAME/DNAME/SOA; drop glue or apex NS addresses; point NS/MX/SRV at an alias, a missing name,
an address written as a name ("MX 10 192.0.2.8"), a name a wildcard covers, a name below the
DNAME or inside a delegation, a bad host name, an out-of-zone name, a name below an empty
non-terminal or a name; add wildcards (at the apex, without an address, an alias, one that is
an empty non-terminal) and names between a wildcard and what it would cover, before and after
it in canonical order (RFC 4592); split an RRset across TTLs;
add data below a delegation or a DNAME, out-of-zone records, an SOA below the apex, DS at the
apex or off a delegation, NS at a wildcard, owners and targets with "_" or an outer "-", the
names check-names lets by (gc._msdcs, _spf, an HTTPS alias, RDATA in RFC 3597 form) and their
near misses, a mailbox with a space, NSEC3 at a name that is no hash, a null MX beside other MX,
CNAME loops, a DNAME at the apex; and two spellings of one name after IDNA2003
(straße/strasse, BÜCHER/bücher, ｗｅｂ/web, ﬁle/file, café/cafe+U+0301, ＭＡＩＬ/mail ...)
whose records clash (a CNAME at one and an A at the other, two CNAMEs, two TTLs, a DNAME above
the other, a target written the other way ...).

The expected values come from the servers. zonepuny reads each zone in UTF-8; BIND and Knot
cannot read UTF-8 names, so they read the same zone, line for line, with every non-ASCII label
through Python's encodings.idna.ToASCII (IDNA2003, an oracle apart from zonepuny's conversion).
  1. verdict: zonepuny exits 1 (with an "error:" line; never 2) exactly when
     `named-checkzone -k fail -i full example. ACE-FILE` exits non-zero.
  2. warnings, in zones both load, against BIND's lines that mean the same:
       "X/MX|SRV 'T' has no address records", "is a CNAME (illegal)", "is below a DNAME"
                                        <=> -Wmx-target / -Wsrv-target at T, of that kind;
       "X/NS 'T' has no address records", "is a CNAME", "is below a DNAME"
                                        <=> -Wns-target of X at T, of that kind;
       "X/NS 'T' has no REQUIRED GLUE address records"  <=> -Wglue of X at T, "inside it";
       "X/NS 'T' has no SIBLING GLUE address records"   <=> -Wglue, "inside another delegation";
       "ignoring out-of-zone data (N)"                  <=> -Wout-of-zone at N;
       "NS record 'T' appears to be an address", "'T': MX is an address"
                                        <=> -Waddress-target on that line;
       "TTL set to prior TTL" on a line  => -Wttl-mismatch of that line's RRset;
     and every -Wttl-mismatch names two TTLs of the RRset: named-compilezone serves it with one
     of them.
  3. Knot (kzonecheck -o example. ACE-FILE), where installed: its verdicts are only counted
     (Knot has no check-names, takes a second SOA or a DS at the apex, refuses data below a
     DNAME ...). Asserted are only the relations the probe of each case showed, each Knot
     message implying a zonepuny report in the same zone: "missing glue record" => -Wglue,
     -Wns-target or -Wapex-ns; "another record exists beside CNAME" =>
     -Wcname-and-other-data; "multiple CNAME|DNAME records" => -Wsingleton; "NS record exists
     beside DNAME" => -Wdname-and-ns; "child record exists under DNAME" => -Wbelow-dname, or
     -Wdname-and-ns where the DNAME shares its name with a delegation (the delegation wins:
     what is below is glue, as BIND serves it);
     "missing NS at the zone apex" => -Wapex-ns.
  4. every zone whose UTF-8 text writes an in-zone owner two ways has a -Widna-collision
     quoting both, and no other zone has one. Two ways: texts that differ other than in ASCII
     case, where a non-ASCII label that IDNA2003 gives back (ToUnicode of its ToASCII is the
     label) counts as its ACE form ("bücher" is "xn--bcher-kva" and "Bücher"; "BÜCHER" and
     "straße" are spellings of their own). What those records then break is judged by 1 and 2
     on the ACE form, like any zone.

Deliberate differences, not judged:
  - BIND looks names outside the zone (and inside its delegations) up in the DNS ("(out of
    zone) has no addresses records", "failed to lookup", "getaddrinfo(...) failed"); zonepuny
    looks nothing up. There is no working resolver here, and those lookups never change BIND's
    verdict; their lines are skipped. RES_OPTIONS="timeout:1 attempts:1" bounds their cost
    (the sandbox's resolver drops some queries under load).
  - an SRV target written as an IPv4 address: zonepuny's -Waddress-target covers SRV as it
    covers NS and MX; BIND checks NS and MX only.
  - BIND warns of a split TTL only when the RRset's records come one after another under an
    owner written alike; otherwise it is silent (and serves one TTL): zonepuny's -Wttl-mismatch
    where BIND is silent is judged by the TTL served alone.
  - the warnings of zones BIND refuses: it stops before its post-load checks.
  - an apex name server at or below a delegation without glue: BIND's apex check counts the
    delegation as found and says nothing; zonepuny's -Wglue tells that no resolver can reach
    that server's address from this zone.
  - -Woccluded, -Wbelow-dname, -Wds-placement, -Wdname-and-ns, -Wnull-mx, -Wcname-loop: BIND
    has no such warning (it loads those zones), so there is nothing to compare.
  - a KEY beside a CNAME: BIND takes it and so does zonepuny; Knot refuses it, so its "another
    record exists beside CNAME" is not held against zonepuny in a zone with a KEY at a CNAME.
Counts of each kind of comparison, of Knot's differing verdicts and of BIND lines with no
zonepuny counterpart are printed.
"""
import collections
import concurrent.futures
import encodings.idna
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

ZONEPUNY = os.path.abspath(os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny")))
ENV = dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin:/usr/bin",
           RES_OPTIONS="timeout:1 attempts:1")
ORIGIN = "example."
SEED = 20240611
RANDOM_ZONES = 420
WORKERS = 4

HEADER = ["$TTL 3600"]
KEY = ("256 3 8 AwEAAcFcGsaxxdgiuuGmCkVImy4h99CqT7jwY3pexPGcnUFtR2Fh36BponcwtkZ4cAgtvd4Qs8PkxUdp"
       "6p/DlUmObdk=")
DS = "12345 8 2 49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE5D5A24C6B3E5C34C6A4E5A1B"
SOA = "ns1 hostmaster 1 7200 3600 1209600 3600"


def rec(owner, rtype, rdata, ttl=None, tag=None):
    return {"owner": owner, "type": rtype, "rdata": rdata, "ttl": ttl, "tag": tag}


def base_zone():
    return [
        rec("@", "SOA", SOA, tag="soa"),
        rec("@", "NS", "ns1", tag="apex-ns"),
        rec("@", "NS", "ns2.example.", tag="apex-ns"),
        rec("ns1", "A", "192.0.2.1", tag="ns1-addr"),
        rec("ns2", "AAAA", "2001:db8::2", tag="ns2-addr"),
        rec("www", "A", "192.0.2.10", tag="www-addr"),
        rec("mail", "A", "192.0.2.20", tag="mail-addr"),
        rec("mail", "AAAA", "2001:db8::20", tag="mail-addr"),
        rec("@", "MX", "10 mail", tag="mx"),
        rec("_sip._tcp", "SRV", "0 5 5060 www", tag="srv"),
        rec("ftp", "CNAME", "www", tag="cname"),
        rec("sub", "NS", "ns.sub", tag="deleg"),
        rec("sub", "NS", "ns2", tag="deleg"),
        rec("ns.sub", "A", "192.0.2.30", tag="glue"),
        rec("dn", "DNAME", "other.net.", tag="dname"),
        rec("*.wild", "A", "192.0.2.40", tag="wild"),
        rec("*.alias", "CNAME", "www", tag="wild"),
        rec("host.ent", "A", "192.0.2.50", tag="ent"),
    ]


# ---- mutations: each takes (rng, zone) and changes the zone ----

def add(z, rng, *records):
    """Records in, each at a random place after the SOA (so that an RRset is split or not)."""
    for r in records:
        z.insert(rng.randrange(1, len(z) + 1), r)


def add_together(z, rng, *records):
    """Records in, one after another, at one random place after the SOA."""
    at = rng.randrange(1, len(z) + 1)
    z[at:at] = list(records)


def drop(z, tag):
    z[:] = [r for r in z if r["tag"] != tag]


# NS, MX and SRV targets: (what it is, the target as written)
TARGETS = [
    ("alias", "ftp"), ("missing", "nohost"), ("address", "192.0.2.8"),
    ("wildcard-covered", "x.wild"), ("wildcard-covered", "a.b.wild"),
    ("wildcard alias", "x.alias"),
    ("below-dname", "x.dn"), ("glue", "ns.sub"), ("in-delegation", "other.sub"),
    ("delegation", "sub"), ("out-of-zone", "mx.other.net."), ("empty-non-terminal", "ent"),
    ("below an empty non-terminal", "x.ent"), ("below a name", "x.www"),
    ("below a wildcard's empty non-terminal", "x.w5"),
    ("bad-name", "bad_host"), ("bad-name", "-lead.other.net."), ("bad-name", "trail-"),
    ("existing", "www"), ("existing", "mail.example."), ("the apex", "@"),
    ("utf8-existing", "ｗｗｗ"),
    ("utf8-missing", "straße"), ("root", "."),
]


def m_target(rng, z, kind, pick=None):
    what, target = pick or rng.choice(TARGETS)
    if kind == "apex NS":
        add(z, rng, rec("@", "NS", target))
    elif kind == "delegation NS":
        add(z, rng, rec("sub", "NS", target))
    elif kind == "new delegation NS":
        add(z, rng, rec("dlg", "NS", target), rec("dlg", "NS", "ns1"))
    elif kind == "MX":
        add(z, rng, rec(rng.choice(["@", "www"]), "MX", "%d %s" % (rng.choice([10, 20]), target)))
    else:
        add(z, rng, rec("_x._udp", "SRV", "0 0 53 " + target))
    return "%s -> %s (%s)" % (kind, target, what)


def target_mutation(kind):
    return lambda rng, z: m_target(rng, z, kind)


TARGET_KINDS = {"apex NS target": "apex NS", "delegation NS target": "delegation NS",
                "new delegation NS target": "new delegation NS", "MX target": "MX",
                "SRV target": "SRV"}


def simple(label, *records, together=False):
    def f(rng, z):
        (add_together if together else add)(z, rng, *[dict(r) for r in records])
        return label
    return f


def dropping(label, *tags):
    def f(rng, z):
        for t in tags:
            drop(z, t)
        return label
    return f


def m_soa_below(rng, z):
    for r in z:
        if r["tag"] == "soa":
            r["owner"] = "sub2"
    return "SOA moved to sub2"


def m_soa_mname(rng, z):
    bad = rng.choice(["ns_1", "-ns1", "ns1.bad_x"])
    for r in z:
        if r["tag"] == "soa":
            r["rdata"] = SOA.replace("ns1", bad, 1)
    return "SOA MNAME " + bad


def m_soa_rname(rng, z):
    rname = rng.choice(["host_master", "hostmaster.bad_x", "h.-x.example."])
    for r in z:
        if r["tag"] == "soa":
            r["rdata"] = SOA.replace("hostmaster", rname, 1)
    return "SOA RNAME " + rname


# Spellings that are one name after IDNA2003 ToASCII: (one, other)
PAIRS = [("straße", "strasse"), ("BÜCHER", "bücher"), ("Bücher", "bücher"),
         ("ｗｅｂ", "web"), ("ﬁle", "file"), ("café", "cafe\u0301"), ("ＳＴＲＡＳＳＥ", "straße")]
# a spelling of a name the base zone has: (the new spelling, the base's)
BASE_PAIRS = [("ｗｗｗ", "www"), ("ＭＡＩＬ", "mail"), ("ｍａｉｌ", "mail"), ("ｆｔｐ", "ftp"),
              ("ｓｕｂ", "sub"), ("ｄｎ", "dn")]


def m_idna(rng, z):
    a, b = rng.choice(PAIRS)
    if rng.random() < 0.5:
        a, b = b, a
    kind = rng.choice(["cname-vs-a", "two-cnames", "same-cname", "ttl", "mx-target", "ns-target",
                       "dname-above", "delegation", "plain", "srv-target"])
    if kind == "cname-vs-a":
        rs = [rec(a, "CNAME", "www"), rec(b, "A", "192.0.2.80")]
    elif kind == "two-cnames":
        rs = [rec(a, "CNAME", "www"), rec(b, "CNAME", "mail")]
    elif kind == "same-cname":
        rs = [rec(a, "CNAME", "www"), rec(b, "CNAME", "www.example.")]
    elif kind == "ttl":
        rs = [rec(a, "A", "192.0.2.81", ttl=300), rec(b, "A", "192.0.2.82", ttl=600)]
    elif kind == "mx-target":
        rs = [rec(a, "A", "192.0.2.83"), rec("@", "MX", "30 " + b)]
    elif kind == "srv-target":
        rs = [rec(a, "AAAA", "2001:db8::84"), rec("_y._tcp", "SRV", "1 1 1 " + b)]
    elif kind == "ns-target":
        rs = [rec(a, "A", "192.0.2.85"), rec("@", "NS", b)]
    elif kind == "dname-above":
        rs = [rec(a, "DNAME", "other.org."), rec("x." + b, "A", "192.0.2.86")]
    elif kind == "delegation":
        rs = [rec(a, "NS", "ns.other.net."), rec(b, *rng.choice([("TXT", '"x"'),
                                                                   ("A", "192.0.2.87")]))]
    else:
        rs = [rec(a, "A", "192.0.2.88"), rec(b, "A", "192.0.2.89")]
    (add_together if rng.random() < 0.5 else add)(z, rng, *rs)
    return "IDNA %s: %s / %s" % (kind, a, b)


def m_idna_base(rng, z):
    a, b = rng.choice(BASE_PAIRS)
    kind = rng.choice(["cname", "ttl", "a", "txt", "mx"])
    if kind == "cname":
        r = rec(a, "CNAME", "mail" if b != "mail" else "www")
    elif kind == "ttl":
        r = rec(a, "A", "192.0.2.90", ttl=300)
    elif kind == "a":
        r = rec(a, "A", "192.0.2.91")
    elif kind == "txt":
        r = rec(a, "TXT", '"x"')
    else:
        r = rec(a, "MX", "10 mail")
    add(z, rng, r)
    return "IDNA with the base's %s: %s %s" % (b, a, kind)


MUTATIONS = {
    # CNAME beside other data
    "A at the CNAME": simple("A at the CNAME", rec("ftp", "A", "192.0.2.60")),
    "TXT at the CNAME": simple("TXT at the CNAME", rec("ftp", "TXT", '"x"')),
    "MX at the CNAME": simple("MX at the CNAME", rec("ftp", "MX", "10 mail")),
    "CNAME onto a host": simple("CNAME onto a host", rec("mail", "CNAME", "www")),
    "CNAME at the apex": simple("CNAME at the apex", rec("@", "CNAME", "www")),
    "CNAME at the delegation": simple("CNAME at the delegation", rec("sub", "CNAME", "www")),
    "CNAME at the glue": simple("CNAME at the glue", rec("ns.sub", "CNAME", "www")),
    "CNAME at the wildcard": simple("CNAME at the wildcard", rec("*.wild", "CNAME", "www")),
    "CNAME at the DNAME": simple("CNAME at the DNAME", rec("dn", "CNAME", "www")),
    "KEY at the CNAME": simple("KEY at the CNAME", rec("ftp", "KEY", KEY)),
    "NSEC at the CNAME": simple("NSEC at the CNAME",
                                rec("ftp", "NSEC", "zz.example. CNAME RRSIG NSEC")),
    # singletons
    "second CNAME": simple("second CNAME", rec("ftp", "CNAME", "mail")),
    "same CNAME twice": simple("same CNAME twice", rec("ftp", "CNAME", "www.example.")),
    "second DNAME": simple("second DNAME", rec("dn", "DNAME", "other2.net.")),
    "same DNAME twice": simple("same DNAME twice", rec("dn", "DNAME", "other.net.")),
    "second SOA": simple("second SOA", rec("@", "SOA", SOA.replace(" 1 ", " 2 "))),
    "same SOA twice": simple("same SOA twice", rec("@", "SOA", SOA)),
    # things dropped
    "no glue": dropping("no glue", "glue"),
    "no apex NS": dropping("no apex NS", "apex-ns"),
    "no ns1 address": dropping("no ns1 address", "ns1-addr"),
    "no ns2 address": dropping("no ns2 address", "ns2-addr"),
    "no mail address": dropping("no mail address", "mail-addr"),
    "no www address": dropping("no www address", "www-addr"),
    "no SOA": dropping("no SOA", "soa"),
    "no wildcard": dropping("no wildcard", "wild"),
    # names a wildcard answers for, and what stops it (RFC 4592): each with an MX to such a name
    "wildcard at the apex": simple("* A, MX nohost", rec("*", "A", "192.0.2.43"),
                                   rec("www", "MX", "10 nohost")),
    "alias wildcard at the apex": simple("* CNAME, MX nohost", rec("*", "CNAME", "www"),
                                         rec("www", "MX", "10 nohost")),
    "apex wildcard, MX into an empty non-terminal": simple(
        "* A, MX x.ent", rec("*", "A", "192.0.2.43"), rec("www", "MX", "10 x.ent")),
    "apex wildcard, MX to an empty non-terminal": simple(
        "* A, MX ent", rec("*", "A", "192.0.2.43"), rec("www", "MX", "10 ent")),
    "apex wildcard, MX below a name": simple("* A, MX x.www", rec("*", "A", "192.0.2.43"),
                                             rec("www", "MX", "10 x.www")),
    "apex wildcard, no glue": lambda rng, z: (drop(z, "glue"), add(z, rng, rec(
        "*", "A", "192.0.2.43")), "* A, no glue")[2],
    "empty non-terminal before a covered name": simple(
        "0.b.wild TXT, MX a.b.wild", rec("0.b.wild", "TXT", '"x"'),
        rec("www", "MX", "10 a.b.wild")),
    "empty non-terminal after a covered name": simple(
        "z.b.wild TXT, MX a.b.wild", rec("z.b.wild", "TXT", '"x"'),
        rec("www", "MX", "10 a.b.wild")),
    "name between a wildcard and a covered name": simple(
        "b.wild TXT, MX a.b.wild", rec("b.wild", "TXT", '"x"'), rec("www", "MX", "10 a.b.wild")),
    "wildcard without an address below another": simple(
        "*.b.wild TXT, MX a.b.wild", rec("*.b.wild", "TXT", '"x"'),
        rec("www", "MX", "10 a.b.wild")),
    "alias wildcard below another": simple(
        "*.b.wild CNAME, MX a.b.wild", rec("*.b.wild", "CNAME", "www"),
        rec("www", "MX", "10 a.b.wild")),
    "wildcard that is an empty non-terminal": simple(
        "* A, a.*.w5 TXT, MX x.w5", rec("*", "A", "192.0.2.43"), rec("a.*.w5", "TXT", '"x"'),
        rec("www", "MX", "10 x.w5")),
    # NS, MX and SRV targets
    "apex NS target": target_mutation("apex NS"),
    "delegation NS target": target_mutation("delegation NS"),
    "new delegation NS target": target_mutation("new delegation NS"),
    "MX target": target_mutation("MX"),
    "SRV target": target_mutation("SRV"),
    "MX written as an address": simple("MX 10 192.0.2.8", rec("www", "MX", "10 192.0.2.8")),
    "NS written as an address": simple("NS 192.0.2.7", rec("sub", "NS", "192.0.2.7")),
    # TTLs
    "A split by TTL": simple("www 300 A", rec("www", "A", "192.0.2.11", ttl=300)),
    "A split by TTL, upper case": simple("WWW 300 A", rec("WWW", "A", "192.0.2.11", ttl=300)),
    "AAAA split by TTL": simple("mail 60 AAAA", rec("mail", "AAAA", "2001:db8::21", ttl=60)),
    "NS split by TTL": simple("@ 300 NS", rec("@", "NS", "ns1", ttl=300)),
    "CNAME again, other TTL": simple("ftp 60 CNAME", rec("ftp", "CNAME", "www", ttl=60)),
    "TTLs side by side": simple("x 300 A / x 600 A", rec("x", "A", "192.0.2.12", ttl=300),
                                rec("x", "A", "192.0.2.13", ttl=600), together=True),
    # below a delegation, below a DNAME
    "TXT below the delegation": simple("x.sub TXT", rec("x.sub", "TXT", '"x"')),
    "A below the delegation": simple("x.sub A", rec("x.sub", "A", "192.0.2.31")),
    "TXT at the delegation": simple("sub TXT", rec("sub", "TXT", '"x"')),
    "MX at the delegation": simple("sub MX", rec("sub", "MX", "10 mail")),
    "MX below the delegation": simple("x.sub MX nohost", rec("x.sub", "MX", "10 nohost")),
    "NS below the delegation": simple("x.sub NS nohost", rec("x.sub", "NS", "nohost")),
    "A below the DNAME": simple("x.dn A", rec("x.dn", "A", "192.0.2.32")),
    "MX below the DNAME": simple("x.dn MX nohost", rec("x.dn", "MX", "10 nohost")),
    "A at the DNAME": simple("dn A", rec("dn", "A", "192.0.2.33")),
    "NS at the DNAME": simple("dn NS", rec("dn", "NS", "ns.other.net.")),
    "DNAME at the delegation": simple("sub DNAME", rec("sub", "DNAME", "other.org.")),
    "DNAME at the apex": simple("@ DNAME", rec("@", "DNAME", "other.org.")),
    # out of the zone
    "A out of the zone": simple("www.other.net. A", rec("www.other.net.", "A", "192.0.2.34")),
    "MX out of the zone": simple("other.net. MX", rec("other.net.", "MX", "10 mail")),
    "NS out of the zone": simple("example.net. NS", rec("example.net.", "NS", "ns1")),
    "bad name out of the zone": simple("bad_x.other.net. A",
                                       rec("bad_x.other.net.", "A", "192.0.2.35")),
    # SOA, DS, wildcard NS
    "SOA moved below the apex": m_soa_below,
    "SOA below the apex too": simple("sub2 SOA", rec("sub2", "SOA", SOA)),
    "DS at the apex": simple("@ DS", rec("@", "DS", DS)),
    "DS at a host": simple("www DS", rec("www", "DS", DS)),
    "DS at the delegation": simple("sub DS", rec("sub", "DS", DS)),
    "NS at the wildcard": simple("*.wild NS", rec("*.wild", "NS", "ns.other.net.")),
    "NS at a new wildcard": simple("*.w2 NS", rec("*.w2", "NS", "ns1")),
    # check-names
    "A owner with _": simple("bad_host A", rec("bad_host", "A", "192.0.2.36")),
    "A owner with a leading -": simple("-lead A", rec("-lead", "A", "192.0.2.37")),
    "AAAA owner with a trailing -": simple("trail- AAAA", rec("trail-", "AAAA", "2001:db8::3")),
    "MX owner with _": simple("_x MX", rec("_x", "MX", "10 mail")),
    "A owner below _tcp": simple("a._tcp A", rec("a._tcp", "A", "192.0.2.38")),
    "TXT owner with _": simple("_dmarc TXT", rec("_dmarc", "TXT", '"v=DMARC1"')),
    "A owner inner -": simple("x-y A", rec("x-y", "A", "192.0.2.39")),
    "A at a wildcard": simple("*.w3 A", rec("*.w3", "A", "192.0.2.41")),
    "CNAME to a bad name": simple("c CNAME bad_host", rec("c", "CNAME", "bad_host")),
    "SOA MNAME not a host name": m_soa_mname,
    "SOA RNAME": m_soa_rname,
    "A at gc._msdcs": simple("gc._msdcs A", rec("gc._msdcs", "A", "192.0.2.42")),
    "AAAA at gc._msdcs of a bad forest": simple("gc._msdcs.bad_f AAAA",
                                                rec("gc._msdcs.bad_f", "AAAA", "2001:db8::4")),
    "A below _spf": simple("x_y._spf A", rec("x_y._spf", "A", "127.0.0.2")),
    "AAAA below _spf": simple("x_y._spf AAAA", rec("x_y._spf", "AAAA", "2001:db8::5")),
    "HTTPS alias to a bad name": simple("www HTTPS 0 bad_host", rec("www", "HTTPS",
                                                                    "0 bad_host.other.net.")),
    "HTTPS service to a bad name": simple("www HTTPS 1 bad_host", rec("www", "HTTPS",
                                                                      "1 bad_host.other.net.")),
    "MX to a bad name in RFC 3597 form": simple("www MX \\# a_b.", rec("www", "MX",
                                                                      "\\# 7 000a03615f6200")),
    "RP with a space": simple("rp RP a\\032b", rec("rp", "RP", "a\\032b.example. .")),
    "NSEC3 at a host name": simple("www NSEC3", rec("www", "NSEC3",
                                                    "1 0 0 - 0P9MHAVEQVM6T7VBL5LOP2U3T2RP3TOM A")),
    "NSEC3 at a hash": simple("hash NSEC3", rec("0p9mhaveqvm6t7vbl5lop2u3t2rp3tom", "NSEC3",
                                                "1 0 0 - 2T7B4G4VSA5SMI47K61MV5BV1A22BOJR A")),
    # null MX, loops
    "null MX beside MX": simple("@ MX 0 .", rec("@", "MX", "0 .")),
    "null MX alone": simple("www MX 0 .", rec("www", "MX", "0 .")),
    "CNAME loop of two": simple("a CNAME b, b CNAME a", rec("a", "CNAME", "b"),
                                rec("b", "CNAME", "a")),
    "CNAME to itself": simple("c CNAME c", rec("c", "CNAME", "c")),
    "CNAME loop of three": simple("l1 -> l2 -> l3 -> l1", rec("l1", "CNAME", "l2"),
                                  rec("l2", "CNAME", "l3"), rec("l3", "CNAME", "l1")),
    "CNAME chain": simple("c1 -> c2 -> www", rec("c1", "CNAME", "c2"), rec("c2", "CNAME", "ftp")),
    # IDNA
    "IDNA pair": m_idna,
    "IDNA pair with a base name": m_idna_base,
}


# what BIND refuses the base zone with, whatever else is done to it
REFUSED = {"A at the CNAME", "TXT at the CNAME", "MX at the CNAME", "CNAME onto a host",
           "CNAME at the apex", "CNAME at the delegation", "CNAME at the glue",
           "CNAME at the wildcard", "CNAME at the DNAME", "second CNAME", "second DNAME",
           "second SOA", "no apex NS", "no ns1 address", "no ns2 address", "no SOA",
           "bad name out of the zone", "SOA moved below the apex", "SOA below the apex too",
           "DS at the apex", "NS at the wildcard", "NS at a new wildcard", "A owner with _",
           "A owner with a leading -", "AAAA owner with a trailing -", "MX owner with _",
           "A owner below _tcp", "SOA MNAME not a host name", "SOA RNAME", "DNAME at the apex",
           "AAAA at gc._msdcs of a bad forest", "AAAA below _spf", "HTTPS service to a bad name",
           "RP with a space", "NSEC3 at a host name"}


# ---- the zone text, in UTF-8 and in ACE ----

def ace_label(label):
    if all(ord(ch) < 128 for ch in label):
        return label
    return encodings.idna.ToASCII(label).decode("ascii")


def ace_token(tok):
    if all(ord(ch) < 128 for ch in tok):
        return tok
    return ".".join(ace_label(l) if l else l for l in tok.split("."))


def line_of(r):
    parts = [r["owner"]] + ([str(r["ttl"])] if r["ttl"] is not None else []) + \
        [r["type"], r["rdata"]]
    return " ".join(parts)


def absolute(name):
    if name == "@":
        return ORIGIN
    return name if name.endswith(".") else name + "." + ORIGIN


def canonical(name):
    """The name as the servers see it: ACE, lower case, absolute, no final dot."""
    return ".".join(ace_label(l) for l in absolute(name).split(".") if l).lower()


def ascii_lower(text):
    return "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in text)


def shown_label(label):
    """A label as a spelling: ASCII case aside, a non-ASCII label that IDNA2003 gives back
    (ToUnicode of its ToASCII) is its ACE form's, shown through ToUnicode; any other is its own,
    shown as written."""
    if all(ord(ch) < 128 for ch in label):
        ace = label.lower()
    else:
        ace = ace_label(label).lower()
        back = encodings.idna.ToUnicode(ace)
        if back != ascii_lower(label):
            return label, False
    return encodings.idna.ToUnicode(ace), True


def spellings(zone):
    """{canonical name: [spellings as shown]} of in-zone owners written more than one way."""
    seen = collections.defaultdict(dict)
    apex = canonical("@")
    for r in zone:
        c = canonical(r["owner"])
        if c != apex and not c.endswith("." + apex):
            continue
        labels = [shown_label(l) for l in absolute(r["owner"]).split(".") if l]
        key = tuple(l if kept else ascii_lower(l) for l, kept in labels)
        seen[c].setdefault(key, ".".join(l for l, _ in labels) + ".")
    return {c: list(s.values()) for c, s in seen.items() if len(s) > 1}


# ---- running the three ----

def run(args, cwd=None):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, cwd=cwd)
    return p.returncode, (p.stdout + p.stderr).decode("utf-8", "replace")


ZP_LINE = re.compile(r"^(.*?):(\d+):(\d+): (error|warning): (.*?)(?: \[-W([a-z0-9-]+)\])?$")


def judge_case(tmp, i, zone, knot):
    """Write the zone in UTF-8 and in ACE, run the checkers; the raw results."""
    lines = HEADER + [line_of(r) for r in zone]
    utf8, ace = "z%d.zone" % i, "z%d-ace.zone" % i
    ace_lines = [" ".join(ace_token(t) for t in l.split(" ")) for l in lines]
    with open(os.path.join(tmp, utf8), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(tmp, ace), "w", encoding="ascii") as f:
        f.write("\n".join(ace_lines) + "\n")
    res = {"text": "\n".join(lines),
           "ace_text": "\n".join(ace_lines) if ace_lines != lines else None}
    res["zp"] = run([ZONEPUNY, "--check", "-z", ORIGIN, "--max-errors", "0", utf8], cwd=tmp)
    res["bind"] = run(["named-checkzone", "-k", "fail", "-i", "full", ORIGIN, ace], cwd=tmp)
    res["knot"] = run(["kzonecheck", "-o", ORIGIN, ace], cwd=tmp) if knot else None
    res["served"] = None
    zp_ttl = "[-Wttl-mismatch]" in res["zp"][1]
    if zp_ttl and res["bind"][0] == 0:
        res["served"] = run(["named-compilezone", "-k", "ignore", "-n", "ignore", "-m",
                             "ignore", "-i", "none", "-o", "-", ORIGIN, ace], cwd=tmp)
    return res


# ---- reading what they say ----

def zp_reports(out):
    """[(line, severity, message, check)] of zonepuny's output."""
    reps = []
    for l in out.splitlines():
        m = ZP_LINE.match(l)
        if m:
            reps.append((int(m.group(2)), m.group(4), m.group(5), m.group(6)))
    return reps


def norm(name):
    return name.lower().rstrip(".")


KINDS = {"is an alias": "alias", "has no A or AAAA": "no address",
         "is below a DNAME": "below a DNAME",
         "has no address records": "no address", "is a CNAME (illegal)": "alias",
         "is below a DNAME '": "below a DNAME"}


COMPARED = {"mx-target", "srv-target", "ns-target", "glue", "out-of-zone", "address-target",
            "ttl-mismatch"}


def zp_warnings(reps):
    """zonepuny's warnings that have a BIND counterpart, as comparable tuples; the TTLs its
    -Wttl-mismatch says BIND serves; and the messages of those checks it could not read."""
    got = set()
    ttl = []
    unread = []
    for line, sev, msg, check in reps:
        if check not in COMPARED:
            continue
        m = None
        if check in ("mx-target", "srv-target"):
            m = re.match(r"(MX|SRV) target (\S+) (is an alias|has no A or AAAA|is below a DNAME)",
                         msg)
            if m:
                got.add((m.group(1), norm(m.group(2)), KINDS[m.group(3)]))
        elif check == "ns-target":
            m = re.match(r"NS target (\S+) of (\S+) (is an alias|has no A or AAAA|is below a "
                         r"DNAME)", msg)
            if m:
                got.add(("NS", norm(m.group(2)), norm(m.group(1)), KINDS[m.group(3)]))
        elif check == "glue":
            m = re.match(r"(?:delegation|zone) (\S+): name server (\S+) is (inside it|inside "
                         r"another|inside a delegation)", msg)
            if m:
                got.add(("NS", norm(m.group(1)), norm(m.group(2)),
                         "sibling glue" if m.group(3) == "inside another" else "glue"))
        elif check == "out-of-zone":
            m = re.match(r"(\S+) is outside the zone", msg)
            if m:
                got.add(("out-of-zone", norm(m.group(1))))
        elif check == "address-target":
            m = re.match(r"(NS|MX|SRV) target '", msg)
            if m and m.group(1) != "SRV":
                got.add(("address", m.group(1), line))
        elif check == "ttl-mismatch":
            m = re.match(r"(\S+) (\S+) has TTL (\d+) here and (\d+) at ", msg)
            if m:
                got.add(("ttl", norm(m.group(1)), m.group(2)))
                ttl.append((norm(m.group(1)), m.group(2), {int(m.group(3)), int(m.group(4))}))
        if not m:
            unread.append(msg)
    return got, ttl, unread


B_TARGET = re.compile(r"^zone \S+: (\S+)/(MX|SRV|NS) '([^']+)' (has no REQUIRED GLUE address "
                      r"records|has no SIBLING GLUE address records|has no address records|"
                      r"is a CNAME \(illegal\)|is below a DNAME ')")
B_SKIP = [re.compile(p) for p in [
    r"\(out of zone\)", r"failed to lookup", r"getaddrinfo\(", r"file does not end with newline",
    r"^zone \S+: loaded serial", r"^OK$", r"^$",
]]


def bind_warnings(out, rrset_of):
    """BIND's warning lines that have a zonepuny counterpart, and the lines left over."""
    got, other = set(), []
    for l in out.splitlines():
        if any(p.search(l) for p in B_SKIP):
            continue
        m = B_TARGET.match(l)
        if m:
            owner, ty, target, what = norm(m.group(1)), m.group(2), norm(m.group(3)), m.group(4)
            if ty == "NS":
                got.add(("NS", owner, target, "glue" if "REQUIRED" in what else
                         "sibling glue" if "SIBLING" in what else KINDS[what]))
            else:
                got.add((ty, target, KINDS[what]))
            continue
        m = re.match(r"^\S+:(\d+): ignoring out-of-zone data \((\S+)\)", l)
        if m:
            got.add(("out-of-zone", norm(m.group(2))))
            continue
        m = re.match(r"^\S+:(\d+): NS record '[^']*' appears to be an address", l)
        if m:
            got.add(("address", "NS", int(m.group(1))))
            continue
        m = re.match(r"^\S+:(\d+): warning: '[^']*': MX is an address", l)
        if m:
            got.add(("address", "MX", int(m.group(1))))
            continue
        m = re.match(r"^\S+:(\d+): TTL set to prior TTL", l)
        if m:
            got.add(("ttl",) + rrset_of[int(m.group(1))])
            continue
        other.append(l)
    return got, other


def served_ttls(out):
    """{(owner, type): {TTL}} of named-compilezone's output."""
    ttls = collections.defaultdict(set)
    for l in out.splitlines():
        p = l.split()
        if len(p) >= 4 and p[2] == "IN" and p[1].isdigit():
            ttls[(norm(p[0]), p[3])].add(int(p[1]))
    return ttls


KNOT_IMPLIES = {
    "missing glue record": {"glue", "ns-target", "apex-ns"},
    "another record exists beside CNAME": {"cname-and-other-data"},
    "multiple CNAME records": {"singleton"},
    "multiple DNAME records": {"singleton"},
    "NS record exists beside DNAME": {"dname-and-ns"},
    "child record exists under DNAME": {"below-dname", "dname-and-ns"},
    "missing NS at the zone apex": {"apex-ns"},
}


def show(res):
    """The zone as zonepuny read it, and as BIND and Knot did where that differs."""
    text = "\n    | " + res["text"].replace("\n", "\n    | ")
    if res["ace_text"]:
        text += "\n  in ACE:\n    | " + res["ace_text"].replace("\n", "\n    | ")
    return text


def lines(out, keep=lambda l: True):
    return "\n".join("    " + l for l in out.splitlines() if keep(l))


def main():
    t = Tally(shown=60)
    for tool in ("named-checkzone", "named-compilezone"):
        if not shutil.which(tool, path=ENV["PATH"]):
            t.skip(tool + " not installed")
            t.finish()
    knot = bool(shutil.which("kzonecheck", path=ENV["PATH"]))
    if not knot:
        print("kzonecheck not installed: Knot's part left out")
    rng = random.Random(SEED)
    cases = []                                 # (labels, zone)
    for name, mut in MUTATIONS.items():
        if name in TARGET_KINDS:
            for pick in TARGETS:               # each kind of target, at each place
                z = base_zone()
                cases.append(([m_target(rng, z, TARGET_KINDS[name], pick)], z))
            continue
        for _ in range(8 if name.startswith("IDNA") else 1):
            z = base_zone()
            cases.append(([mut(rng, z)], z))
    names = list(MUTATIONS)
    # the mutations that make BIND refuse the zone are drawn less often, so that most zones
    # load and their warnings are compared
    weights = [6 if n.startswith("IDNA") else 1 if n in REFUSED else 3 for n in names]
    for _ in range(RANDOM_ZONES):
        z = base_zone()
        labels = [MUTATIONS[n](rng, z) for n in rng.choices(names, weights, k=rng.randint(1, 3))]
        cases.append((labels, z))

    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
            results = list(pool.map(lambda c: judge_case(tmp, c[0], c[1][1], knot),
                                    enumerate(cases)))

    n = collections.Counter()
    knot_diff = collections.Counter()
    unmapped = collections.Counter()
    for (labels, zone), res in zip(cases, results):
        what = "[%s]" % "; ".join(labels)
        rrset_of = {len(HEADER) + 1 + i: (canonical(r["owner"]), r["type"])
                    for i, r in enumerate(zone)}
        zrc, zout = res["zp"]
        brc, bout = res["bind"]
        reps = zp_reports(zout)
        zp_error = any(sev == "error" for _, sev, _, _ in reps)
        n["zones"] += 1
        # 0. zonepuny's exit status says what its lines say
        if zrc not in (0, 1) or (zrc == 1) != zp_error:
            t.bad("zonepuny exit %d with%s an error line %s:%s\n%s" %
                  (zrc, "" if zp_error else "out", what, show(res), zout))
            continue
        # 1. the verdict
        if zp_error != (brc != 0):
            t.bad("verdict %s: zonepuny %s, BIND %s%s\n  zonepuny:\n%s\n  BIND:\n%s" %
                  (what, "refuses" if zp_error else "takes", "refuses" if brc else "takes",
                   show(res), lines(zout, lambda l: not l.startswith(" ")), lines(bout)))
        else:
            t.ok()
            n["refused by both" if brc else "taken by both"] += 1
            if spellings(zone):
                n["two spellings, refused by both" if brc else "two spellings, taken by both"] += 1
        # 4. two spellings of one name
        sp = spellings(zone)
        coll = [msg for _, _, msg, check in reps if check == "idna-collision"]
        if sp:
            n["zones with two spellings"] += 1
        for c, ss in sp.items():
            hit = [m for m in coll
                   if sum(("'%s'" % ascii_lower(s)) in ascii_lower(m) for s in ss) >= 2]
            if hit:
                t.ok()
            else:
                t.bad("no -Widna-collision naming %s %s:%s\n%s" % (" and ".join(ss), what,
                                                                   show(res), zout))
        if not sp and coll:
            t.bad("-Widna-collision without two spellings %s:%s\n%s" % (what, show(res), zout))
        # 2. warnings, where both load the zone
        if brc == 0 and not zp_error:
            ours, ttl_claims, unread = zp_warnings(reps)
            for msg in unread:
                t.bad("a zonepuny message this script cannot read (its words changed?): " + msg)
            theirs, other = bind_warnings(bout, rrset_of)
            for l in other:
                unmapped[re.sub(r"^\S+:\d+: ", "", re.sub(r"'[^']*'", "'...'", l))] += 1
            # BIND warns of a split TTL only in some cases (see above): zonepuny's extra
            # ttl-mismatch warnings are judged by the TTL served instead
            extra_ours = {w for w in ours - theirs if w[0] != "ttl" and
                          not (w[0] == "NS" and w[1] == "example" and w[3] == "glue")}
            missing = theirs - ours
            if extra_ours or missing:
                t.bad("warnings %s: zonepuny only %s, BIND only %s%s\n  zonepuny:\n%s\n  BIND:\n%s"
                      % (what, sorted(extra_ours), sorted(missing), show(res),
                         lines(zout, lambda l: not l.startswith(" ")), lines(bout)))
            else:
                t.ok()
                n["warnings compared"] += len(theirs)
            if ttl_claims:
                served = served_ttls(res["served"][1]) if res["served"] else {}
                for owner, ty, claim in ttl_claims:
                    got = served.get((owner, ty))
                    if got and len(got) == 1 and got <= claim:
                        t.ok()
                        n["served TTLs checked"] += 1
                    else:
                        t.bad("-Wttl-mismatch names %s %s's TTLs %s, BIND serves it "
                              "with %s %s:%s\n  zonepuny: %s" %
                              (owner, ty, claim, sorted(got) if got else "nothing", what,
                               show(res), [m for _, _, m, c in reps if c == "ttl-mismatch"]))
        # 3. Knot
        if res["knot"] is not None:
            krc, kout = res["knot"]
            if (krc != 0) != zp_error:
                knot_diff["Knot %s, zonepuny %s" % ("refuses" if krc else "takes",
                                                    "refuses" if zp_error else "takes")] += 1
            checks = {c for _, _, _, c in reps}
            key_at_cname = any(r["type"] == "KEY" for r in zone if any(
                q["type"] == "CNAME" and canonical(q["owner"]) == canonical(r["owner"])
                for q in zone))
            for m in set(re.findall(r"^\[\S+\] (.*)$", kout, re.M)):
                need = KNOT_IMPLIES.get(m)
                if need is None:
                    knot_diff["other Knot message: " + m] += 1
                elif m == "another record exists beside CNAME" and key_at_cname:
                    knot_diff["Knot refuses a KEY beside a CNAME"] += 1
                elif checks & need:
                    t.ok()
                    n["Knot messages matched"] += 1
                else:
                    t.bad("Knot says '%s', zonepuny has no %s %s:%s\n%s" %
                          (m, "/".join(sorted(need)), what, show(res), zout))
    print("%d zones: %d refused by both, %d taken by both (with two spellings of a name: %d, "
          "%d and %d); %d BIND warnings matched, %d served TTLs checked; %d Knot messages "
          "matched" % (n["zones"], n["refused by both"], n["taken by both"],
                       n["zones with two spellings"], n["two spellings, refused by both"],
                       n["two spellings, taken by both"], n["warnings compared"],
                       n["served TTLs checked"], n["Knot messages matched"]))
    if knot_diff:
        print("Knot: " + "; ".join("%s: %d" % kv for kv in sorted(knot_diff.items())))
    if unmapped:
        print("BIND lines with no zonepuny counterpart (not judged): " +
              "; ".join("%s (%d)" % kv for kv in sorted(unmapped.items())))
    t.need_pass("no zone compared")
    t.finish()


if __name__ == "__main__":
    main()
