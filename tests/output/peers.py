"""peers.py -- one zone of many records through zonepuny and BIND, for the differential scripts
(check_rdata_peers.py, check_wire_peers.py): which lines each refuses, and the octets of the
records each takes.

A record is (line, owner, type, rdata text); owners are "r<N>" under example., after HEAD.
"""
import os
import re
import struct
import subprocess

from lib import REPO_DIR

ZONEPUNY = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
HEAD = "$ORIGIN example.\n$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n"
FIRST = HEAD.count("\n") + 1
ENV = dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin:/usr/bin")


def run(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=ENV, **kw)


def have(cmd):
    return run(["sh", "-c", "command -v " + cmd]).returncode == 0


def lines_in(text, pattern):
    return {int(m) for m in re.findall(pattern, text)}


def write_zone(path, records):
    with open(path, "w") as f:
        f.write(HEAD)
        for line, owner, tname, text in records:
            f.write("%s %s %s\n" % (owner, tname, text))


def commented(path, lines):
    """A copy of the zone at path with these lines commented out (not deleted, so that the rest
    keep their numbers): a conversion with any error writes nothing, so what zonepuny takes is
    read from a conversion of the copy. Records here are one line each."""
    copy = re.sub(r"\.zone$", "", path) + "-taken.zone"
    with open(path) as f:
        text = f.read().split("\n")
    with open(copy, "w") as f:
        f.write("\n".join(";" + l if i + 1 in lines else l for i, l in enumerate(text)))
    return copy


def zonepuny(path, types):
    """The lines zonepuny refuses, and {owner: hex} of the rest, every type written in RFC 3597
    form. --fragment: the records have nothing to do with one another, so no whole-zone checks
    (BIND runs with -k ignore). None and zonepuny's words when it refuses the copy without the
    lines it refused."""
    ours = run([ZONEPUNY, "--check", "--fragment", "--max-errors", "0", path])
    refused = lines_in(ours.stderr, r"\.zone:(\d+):\d+: error:")
    conv = run([ZONEPUNY, "--fragment", "--max-errors", "0", "--generic", ",".join(types),
                commented(path, refused)])
    if conv.returncode != 0:
        return None, conv.stderr[-600:]
    wire = {}
    for line in conv.stdout.splitlines():
        p = line.split("\t")
        m = re.match(r"\\# (\d+) ?([0-9a-f]*)$", p[4])
        if m:
            wire[p[0].split(".")[0]] = m.group(2)
    return refused, wire


def bind(path):
    """The lines of the zone at path that BIND refuses (named-compilezone stops at some errors:
    each round comments out the lines it names, until what is left loads), and {owner: (type,
    rdata text)} as BIND writes what it takes. None and BIND's words when it refuses the zone
    without naming a line."""
    refused = set()
    with open(path) as f:
        lines = f.read().split("\n")
    for _ in range(50):
        out = run(["named-compilezone", "-k", "ignore", "-i", "none", "-s", "full", "-o", "-",
                   "example.", path])
        if out.returncode == 0:
            break
        now = lines_in(out.stdout + out.stderr,
                       r"(?:dns_rdata_fromtext|dns_master_load): \S*\.zone:(\d+):")
        if not now - refused:
            return None, out.stdout[-300:] + out.stderr[-300:]
        refused |= now
        with open(path, "w") as f:
            f.write("\n".join(";" + l if i + 1 in refused else l for i, l in enumerate(lines)))
    taken = {}
    for line in out.stdout.splitlines():
        p = line.split(None, 4)
        if len(p) >= 4 and p[0].startswith("r"):
            taken[p[0].split(".")[0]] = (p[3], p[4] if len(p) == 5 else "")
    return refused, taken


def bind_octets(path):
    """{owner's first label: [RDATA hex, ...]} of the records named-compilezone loads from the
    zone at path (one that loads), as BIND holds them: its raw zone format (-F raw), a header of
    six 32-bit fields, then each RRset: its length (these fields included), class, type, covers,
    TTL, number of records, the owner's length and wire form, each record's length and octets.
    None when BIND refuses the zone."""
    raw = re.sub(r"\.zone$", "", path) + ".raw"
    out = run(["named-compilezone", "-k", "ignore", "-i", "none", "-F", "raw", "-o", raw,
               "example.", path])
    if out.returncode != 0:
        return None
    with open(raw, "rb") as f:
        data = f.read()
    octets, pos = {}, 24
    while pos < len(data):
        total, = struct.unpack(">I", data[pos:pos + 4])
        count, namelen = struct.unpack(">IH", data[pos + 14:pos + 20])
        name = data[pos + 20:pos + 20 + namelen]
        at = pos + 20 + namelen
        for _ in range(count):
            n, = struct.unpack(">H", data[at:at + 2])
            octets.setdefault(name[1:1 + name[0]].decode("latin-1"), []).append(
                data[at + 2:at + 2 + n].hex())
            at += 2 + n
        pos += total
    return octets


def wire_of(tname, text, origin, octets=None):
    """The octets of a record's RDATA text as dnspython reads it, or, for what dnspython cannot
    read (types it lacks, times before 1970), BIND's: octets when given (bind_octets), else as
    named-rrchecker -u writes them; None when neither reads it."""
    import dns.rdata
    try:
        return dns.rdata.from_text("IN", tname, text, origin=origin).to_wire(origin=origin).hex()
    except Exception:   # noqa: BLE001
        pass
    if octets is not None:
        return octets
    u = run(["named-rrchecker", "-o", origin.to_text(), "-u"], input="IN %s %s\n" % (tname, text))
    m = re.search(r"\\# \d+ ?([0-9a-f]*)", u.stdout.lower())
    return m.group(1) if m and u.returncode == 0 else None
