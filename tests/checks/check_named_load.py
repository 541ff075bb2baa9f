#!/usr/bin/python3
"""check_named_load.py -- zonepuny's verdict against a running named's, load limits included.

named 9.18.28 and later refuse, as it loads a zone, a name with more than max-records-per-type
records of one type or more than max-types-per-name types (100 each by default; each type an
RRSIG covers counts as a type of its own); named-checkconf -z and named-checkzone skip both, so
check_named_verdicts.py cannot see them. Here one named, started on 127.0.0.1 at a free high
port, loads every zone, and its log gives each zone's verdict ("loaded serial" or "not loaded
due to errors").

The zones: the 1,500 seeded zones of verdict_zones.py (those check_named_verdicts.py gives
named-checkconf), and some 290 written here near the limits, where named's loader
(lib/dns/master.c) decides. It adds a name's records in batches: a batch is the lines read since
the owner last changed (compared case-sensitively: h and H differ), cut at the start and the end
of an $INCLUDE and when the loader's 128 KiB RDATA buffer has less than 65,512 octets free; the
records of a name an NS record of the batch points to (glue) make a batch of their own, which
does not end the owner's; each record $GENERATE makes is a batch alone, and the batch pending
goes on past it. A batch of more records of a type than the limit is refused before its
duplicates are dropped; a batch joining records already loaded is refused when the two counts,
each without its duplicates, pass the limit; a new type at a name that has as many as the limit
is refused. So the cases: RRsets of 98 to 102 records, duplicates in one run and across runs,
runs cut by other owners, by a comment, by $TTL, by the owner spelled in another case, through
$INCLUDE, by $GENERATE, at glue, behind big RRsets that fill the buffer; names of 98 to 102
types (RFC 3597 TYPEnnnnn records and real types), with RRSIGs covering some, at the apex (SOA
and NS count), at glue, at a wildcard, at an NSEC3 owner (named keeps NSEC3 in a tree of its
own), in case spellings; and runs kept apart (by the owner's case, or around a $GENERATE) behind
a batch named holds already, where counting them joined or apart gives another verdict.

What named loads is what zonepuny promises about: for a zone `zonepuny --check -z NAME FILE`
passes, zonepuny's output (`zonepuny -z NAME -o OUT FILE`, which must pass too) in the view
"output", and the file itself, as written, in the view "input": named must load both. For a zone
zonepuny refuses, the file, which named must refuse. Two deliberate differences are counted
apart, each only where it is proven, and never as agreement:

- DNSSEC: a signed zone whose made-up RRSIGs do not verify, which zonepuny refuses for the
  DNSSEC checks alone and named serves (verdict_zones.deliberate: every error one of the DNSSEC
  verification's, and --dnssec=off passes it). named checks no signature, so a zone it refuses
  must stay refused under --dnssec=off.
- the written zone named refuses: named loads the file, but zonepuny's one output file joins
  runs of lines that $INCLUDE, $GENERATE or an owner's ASCII case kept apart, and named's load
  limits, which count a run before dropping its duplicates, refuse that (README.md). Proven
  when every error zonepuny gave is a [-Wload-limit] one and the zone zonepuny writes with the
  limits off (`zonepuny --max-records-per-type 0 --max-types-per-name 0 -z NAME -o OUT FILE`,
  which must pass) is refused by the same named, in the view "written", for a load limit ("too
  many records").

Anything else is a disagreement.

named-checkconf -z reads the same files as a second oracle: it must load every zone named
loads, and where it loads one named refuses, named must have told a load limit ("too many
records"). `zonepuny --check DIR` over the input files, in one process, must give each zone the
verdict it gets alone.
"""
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import REPO_DIR, Tally  # noqa: E402
from verdict_zones import deliberate as deliberate_refusal, write_zones  # noqa: E402

ZONES = int(os.environ.get("VERDICT_ZONES", "1500"))
SEED = int(os.environ.get("VERDICT_SEED", "2026"))
# how long named may take to load every zone: far more than it needs (seconds), so that only a
# named that hangs fails it
DEADLINE = float(os.environ.get("NAMED_DEADLINE", "120"))
zonepuny = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
os.environ["PATH"] += ":/usr/sbin:/sbin"
t = Tally(shown=20)

# ---------------------------------------------------------------------------------------------
# The zones near the limits. Each case is a list of lines after HEAD (an include file's lines
# are written to it and replaced by its $INCLUDE line) and what it tries.

HEAD = ["$TTL 300", "@ SOA ns hostmaster 1 7200 3600 1209600 300", "@ NS ns", "ns A 192.0.2.1"]
# named's default max-records-per-type and max-types-per-name are 100: the cases are around it
TSIZ = 128 * 1024   # named's loader's RDATA buffer (lib/dns/master.c)
MAXLEN = 65512  # DNS_RDATA_MAXLENGTH: the buffer is committed when less than this is free
KINDS = ["A", "AAAA", "TXT", "TYPE65300", "RRSIG"]

