#!/usr/bin/python3
"""check_cname_targets.py -- -Wcname-target against dnspython, and named's load of every zone.

A seeded generator writes zones of a few hundred CNAMEs each over a tree of random names: names
with records at several depths (their ancestors are empty non-terminals), wildcards (some empty
non-terminals themselves, through x.*.NAME), delegations with their glue, DNAMEs, and $ORIGIN
moved from section to section. Each CNAME points to a name with records, an empty non-terminal, a
name a wildcard may answer, a name at or below a delegation or below a DNAME, a name outside the
zone, another CNAME, or a name nothing makes exist; some CNAMEs sit below a delegation or a
DNAME, never served. Targets are written relative to the origin in force, or whole.

The oracle is dnspython: the zone read by dns.zone, and each CNAME's target looked up here, name
by name, as RFC 1034 section 4.3.2 and RFC 4592 section 3.3.1 have it: a CNAME that is served
(no delegation or DNAME above its owner) whose target is in the zone, not at or below a
delegation nor below a DNAME, and that does not exist (no records at it or below it) nor has a
wildcard at its closest encloser (an empty non-terminal wildcard counts), ends in NXDOMAIN.
zonepuny --check must tell -Wcname-target for exactly those CNAMEs, at their lines, naming owner
and target, and ask whether the final dot was forgotten exactly for targets written relative
with two labels or more, naming the name as written and the origin then in force (RFC 1035
section 5.1). The same report must come with --check-memory 64K, where most targets are past
the bound kept in memory and wait in sorted runs. named must load every zone (named-checkconf
-z, named's defaults), and zonepuny must exit 0: a dangling CNAME is a warning.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

import dns.name
import dns.rdatatype
import dns.zone

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

ZONES = int(os.environ.get("CNAME_ZONES", "12"))
CNAMES = int(os.environ.get("CNAME_PER_ZONE", "300"))
SEED = int(os.environ.get("CNAME_SEED", "1034"))
zonepuny = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
os.environ["PATH"] += ":/usr/sbin:/sbin"
t = Tally(shown=20)

POOL = ["a", "b", "c", "d", "e", "f", "g", "h"]   # a small alphabet: names share ancestors
WARN = re.compile(r"^[^:]+:(\d+):\d+: warning: CNAME target (\S+) of (\S+) does not exist in the "
                  r"zone: the chain ends in NXDOMAIN \(RFC 1034 section 4\.3\.2\)(.*) "
                  r"\[-Wcname-target\]$")
HINT = ("; missing trailing dot? '%s' was written relative to the origin %s (RFC 1035 section "
        "5.1)")


def rel(rnd, lo, hi):
    """A relative name of lo to hi labels from the pool."""
    return ".".join(rnd.choice(POOL) for _ in range(rnd.randint(lo, hi)))


def under(name, apex):
    """name (relative to the apex, "" for the apex) made absolute."""
    return (name + "." if name else "") + apex


def generate(rnd, apex):
    """One zone: its text, and for each CNAME its line, owner and target (absolute, lower case)
    and how the target was written (its text, and the origin when written relative)."""
    lines = ["$ORIGIN %s" % apex, "$TTL 300", "@ SOA ns hostmaster 1 7200 3600 1209600 300",
             "@ NS ns", "ns A 192.0.2.1"]
    data = set()
    for _ in range(rnd.randint(60, 160)):
        n = rel(rnd, 1, 4)
        data.add(n)
        lines.append("%s %s" % (n, rnd.choice(["A 192.0.2.7", 'TXT "t"'])))
    parents = sorted(data | {".".join(n.split(".")[k:]) for n in data
                             for k in range(1, n.count(".") + 1)})
    wilds = []
    for _ in range(rnd.randint(2, 10)):
        p = rnd.choice(parents + [""] * (1 if rnd.random() < 0.3 else 0))
        wilds.append(p)
        star = "*." + p if p else "*"
        lines.append(rnd.choice(["%s A 192.0.2.9" % star, '%s TXT "w"' % star,
                                 'x.%s TXT "empty wildcard above"' % star]))
    cuts, dnames = [], []
    for i in range(rnd.randint(1, 6)):
        c = "dl%d.%s" % (i, rnd.choice(parents))
        cuts.append(c)
        lines += ["%s NS ns.%s" % (c, c), "ns.%s A 192.0.2.%d" % (c, 10 + i)]
    for i in range(rnd.randint(0, 3)):
        d = "dn%d.%s" % (i, rnd.choice(parents))
        dnames.append(d)
        lines.append("%s DNAME example.net." % d)
    owners = ["c%d.%s" % (i, rnd.choice(parents + [""])) if rnd.random() < 0.95 else
              "c%d.%s" % (i, rnd.choice(cuts + dnames)) for i in range(CNAMES)]
    owners = [o.rstrip(".") for o in owners]

    def target():
        k = rnd.random()
        if k < 0.2:
            return rnd.choice(sorted(data))
        if k < 0.3:
            return rnd.choice(parents)                      # often an empty non-terminal
        if k < 0.45:
            return rel(rnd, 1, 5)                           # exists or not, by chance
        if k < 0.6:                                         # a wildcard may answer it
            p = rnd.choice(wilds)
            return ".".join(filter(None, [rel(rnd, 1, 2), "q%d" % rnd.randint(0, 9), p]))
        if k < 0.68:
            c = rnd.choice(cuts)
            return rnd.choice([c, "h.%s" % c, "x.y.%s" % c])
        if k < 0.72 and dnames:
            return "z.%s" % rnd.choice(dnames)
        if k < 0.78:
            return rnd.choice(owners)                       # a chain
        if k < 0.82:
            return ""                                       # the apex
        if k < 0.86:
            return None                                     # outside the zone
        return ".".join(filter(None, ["n%d" % rnd.randint(0, 99), rel(rnd, 0, 2)]))

    # sections under an origin each: the apex, or a name of the pool's tree
    cnames = []
    i = 0
    while i < len(owners):
        origin = "" if rnd.random() < 0.5 else rnd.choice(parents)
        lines.append("$ORIGIN %s" % under(origin, apex))
        here = under(origin, apex)
        step = rnd.randint(10, 60)
        for o in owners[i:i + step]:
            tgt = target()
            full = "www.%s.example.org." % rnd.choice(POOL) if tgt is None else under(tgt, apex)
            # owner and target relative to the origin in force when below it, else whole
            own = under(o, apex)
            own_text = own[:-len(here) - 1] if own.endswith("." + here) else own
            text, written_in = full, None
            if full == here and rnd.random() < 0.5:
                text, written_in = "@", here
            elif full.endswith("." + here) and rnd.random() < 0.5:
                text, written_in = full[:-len(here) - 1], here
            if rnd.random() < 0.1:
                text = text.upper()
            lines.append("%s CNAME %s" % (own_text, text))
            cnames.append((len(lines), own, full, text, written_in))
        i += step
    return "\n".join(lines) + "\n", cnames


def oracle(text, apex, cnames):
    """The CNAMEs whose answers end in NXDOMAIN, by line: (owner, target, hint)."""
    origin = dns.name.from_text(apex)
    z = dns.zone.from_text(text, origin=origin, relativize=False, check_origin=True)
    names = set(z.nodes.keys())
    exists = set()   # every name with records and every ancestor of one: no NXDOMAIN there
    for n in names:
        while n.is_subdomain(origin) and n not in exists:
            exists.add(n)
            n = n.parent()
    cut = {n for n in names if n != origin and z.get_rdataset(n, dns.rdatatype.NS)}
    dname = {n for n in names if z.get_rdataset(n, dns.rdatatype.DNAME)}

    def above(n, s, at):
        """Whether an ancestor of n (n itself too when at) within the zone is in s."""
        m = n if at else n.parent()
        while m.is_subdomain(origin):
            if m in s:
                return True
            if m == origin:
                break
            m = m.parent()
        return False

    want = {}
    for line, own, full, text, written_in in cnames:
        o, tg = dns.name.from_text(own), dns.name.from_text(full)
        if above(o, cut, True) or above(o, dname, False):
            continue   # never served: told as occluded or below a DNAME
        if not tg.is_subdomain(origin) or above(tg, cut, True) or above(tg, dname, False):
            continue
        if tg in exists:
            continue
        ce = tg.parent()
        while ce not in exists:
            ce = ce.parent()
        if dns.name.from_text("*", origin=ce) in exists:
            continue   # the wildcard at the closest encloser answers (RFC 4592 section 3.3.1)
        hint = ""
        if written_in is not None and text != "@" and len(tg) - len(
                dns.name.from_text(written_in)) >= 2:
            hint = HINT % (text.lower(), written_in)
        want[line] = (full, own, hint)
    return want


def report(path, extra):
    p = subprocess.run([zonepuny, "--check"] + extra + [path], capture_output=True, text=True)
    got = {}
    for ln in p.stderr.splitlines():
        m = WARN.match(ln)
        if m:
            got[int(m.group(1))] = (m.group(2), m.group(3), m.group(4))
    return p, got


rnd = random.Random(SEED)
told = asked = quiet = 0
with tempfile.TemporaryDirectory() as d:
    apexes = ["c%d.example." % i for i in range(ZONES)]
    conf = ['options { directory "%s"; };' % d]
    for apex in apexes:
        text, cnames = generate(rnd, apex)
        path = os.path.join(d, apex + "zone")
        with open(path, "w") as f:
            f.write(text)
        conf.append('zone "%s" { type primary; file "%s"; };' % (apex, path))
        want = oracle(text, apex, cnames)
        p, got = report(path, [])
        if p.returncode != 0 or ": error: " in p.stderr:
            t.bad("%s: zonepuny exits %d: %s" % (apex, p.returncode,
                  " | ".join(ln for ln in p.stderr.splitlines() if ": error: " in ln)[:300]))
        for line in sorted(set(want) | set(got)):
            if want.get(line) == got.get(line):
                t.ok()
            else:
                t.bad("%s line %d: dnspython %s, zonepuny %s" % (apex, line, want.get(line),
                                                                  got.get(line)))
        told += len(want)
        asked += sum(1 for w in want.values() if w[2])
        quiet += len(cnames) - len(want)
        spilled, _ = report(path, ["--check-memory", "64K"])
        if spilled.stderr == p.stderr and spilled.returncode == p.returncode:
            t.ok()
        else:
            t.bad("%s: --check-memory 64K reports otherwise" % apex)
    with open(os.path.join(d, "named.conf"), "w") as f:
        f.write("\n".join(conf) + "\n")
    try:
        out = subprocess.run(["named-checkconf", "-z", os.path.join(d, "named.conf")],
                             capture_output=True, text=True).stdout
    except FileNotFoundError:
        out = None
        t.skip("named's verdicts: named-checkconf not installed (bind9-utils)")
    if out is not None:
        for apex in apexes:
            if re.search(r"^zone %s/IN: loaded serial" % re.escape(apex[:-1]), out, re.M):
                t.ok()
            else:
                t.bad("named does not load %s: %s" % (apex, " | ".join(
                    ln for ln in out.splitlines() if apex[:-1] + "/" in ln)[:300]))
print("%d CNAMEs: %d end in NXDOMAIN (%d of them asked about a final dot), %d do not" % (
    told + quiet, told, asked, quiet))
if not told or not asked or not quiet:
    t.bad("the generator made no case of a kind: %d told, %d asked, %d not" % (told, asked, quiet))
t.need_pass("CNAME targets")
t.finish()
