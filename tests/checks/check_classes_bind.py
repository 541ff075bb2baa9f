"""check_classes_bind.py -- zones of class CH and HS read as named reads them.

BIND defines some types for class IN only (AAAA, SRV, SVCB, WKS ...), reads them in another class
only in RFC 3597 form as types it does not know, and reads A as a Chaosnet address in CH; and it
asks a name server's records of it (an address, no alias) only in class IN. For one record of
every type zonepuny reads (zones/every-type.zone), in its text and in its RFC 3597 form, in class
CH and in class HS: named-rrchecker takes it or refuses it, and zonepuny must do the same, but for
the one deliberate difference (doc/dialect.md): an A record of class CH, which zonepuny
refuses in either form. Then whole zones of class CH and HS, named-checkzone -c against zonepuny:
the same exit status.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "output"))
from lib import Tally, REPO_DIR  # noqa: E402
from peers import ZONEPUNY, have, run  # noqa: E402

ZONES = [
    # the usual CH zone: NS at the apex, which has no address
    "@ NS @\nversion TXT \"x\"",
    "@ NS ns",
    "@ NS al\nal CNAME @",
    "@ NS @\nd DNAME x.\nsub NS ns.d",
    "@ NS @\nx MX 1 al\nal CNAME @",
    "@ NS @\nsub NS ns.sub",
    "@ NS @\nx AAAA ::1",
    "@ NS @\nx TYPE28 \\# 3 010203",
    "@ NS @\nx SRV 0 0 1 t",
    "@ NS @\nx A 192.0.2.1",
]


def main():
    t = Tally()
    if not have("named-rrchecker") or not have("named-checkzone"):
        t.skip("named-rrchecker or named-checkzone not installed (bind9-utils)")
        t.finish()
    every = os.path.join(REPO_DIR, "zones", "every-type.zone")
    text = run([ZONEPUNY, "--fragment", "--generic", "none", every]).stdout
    types = sorted({line.split("\t")[3] for line in text.splitlines()})
    generic = run([ZONEPUNY, "--fragment", "--generic", ",".join(types), every]).stdout
    samples = {}
    for a, b in zip(text.splitlines(), generic.splitlines()):
        pa, pb = a.split("\t"), b.split("\t")
        if pa[2] == "IN" and pa[3] not in samples:
            samples[pa[3]] = (pa[4], pb[3] + " " + pb[4])
    if len(samples) < 60:
        t.bad("only %d types in zones/every-type.zone" % len(samples))
    deliberate = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cls in ("CH", "HS"):
            rows = []
            for tname, (rtext, rgen) in sorted(samples.items()):
                rows.append((tname, tname + " " + rtext))
                rows.append((tname, rgen))
            # a Chaosnet address: a name and an octal number (BIND's ch_3/a_1.c)
            rows += [("A", "A a.b. 177777"), ("A", "TYPE1 \\# 3 00ffff")]
            zone = os.path.join(tmp, cls + ".zone")
            with open(zone, "w") as f:
                f.write("$ORIGIN ex.\n$TTL 60\n")
                for i, (_, rr) in enumerate(rows):
                    f.write("r%d %s %s\n" % (i, cls, rr))
            ours = run([ZONEPUNY, "--check", "--fragment", "--max-errors", "0", zone]).stderr
            refused = {int(m) for m in re.findall(r"\.zone:(\d+):\d+: error:", ours)}
            for i, (tname, rr) in enumerate(rows):
                named = run(["named-rrchecker", "-p"], input="%s %s\n" % (cls, rr)).returncode == 0
                zp = (i + 3) not in refused
                if named == zp:
                    t.ok()
                elif cls == "CH" and tname == "A" and named:
                    deliberate += 1
                    t.ok()
                else:
                    t.bad("%s %s: named %s, zonepuny %s" % (cls, rr[:60], "takes" if named else
                                                            "refuses", "takes" if zp else "refuses"))
        for cls in ("CH", "HS"):
            for body in ZONES:
                zone = os.path.join(tmp, "z.zone")
                with open(zone, "w") as f:
                    f.write("$TTL 0\n@ %s SOA @ h 1 2 3 4 5\n" % cls)
                    for line in body.split("\n"):
                        owner, rest = line.split(" ", 1)
                        f.write("%s %s %s\n" % (owner, cls, rest))
                named = run(["named-checkzone", "-c", cls, "ex.", zone]).returncode
                zp = run([ZONEPUNY, "-z", "ex.", zone]).returncode
                if (named == 0) == (zp == 0):
                    t.ok()
                else:
                    t.bad("%s zone %r: named exit %d, zonepuny %d" % (cls, body, named, zp))
    print("%d types in classes CH and HS, text and RFC 3597 form, and %d zones: zonepuny agrees "
          "with named but for %d A records of class CH (deliberate)" %
          (len(samples), 2 * len(ZONES), deliberate))
    t.need_pass("nothing compared")
    t.finish()


if __name__ == "__main__":
    main()
