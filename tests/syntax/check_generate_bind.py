#!/usr/bin/python3
"""check_generate_bind.py -- $GENERATE read as named reads it, differentially.

Seeded random $GENERATE lines (ranges with and without a step, offsets with a sign, widths,
every base d o x X n N, \\$ and $$, text around each $ in the owner, an optional TTL and class in
either order, the types A, AAAA, PTR, CNAME, NS, MX, SRV, TXT and DNAME, the right-hand side a
bare or a quoted token: quoted, it is RDATA text of several fields, with inner quotes, escapes,
parentheses and comments), and records with a blank owner after some of them, go into one zone
per batch, with fixed lines for the cases named was seen to read otherwise than zonepuny did.
named-compilezone -s full loads each batch once (the oracle); zonepuny converts the
same file; both outputs are read back through dnspython into canonical records (owner and
RDATA names lowercased, RDATA in RFC 4034 section 6.2 wire form), which must be the same set,
directive by directive: every owner a directive makes lies under a label of its own, dK. Half
the batches have $TTL, half do not (the last TTL stated, a $GENERATE's own included, is then
the default, RFC 1035 section 5.1). check-names and named's integrity checks are off on both
sides: this is about reading the directive.

Then a list of directives named refuses, one zone each: named must still refuse it (else the
list is stale) and zonepuny must exit 1.

GEN_SEED=N picks another seed (the default is fixed; the seed is printed); GEN_KEEP=DIR keeps
the zones and named's output there.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import dns.name
import dns.rdata
import dns.rdataclass
import dns.rdatatype

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

zonepuny = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
t = Tally(shown=30)
os.environ["PATH"] = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
compilezone = shutil.which("named-compilezone")
if not compilezone:
    t.skip("named-compilezone not installed")
    t.finish()

SEED = int(os.environ.get("GEN_SEED", "20240607"))
BATCHES = 4
DIRECTIVES = 1000       # random ones per batch
ORIGIN = dns.name.from_text("example.")
NAMED_ARGS = ["-k", "ignore", "-n", "ignore", "-m", "ignore", "-r", "ignore", "-i", "none",
              "-M", "ignore", "-S", "ignore", "-W", "ignore", "-s", "full"]
ZP_ARGS = ["-q", "--check-names=ignore"]

print("seed %d" % SEED)
rnd = random.Random(SEED)


def ref(lo, hi, bases="d", width=(0, 0), start=0, stop=0):
    """A $ reference whose values (start..stop with its offset) stay in lo..hi."""
    if rnd.random() < 0.3 and lo <= start and stop <= hi:
        return "$"
    off_lo, off_hi = lo - start, hi - stop
    if off_lo > off_hi:
        return "$"
    off = rnd.randint(max(off_lo, -300), min(off_hi, 300))
    text = ("+%d" % off if off >= 0 and rnd.random() < 0.3 else str(off))
    if rnd.random() < 0.2:
        return "${%s}" % text
    w = rnd.randint(*width)
    if rnd.random() < 0.3 and bases == "d":
        return "${%s,%d}" % (text, w)
    return "${%s,%d,%s}" % (text, w, rnd.choice(bases))


def word(n=None):
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return "".join(rnd.choice(letters) for _ in range(n or rnd.randint(1, 5)))


def owner(k, rtype, start, stop):
    """The owner template: text and references, under its own label dK."""
    nibble_ok = rtype not in ("NS", "DNAME")   # names of several lengths: one below another
    bases = "doxXnN" if nibble_ok else "doxX"
    parts = []
    if rnd.random() < 0.5:
        parts.append(word())
    if rnd.random() < 0.15 and rtype != "NS":
        parts.append(rnd.choice(["\\$", "$$"]))
    for _ in range(rnd.randint(1, 2)):
        if parts and parts[-1] == "$":
            parts.append(word())   # "$" then "${...}" would be "$$" then "{...}"
        r = ref(-2147483648, 2147483647, bases, (0, 12), start=start, stop=stop)
        parts.append(r)
        if r.endswith("n}") or r.endswith("N}") or rnd.random() < 0.3:
            parts.append(word())   # a nibble's trailing dot needs a label after it
    lhs = "".join(parts) + ".d%d" % k
    if rnd.random() < 0.05 and rtype in ("TXT", "A"):
        lhs = "*." + lhs
    return lhs


def quote(s):
    return '"' + s + '"'


def rhs(rtype, start, stop):
    """The right-hand side token for rtype, values start..stop."""
    q = rnd.random() < 0.5
    if rtype == "A":
        text = "10.%s.%d.%s" % (ref(0, 255, "d", start=start, stop=stop), rnd.randint(0, 255),
                                ref(0, 255, "d", start=start, stop=stop))
    elif rtype == "AAAA":
        text = "2001:db8:%s::%s" % (ref(0, 65535, "xX", (0, 4), start=start, stop=stop),
                                    ref(0, 9999, "d", (0, 4), start=start, stop=stop))
    elif rtype in ("PTR", "CNAME", "NS", "DNAME"):
        r = ref(-1000, 10 ** 6, "doxXnN", (0, 8), start=start, stop=stop)
        text = "%s%s%s.%s" % (word(), r, word() if r[-2:] in ("n}", "N}") else "",
                              rnd.choice(["example.", "t.example.", "x", "other.test."]))
    elif rtype == "MX":
        text = "%s %s%s" % (ref(0, 65535, "d", start=start, stop=stop), word(),
                            ref(0, 10 ** 6, "dxn", (0, 6), start=start, stop=stop))
        if rnd.random() < 0.2:
            text = "( %s )" % text
        q = True
    elif rtype == "SRV":
        text = "%d %s %s srv%s.example." % (
            rnd.randint(0, 9), ref(0, 65535, "d", start=start, stop=stop),
            ref(0, 65535, "d", start=start, stop=stop), ref(0, 10 ** 6, "x", start=start, stop=stop))
        q = True
    else:
        return txt(start, stop)
    return quote(text) if q else text


def txt(start, stop):
    """A TXT right-hand side: a bare token, or a quoted one of several fields."""
    if rnd.random() < 0.2:
        return rnd.choice(["a$b", "a\\ b$", "x\\\"y$", "$$${1,3,x}", "\\$\\\\$", "\\065$"])
    pieces = []
    for _ in range(rnd.randint(1, 5)):
        r = rnd.random()
        if r < 0.35:
            pieces.append(word() + ref(-2147483648, 2147483647, "doxXnN", (0, 127), start=start,
                                       stop=stop) + rnd.choice(["", word()]))
        elif r < 0.5:
            pieces.append('\\"' + word() + " " + ref(-10, 10, "d", start=start, stop=stop) + '\\"')
        elif r < 0.6:
            pieces.append(rnd.choice(["\\\\$", "\\$", "$$", "\\065", "\\\\\\\\", "a\\;b", "v=spf1",
                                      "ip4:192.0.2.$", "-all", '\\"\\"']))
        elif r < 0.7:
            pieces.append("( " + word() + " )")
        else:
            pieces.append(word())
    sep = rnd.choice([" ", "  ", "\t", " "])
    text = sep.join(pieces)
    if rnd.random() < 0.1:
        text += " ; note " + ref(0, 99, "d", start=start, stop=stop)
    return quote(text)


TYPES = ["A", "AAAA", "PTR", "CNAME", "NS", "MX", "SRV", "TXT", "TXT", "DNAME"]
SPELL = {"A": ["a", "TYPE1"], "TXT": ["txt", "TYPE16"], "MX": ["mx"], "NS": ["ns"]}


def directive(k):
    rtype = rnd.choice(TYPES)
    step = rnd.randint(1, 4)
    count = rnd.randint(1, 6)
    start = rnd.randint(0, 120)
    stop = start + (count - 1) * step + rnd.randint(0, step - 1)
    if step == 1 and rnd.random() < 0.5:
        rng = "%d-%d" % (start, stop)
    else:
        rng = "%d-%d/%d" % (start, stop, step)
    if start == stop and rnd.random() < 0.5:
        rng = "%d-%d" % (start, stop)
    lhs = owner(k, rtype, start, stop)
    meta = []
    if rnd.random() < 0.4:
        meta.append(rnd.choice(["60", "300", "3600", "1h", "2m", "1d", "86400", "1w", "90s"]))
    if rnd.random() < 0.3:
        meta.append(rnd.choice(["IN", "in", "CLASS1"]))
    rnd.shuffle(meta)
    spelled = rtype
    if rtype in SPELL and rnd.random() < 0.15:
        spelled = rnd.choice(SPELL[rtype])
    middle = [lhs] + meta + [spelled]
    r = rnd.random()
    if r < 0.05:       # parentheses closed before the right-hand side, across a line
        middle = ["("] + middle[:-1] + [";", "c\n", ")", middle[-1]]
    elif r < 0.1:
        middle = middle[:-1] + ["(", middle[-1], ")"]
    tail = []
    r = rnd.random()
    if r < 0.05:       # and opened after it
        tail = ["(", "; c\n", ")"]
    elif r < 0.1:
        tail = ["; c $ ${x}"]
    return " ".join(["$GENERATE", rng] + middle + [rhs(rtype, start, stop)] + tail)


# Fixed lines of the brief's cases, in every batch; {d} is the directive's own label.
FIXED = [
    '$GENERATE 1-2 h$.{d} TXT "v=spf1 ip4:192.0.2.$ -all"',
    '$GENERATE 1-2 h$.{d} MX "10 mx$"',
    '$GENERATE 1-2 h$.{d} TXT "\\"a b\\" $ \\$ \\\\$ \\065 $$ ( x ) ; c"',
    '$GENERATE 0-40/7 ${0,3,n}z.{d} TXT "${0,3,n} ${0,4,N} ${0,2,n} ${0,9,n} ${0,1,n}"',
    '$GENERATE 0-2 h$.{d} TXT "${-2,0,x} ${-2,0,X} ${-2,0,o} ${-2,5,d} ${-2,12,x} ${-2,0,n} '
    '${-2,20,N} ${-2147483648,0,x}"',
    '$GENERATE 0-0 o${-1,0,o}x${-1,0,x}.${-1,0,n}.{d} A 192.0.2.1',
    '$GENERATE 1-2 h$.{d} (A) 192.0.2.$ ( )',
    '$GENERATE 1-2 ( h$.{d} 77 ) IN A 192.0.2.$ (\n)',
    '$GENERATE 1-1 h$.{d} TXT ${0,127}',
    '$GENERATE 2147483646-2147483647 h$.{d} TXT $',
]


def batch(b):
    """One zone: header, then lines; returns the text and each directive's line by label."""
    have_ttl = b % 2 == 0
    lines = ["$ORIGIN example."]
    if have_ttl:
        lines += ["$TTL 300", "@ SOA ns h 1 2 3 4 5"]
    else:
        lines += ["@ 100 SOA ns h 1 2 3 4 5"]
    lines += ["@ NS ns", "ns A 192.0.2.1"]
    dirs = {}
    k = 0
    texts = [f.replace("{d}", "d%d" % i) for i, f in enumerate(FIXED)]
    k = len(FIXED)
    for _ in range(DIRECTIVES):
        texts.append(directive(k))
        k += 1
    for i, text in enumerate(texts):
        blank = rnd.random() < 0.15
        if blank or rnd.random() < 0.05:
            lines.append("o%d 555 A 192.0.2.%d" % (i, i % 250))
        lines.append(text)
        dirs["d%d" % i] = text
        if blank:
            # a blank owner: the owner in force before the directive (oI), as named
            lines.append(rnd.choice(["\t", " ", "  "]) + '777 TXT "b%d"' % i)
    return "\n".join(lines) + "\n", dirs