# Real types with RDATA both named and zonepuny read, for names of many types; not CNAME,
# DNAME or NS (they change what the name is), nor DNSSEC's (they start the verification).
REAL_TYPES = [
    ("A", "192.0.2.1"), ("AAAA", "2001:db8::1"), ("TXT", '"x"'), ("MX", "10 mail.invalid."),
    ("HINFO", '"cpu" "os"'), ("RP", "mbox.invalid. txt.invalid."), ("SRV", "0 0 1 t.invalid."),
    ("NAPTR", '100 10 "S" "SIP+D2U" "" _sip._udp.invalid.'), ("CAA", '0 issue "ca.invalid"'),
    ("SSHFP", "1 1 " + "ab" * 20), ("TLSA", "3 1 1 " + "cd" * 32), ("SMIMEA", "3 1 1 " + "ef" * 32),
    ("LOC", "52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m"),
    ("URI", '10 1 "https://x.invalid/"'), ("SPF", '"v=spf1 -all"'), ("AFSDB", "1 afs.invalid."),
    ("KX", "10 kx.invalid."), ("PTR", "p.invalid."), ("X25", '"311061700956"'),
    ("ISDN", '"150862028003217"'), ("RT", "10 rt.invalid."), ("PX", "10 a.invalid. b.invalid."),
    ("EUI48", "00-00-5e-00-53-2a"), ("EUI64", "00-00-5e-ef-10-00-00-2a"),
    ("DHCID", "AAIBY2/AuCccgoJbsaxcQc9TUapptP69lOjxfNuVAA2kjEA="), ("OPENPGPKEY", "AQIDBA=="),
    ("IPSECKEY", "10 0 2 . AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ=="),
    ("CSYNC", "1 3 A NS"), ("NID", "10 0014:4fff:ff20:ee64"), ("L32", "10 10.1.2.0"),
    ("L64", "10 2001:0db8:1140:1000"), ("LP", "10 l64-subnet.invalid."),
    ("MINFO", "rm.invalid. em.invalid."), ("APL", "1:192.168.32.0/21"), ("AVC", '"app"'),
    ("HTTPS", '1 . alpn="h2"'), ("SVCB", "1 s.invalid. port=8443"), ("CERT", "1 0 0 AQID"),
    ("KEY", "256 3 8 AwEAAQ=="), ("NSAP", "0x47000580005a0000000001e133ffffff00016100"),
    ("GPOS", '"-32.6882" "116.8652" "10.0"'), ("AMTRELAY", "0 0 0 ."), ("MB", "mb.invalid."),
    ("MG", "mg.invalid."), ("MR", "mr.invalid."), ("WKS", "192.0.2.1 6 25"), ("NULL", "\\# 1 00"),
    ("EID", "\\# 1 00"), ("NIMLOC", "\\# 1 00"), ("NINFO", '"n"'), ("RKEY", "0 3 8 AwEAAQ=="),
    ("TALINK", "a.invalid. b.invalid."), ("UID", "\\# 4 00000001"), ("GID", "\\# 4 00000001"),
    ("UNSPEC", "\\# 1 00"), ("DOA", '0 1 2 "" aGVsbG8='), ("RESINFO", '"qnamemin"'),
    ("WALLET", '"w"'),
]
# an NSEC3 owner (base32hex): named keeps NSEC3 and its RRSIGs in a tree of their own
HASH = "0p9mhaveqvm6t7vbl5lop2u3t2rp3tom"


def labels(owner, name):
    """The labels field of an RRSIG at owner (relative, or @) in zone name."""
    full = name if owner == "@" else (owner.rstrip(".") if owner.endswith(".")
                                      else owner + "." + name)
    return len([x for x in full.split(".") if x and x != "*"])


def rr(kind, owner, i, name):
    """Record number i (distinct for distinct i) of the RRset kind at owner."""
    if kind == "A":
        return "%s A 10.%d.%d.%d" % (owner, i >> 16 & 255, i >> 8 & 255, i & 255)
    if kind == "AAAA":
        return "%s AAAA 2001:db8::%x" % (owner, i + 1)
    if kind == "TXT":
        return '%s TXT "t%d"' % (owner, i)
    if kind == "TYPE65300":
        return "%s TYPE65300 \\# 2 %04x" % (owner, i)
    if kind == "RRSIG":
        return "%s RRSIG A 8 %d 300 20300101000000 20200101000000 %d %s. AAAA" % (
            owner, labels(owner, name), i + 1, name)
    raise ValueError(kind)


def types_at(owner, m, rnd, real=0):
    """m records of m types at owner in random order: real of REAL_TYPES, the rest RFC 3597
    private types."""
    out = ["%s %s %s" % (owner, ty, rd) for ty, rd in REAL_TYPES[:real]]
    out += ["%s TYPE%d \\# 0" % (owner, 65280 + j) for j in range(m - len(out))]
    rnd.shuffle(out)
    return out


def with_dups(rnd, n, k):
    """Record numbers 0..n-1 in order, and k of them again at random later places."""
    seq = list(range(n))
    for _ in range(k):
        at = rnd.randint(1, len(seq))
        seq.insert(at, rnd.choice(seq[:at]))
    return seq


def split(rnd, total):
    return rnd.randint(max(1, total - 99), min(99, total - 1))


# lines between two runs of one owner's records: (what, lines); named's batch ends at the
# first and the last
BETWEEN = [
    ("another owner's record", ["x A 192.0.2.9"]),
    ("a comment and a blank line", ["; between the runs", ""]),
    ("$TTL", ["$TTL 300"]),
    ("another type at the owner", ['h HINFO "cpu" "os"']),
    ("a wildcard's record", ["*.w TXT \"w\""]),
]


def runs_case(name, kind, segs, between):
    """Records of kind at h in zone name, segs a list of runs of record numbers, between them
    the lines of between."""
    lines = []
    for i, seg in enumerate(segs):
        if i:
            lines += between
        lines += [rr(kind, "h", j, name) for j in seg]
    return lines


def dup_runs(rnd, a, b, where):
    """Two runs of a and b record numbers (a + b distinct) and one more: where="across" repeats
    a record of the first run in the second, "second" one of the second, "first" one of the first,
    "none" none."""
    r1, r2 = list(range(a)), list(range(a, a + b))
    if where == "first":
        r1.insert(rnd.randint(1, len(r1)), rnd.choice(r1))
    elif where == "second":
        r2.insert(rnd.randint(1, len(r2)), rnd.choice(r2))
    elif where == "across":
        r2.insert(rnd.randint(0, len(r2)), rnd.choice(r1))
    return r1, r2


