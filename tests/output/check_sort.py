#!/usr/bin/python3
"""check_sort.py -- --sort against dnspython's canonical order on a generated zone.

tools/genzone.py writes a 20,000-record zone (30% IDN owners, upper case added to some lines,
every 50th record repeated); zonepuny converts it unsorted, dnspython sorts those records by
(name, class, type, canonical RDATA) -- dns.name.Name order is RFC 4034 section 6.1, and
to_digestable() is the section 6.2 canonical wire form -- and drops duplicates; zonepuny --sort
must print exactly that sequence.
"""
import os
import random
import subprocess
import sys
import tempfile

import dns.rdata
import dns.rdataclass
import dns.rdatatype
import dns.name

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

zonepuny = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
python = os.environ.get("PYTHON", sys.executable)
with tempfile.TemporaryDirectory() as tmp:
    plain = os.path.join(tmp, "g.zone")
    subprocess.run([python, os.path.join(REPO_DIR, "tools", "genzone.py"), "--records",
                    "20000", "--seed", "3", plain], check=True)
    rnd = random.Random(3)
    lines = open(plain, encoding="utf-8").read().splitlines()
    mixed = []
    for i, line in enumerate(lines):
        if i > 5 and rnd.random() < 0.2:
            line = line.upper()
        mixed.append(line)
        if i > 5 and i % 50 == 0:
            mixed.append(line)
    zone = os.path.join(tmp, "m.zone")
    open(zone, "w", encoding="utf-8").write("\n".join(mixed) + "\n")
    unsorted = subprocess.run([zonepuny, zone], capture_output=True, text=True, check=True).stdout
    ours = subprocess.run([zonepuny, "--sort", zone], capture_output=True, text=True,
                          check=True).stdout.splitlines()

keyed = {}
for line in unsorted.splitlines():
    owner, ttl, rclass, rtype, rdata = line.split("\t", 4)
    name = dns.name.from_text(owner)
    rc = dns.rdataclass.from_text(rclass)
    rt = dns.rdatatype.from_text(rtype)
    rd = dns.rdata.from_text(rc, rt, rdata.strip())
    keyed.setdefault((name, rc, rt, rd.to_digestable()), line)
want = [keyed[k] for k in sorted(keyed)]
t = Tally()
if ours == want:
    print("%d records, %d after duplicates" % (len(unsorted.splitlines()), len(want)))
    t.ok()
else:
    first = next((i for i, (a, b) in enumerate(zip(ours, want)) if a != b), None)
    if first is None:
        t.bad("--sort output and dnspython's differ in length")
    else:
        t.bad("at record %d:\n  zonepuny  %s\n  dnspython %s" % (first, ours[first], want[first]))
    print("lengths %d %d" % (len(ours), len(want)))
t.finish()
