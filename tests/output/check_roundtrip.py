"""check_roundtrip.py -- what zonepuny writes, zonepuny, BIND, NSD and Knot read back as the
octets zonepuny took, record for record; and converting its output again changes nothing.

The records: for every type zonepuny knows, random octets in RFC 3597 form (check_wire_peers.py's
generator: the wire form of a random valid text, a record of every-type.zone or random bytes,
mutated or not), drawn here from every byte, capitals and the high bit included; and the widest
records: 65,510 octets of RDATA (the most named loads, doc/checks.md) as unknown
types, NULL, TXT strings of every byte, OPENPGPKEY, DHCID, TLSA, CAA and URI; NSEC and CSYNC with
every type in every window; names of 255 octets of every ASCII byte. zonepuny refuses some (its
own rules are tested elsewhere); what it takes is the reference, as its RFC 3597 form of them
(--generic for every type). Its text of them then goes to:
  - zonepuny: the same bytes again (idempotent), and the same octets;
  - BIND: named-compilezone's text of what it loaded, read by zonepuny in RFC 3597 form (BIND
    writes no such form: a misreading on either side shows as other octets);
  - NSD: nsd-checkzone -p's text, the same way;
  - Knot: libzscanner, the scanner knotd loads zones with, through tests/zscanner_driver.c, which
    prints the octets themselves.
BIND and zonepuny read both outputs (the default, and every type as text with --generic none);
NSD and Knot the default, which is the one promised to load there.
"""
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import Tally, REPO_DIR  # noqa: E402
from peers import HEAD, ZONEPUNY, commented, have, run  # noqa: E402
from check_wire_peers import random_records  # noqa: E402

PER_TYPE = 60
WIDE = 65510
NSD_UNPRINTABLE = ("quoted string not closed", "is quoted, but this",
                   "after the last KEY RDATA field")
DRIVER = os.path.join(REPO_DIR, os.environ.get("BUILD", "build"), "tests", "zscanner_driver")


def any_byte(rng):
    return rng.randrange(256)


def label(rng, n):
    """n random ASCII bytes: escapes of every kind, never the high bit (which the label policy
    refuses or converts: tested elsewhere)"""
    return bytes(rng.randrange(128) for _ in range(n))


def wire_name(labels):
    return b"".join(bytes([len(x)]) + x for x in labels) + b"\0"


def bitmap(windows):
    """RFC 4034 section 4.1.2: every type of each window set, but type 0"""
    out = b""
    for w in windows:
        bits = bytearray(b"\xff" * 32)
        if w == 0:
            bits[0] = 0x7F
        out += bytes([w, 32]) + bits
    return out


def widest(rng):
    """(type code, octets) of records at the widest lengths"""
    def rnd(n):
        return bytes(rng.randrange(256) for _ in range(n))
    txt = b"".join(bytes([255]) + rnd(255) for _ in range(255)) + bytes([229]) + rnd(229)
    uri = bytes(rng.randrange(0x21, 0x7F) for _ in range(WIDE - 4))
    out = [("TYPE65534", rnd(WIDE)), ("TYPE10", rnd(WIDE)), ("TYPE16", txt),
           ("TYPE61", rnd(WIDE)), ("TYPE49", rnd(WIDE)),
           ("TYPE52", b"\x03\x01\x01" + rnd(WIDE - 3)),
           ("TYPE257", b"\x00\x05issue" + rnd(WIDE - 7)), ("TYPE256", b"\0\1\0\1" + uri),
           ("TYPE47", wire_name([b"next"]) + bitmap(range(256))),
           ("TYPE62", b"\0\0\0\1\0\3" + bitmap(range(256)))]
    # names of 255 octets (four labels, 63 + 63 + 63 + 61 and their lengths and the root) as
    # NS, CNAME, MX and NSEC names
    for _ in range(40):
        name = wire_name([label(rng, 63), label(rng, 63), label(rng, 63), label(rng, 61)])
        out.append((rng.choice(["TYPE2", "TYPE5"]), name))
        out.append(("TYPE15", b"\0\x0a" + name))
        out.append(("TYPE47", name + bitmap([0])))
    assert len(txt) == WIDE and all(len(w) <= WIDE for _, w in out)
    return out


def octets(text, prefix="r"):
    """{owner's first label: (type code, hex)} of zonepuny's RFC 3597 form of a zone"""
    out = {}
    for line in text.splitlines():
        p = line.split("\t")
        if len(p) < 5 or not p[0].startswith(prefix):
            continue
        m = re.match(r"\\# \d+ ?([0-9a-f]*)$", p[4])
        if m:
            out[p[0].split(".")[0]] = (p[3], m.group(1))
    return out


