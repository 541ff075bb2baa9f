#!/usr/bin/env python3
"""check_diff.py -- zonepuny --diff OLD NEW: the records only one zone holds.

Hand-derived cases hold the three formats, the exit status (0 the same records, 1 they differ,
2 trouble, as diff(1)) and what is no difference (order, case, TTL spelling, UTF-8 or ACE, RFC
3597 form, a record written twice, $INCLUDE layout). Then a differential on generated zones and on the zones held in zones/,
mutated alike in their UTF-8 and ACE twins (../shared/genzone.py): zonepuny --diff of the UTF-8
pair against the set difference of named-compilezone's dumps of the ACE pair, and against
ldns-compare-zones, counted per owner and type. ldns-compare-zones does not compare TTLs: a
record whose TTL alone changed is left out of that comparison.
"""
import collections
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

t = Tally(shown=40)
ZP = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
GENZONE = os.path.join(REPO_DIR, "..", "shared", "genzone.py")
tmp = tempfile.mkdtemp(prefix="zp-diff-")


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def zp(*args):
    return subprocess.run([ZP, *args], capture_output=True, text=True, timeout=600)


def expect(what, got, want):
    if got == want:
        t.ok()
    else:
        t.bad("%s: got %r, want %r" % (what, got, want))


HEAD = "$ORIGIN example.\n$TTL 3600\n@ IN SOA ns1 hostmaster %s 7200 3600 1209600 3600\n@ IN NS ns1\n"
OLD = HEAD % "2024010101" + """ns1 IN A 192.0.2.1
münchen IN A 192.0.2.7
www IN A 192.0.2.10
www IN A 192.0.2.11
mail 300 IN MX 10 mx
"""
NEW = HEAD % "2024010102" + """ns1 IN A 192.0.2.1
xn--mnchen-3ya IN A 192.0.2.7
www IN A 192.0.2.10
www IN A 192.0.2.12
mail 600 IN MX 10 mx
new IN TXT "hello"
"""
old, new = write("old.zone", OLD), write("new.zone", NEW)

# By hand: the SOA's serial changed (one record out, one in); münchen's A is xn--mnchen-3ya's;
# www lost .11 and gained .12; mail's MX kept its RDATA with TTL 300 -> 600; new.example. is
# new. In canonical order (RFC 4034 section 6.1): example. < mail < new < www.
SOA = "example.\t3600\tIN\tSOA\tns1.example. hostmaster.example. %s 7200 3600 1209600 3600"
WANT_TEXT = "\n".join([
    "-" + SOA % "2024010101",
    "+" + SOA % "2024010102",
    "~mail.example.\t600\tIN\tMX\t10 mx.example. ; TTL was 300",
    "+new.example.\t3600\tIN\tTXT\t\"hello\"",
    "-www.example.\t3600\tIN\tA\t192.0.2.11",
    "+www.example.\t3600\tIN\tA\t192.0.2.12",
]) + "\n"
r = zp("--diff", old, new)
expect("text lines", r.stdout, WANT_TEXT)
expect("text exit status", r.returncode, 1)
expect("summary", r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "",
       "zonepuny: 2 records removed, 3 added, 1 with another TTL (serial 2024010101 -> 2024010102)")

r = zp("--diff", "--diff-format=json", old, new)
expect("json exit status", r.returncode, 1)
try:
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    expect("json changes", [(x["change"], x["owner"], x["type"], x["ttl"], x.get("old_ttl"))
                            for x in rows],
           [("removed", "example.", "SOA", 3600, None), ("added", "example.", "SOA", 3600, None),
            ("ttl", "mail.example.", "MX", 600, 300), ("added", "new.example.", "TXT", 3600, None),
            ("removed", "www.example.", "A", 3600, None),
            ("added", "www.example.", "A", 3600, None)])
    expect("json rdata", rows[3]["rdata"], '"hello"')
except (ValueError, KeyError) as e:
    t.bad("json lines do not parse: %s: %r" % (e, r.stdout))

r = zp("--diff", "--diff-format=markdown", old, new)
for row in ["| A | 1 | 1 | 0 |", "| SOA | 1 | 1 | 0 |", "| MX | 0 | 0 | 1 |", "| TXT | 0 | 1 | 0 |",
            "2 records removed, 3 added, 1 with another TTL; SOA serial 2024010101 -> 2024010102.",
            "Names changed (4): `example.`, `mail.example.`, `new.example.`, `www.example.`"]:
    expect("markdown holds %r" % row, row in r.stdout.splitlines(), True)