def records(text, where):
    """Canonical records of a zone file in one-record-per-line form: {label: set}."""
    out = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith(";"):
            continue
        f = re.split(r"\s+", line.strip(), maxsplit=4)
        if len(f) < 4:
            t.bad("%s: unreadable line %r" % (where, line))
            continue
        name = dns.name.from_text(f[0]).canonicalize()
        rc = dns.rdataclass.from_text(f[2])
        rt = dns.rdatatype.from_text(f[3])
        try:
            rd = dns.rdata.from_text(rc, rt, f[4] if len(f) > 4 else "", origin=dns.name.root)
        except Exception as e:  # noqa: BLE001 - report any parse failure as a test failure
            t.bad("%s: dnspython cannot read %r: %s" % (where, line, e))
            continue
        rel = name.relativize(ORIGIN)
        label = rel.labels[-1].decode() if name.is_subdomain(ORIGIN) and rel.labels else "@"
        if not re.fullmatch(r"d[0-9]+", label):
            label = "other"
        out.setdefault(label, set()).add((name.to_text(), int(f[1]), rt,
                                          rd.to_digestable(dns.name.root), rd.to_text()))
    return out


def show(recs):
    return "\n    ".join("%s %d %s %s" % (r[0], r[1], dns.rdatatype.to_text(r[2]), r[4])
                         for r in sorted(recs)[:6])


