#!/usr/bin/python3
"""check_named_verdicts.py -- zonepuny's exit status against named's own verdict.

A seeded generator writes small zones mixing what the whole-zone checks judge: an apex with and
without its SOA and NS, delegations with and without glue, CNAMEs and DNAMEs, wildcards at
several depths with empty non-terminals between, NS, MX and SRV targets in and out of the
zone, DS at and off delegations, DNSKEY, CDS and CDNSKEY at the apex, RRSIGs with their RRsets'
TTLs, host names with "_" and "*", a record of another class, $GENERATE (its one right-hand
token, a blank owner after it), and $INCLUDE files that set $TTL. named judges them all
at once: one named.conf with a zone statement each (`type primary`, named's defaults), read by
`named-checkconf -z`, which loads every zone as `rndc reload` would. zonepuny checks each with
`--check -z NAME`. The verdicts must agree: zonepuny exits 1 exactly where named does not load
the zone. One deliberate difference from named is met by these zones, and counted: a zone with
RRSIGs and apex DNSKEYs is verified (--dnssec=auto), and its RRSIGs, made up here, do not verify
or lack the apex keys' algorithm; named serves such a zone, zonepuny refuses it. Each such zone
must be refused by the DNSSEC checks alone, and pass with --dnssec=off where named loads it.

The same zones are then checked twice more in one process each (--dnssec=off), and must give
the same verdict per zone: `zonepuny --named-conf named.conf` (the zones of the conf named-checkconf read) and
`zonepuny --check DIR` (the directory, each zone's origin from its file name, z1.example.zone:
z1.example.; the $INCLUDEd *.inc files are no zone files). A zone is refused there when a
diagnostic of --format=json is an error in it or in a file it includes.
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

ZONES = int(os.environ.get("VERDICT_ZONES", "1500"))
SEED = int(os.environ.get("VERDICT_SEED", "2026"))
zonepuny = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
os.environ["PATH"] += ":/usr/sbin:/sbin"
t = Tally(shown=20)

# A DNSKEY (algorithm 13, made by dnssec-keygen) for the CDS and CDNSKEY rules.
KEY = ("257 3 13 mfl7b9jUNC3ZQLE7F3hgQjM+h+s1vUxApyF54rMueVQFLRiGNAt7t5M7 "
       "sc699IQYkbTcdWXFhEgUqeEgiGSbWQ==")


def generate(rnd, name, d):
    """The text of one zone whose apex is name (no final dot): a sound zone of a few names, then
    none to three changes drawn from what the checks judge (most zones stay sound, so that both
    verdicts are tried)."""
    ttl = rnd.choice([60, 300, 3600])
    lines = ["$TTL %d" % ttl, "@ SOA ns hostmaster 1 7200 3600 1209600 300", "@ NS ns",
             "ns A 192.0.2.1"]
    hosts = ["ns"]
    for h in rnd.sample(["www", "mail", "a", "b.c", "d.e.f", "x", "ns2"], rnd.randint(1, 5)):
        lines.append("%s %s" % (h, rnd.choice(["A 192.0.2.%d" % rnd.randint(2, 254),
                                               "AAAA 2001:db8::%x" % rnd.randint(1, 999)])))
        hosts.append(h)
    for _ in range(rnd.randint(0, 4)):
        owner, h = rnd.choice(hosts + ["@"]), rnd.choice(hosts)
        lines.append(rnd.choice([
            '%s TXT "t%d"' % (owner, rnd.randint(0, 9)),
            "%s MX 10 %s" % (owner, h),
            "_sip._tcp.%s SRV 0 0 5060 %s" % (owner.replace("@", "srv"), h),
            "alias%d CNAME %s" % (rnd.randint(0, 3), h),
            "sub NS ns.sub\nns.sub A 192.0.2.9",
            "sub NS ns.out.invalid.\nsub DS 12345 8 2 %s" % ("ab" * 32),
            "*.w A 192.0.2.%d" % rnd.randint(2, 254),
            "%s %d RRSIG A 8 3 %d 20300101000000 20200101000000 %d %s. AAAA" % (
                "ns", ttl, ttl, rnd.randint(1, 65535), name),
            "$GENERATE 1-%d h$ A 192.0.2.$" % rnd.randint(1, 5),
        ]))
    changes = [
        lambda: lines.remove("@ SOA ns hostmaster 1 7200 3600 1209600 300"),
        lambda: lines.remove("@ NS ns"),
        lambda: lines.remove("ns A 192.0.2.1"),
        lambda: lines.append("@ NS %s" % rnd.choice(["ns.sub", "alias0", "nowhere", "q.w",
                                                     "ns.out.invalid."])),
        lambda: lines.append("%s CNAME %s" % (rnd.choice(hosts + ["alias0"]), rnd.choice(hosts))),
        lambda: lines.append("%s A 192.0.2.77" % rnd.choice(["alias0", "alias1"])),
        lambda: lines.append("%s NS %s" % (rnd.choice(["deep", "*.w", "x.w"]),
                                           rnd.choice(["ns.deep", "ns1", "ns.out.invalid."]))),
        lambda: lines.append("%s MX 10 %s" % (rnd.choice(hosts), rnd.choice(["alias0", "nowhere",
                                                                          "ns.sub", "z.w"]))),
        lambda: lines.append("_x._tcp SRV 0 0 1 %s" % rnd.choice(["alias1", "nowhere", "z.w"])),
        lambda: lines.append("%s DS 12345 8 2 %s" % (rnd.choice(["@", "www", "sub"]), "cd" * 32)),
        lambda: lines.append("%s DNAME target.invalid." % rnd.choice(["d.e.f", "x", "sub"])),
        lambda: lines.append("%s A 192.0.2.3" % rnd.choice(["_x", "a_b", "_dmarc", "x._tcp",
                                                            "*", "*.d"])),
        lambda: lines.append("%s MX 10 %s" % (rnd.choice(["_x", "a_b"]), rnd.choice(hosts))),
        lambda: lines.append("www %d A 192.0.2.200" % rnd.choice([ttl, 17])),
        lambda: lines.append('x %s TXT "c"' % rnd.choice(["CH", "HS", "IN"])),
        lambda: lines.append("ns %d RRSIG TXT 8 3 %d 20300101000000 20200101000000 1 %s. AAAA" % (
            rnd.choice([60, 999]), 60, name)),
        lambda: lines.append("* A 192.0.2.%d" % rnd.randint(2, 254)),
        lambda: lines.append("ns.sub A 192.0.2.10"),
        lambda: include(rnd, name, d, lines),
        lambda: lines.append("@ SOA ns hostmaster %d 7200 3600 1209600 300" % rnd.randint(1, 2)),
        lambda: lines.append("%s SOA ns hostmaster 1 7200 3600 1209600 300" % rnd.choice(hosts)),
        lambda: lines.append("$GENERATE 1-3 g$ CNAME %s" % rnd.choice(hosts)),
        lambda: lines.append(rnd.choice(["$GENERATE 1-2 m$ MX 10 %s" % rnd.choice(hosts),
                                         '$GENERATE 1-2 m$ MX "10 %s"' % rnd.choice(hosts),
                                         '$GENERATE 1-2 t$ TXT "v=spf1 ip4:192.0.2.$ -all"'])),
        lambda: lines.append("  TXT \"after a generate or not\""),
        lambda: lines.append("@ DNSKEY %s" % KEY),
        lambda: lines.append(rnd.choice(["@ CDS 31148 13 2 " + "AB" * 32, "@ CDS 1 8 2 " + "AB" * 32,
                                         "@ CDS 0 0 0 00", "@ CDNSKEY %s" % KEY,
                                         "@ CDNSKEY 0 3 0 AA==", "@ CDNSKEY 257 3 8 AwEAAQ=="])),
    ]
    for _ in range(rnd.choice([0, 0, 1, 1, 1, 2, 3])):
        try:
            rnd.choice(changes)()
        except ValueError:
            pass   # (a line already removed)
    return "\n".join(lines) + "\n"


def include(rnd, name, d, lines):
    inc = os.path.join(d, "%s.inc" % name)
    with open(inc, "w") as f:
        f.write("$TTL %d\ni%d A 192.0.2.7\n" % (rnd.choice([30, 600]), rnd.randint(0, 9)))
    lines.append("$INCLUDE %s" % inc)
    lines.append("after A 192.0.2.8")


DNSSEC_CHECKS = re.compile(r"\[-W(rrsig-bogus|rrsig-validity|rrset-unsigned|dnskey-sep|nsec-chain|"
                           r"nsec-bitmap|zonemd|cds)\]$")


def dnssec_only(stderr):
    """Whether every error zonepuny told is one of the DNSSEC verification's."""
    errors = [ln for ln in stderr.splitlines() if ": error: " in ln]
    return bool(errors) and all(DNSSEC_CHECKS.search(ln) for ln in errors)


rnd = random.Random(SEED)
with tempfile.TemporaryDirectory() as d:
    names = ["z%d.example" % i for i in range(ZONES)]
    conf = ['options { directory "%s"; };' % d]
    for n in names:
        with open(os.path.join(d, n + ".zone"), "w") as f:
            f.write(generate(rnd, n, d))
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
        elif ours and dnssec_only(p.stderr) and subprocess.run(
                [zonepuny, "--check", "--dnssec=off", "-z", n + ".", os.path.join(d, n + ".zone")],
                capture_output=True).returncode == 0:
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
