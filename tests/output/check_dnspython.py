#!/usr/bin/python3
"""check_dnspython.py -- zonepuny's owner names equal dnspython's, record by record.

For every sample zone with a .out (and no .args): dnspython reads the zone (its own parser,
dns.name IDNA_2003 codec for UTF-8 names) and the owner of each record, lowercased, must equal
the owner zonepuny wrote on the same line. Zones whose names hold \\DDD-escaped high octets
are skipped: dnspython treats those as raw octets, not as UTF-8 to convert (zonepuny converts
high octets written as \\DDD like raw UTF-8).
"""
import os
import subprocess
import sys

import dns.name
import dns.rdataclass
import dns.tokenizer
import dns.zonefile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

sys.path.insert(0, os.path.join(REPO_DIR, "tools"))
from gen_golden import InOrder  # noqa: E402

zones = os.path.join(REPO_DIR, "zones")
zonepuny = os.path.abspath(os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny")))
os.chdir(zones)   # $INCLUDE names are relative to the zone's directory, for dnspython too
t = Tally()
for z in sorted(os.listdir(zones)):
    base = z[:-5]
    if not z.endswith(".zone") or not os.path.exists(os.path.join(zones, base + ".out")):
        continue
    if os.path.exists(os.path.join(zones, base + ".args")):
        continue
    path = z
    with open(path, encoding="utf-8") as f:
        text = f.read()
    txn = InOrder(dns.name.root)
    tok = dns.tokenizer.Tokenizer(text, path, idna_codec=dns.name.IDNA_2003)
    try:
        dns.zonefile.Reader(tok, dns.rdataclass.IN, txn, allow_include=True).read()
    except dns.exception.DNSException as e:
        t.skip("%s: dnspython refuses it: %s" % (z, e))
        continue
    owners = [n for n, _, _ in txn.records]
    if any(any(b >= 0x80 for b in label) for n in owners for label in n.labels):
        t.skip("%s: \\DDD-escaped high octets" % z)
        continue
    out = subprocess.run([zonepuny, z], cwd=zones, capture_output=True, text=True).stdout
    ours = [line.split("\t")[0] for line in out.splitlines()]
    theirs = [n.to_text().lower() for n in owners]
    if ours == theirs:
        t.ok(z)
    else:
        t.bad(z)
        for a, b in zip(ours, theirs):
            if a != b:
                print("  zonepuny %s, dnspython %s" % (a, b))
        if len(ours) != len(theirs):
            print("  %d records against %d" % (len(ours), len(theirs)))
t.need_pass("no sample zone with a .out that dnspython reads")
t.finish()
