#!/usr/bin/python3
"""check_sort.py -- --sort against dnspython's canonical order on a generated zone.

tools/genzone.py writes a 20,000-record zone (30% IDN owners, upper case added to some lines,
every 50th record repeated); zonepuny converts it unsorted, dnspython sorts those records by
(name, class, type, canonical RDATA) -- dns.name.Name order is RFC 4034 section 6.1, and
to_digestable() is the section 6.2 canonical wire form -- and drops duplicates; zonepuny --sort
must print exactly that sequence, holding the records in memory (the default --sort-memory) and
through sorted runs in temporary files (--sort-memory 600K: the zone is some 1.4 MB of them).
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
    ours = {mem: subprocess.run([zonepuny, "--sort", "--sort-memory", mem, zone],
                                capture_output=True, text=True, check=True).stdout.splitlines()
            for mem in ("16M", "600K")}

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
for mem, got in ours.items():
    if got == want:
        print("--sort-memory %s: %d records, %d after duplicates"
              % (mem, len(unsorted.splitlines()), len(want)))
        t.ok()
        continue
    first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None)
    if first is None:
        t.bad("--sort-memory %s: output and dnspython's differ in length (%d, %d)"
              % (mem, len(got), len(want)))
    else:
        t.bad("--sort-memory %s, at record %d:\n  zonepuny  %s\n  dnspython %s"
              % (mem, first, got[first], want[first]))
t.finish()