expect("markdown exit status", r.returncode, 1)

# --unicode: the owner as people read it
r = zp("--diff", "--unicode", write("u1.zone", HEAD % "1" + "münchen IN A 192.0.2.7\n"),
       write("u2.zone", HEAD % "1" + "münchen IN A 192.0.2.8\n"))
expect("--unicode owner", [line.split("\t")[0] for line in r.stdout.splitlines()],
       ["-münchen.example.", "+münchen.example."])

# No difference: order, case, TTL spelling, UTF-8 or ACE, RFC 3597 form, a record twice,
# $INCLUDE layout, a comment
write("part.inc", "www IN A 192.0.2.10\n")
same_a = write("same-a.zone", HEAD % "7" + "münchen IN A 192.0.2.7\nwww IN A 192.0.2.10\n"
               "txt 1h IN TXT \"a b\"\n")
same_b = write("same-b.zone", "$ORIGIN example.\n$TTL 1h\n"
               "txt 3600 IN TXT \"a\\032b\" ; a comment\n"
               "XN--MNCHEN-3YA IN TYPE1 \\# 4 C0000207\n$INCLUDE part.inc\n"
               "@ IN NS NS1\n@ IN SOA ns1 HOSTMASTER 7 2h 1h 14d 1h\nwww IN A 192.0.2.10\n")
r = zp("--diff", same_a, same_b)
expect("same records: exit status", (r.returncode, r.stdout), (0, ""))
expect("same records: said", r.stderr.strip(), "zonepuny: the zones hold the same records")

# SOA alone
r = zp("--diff", write("s1.zone", HEAD % "5" + "a IN A 192.0.2.1\n"),
       write("s2.zone", HEAD % "6" + "a IN A 192.0.2.1\n"))
expect("SOA alone", (r.returncode, r.stderr.strip()),
       (1, "zonepuny: 1 record removed, 1 added, 0 with another TTL: only the SOA (serial 5 -> 6)"))

# A changed record, serial kept
r = zp("--diff", write("k1.zone", HEAD % "5" + "a IN A 192.0.2.1\n"),
       write("k2.zone", HEAD % "5" + "a IN A 192.0.2.2\n"))
expect("serial kept is said", r.stderr.strip().endswith("(serial 5 unchanged)"), True)

# --diff-ignore=dnssec: RRSIG, NSEC and NSEC3 churn left out (a DNSKEY is a change)
SIG = "a IN RRSIG A 13 2 3600 %s 20240101000000 12345 example. AAAA\n"
NSEC = "a IN NSEC example. A RRSIG NSEC\n"
d1 = write("d1.zone", HEAD % "5" + "a IN A 192.0.2.1\n" + SIG % "20250101000000" + NSEC)
d2 = write("d2.zone", HEAD % "5" + "a IN A 192.0.2.1\n" + SIG % "20250201000000")
expect("signer churn counted", zp("--diff", d1, d2).returncode, 1)
r = zp("--diff", "--diff-ignore=dnssec", d1, d2)
expect("signer churn ignored", (r.returncode, r.stdout), (0, ""))

# Trouble: exit 2, nothing on standard output
bad_zone = write("bad.zone", HEAD % "5" + "a IN A 192.0.2.300\n")
for what, args in [("a zone with an error", [old, bad_zone]),
                   ("a missing zone", [old, os.path.join(tmp, "none.zone")]),
                   ("one zone", [old]), ("three zones", [old, new, new])]:
    r = zp("--diff", *args)
    expect(what + ": exit status and output", (r.returncode, r.stdout), (2, ""))
for args in [["--diff-format=xml"], ["--diff-ignore=soa"], ["--sort"], ["--format=json"],
             ["-o", os.path.join(tmp, "out")]]:
    r = zp("--diff", *args, old, new)
    expect("usage %s" % args, (r.returncode, r.stdout), (2, ""))
expect("--diff-format without --diff", zp("--diff-format=json", old).returncode, 2)

# ---- The differential on generated zones ----


def genzone(n, ascii_):
    out = subprocess.run([os.environ.get("PYTHON", sys.executable), GENZONE, str(n)] +
                         (["--ascii"] if ascii_ else []), capture_output=True, text=True,
                         check=True)
    return out.stdout.splitlines()