with tempfile.TemporaryDirectory() as tmp:
    tmp = os.environ.get("GEN_KEEP", tmp)
    for b in range(BATCHES):
        text, dirs = batch(b)
        zone = os.path.join(tmp, "b%d.zone" % b)
        open(zone, "w").write(text)
        bind_out = os.path.join(tmp, "b%d.bind" % b)
        p = subprocess.run([compilezone] + NAMED_ARGS + ["-o", bind_out, "example.", zone],
                           capture_output=True, text=True)
        if p.returncode != 0:
            t.bad("batch %d: named refuses it (a generator bug, or named's rules moved):\n%s"
                  % (b, (p.stdout + p.stderr)[-1500:]), show=True)
            continue
        z = subprocess.run([zonepuny] + ZP_ARGS + [zone], capture_output=True, text=True)
        if z.returncode != 0:
            t.bad("batch %d: zonepuny exits %d where named loads the zone:\n%s"
                  % (b, z.returncode, z.stderr[:1500]), show=True)
            continue
        want = records(open(bind_out).read(), "named batch %d" % b)
        got = records(z.stdout, "zonepuny batch %d" % b)
        for label in sorted(set(want) | set(got) | set(dirs), key=lambda s: (len(s), s)):
            w, g = want.get(label, set()), got.get(label, set())
            # the canonical part of each record decides, not its text
            wk, gk = {r[:4] for r in w}, {r[:4] for r in g}
            if wk == gk and (w or label not in dirs):
                t.ok()
                continue
            t.bad("batch %d %s: %s\n  named only:\n    %s\n  zonepuny only:\n    %s"
                  % (b, label, dirs.get(label, "(no directive)"),
                     show({r for r in w if r[:4] not in gk}),
                     show({r for r in g if r[:4] not in wk})))

    # Directives named refuses: zonepuny must refuse each (exit 1).
    long_rhs = '"a ;' + "${0,127}" * 516 + '"'
    refused = [
        "$GENERATE 1-2 h$ MX 10 mx$",            # named: one RHS token, then extra input
        "$GENERATE 1-2 h$ TXT a b",
        "$GENERATE 1-2 h$ MX",
        '$GENERATE 1-2 "h$" A 192.0.2.$',         # quotes only around the RHS
        '$GENERATE "1-2" h$ A 192.0.2.$',
        '$GENERATE 1-2 h$ "A" 192.0.2.$',
        "$GENERATE 1-2 ( h$ A 192.0.2.$ )",        # the RHS read inside parentheses
        "$GENERATE 1-2 h$ A (192.0.2.$)",
        "$GENERATE 1-2 h$ A 192.0.2.$ )",
        "$GENERATE 1-2 h$ TXT a(b)",
        '$GENERATE 1-2 h$ TXT a"b$"',
        '$GENERATE 1-2 h$ TXT "a ) b"',             # the RHS as RDATA text
        '$GENERATE 1-2 h$ TXT "a ( b"',
        '$GENERATE 1-2 h$ TXT "a \\"b"',
        '$GENERATE 1-2 h$ TXT ""',
        '$GENERATE 1-2 h$ MX "10 mx$ extra"',
        '$GENERATE 1-2 h$ TXT "a;${x}"',            # a bad reference, in a comment too
        "$GENERATE 1-2 h$ TXT " + long_rhs,        # past 65511 characters substituted
        "$GENERATE 1-2 h$ IN 30 IN A 192.0.2.$",
        "$GENERATE 1-2 h$ 30 IN 40 A 192.0.2.$",
        "$GENERATE 1-2 h$ CH A 192.0.2.$",          # not the zone's class
        "$GENERATE 1-2 h$ FOO x",
        "$GENERATE 1-2 h$ ANY 192.0.2.$",
        "$GENERATE 1-2 h${1,} A 192.0.2.1",
        "$GENERATE 1-2 h${1,3,} A 192.0.2.1",
        "$GENERATE 1-2 h${1,3,q} A 192.0.2.1",
        "$GENERATE 1-2 h${1x} A 192.0.2.1",
        "$GENERATE 1-2 h${} A 192.0.2.1",
        "$GENERATE 1-2 h${1 A 192.0.2.1",
        "$GENERATE 1-2 h$ TXT ${0,128}",            # a number past 127 characters
        "$GENERATE 1-2 h$ TXT ${0,128,n}",
        "$GENERATE 1-2 h$ TXT ${2147483647}",       # a value past 2^31-1
        "$GENERATE 2-1 h$ A 192.0.2.1",
        "$GENERATE 1-2/0 h$ A 192.0.2.1",
        "$GENERATE 1 h$ A 192.0.2.1",
        "$GENERATE 1-2/ h$ A 192.0.2.1",
        "$GENERATE -1-2 h$ A 192.0.2.1",
        "$GENERATE 1-2/4294967295 h$ A 192.0.2.1",
        "$GENERATE 1-1/2147483648 h$ A 192.0.2.1",
        "$GENERATE 2147483648-2147483648 h$ A 192.0.2.1",
        "$GENERATE 1-2 h$..x TXT a",
        "$GENERATE 250-260 h$ A 192.0.2.$",
        "$GENERATE 1-2 h$ A 192.0.2.$x",
        "$GENERATE 1-2 h${0,2,n}.x TXT a",           # "1..x": the nibbles' trailing dot
    ]
    apex = "@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n"
    zones = [apex + line + "\n" for line in refused]
    # a blank owner after the directive with no owner before it (named: "no current owner name")
    zones.append("$GENERATE 1-2 h$ A 192.0.2.$\n  TXT x\n" + apex)
    for i, body in enumerate(zones):
        zone = os.path.join(tmp, "r%d.zone" % i)
        open(zone, "w").write("$ORIGIN example.\n$TTL 300\n" + body)
        shown = body.replace(apex, "").strip()
        shown = shown if len(shown) < 80 else shown[:60] + "..."
        p = subprocess.run([compilezone] + NAMED_ARGS + ["-o", os.devnull, "example.", zone],
                           capture_output=True, text=True)
        if p.returncode == 0:
            t.bad("named now loads %r: take it off the list" % shown)
            continue
        z = subprocess.run([zonepuny] + ZP_ARGS + [zone], capture_output=True, text=True)
        if z.returncode == 1 and not z.stdout:
            t.ok()
        else:
            t.bad("zonepuny exits %d on %r, which named refuses" % (z.returncode, shown))
t.need_pass("nothing compared")
t.finish()
