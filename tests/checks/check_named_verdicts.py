#!/usr/bin/python3
"""check_named_verdicts.py -- zonepuny's exit status against named's own verdict.

A seeded generator (verdict_zones.py, shared with check_named_load.py) writes small zones
mixing what the whole-zone checks judge: an apex with and without its SOA and NS, delegations
with and without glue, CNAMEs and DNAMEs, wildcards at several depths with empty non-terminals
between, NS, MX and SRV targets in and out of the zone, DS at and off delegations, DNSKEY, CDS
and CDNSKEY at the apex, RRSIGs with their RRsets' TTLs, host names with "_" and "*", a record
of another class, $GENERATE (its one right-hand token, a blank owner after it), and $INCLUDE
files that set $TTL. named judges them all at once: one named.conf with a zone statement each
(`type primary`, named's defaults), read by `named-checkconf -z`, which loads every zone as
`rndc reload` would. zonepuny checks each with `--check -z NAME`. The verdicts must agree:
zonepuny exits 1 exactly where named does not load the zone. One deliberate difference from
named is met by these zones, and counted: a zone with RRSIGs and apex DNSKEYs is verified
(--dnssec=auto), and its RRSIGs, made up here, do not verify or lack the apex keys' algorithm;
named serves such a zone, zonepuny refuses it. Each such zone must be refused by the DNSSEC
checks alone, and pass with --dnssec=off where named loads it.

named-checkconf skips the load limits named applies (max-records-per-type, max-types-per-name):
check_named_load.py gives these zones, and others at those limits, to a running named.

The same zones are then checked twice more in one process each (--dnssec=off), and must give
the same verdict per zone: `zonepuny --named-conf named.conf` (the zones of the conf
named-checkconf read) and `zonepuny --check DIR` (the directory, each zone's origin from its
file name, z1.example.zone: z1.example.; the $INCLUDEd *.inc files are no zone files). A zone
is refused there when a diagnostic of --format=json is an error in it or in a file it includes.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import REPO_DIR, Tally  # noqa: E402
from verdict_zones import deliberate as deliberate_refusal, write_zones  # noqa: E402

ZONES = int(os.environ.get("VERDICT_ZONES", "1500"))
SEED = int(os.environ.get("VERDICT_SEED", "2026"))
zonepuny = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
os.environ["PATH"] += ":/usr/sbin:/sbin"
t = Tally(shown=20)

with tempfile.TemporaryDirectory() as d:
    names = write_zones(d, ZONES, SEED)
    conf = ['options { directory "%s"; };' % d]
    for n in names:
        conf.append('zone "%s" { type primary; file "%s.zone"; };' % (n, n))
    with open(os.path.join(d, "named.conf"), "w") as f:
        f.write("\n".join(conf) + "\n")
    out = subprocess.run(["named-checkconf", "-z", os.path.join(d, "named.conf")],
                         capture_output=True, text=True).stdout
    loaded = set(re.findall(r"^zone (\S+)/IN: loaded serial", out, re.M))
    refused = set(re.findall(r"^zone (\S+)/IN: not loaded due to errors", out, re.M))
    if len(loaded) + len(refused) != ZONES:
        t.bad("named-checkconf gave %d verdicts for %d zones" % (len(loaded) + len(refused), ZONES),
              show=True)
    agree = both_refuse = deliberate = 0
    for n in names:
        if n not in loaded and n not in refused:
            continue
        p = subprocess.run([zonepuny, "--check", "-z", n + ".", os.path.join(d, n + ".zone")],
                           capture_output=True, text=True)
        ours = p.returncode == 1
        theirs = n in refused
        if p.returncode not in (0, 1):
            t.bad("%s: zonepuny exits %d: %s" % (n, p.returncode, p.stderr.strip()[:300]))
        elif ours == theirs:
            t.ok()
            agree += 1
            both_refuse += ours
        elif ours and deliberate_refusal(zonepuny, n, os.path.join(d, n + ".zone"), p.stderr):
            t.ok()
            deliberate += 1
        else:
            why = [ln for ln in out.splitlines() if n + "/" in ln or n + ".zone" in ln]
            t.bad("%s: named %s it, zonepuny %s\n  named: %s\n  zonepuny: %s\n  zone:\n    %s" % (
                n, "refuses" if theirs else "loads", "refuses" if ours else "passes",
                " | ".join(why)[:400],
                " | ".join(ln for ln in p.stderr.splitlines() if "error:" in ln)[:400],
                open(os.path.join(d, n + ".zone")).read().replace("\n", "\n    ")))
    print("named verdicts: %d zones, %d agree (%d refused by both), %d signed zones refused by "
          "--dnssec alone (deliberate: named serves them)" % (ZONES, agree, both_refuse, deliberate))
    for how, args in (("--named-conf", ["--named-conf", os.path.join(d, "named.conf")]),
                      ("--check DIR", ["--check", d])):
        p = subprocess.run([zonepuny, "--format=json", "--max-errors=0", "--dnssec=off"] + args,
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            t.bad("%s: zonepuny exits %d: %s" % (how, p.returncode, p.stderr.strip()[-300:]),
                  show=True)
            continue
        ours = set()
        for line in p.stdout.splitlines():
            diag = json.loads(line)
            if diag["severity"] == "error":
                top = diag["include_chain"][-1]["file"] if diag["include_chain"] else diag["file"]
                ours.add(os.path.basename(top)[:-len(".zone")])
        same = 0
        for n in names:
            if n in loaded or n in refused:
                if (n in ours) == (n in refused):
                    t.ok()
                    same += 1
                else:
                    t.bad("%s: %s: named %s it, zonepuny %s" % (
                        how, n, "refuses" if n in refused else "loads",
                        "refuses" if n in ours else "passes"))
        print("%s: %d of %d zones agree, in one process" % (how, same, len(loaded) + len(refused)))
t.need_pass("named verdicts")
t.finish()