def mutate(utf8, ace, rnd, k, noise):
    """The same changes to both twins (their lines correspond one to one): records removed,
    added (new names, and a second record in an existing RRset), changed, TTLs changed, the
    serial raised; and with noise, what is no change: a record written twice, an owner's ASCII
    case."""
    u, a = list(utf8), list(ace)
    body = range(7, len(u))
    for _ in range(rnd.randint(0, 6)):   # removed
        i = rnd.choice(body)
        u[i] = a[i] = "; removed"
    for j in range(rnd.randint(0, 6)):   # changed address
        i = rnd.choice(body)
        m = re.match(r"^(\S+) IN A 198\.51\.(\d+)\.(\d+)$", a[i])
        if m:
            new_a = "IN A 198.51.%s.%d" % (m.group(2), (int(m.group(3)) + 1 + j) % 256)
            u[i] = re.sub(r"IN A .*", new_a, u[i])
            a[i] = re.sub(r"IN A .*", new_a, a[i])
    for _ in range(rnd.randint(0, 4)):   # TTL of a whole RRset (the AAAA, alone at its name)
        i = rnd.choice(body)
        if " 300 IN AAAA " in a[i]:
            u[i] = u[i].replace(" 300 IN AAAA ", " 900 IN AAAA ")
            a[i] = a[i].replace(" 300 IN AAAA ", " 900 IN AAAA ")
    for _ in range(rnd.randint(0, 4)):   # a second address in an RRset
        i = rnd.choice(body)
        m = re.match(r"^(\S+) IN A ", a[i])
        if m:
            u.append(u[i].split()[0] + " IN A 192.0.2.%d" % rnd.randint(1, 254))
            a.append(a[i].split()[0] + " IN A " + u[-1].split()[-1])
    for j in range(rnd.randint(0, 4)):   # new names
        line = "added%d-%d IN TXT \"new\"" % (k, j)
        u.append(line)
        a.append(line)
    for _ in range(rnd.randint(0, 3) if noise else 0):   # written twice: no change
        i = rnd.choice(body)
        u.append(u[i])
        a.append(a[i])
    for _ in range(rnd.randint(0, 3) if noise else 0):   # an ASCII owner in upper case
        i = rnd.choice(body)
        if re.match(r"^[a-z][a-z0-9]* ", a[i]) and a[i] == u[i]:
            u[i] = a[i] = a[i].split(" ", 1)[0].upper() + " " + a[i].split(" ", 1)[1]
    if rnd.random() < 0.7:
        u[2] = a[2] = u[2].replace("2026112201", "2026112202")
    return u, a


def named_records(path):
    out = subprocess.run(["named-compilezone", "-q", "-i", "none", "-k", "ignore", "-n",
                          "ignore", "-s", "full", "-o", "-", "example.", path],
                         capture_output=True, text=True, errors="replace")
    if out.returncode != 0:
        return None
    recs = set()
    for line in out.stdout.splitlines():
        f = line.split(None, 4)
        if len(f) == 5:
            recs.add((f[0].lower(), f[1], f[3], f[4]))
    return recs


try:   # types by number: zonepuny writes some in RFC 3597 form (TYPE26), named by mnemonic
    import dns.rdatatype

    def type_no(t):
        return int(dns.rdatatype.from_text(t))
except ImportError:
    def type_no(t):
        return t


def count(pairs):
    return collections.Counter((o, type_no(t), s) for o, t, s in pairs)


have_named = shutil.which("named-compilezone")
have_ldns = shutil.which("ldns-compare-zones")
if not os.path.exists(GENZONE):
    t.skip("no %s" % GENZONE)
