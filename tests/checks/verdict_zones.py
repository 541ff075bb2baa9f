"""verdict_zones.py -- the seeded zones that tests/checks/check_named_verdicts.py gives
`named-checkconf -z` and tests/checks/check_named_load.py gives named itself, and how both tell
zonepuny's one deliberate difference from named among them (a signed zone refused by the DNSSEC
checks alone). A check script puts tests/checks/ on sys.path and imports it:

    write_zones(d, count, seed)   writes d/z0.example.zone ... (and the *.inc files they include),
                                  the same zones for the same count and seed; returns the names
    generate(rnd, name, d)        the text of one zone
    deliberate(zonepuny, name, path, stderr)
                                  whether zonepuny refused the zone (its stderr given) for the
                                  DNSSEC verification alone and passes it with --dnssec=off
"""
import os
import random
import re
import subprocess

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


def deliberate(zonepuny, name, path, stderr):
    """Whether zonepuny's refusal of the zone name (no final dot) in path, which wrote stderr, is
    the deliberate one: every error the DNSSEC verification's, and --dnssec=off passes it."""
    return dnssec_only(stderr) and subprocess.run(
        [zonepuny, "--check", "--dnssec=off", "-z", name + ".", path],
        capture_output=True).returncode == 0


def write_zones(d, count, seed):
    """Writes the zones z0.example ... z<count-1>.example into d, each as NAME.zone, and returns
    their names (no final dot)."""
    rnd = random.Random(seed)
    names = ["z%d.example" % i for i in range(count)]
    for n in names:
        with open(os.path.join(d, n + ".zone"), "w") as f:
            f.write(generate(rnd, n, d))
    return names