def main():
    t = Tally(shown=60)
    for cmd in ("named-compilezone", "nsd-checkzone"):
        if not have(cmd):
            t.skip(cmd + " not installed (bind9-utils, nsd)")
    if not os.path.exists(DRIVER):
        t.skip("no " + DRIVER + " (make; libknot-dev)")
    if t.skipped:
        t.finish()
    rng = random.Random(1035)
    nsd_unprintable = 0
    records = random_records(rng, PER_TYPE, draw=any_byte, keep=lambda w: True)
    wide = widest(rng)
    records += [(code, "\\# %d %s" % (len(w), w.hex())) for code, w in wide]
    types = ",".join(sorted({code for code, _ in records}))
    with tempfile.TemporaryDirectory() as tmp:
        zone = os.path.join(tmp, "r.zone")
        with open(zone, "w") as f:
            f.write(HEAD)
            for i, (code, text) in enumerate(records):
                f.write("r%d %s %s\n" % (i, code, text))
        first = HEAD.count("\n") + 1
        check = run([ZONEPUNY, "--check", "--fragment", "--max-errors", "0", zone])
        refused = {int(m) for m in re.findall(r"r\.zone:(\d+):\d+: error:", check.stderr)}
        taken = commented(zone, refused)
        ref = run([ZONEPUNY, "--fragment", "--generic", types, taken])
        if ref.returncode != 0:
            t.bad("zonepuny refuses the zone without the lines it refused: " + ref.stderr[-500:])
            t.finish()
        want = octets(ref.stdout)
        wide_taken = sum(1 for i in range(len(records) - len(wide), len(records))
                         if first + i not in refused)

        folded = []

        def compare(who, got):
            for owner, (code, hexa) in want.items():
                if got.get(owner) == (code, hexa):
                    t.ok()
                elif who == "NSD" and got.get(owner, (None,))[0] == code and \
                        bytes.fromhex(got[owner][1]).lower() == bytes.fromhex(hexa).lower():
                    # NSD lowercases the names of LP and of the IPSECKEY gateway in any form
                    folded.append(code)
                    t.ok()
                else:
                    t.bad("%s reads %s %s back as %s" % (who, owner, code + " " + hexa[:80],
                                                         got.get(owner)))

        for mode in ("default", "none"):
            gen = [] if mode == "default" else ["--generic", "none"]
            conv = run([ZONEPUNY, "--fragment"] + gen + [taken])
            if conv.returncode != 0:
                t.bad("zonepuny (%s) refuses what it took: %s" % (mode, conv.stderr[-300:]))
                continue
            out = os.path.join(tmp, "out-%s.zone" % mode)
            with open(out, "w") as f:
                f.write(conv.stdout)
            again = run([ZONEPUNY, "--fragment"] + gen + [out])
            if again.stdout == conv.stdout and again.returncode == 0:
                t.ok()
            else:
                t.bad("zonepuny (%s) is not idempotent: %s" % (mode, again.stderr[-300:]))
            compare("zonepuny (%s)" % mode,
                    octets(run([ZONEPUNY, "--fragment", "--generic", types, out]).stdout))
            bind = run(["named-compilezone", "-k", "ignore", "-i", "none", "-s", "full",
                        "-o", "-", "example.", out])
            if bind.returncode != 0:
                t.bad("BIND refuses zonepuny's %s output: %s" % (mode, bind.stdout[-300:]))
            else:
                bout = os.path.join(tmp, "bind-%s.zone" % mode)
                with open(bout, "w") as f:
                    f.write(bind.stdout)
                compare("BIND (%s)" % mode, octets(run(
                    [ZONEPUNY, "--fragment", "--generic", types, bout]).stdout))
            if mode != "default":
                continue
            nsd = run(["nsd-checkzone", "-p", "example.", out])
            if nsd.returncode != 0:
                t.bad("NSD refuses zonepuny's output: " + (nsd.stdout + nsd.stderr)[-300:])
            else:
                nout = os.path.join(tmp, "nsd.zone")
                with open(nout, "w") as f:
                    f.write(nsd.stdout)
                # NSD prints some records in a text nobody reads back (its writer, not its
                # reader: a '"' bare in a name, an empty key as "0"): those are left out,
                # counted, and each must be one of these
                msgs = run([ZONEPUNY, "--check", "--fragment", "--max-errors", "0",
                            nout]).stderr
                unprintable = set()
                for m in re.finditer(r"nsd\.zone:(\d+):\d+: error: (.*)", msgs):
                    if not any(k in m.group(2) for k in NSD_UNPRINTABLE):
                        t.bad("NSD's text of a record is refused: " + m.group(2)[:200])
                    unprintable.add(int(m.group(1)))
                lines = nsd.stdout.split("\n")
                skipped = {lines[i - 1].split("\t")[0].split(".")[0] for i in unprintable}
                got = octets(run([ZONEPUNY, "--fragment", "--generic", types,
                                  commented(nout, unprintable)]).stdout)
                got.update({o: want[o] for o in skipped if o in want})
                nsd_unprintable = len(skipped)
                compare("NSD", got)
            knot = run([DRIVER, "example.", out])
            if knot.returncode != 0:
                t.bad("Knot refuses zonepuny's output: " + "; ".join(
                    l for l in knot.stdout.splitlines() if l.startswith("error"))[:600])
            got = {}
            for line in knot.stdout.splitlines():
                p = line.split()
                if p[0] == "error":
                    continue
                owner = bytes.fromhex(p[0])
                got[owner[1:1 + owner[0]].decode("latin-1")] = ("TYPE" + p[3],
                                                               p[4] if len(p) > 4 else "")
            compare("Knot", got)
    print("%d records: zonepuny takes %d (%d of the widest), refuses %d; BIND, NSD and Knot "
          "read its text of them back as the same octets (NSD but for the case of %d, %s; its "
          "own text of %d is unreadable: left out)" % (len(records), len(want), wide_taken,
                                                      len(refused), len(folded),
                                                      ",".join(sorted(set(folded))) or "none",
                                                      nsd_unprintable))
    t.need_pass("no record taken")
    t.finish()


if __name__ == "__main__":
    main()