else:
    utf8, ace = genzone(800, False), genzone(800, True)
    rnd = random.Random(20261202)
    ldns_ttl_only = 0
    for k in range(24):
        # every third pair without the noise: ldns-compare-zones compares owners with their
        # case and counts a record written twice twice, so it is the oracle of those alone
        noise = k % 3 != 0
        u_old, a_old = mutate(utf8, ace, rnd, 100 + k, noise)
        u_new, a_new = mutate(utf8, ace, rnd, 200 + k, noise)
        paths = [write("g%d-%s.zone" % (k, n), "\n".join(z) + "\n")
                 for n, z in [("uo", u_old), ("un", u_new), ("ao", a_old), ("an", a_new)]]
        r = zp("--diff", "--diff-format=json", paths[0], paths[1])
        if r.returncode not in (0, 1):
            t.bad("pair %d: exit %d: %s" % (k, r.returncode, r.stderr[:400]))
            continue
        rows = [json.loads(line) for line in r.stdout.splitlines()]
        sign = {"removed": "-", "added": "+", "ttl": "-+"}
        ours = count((x["owner"].lower(), x["type"], s) for x in rows for s in sign[x["change"]])
        expect("pair %d: exit status says whether there are changes" % k, r.returncode,
               1 if rows else 0)
        if have_named:
            o, n = named_records(paths[2]), named_records(paths[3])
            if o is None or n is None:
                t.bad("pair %d: named-compilezone refuses a twin" % k)
            else:
                theirs = count([(x[0], x[2], "-") for x in o - n] +
                               [(x[0], x[2], "+") for x in n - o])
                expect("pair %d: zonepuny --diff against named-compilezone's sets" % k, ours,
                       theirs)
        if have_ldns and not noise:
            out = subprocess.run(["ldns-compare-zones", "-a", "-s", paths[2], paths[3]],
                                 capture_output=True, text=True, errors="replace")
            theirs = collections.Counter()
            for line in out.stdout.splitlines():
                m = re.match(r"^(\+\+|--|~\+|~-)(\S+)\s+\d+\s+\S+\s+(\S+)", line)
                if m:
                    theirs[(m.group(2).lower(), type_no(m.group(3)), m.group(1)[1])] += 1
            no_ttl = count((x["owner"].lower(), x["type"], sign[x["change"]]) for x in rows
                           if x["change"] != "ttl")
            ldns_ttl_only += sum(1 for x in rows if x["change"] == "ttl")
            expect("pair %d: zonepuny --diff against ldns-compare-zones (TTLs aside)" % k,
                   no_ttl, theirs)
    if not have_named:
        t.skip("no named-compilezone")
    if not have_ldns:
        t.skip("no ldns-compare-zones")
    print("ldns-compare-zones does not compare TTLs: %d TTL changes left out of its comparison"
          % ldns_ttl_only)

    # the zones held in the repository (zones/*.zone), each against itself less one record and
    # with one more, its ASCII twin (tools/ace_twin.py) through named-compilezone; the zones
    # that zonepuny or BIND does not read whole (the golden error cases) are counted, not run
    held = sorted(glob.glob(os.path.join(REPO_DIR, "zones", "*.zone")))
    ran = unread = 0
    for z in held if have_named else []:
        with open(z, "rb") as f:
            lines = f.read().split(b"\n")
        cut = [i for i, line in enumerate(lines) if re.match(rb"^[A-Za-z0-9_*@-][^ \t;]*[ \t]", line)
               and b"SOA" not in line and b"(" not in line and b")" not in line]
        if not cut:
            unread += 1
            continue
        drop = cut[len(cut) // 2]
        base = os.path.basename(z)
        olds = write("held-old-" + base, "")
        news = write("held-new-" + base, "")
        with open(olds, "wb") as f:
            f.write(b"\n".join(lines))
        with open(news, "wb") as f:
            f.write(b"\n".join(lines[:drop] + lines[drop + 1:]) + b"\nadded-by-test 300 IN TXT \"x\"\n")
        r = zp("--diff", "--diff-format=json", "-z", "example.", olds, news)
        twins = [olds + ".ace", news + ".ace"]
        made = all(subprocess.run([os.environ.get("PYTHON", sys.executable),
                                   os.path.join(REPO_DIR, "tools", "ace_twin.py"), a, b],
                                  capture_output=True).returncode == 0
                   for a, b in zip((olds, news), twins))
        o = n = None
        if made and r.returncode in (0, 1):
            o, n = named_records(twins[0]), named_records(twins[1])
        if o is None or n is None:
            unread += 1
            continue
        rows = [json.loads(line) for line in r.stdout.splitlines()]
        sign = {"removed": "-", "added": "+", "ttl": "-+"}
        ours = count((x["owner"].lower(), x["type"], s) for x in rows for s in sign[x["change"]])
        theirs = count([(x[0], x[2], "-") for x in o - n] + [(x[0], x[2], "+") for x in n - o])
        expect("zones/%s less line %d: --diff against named-compilezone's sets" % (base, drop + 1),
               ours, theirs)
        ran += 1
    print("zones/*.zone: %d compared with named-compilezone's sets, %d not read whole by both"
          % (ran, unread))
    if have_named and not ran:
        t.bad("no held zone compared")

    # bounded memory: the same differences through sorters spilled to temporary files
    r1 = zp("--diff", paths[0], paths[1])
    r2 = zp("--diff", "--sort-memory", "64K", paths[0], paths[1])
    expect("spilled sorters give the same lines", (r2.returncode, r2.stdout),
           (r1.returncode, r1.stdout))

shutil.rmtree(tmp)
t.need_pass("zonepuny --diff")
t.finish()