def big_records(owner, octets):
    """RFC 3597 records of two types at owner, octets of RDATA in all (each RRset well under
    rrset-size's 65,512), to fill named's loader's buffer."""
    out, i = [], 0
    while octets > 0:
        size = min(8000, octets)
        data = ("%04x" % i) * (size // 2) + ("ab" if size % 2 else "")
        out.append("%s TYPE%d \\# %d %s" % (owner, 65401 + i % 2, size, " ".join(
            data[j:j + 64] for j in range(0, len(data), 64))))
        octets -= size
        i += 1
    return out


def limit_cases(rnd, name_of):
    """The cases: (name, lines, includes {file name: lines}, what). name_of(k) names case k."""
    cases = []

    def add(lines, what, includes=None):
        cases.append((name_of(len(cases)), lines, includes or {}, what))

    def nm():
        return name_of(len(cases))

    # one run
    for kind in KINDS:
        for n in range(98, 103):
            add(runs_case(nm(), kind, [range(n)], []), "h %s: one run of %d" % (kind, n))
    # duplicates in one run
    for kind in KINDS:
        for n, k in ((98, 2), (99, 1), (99, 2), (100, 1), (100, 2), (101, 1)):
            add(runs_case(nm(), kind, [with_dups(rnd, n, k)], []),
                "h %s: one run of %d records, %d of them again" % (kind, n, k))
    # two runs, lines between
    for what, between in BETWEEN:
        for total, where in ((100, "none"), (101, "none"), (100, "across"), (100, "second"),
                             (100, "first"), (99, "across"), (99, "second")):
            a = split(rnd, total)
            kind = rnd.choice(KINDS)
            add(runs_case(nm(), kind, dup_runs(rnd, a, total - a, where), between),
                "h %s: runs of %d and %d records (duplicate: %s), %s between" % (
                    kind, a, total - a, where, what))
    # two runs, the owner spelled otherwise in the second
    for what in ("H", "absolute, same case", "absolute, upper case", "$ORIGIN in upper case",
                 "the apex spelled in upper case"):
        for total, where in ((100, "none"), (101, "none"), (100, "across"), (100, "second"),
                             (100, "first")):
            a = split(rnd, total)
            kind = rnd.choice(["A", "TXT", "TYPE65300"])
            n = nm()
            r1, r2 = dup_runs(rnd, a, total - a, where)
            lines = [rr(kind, "h", j, n) for j in r1]
            if what.startswith("the apex"):
                kind = "TXT"
                lines = [rr(kind, "@", j, n) for j in r1] + [rr(kind, n.upper() + ".", j, n)
                                                             for j in r2]
            elif what == "H":
                lines += [rr(kind, "H", j, n) for j in r2]
            elif what == "absolute, same case":
                lines += [rr(kind, "h.%s." % n, j, n) for j in r2]
            elif what == "absolute, upper case":
                lines += [rr(kind, "h.%s." % n.upper(), j, n) for j in r2]
            else:
                lines += ["$ORIGIN %s." % n.upper()] + [rr(kind, "h", j, n) for j in r2]
            add(lines, "%s %s: runs of %d and %d records (duplicate: %s), the second's owner %s"
                % ("@" if what.startswith("the apex") else "h", kind, a, total - a, where, what))
    # one record a batch: the owner's case alternating, or another owner between each
    for alt in ("case", "owner"):
        for n, dup_at in ((100, None), (101, None), (100, 1), (100, 100), (100, 50)):
            name = nm()
            seq = list(range(n))
            if dup_at is not None:
                seq.insert(dup_at, rnd.choice(seq[:dup_at]))
            lines = []
            for j, rec in enumerate(seq):
                if alt == "case":
                    lines.append(rr("A", "hH"[j % 2], rec, name))
                else:
                    lines += [rr("A", "h", rec, name), "x%d A 192.0.2.9" % (j % 3)]
            add(lines, "h A: %d records %s, a duplicate %s" % (
                n, "spelled h and H by turns" if alt == "case" else "each followed by another "
                "owner's record", "as record %d" % (dup_at + 1) if dup_at is not None else "none"))
    # $INCLUDE
    for total, where in ((100, "none"), (101, "none"), (100, "across"), (100, "second"),
                         (100, "first")):
        for form in ("owner", "blank", "middle"):
            name = nm()
            a = split(rnd, total)
            r1, r2 = dup_runs(rnd, a, total - a, where)
            kind = rnd.choice(["A", "AAAA", "TXT"])
            inc = [rr(kind, "h", j, name) for j in r2]
            if form == "blank":    # the file goes on with the name before it
                inc = [" " + ln[1:] for ln in inc]
            lines = [rr(kind, "h", j, name) for j in r1]
            if form == "middle":   # the first run is cut by the $INCLUDE, its end after it
                cut = rnd.randint(1, len(lines) - 1) if len(lines) > 1 else 1
                lines, rest = lines[:cut], lines[cut:]
                add(lines + ["$INCLUDE 1"] + rest, "h %s: runs of %d (cut in two by the "
                    "$INCLUDE) and %d in an included file (duplicate: %s)" % (
                        kind, len(r1), len(r2), where), {"1": inc})
            else:
                add(lines + ["$INCLUDE 1"], "h %s: runs of %d and %d in an included file%s "
                    "(duplicate: %s)" % (kind, len(r1), len(r2), ", blank owners" if
                                         form == "blank" else "", where), {"1": inc})
    for n, k in ((100, 0), (101, 0), (100, 1), (99, 1)):
        name = nm()
        add(["$INCLUDE 1"], "h A: an included file of %d records, %d of them again" % (n, k),
            {"1": [rr("A", "h", j, name) for j in with_dups(rnd, n, k)]})
    # $GENERATE
    gen = [
        (["$GENERATE 1-%d h A 10.0.0.$" % n], "$GENERATE of %d records" % n)
        for n in range(98, 103)
    ] + [
        (["$GENERATE 0-200/2 h A 10.0.0.$"], "$GENERATE 0-200/2: 101 records"),
        (["$GENERATE 1-101 h A 10.0.0.1"], "$GENERATE of one record 101 times"),
        (["$GENERATE 1-150 h A 10.0.0.1"], "$GENERATE of one record 150 times"),
        ([rr("A", "h", j, "") for j in range(100)] + ["$GENERATE 1-1 h A 10.0.0.1"],
         "100 records, then $GENERATE of one of them"),
        ([rr("A", "h", j, "") for j in range(99)] + ["$GENERATE 1-1 h A 10.0.0.1"],
         "99 records, then $GENERATE of one of them"),
        (["$GENERATE 1-100 h A 10.0.0.$", rr("A", "h", 1, "")],
         "$GENERATE of 100 records, then one of them again"),
        (["$GENERATE 1-99 h A 10.0.0.$", rr("A", "h", 256, "")],
         "$GENERATE of 99 records, then another record"),
        (["$GENERATE 1-100 h A 10.0.0.$", "$GENERATE 1-100 h A 10.0.0.$"],
         "$GENERATE of 100 records twice"),
        ([rr("A", "h", 256 + j, "") for j in range(50)] + ["$GENERATE 1-50 h A 10.0.0.$",
                                                          rr("A", "h", 256 + 50, "")],
         "50 records, $GENERATE of 50 others, then another record"),
        ([rr("A", "h", 256 + j, "") for j in range(50)] + ["$GENERATE 1-50 h A 10.0.0.$",
                                                          rr("A", "h", 256, "")],
         "50 records, $GENERATE of 50 others, then the first record again"),
        ([rr("A", "h", 256 + j, "") for j in range(50)] + ["$GENERATE 1-50 h A 10.0.0.$",
                                                          "  A 10.0.0.1"],
         "50 records, $GENERATE of 50 others, then a generated one again, owner blank"),
        ([rr("A", "h", 256 + j, "") for j in range(60)] + ["$GENERATE 1-40 h A 10.1.0.$"] +
         [rr("A", "h", 256 + j, "") for j in range(60, 61)],
         "60 records, $GENERATE of 40 others, then one more"),
    ]
    for lines, what in gen:
        add(lines, "h A: " + what)
    # glue: the names an NS record of the batch's owner names load in a batch of their own
    for total, where in ((100, "none"), (101, "none"), (100, "across"), (100, "second"),
                         (100, "first")):
        for what, between in (("another NS record of the delegation", ["sub NS ns2.sub"]),
                              ("another owner's record", ["x A 192.0.2.9"]),
                              ("a comment", ["; between"]),
                              ("the glue spelled in upper case", None)):
            name = nm()
            a = split(rnd, total)
            r1, r2 = dup_runs(rnd, a, total - a, where)
            lines = ["sub NS ns.sub"] + [rr("A", "ns.sub", j, name) for j in r1]
            if between is None:
                lines += [rr("A", "NS.SUB", j, name) for j in r2]
            else:
                lines += between + [rr("A", "ns.sub", j, name) for j in r2]
            add(lines, "glue ns.sub A: runs of %d and %d (duplicate: %s), %s between" % (
                a, total - a, where, what))
    # the apex's or a delegation's own RRset, cut by a glue record or by another owner's
    for total, where in ((101, "none"), (100, "second"), (100, "across"), (100, "first")):
        for owner, kind, cut in (("@", "TXT", "ns A 192.0.2.2"), ("@", "TXT", "x A 192.0.2.2"),
                                 ("sub", "NS", "ns0.sub A 192.0.2.2"),
                                 ("sub", "NS", "x A 192.0.2.2")):
            name = nm()
            a = split(rnd, total)
            r1, r2 = dup_runs(rnd, a, total - a, where)
            if kind == "NS":   # one server in the zone (ns0.sub, given glue at the end)
                mk = lambda j: "sub NS %s" % ("n%d.out.invalid." % j if j else "ns0.sub")  # noqa
            else:
                mk = lambda j: rr("TXT", owner, j, name)  # noqa: E731
            lines = [mk(j) for j in r1] + [cut] + [mk(j) for j in r2]
            if kind == "NS":
                lines.append("ns0.sub A 192.0.2.3")
            add(lines, "%s %s: runs of %d and %d (duplicate: %s), '%s' between (%s)" % (
                owner, kind, a, total - a, where, cut, "glue" if cut.startswith("ns") else
                "another owner"))
    # the buffer: past 65,560 octets of RDATA at a name the batch is committed
    for k0 in (12, 41, 77, 90):
        for where in ("none", "dup before the cut", "dup at the cut", "dup after the cut",
                      "dup of the second batch", "101 records"):
            name = nm()
            fill = TSIZ - MAXLEN - 4 * k0 + 1   # the k0th A record leaves less than MAXLEN
            n = 101 if where == "101 records" else 100
            seq = list(range(n))
            if where == "dup before the cut":
                seq.insert(k0 - 1, rnd.choice(seq[:k0 - 1]))
            elif where == "dup at the cut":
                seq.insert(k0, rnd.choice(seq[:k0]))
            elif where == "dup after the cut":
                seq.insert(rnd.randint(k0, len(seq)), rnd.choice(seq[:k0]))
            elif where == "dup of the second batch":
                at = rnd.randint(k0 + 1, len(seq))
                seq.insert(at, rnd.choice(seq[k0:at]))
            add(big_records("h", fill) + [rr("A", "h", j, name) for j in seq],
                "h A: %d records (%s) after %d octets of RDATA at h: named's buffer is "
                "committed at A record %d" % (n, where, fill, k0))
    # names of many types
    for m in range(98, 103):
        add(types_at("h", m, rnd), "h: %d types (TYPEnnnnn)" % m)
        add(types_at("h", m, rnd, real=len(REAL_TYPES)), "h: %d types (%d real, TYPEnnnnn)" % (
            m, len(REAL_TYPES)))
        ts = types_at("h", m, rnd, real=20)
        cut = rnd.randint(1, m - 1)
        add(ts[:cut] + ["x A 192.0.2.9"] + ts[cut:], "h: %d types, another owner's record "
            "after %d" % (m, cut))
        add(ts[:cut] + [ln.replace("h ", "H ", 1) for ln in ts[cut:]],
            "h: %d types, the %d last spelled H" % (m, m - cut))
        add(ts[:cut] + ["$INCLUDE 1"], "h: %d types, %d of them in an included file" % (
            m, m - cut), {"1": ts[cut:]})
        add(types_at("@", m - 2, rnd, real=5), "apex: SOA, NS and %d other types" % (m - 2))
        add(["sub NS ns.sub"] + types_at("ns.sub", m, rnd),
            "glue ns.sub: %d types" % m)
        add(types_at("*.w", m, rnd, real=8), "wildcard *.w: %d types" % m)
    for m, sigs in ((99, ["TYPE65280"]), (100, ["TYPE65280"]), (99, ["A"]),
                    (98, ["TYPE65280", "A"]), (99, ["TYPE65280", "TYPE65280"]), (98, ["A", "AAAA"]),
                    (97, ["A", "AAAA"]), (99, ["A", "AAAA"]), (100, ["A", "A"]),
                    (96, ["TYPE65280", "TYPE65281", "TYPE65282", "A"]),
                    (97, ["TYPE65280", "TYPE65281", "TYPE65282", "A"])):
        name = nm()
        ts = types_at("h", m, rnd)
        sig = ["h RRSIG %s 8 3 300 20300101000000 20200101000000 %d %s. AAAA" % (c, k + 1, name)
               for k, c in enumerate(sigs)]
        at = rnd.randint(0, len(ts))
        add(ts[:at] + sig + ts[at:], "h: %d types and RRSIGs covering %s" % (m, ", ".join(sigs)))
    for m, extra in ((100, "NSEC3"), (100, "NSEC3 and its RRSIG"), (101, "NSEC3"),
                     (99, "NSEC3 and its RRSIG")):
        name = nm()
        lines = types_at(HASH, m, rnd) + [
            "%s NSEC3 1 0 0 - %s A" % (HASH, HASH.upper())]
        if "RRSIG" in extra:
            lines.append("%s RRSIG NSEC3 8 3 300 20300101000000 20200101000000 1 %s. AAAA" % (
                HASH, name))
        add(lines, "NSEC3 owner: %d types and %s" % (m, extra))
    # both limits at one name
    for m, n in ((100, 100), (100, 101), (101, 100)):
        name = nm()
        add(types_at("h", m - 1, rnd) + [rr("A", "h", j, name) for j in range(n)],
            "h: %d types, one of %d records" % (m, n))
    # (last, so that the cases above keep their names) runs named keeps apart behind a batch it
    # holds already, where the count differs as they are joined or not (named counts the
    # records it holds, each once, plus the run's, each once: a record in both counts twice):
    # k records at h, another owner's, then the owner's case changing between two runs, or a
    # $GENERATE at h in the middle of one run (named's loader keeps that run pending while it
    # adds each generated record, and adds the run, both its sides, after them)
    A = lambda owner, js: [rr("A", owner, 256 + j, "") for j in js]  # noqa: E731
    for k, b2, dup in ((10, 40, "the run before"), (10, 39, "the run before"),
                       (10, 40, "the held batch"), (10, 40, None)):
        again = {"the run before": [30], "the held batch": [3], None: []}[dup]
        add(A("h", range(k)) + ["x A 192.0.2.9"] + A("h", range(k, 60)) +
            A("H", list(range(60, 60 + b2)) + again),
            "h A: %d records, another owner's, %d records, %d others spelled H%s" % (
                k, 60 - k, b2, ", and one of %s again" % dup if dup else ""))
    for k, first, g in ((10, 50, 40), (10, 50, 39), (0, 60, 40)):
        add(A("h", range(k)) + ["x A 192.0.2.9"] + [rr("A", "h", 1, "")] +
            A("h", range(10, 10 + first - 1)) + ["$GENERATE 1-%d h A 10.0.0.$" % g] +
            A("h", [200]), "h A: %d records, another owner's, %d records (one of them "
            "10.0.0.1), $GENERATE of %d records (10.0.0.1 on), one other" % (k, first, g))
    for k in (10, 9, 8):
        add(A("h", range(k)) + ["x A 192.0.2.9"] + A("h", range(10, 60)) +
            ["$GENERATE 1-1 h A 10.0.0.$"] + A("h", list(range(60, 100)) + [30]),
            "h A: %d records, another owner's, 50 records, $GENERATE of one other, 40 others "
            "and one of the 50 again" % k)
    return cases


def write_limit_zones(d, rnd):
    """Writes the cases into d as l0.example.zone ... (includes: l0.example-1.inc ...); returns
    {name: what}."""
    whats = {}
    for name, lines, includes, what in limit_cases(rnd, lambda k: "l%d.example" % k):
        for inc, inc_lines in includes.items():
            path = os.path.join(d, "%s-%s.inc" % (name, inc))
            with open(path, "w") as f:
                f.write("\n".join(inc_lines) + "\n")
            lines = [("$INCLUDE %s" % path) if ln == "$INCLUDE " + inc else ln for ln in lines]
        with open(os.path.join(d, name + ".zone"), "w") as f:
            f.write("\n".join(HEAD + lines) + "\n")
        whats[name] = what
    return whats


# ---------------------------------------------------------------------------------------------
# named

def free_port():
    """A port of 127.0.0.1 nothing listens on, TCP nor UDP, from 20000 up."""
    rnd = random.Random()
    while True:
        port = rnd.randint(20000, 50000)
        try:
            for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
                with socket.socket(socket.AF_INET, kind) as s:
                    s.bind(("127.0.0.1", port))
            return port
        except OSError:
            continue


class Named:
    """One named in the foreground (-g: its log on standard error, read here line by line),
    stopped by its PID."""

    def __init__(self, conf):
        self.lines = []
        self.ended = False
        self.cond = threading.Condition()
        self.proc = subprocess.Popen(["named", "-g", "-c", conf], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True, errors="replace")
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stderr:
            with self.cond:
                self.lines.append(line.rstrip("\n"))
                self.cond.notify_all()
        with self.cond:
            self.ended = True
            self.cond.notify_all()

    def wait_for(self, *texts, timeout):
        """Waits until a line ending in each of texts has come, the log ends or timeout passes;
        whether all came."""
        def seen():
            return all(any(ln.endswith(x) for ln in self.lines) for x in texts)
        with self.cond:
            self.cond.wait_for(lambda: seen() or self.ended, timeout=timeout)
            return seen()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.reader.join()


# ---------------------------------------------------------------------------------------------

def compact(text, width=150):
    """A zone's text for a message, each line numbered: a long run of lines of one owner and
    type cut to its ends and the lines in it that repeat an earlier line, long lines cut."""
    lines = text.splitlines()
    first = {}
    for k, ln in enumerate(lines):
        first.setdefault(ln, k)
    out, i = [], 0

    def show(k):
        ln = "%4d  %s" % (k + 1, lines[k])
        if first[lines[k]] != k and lines[k].strip() and not lines[k].startswith(";"):
            ln += "   <- again, as line %d" % (first[lines[k]] + 1)
        return ln if len(ln) <= width else ln[:width] + "..."
    while i < len(lines):
        key = lines[i].split()[:2]
        j = i + 1
        while j < len(lines) and key and lines[j].split()[:2] == key and \
                not lines[j].startswith("$"):
            j += 1
        if j - i > 6:
            inner = [k for k in range(i + 3, j - 2) if first[lines[k]] != k]
            out += [show(k) for k in range(i, i + 3)]
            last = i + 2
            for k in inner:
                if k > last + 1:
                    out.append("      ... %d lines like these ..." % (k - last - 1))
                out.append(show(k))
                last = k
            if j - 2 > last + 1:
                out.append("      ... %d lines like these ..." % (j - 2 - last - 1))
            out += [show(k) for k in range(j - 2, j)]
        else:
            out += [show(k) for k in range(i, j)]
        i = j
    return "\n".join(out)


def zone_text(d, name):
    """The zone file name in d, and the files it includes, for a message."""
    text = open(os.path.join(d, name + ".zone")).read()
    shown = compact(text)
    for inc in re.findall(r"^\$INCLUDE (\S+)", text, re.M):
        if os.path.exists(inc):
            shown += "\n%s:\n%s" % (os.path.basename(inc), compact(open(inc).read()))
    return shown


def judge(name, path, out, written):
    """zonepuny's verdict on the zone name in path, and its output in out when it passes; when
    it refuses the zone for the load limits alone, its output with the limits off in written."""
    p = subprocess.run([zonepuny, "--check", "-z", name + ".", path], capture_output=True,
                       text=True)
    r = {"rc": p.returncode, "stderr": p.stderr, "deliberate": False, "load_only": False}
    if p.returncode == 0:
        c = subprocess.run([zonepuny, "-z", name + ".", "-o", out, path], capture_output=True,
                           text=True)
        r["convert_rc"], r["convert_stderr"] = c.returncode, c.stderr
    elif p.returncode == 1:
        r["deliberate"] = deliberate_refusal(zonepuny, name, path, p.stderr)
        r["load_only"] = load_limit_only(p.stderr)
        if r["load_only"]:
            c = subprocess.run([zonepuny, "--max-records-per-type", "0", "--max-types-per-name",
                                "0", "-z", name + ".", "-o", written, path], capture_output=True,
                               text=True)
            r["written_rc"], r["written_stderr"] = c.returncode, c.stderr
    return r


def load_limit_only(stderr):
    """Whether zonepuny told errors, every one of them a [-Wload-limit] error."""
    errors = [ln for ln in stderr.splitlines() if ": error: " in ln]
    return bool(errors) and all(ln.endswith("[-Wload-limit]") for ln in errors)


def errors_of(stderr):
    return " | ".join(ln for ln in stderr.splitlines() if ": error: " in ln)[:600]


def write_conf(path, d, zones, options=""):
    """A named.conf of directory d: options, then zones, {view: [(name, file)]} (view None:
    no view statement)."""
    with open(path, "w") as f:
        f.write('options {\n  directory "%s";\n%s};\n' % (d, options))
        for view, zs in zones.items():
            if view:
                f.write('view "%s" {\n' % view)
            for n, file in zs:
                f.write('zone "%s" { type primary; file "%s"; };\n' % (n, file))
            if view:
                f.write("};\n")


def run_named(d, views):
    """Starts named with the views, waits until it has loaded them all, stops it; its log, and
    named-checkconf -z's output for each view's zones (read meanwhile, a process a view: it
    names no view in what it tells)."""
    conf = os.path.join(d, "named.conf")
    write_conf(conf, d, views, (
        '  pid-file "%s/named.pid";\n  session-keyfile "%s/session.key";\n'
        '  managed-keys-directory "%s";\n  listen-on port %d { 127.0.0.1; };\n'
        '  listen-on-v6 { none; };\n  recursion no;\n  notify no;\n') % (d, d, d, free_port()))
    with open(conf, "a") as f:
        f.write("controls { };\n")   # no rndc channel: nothing but the DNS port is opened
    checkconf = {}
    try:
        for view, zones in views.items():
            vconf = os.path.join(d, "%s.conf" % view)
            write_conf(vconf, d, {None: zones})
            with open(vconf + ".out", "w") as out:
                checkconf[view] = subprocess.Popen(["named-checkconf", "-z", vconf], stdout=out,
                                                   stderr=subprocess.DEVNULL)
        named = Named(conf)
        try:
            up = named.wait_for("all zones loaded", " running", timeout=DEADLINE)
        finally:
            named.stop()
        if not up:
            t.bad("named did not load its zones within %gs (exit status %s):\n  %s" % (
                DEADLINE, named.proc.returncode, "\n  ".join(named.lines[-15:])), show=True)
            return None, None
        for p in checkconf.values():
            p.wait()
        return named.lines, {view: open(os.path.join(d, "%s.conf.out" % view)).read()
                             for view in views}
    finally:
        for p in checkconf.values():
            if p.poll() is None:
                p.kill()
                p.wait()


def main():
    for tool in ("named", "named-checkconf"):
        if not shutil.which(tool):
            t.skip("%s not installed (bind9, bind9-utils)" % tool)
            t.finish()
    if os.geteuid() != 0:
        t.skip("named is started as root here (it must bind and read as any user)")
        t.finish()
    # a test stopped from outside still stops named and removes its files
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as d:
        ind, outd, wrd = (os.path.join(d, x) for x in ("in", "out", "written"))
        for x in (ind, outd, wrd):
            os.mkdir(x)
        names = write_zones(ind, ZONES, SEED)
        whats = write_limit_zones(ind, random.Random(SEED))
        names += sorted(whats, key=lambda n: int(n[1:].split(".")[0]))

        pool = concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2)
        try:
            futures = {n: pool.submit(judge, n, os.path.join(ind, n + ".zone"),
                                      os.path.join(outd, n + ".zone"),
                                      os.path.join(wrd, n + ".zone")) for n in names}
            ours = {n: f.result() for n, f in futures.items()}
        finally:   # stopped from outside: the zones not yet begun are left
            pool.shutdown(cancel_futures=True)
        passed = [n for n in names if ours[n]["rc"] == 0 and ours[n].get("convert_rc") == 0]

        # the view "output" has zonepuny's output of each zone it passes, "input" every file,
        # "written" zonepuny's output with the load limits off of each zone it refuses for them
        # alone: all in one named
        written = [n for n in names if ours[n]["rc"] == 1 and ours[n].get("written_rc") == 0]
        views = {"output": [(n, "out/%s.zone" % n) for n in passed],
                 "input": [(n, "in/%s.zone" % n) for n in names],
                 "written": [(n, "written/%s.zone" % n) for n in written]}
        log, checkconf = run_named(d, views)
        if log is None:
            t.finish()
        verdicts = {}   # (view, name): "loaded" or "refused"
        for ln in log:
            m = re.search(r"zone (\S+)/IN/(output|input|written): (loaded serial|not loaded due "
                          r"to errors)", ln)
            if m:
                verdicts[(m.group(2), m.group(1))] = "loaded" if m.group(3).startswith(
                    "loaded") else "refused"
        missing = [(v, n) for v, zones in views.items() for n, _ in zones if (v, n) not in verdicts]
        if missing:
            t.bad("named gave no verdict on %d zones: %s" % (
                len(missing), ", ".join("%s/%s" % m for m in missing[:10])), show=True)

        def told(view, name):
            """named's lines about the zone name in view, their time stamps cut: those naming
            the zone and view or its files, and a line naming the zone alone ("error adding
            'h.NAME/A' in 'NAME/IN'") just before one of them."""
            keys = ["%s/IN/%s" % (name, view), " %s:" % dict(views[view])[name]]
            if view == "input":
                keys.append("/%s-" % name)   # its included files
            hit = [any(k in ln for k in keys) for ln in log] + [False]
            return [re.sub(r"^\d\d-\w\w\w-\d{4} [\d:.]+ ", "", ln)
                    for i, ln in enumerate(log) if hit[i] or (
                        hit[i + 1] and "'%s/IN'" % name in ln)]

        # the verdicts; a disagreement's last field: the views whose log lines it shows
        both_load, both_refuse, disagree = [], [], []
        deliberate, deliberate_written = [], []   # DNSSEC; the written zone named refuses
        for n in names:
            r = ours[n]
            if r["rc"] not in (0, 1):
                disagree.append((n, "zonepuny exits %d: %s" % (
                    r["rc"], r["stderr"].strip()[-300:]), ()))
            elif r["rc"] == 0 and r["convert_rc"] != 0:
                disagree.append((n, "zonepuny --check passes it, its conversion exits %d: %s" % (
                    r["convert_rc"], errors_of(r["convert_stderr"])), ()))
            elif r["rc"] == 0:
                out_v, in_v = verdicts.get(("output", n)), verdicts.get(("input", n))
                if out_v == "refused":
                    disagree.append((n, "zonepuny passes it, named refuses its output (%s the "
                                     "file as written)" % ("loads" if in_v == "loaded" else
                                                           "and refuses"), ("output",)))
                elif in_v == "refused":
                    disagree.append((n, "zonepuny passes it, named loads its output but refuses "
                                     "the file as written", ("input",)))
                elif out_v and in_v:
                    both_load.append(n)
            else:
                in_v, w_v = verdicts.get(("input", n)), verdicts.get(("written", n))
                if in_v == "refused" and r["deliberate"]:
                    # named checks no signature: what it refuses, --dnssec=off must refuse too
                    disagree.append((n, "zonepuny refuses it for the DNSSEC checks alone and "
                                     "passes it with --dnssec=off, named refuses it", ("input",)))
                elif in_v == "refused":
                    both_refuse.append(n)
                elif not in_v:
                    pass   # (no verdict: told above)
                elif r["deliberate"]:
                    deliberate.append(n)
                elif not r["load_only"]:
                    disagree.append((n, "zonepuny refuses it, named loads it", ("input",)))
                # the load limits alone: named must refuse the zone zonepuny writes
                elif r["written_rc"] != 0:
                    disagree.append((n, "zonepuny refuses it for the load limits alone, named "
                                     "loads it; with the limits off zonepuny exits %d and "
                                     "writes nothing: %s" % (
                                         r["written_rc"], errors_of(r["written_stderr"]) or
                                         r["written_stderr"].strip()[-300:]), ("input",)))
                elif w_v == "refused" and any("too many records" in ln
                                              for ln in told("written", n)):
                    deliberate_written.append(n)
                elif w_v == "refused":
                    disagree.append((n, "zonepuny refuses it for the load limits alone, named "
                                     "loads it and refuses the zone zonepuny writes, not for a "
                                     "load limit", ("input", "written")))
                elif w_v == "loaded":
                    disagree.append((n, "zonepuny refuses it for the load limits alone, named "
                                     "loads it and loads the zone zonepuny writes (the limits "
                                     "off) too", ("input", "written")))
                else:
                    disagree.append((n, "zonepuny refuses it for the load limits alone, named "
                                     "loads it and gave the zone zonepuny writes no verdict",
                                     ("input",)))
        for _ in both_load + both_refuse + deliberate + deliberate_written:
            t.ok()
        for n, why, vs in disagree:
            t.bad("%s%s: %s\n  named: %s\n  zonepuny: %s\n  zone:\n    %s" % (
                n, " (%s)" % whats[n] if n in whats else "", why,
                " | ".join(("[%s] " % v if len(vs) > 1 else "") + ln
                           for v in vs for ln in told(v, n))[:800] or "-",
                errors_of(ours[n]["stderr"]) or "-", zone_text(ind, n).replace("\n", "\n    ")))

        def some(zones):
            return " ".join(zones[:8]) + (" ..." if len(zones) > 8 else "")
        print("named (%s): %d zones (%d near the load limits)" % (named_version(), len(names),
                                                                   len(whats)))
        print("  agree: %d (%d loaded by both, %d refused by both)" % (
            len(both_load) + len(both_refuse), len(both_load), len(both_refuse)))
        print("  deliberate (DNSSEC): %d: signed zones refused by the DNSSEC checks alone, passed "
              "with --dnssec=off, which named serves: %s" % (len(deliberate), some(deliberate)))
        print("  deliberate (the written zone named refuses): %d: refused by the load limits "
              "alone; named loads the file and refuses for a load limit the zone zonepuny "
              "writes with the limits off: %s" % (len(deliberate_written),
                                                  some(deliberate_written)))
        print("  disagreements: %d (%d near the limits)" % (
            len(disagree), len([x for x in disagree if x[0] in whats])))
        kinds = {}
        for _, why, _ in disagree:
            kind = why.split(":")[0]
            kinds[kind] = kinds.get(kind, 0) + 1
        for why, k in sorted(kinds.items()):
            print("    %d: %s" % (k, why))

        # the second oracle
        only_named = 0
        for view, zones in views.items():
            out = checkconf[view]
            cloaded = set(re.findall(r"^zone (\S+)/IN: loaded serial", out, re.M))
            crefused = set(re.findall(r"^zone (\S+)/IN: not loaded due to errors", out, re.M))
            for n, _ in zones:
                v = verdicts.get((view, n))
                if v is None:
                    continue
                if n not in cloaded and n not in crefused:
                    t.bad("named-checkconf -z gave %s/%s no verdict" % (view, n), show=True)
                elif n in crefused and v == "loaded":
                    t.bad("%s/%s: named-checkconf -z refuses it, named loads it" % (view, n))
                elif n in cloaded and v == "refused":
                    if any("too many records" in ln for ln in told(view, n)):
                        only_named += 1
                        t.ok()
                    else:
                        t.bad("%s/%s: named refuses it, not for a load limit, named-checkconf "
                              "-z loads it: %s" % (view, n, " | ".join(told(view, n))[:400]))
                else:
                    t.ok()
        print("named-checkconf -z: named's verdicts on the %d zone files of the views, but on %d "
              "named refuses for a load limit" % (sum(len(z) for z in views.values()),
                                                  only_named))

        # one process
        p = subprocess.run([zonepuny, "--check", "--format=json", "--max-errors=0", ind],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            t.bad("--check DIR: zonepuny exits %d: %s" % (p.returncode, p.stderr.strip()[-300:]),
                  show=True)
        else:
            refused = set()
            for line in p.stdout.splitlines():
                diag = json.loads(line)
                if diag["severity"] == "error":
                    top = diag["include_chain"][-1]["file"] if diag["include_chain"] \
                        else diag["file"]
                    refused.add(os.path.basename(top)[:-len(".zone")])
            same = 0
            for n in names:
                if (n in refused) == (ours[n]["rc"] == 1):
                    same += 1
                    t.ok()
                else:
                    t.bad("--check DIR: %s %s there, %s alone" % (
                        n, "refused" if n in refused else "passed",
                        "refused" if ours[n]["rc"] == 1 else "passed"))
            print("--check DIR: %d of %d zones the verdict they get alone, in one process" % (
                same, len(names)))
        print("(%.0f s)" % (time.monotonic() - started))
    t.need_pass("named load verdicts")
    t.finish()


def named_version():
    p = subprocess.run(["named", "-v"], capture_output=True, text=True)
    return p.stdout.strip() or "named"


if __name__ == "__main__":
    main()
