"""check_svcb_keys.py -- the SVCB and HTTPS parameter keys registered after RFC 9540, read and
written back alike by every peer.

The IANA registry "DNS SVCB Service Parameter Keys (SvcParamKeys)" holds, past RFC 9460, RFC 9461
and RFC 9540: tls-supported-groups (9, draft-ietf-tls-key-share-prediction section 3.1), docpath
(10, RFC 9953 section 3) and pvd (11, draft-ietf-intarea-proxy-config section 2.1). For each of
the examples those documents give, written with the key's name and as keyNNNNN (and key 12,
NSD 4.15's "oots", which is in no registry, as key12 alone):
  - zonepuny reads both forms to the octets the document gives, and writes both alike;
  - BIND (its raw zone format), NSD (nsd-checkzone -p), Knot (libzscanner, through
    tests/zscanner_driver.c) and dnspython read what zonepuny writes as they read the document's
    octets in RFC 3597 form (BIND, Knot and dnspython: as those octets; NSD, whose text of a key
    zonepuny may not read back, "oots", to the same text);
  - a peer that takes the key's name at all reads it as it reads those octets; one that refuses
    it does not know the name, and is counted as skipped.
NSD_CHECKZONE names a second nsd-checkzone to hold to the same, such as NSD 4.15's, whose parser
(simdzone) knows all three names; the one on PATH (Debian 12's NSD 4.6) knows none. A newer
dnspython on PYTHONPATH is used the same way (2.8 knows docpath).
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import Tally, REPO_DIR  # noqa: E402
from peers import HEAD, ZONEPUNY, bind_octets, have, run  # noqa: E402

import dns.name  # noqa: E402
import dns.version  # noqa: E402
import dns.zone  # noqa: E402

ORIGIN = dns.name.from_text("example.")
DRIVER = os.path.join(REPO_DIR, os.environ.get("BUILD", "build"), "tests", "zscanner_driver")
DOC = "0001 03646e73076578616d706c65036f726700 0001 0003 02636f"   # 1 dns.example.org. alpn=co
# (key name, type, named form, keyNNNNN form, RDATA in hex as the document gives it)
CASES = [
    # RFC 9953 section 3's examples: the root path, "/dns", "/n/s", and beside dohpath
    ("docpath", "SVCB", "1 dns.example.org. alpn=co docpath",
     "1 dns.example.org. alpn=co key10", DOC + "000a 0000"),
    ("docpath", "SVCB", "1 dns.example.org. alpn=co docpath=dns",
     "1 dns.example.org. alpn=co key10=\"\\003dns\"", DOC + "000a 0004 03646e73"),
    ("docpath", "SVCB", "1 dns.example.org. alpn=co docpath=n,s",
     "1 dns.example.org. alpn=co key10=\\001n\\001s", DOC + "000a 0004 016e0173"),
    ("docpath", "SVCB", "1 dns.example.org. alpn=h3,co dohpath=/{?dns} docpath",
     "1 dns.example.org. alpn=h3,co key7=/{?dns} key10",
     "0001 03646e73076578616d706c65036f726700 0001 0006 026833 02636f "
     "0007 0007 2f7b3f646e737d 000a 0000"),
    # draft-ietf-tls-key-share-prediction section 3.1: x25519 (29), then secp256r1 (23)
    ("tls-supported-groups", "SVCB",
     "3 server.example.net. port=\"8004\" tls-supported-groups=29,23",
     "3 server.example.net. port=\"8004\" key9=\"\\000\\029\\000\\023\"",
     "0003 06736572766572076578616d706c65036e657400 0003 0002 1f44 0009 0004 001d0017"),
    # draft-ietf-intarea-proxy-config section 2.1
    ("pvd", "HTTPS", "1 . alpn=\"h3,h2\" pvd", "1 . alpn=\"h3,h2\" key11",
     "0001 00 0001 0006 026833 026832 000b 0000"),
    # key 12, "oots" to NSD 4.15 (draft-johani-dnsop-svcb-oots), is in no registry: zonepuny
    # knows no name for it, and its octets ("do53:100,dot:10", as simdzone's tests have them)
    # must still come back alike
    (None, "SVCB", None, "1 . key12=\"\\004do53\\100\\003dot\\010\"",
     "0001 00 000c 000b 04646f353364 03646f740a"),
]


def squeeze(h):
    return h.replace(" ", "")


def zone_of(path, records):
    """records: (owner, type, text)"""
    with open(path, "w") as f:
        f.write(HEAD)
        for owner, tname, text in records:
            f.write("%s %s %s\n" % (owner, tname, text))


def ours(path, generic=True):
    """{owner's first label: hex} of zonepuny's RFC 3597 form of the zone at path, or its text
    {owner: (type, text)} when not generic; None and its words when it refuses the zone"""
    conv = run([ZONEPUNY, "--fragment"] + (["--generic", "SVCB,HTTPS"] if generic else []) +
               [path])
    if conv.returncode != 0:
        return None, conv.stderr[-300:]
    out = {}
    for line in conv.stdout.splitlines():
        p = line.split("\t")
        owner = p[0].split(".")[0]
        if generic:
            m = re.match(r"\\# \d+ ?([0-9a-f]*)$", p[4])
            if m and p[3] in ("TYPE64", "TYPE65"):
                out[owner] = m.group(1)
        else:
            out[owner] = (p[3], p[4])
    return out, None


def bind(path):
    octets = bind_octets(path)
    if octets is None:
        out = run(["named-compilezone", "-k", "ignore", "-i", "none", "-o", "/dev/null",
                   "example.", path])
        lines = [l for l in (out.stdout + out.stderr).splitlines() if "dns_rdata_fromtext" in l]
        return None, (lines or [out.stdout])[0][-300:]
    return {o: h[0] for o, h in octets.items()}, None


def nsd(cmd):
    """{owner's first label: NSD's text of the RDATA} (-p)"""
    def read(path):
        out = run([cmd, "-p", "example.", path])
        if out.returncode != 0:
            return None, (out.stdout + out.stderr)[-300:]
        got = {}
        for line in out.stdout.splitlines():
            p = line.split("\t")
            if len(p) == 5 and p[3] in ("SVCB", "HTTPS"):
                got[p[0].split(".")[0]] = p[4]
        return got, None
    return read


def knot(path):
    out = run([DRIVER, "example.", path])
    if out.returncode != 0:
        return None, out.stdout[-300:]
    got = {}
    for line in out.stdout.splitlines():
        p = line.split()
        owner = bytes.fromhex(p[0])
        got[owner[1:1 + owner[0]].decode("latin-1")] = p[4] if len(p) > 4 else ""
    return got, None


def dnspython(path):
    try:
        z = dns.zone.from_file(path, ORIGIN, relativize=False, check_origin=False)
    except Exception as e:   # noqa: BLE001
        return None, str(e)[:300]
    got = {}
    for name, _, rd in z.iterate_rdatas():
        got[name.labels[0].decode("latin-1")] = rd.to_wire(origin=ORIGIN).hex()
    return got, None


def main():
    t = Tally()
    readers = [("dnspython %s" % dns.version.version, dnspython)]
    if have("named-compilezone"):
        readers.append(("BIND", bind))
    else:
        t.skip("named-compilezone not installed (bind9-utils)")
    if have("nsd-checkzone"):
        readers.append(("NSD (nsd-checkzone on PATH)", nsd("nsd-checkzone")))
    else:
        t.skip("nsd-checkzone not installed (nsd)")
    if os.environ.get("NSD_CHECKZONE"):
        readers.append(("NSD (%s)" % os.environ["NSD_CHECKZONE"], nsd(os.environ["NSD_CHECKZONE"])))
    if os.path.exists(DRIVER):
        readers.append(("Knot (libzscanner)", knot))
    else:
        t.skip("no " + DRIVER + " (make; libknot-dev)")
    want = {}
    records = []
    for i, (_, tname, named, generic, hexa) in enumerate(CASES):
        want["g%d" % i] = squeeze(hexa)
        records.append(("g%d" % i, tname, generic))
        if named:
            want["n%d" % i] = squeeze(hexa)
            records.append(("n%d" % i, tname, named))
    with tempfile.TemporaryDirectory() as tmp:
        zone = os.path.join(tmp, "keys.zone")
        zone_of(zone, records)
        # the documents' octets in RFC 3597 form, the record each peer's reading is held to
        docs = os.path.join(tmp, "docs.zone")
        zone_of(docs, [(o, "TYPE%d" % (65 if CASES[int(o[1:])][1] == "HTTPS" else 64),
                        "\\# %d %s" % (len(h) // 2, h)) for o, h in want.items()])
        # zonepuny reads both forms as the documents give them, and writes both alike
        octets, why = ours(zone)
        if octets is None:
            t.bad("zonepuny refuses the examples: " + why)
            t.finish()
        for owner, hexa in want.items():
            if octets.get(owner) == hexa:
                t.ok()
            else:
                t.bad("zonepuny reads %s as %s, not %s" % (owner, octets.get(owner), hexa))
        text, _ = ours(zone, generic=False)
        for i in range(len(CASES)):
            if not CASES[i][2]:
                continue
            if text.get("n%d" % i) == text.get("g%d" % i):
                t.ok()
            else:
                t.bad("zonepuny writes %s and %s otherwise: %s, %s" % (
                    CASES[i][2], CASES[i][3], text.get("n%d" % i), text.get("g%d" % i)))
        # what it writes, every peer reads as it reads the documents' octets
        out = os.path.join(tmp, "out.zone")
        with open(out, "w") as f:
            f.write(run([ZONEPUNY, "--fragment", zone]).stdout)
        truth = {}
        for who, read in readers:
            truth[who], why = read(docs)
            if truth[who] is None:
                t.bad("%s refuses the documents' octets in RFC 3597 form: %s" % (who, why))
                continue
            got, why = read(out)
            if got is None:
                t.bad("%s refuses zonepuny's output: %s" % (who, why))
                continue
            for owner in want:
                if got.get(owner) is not None and got.get(owner) == truth[who].get(owner):
                    t.ok()
                else:
                    t.bad("%s reads zonepuny's %s %s as %s, the document's octets as %s" % (
                        who, owner, text.get(owner), got.get(owner), truth[who].get(owner)))
        # a peer that takes a key's name reads it as it reads the document's octets
        unknown = {}
        for i, (key, tname, named, _, hexa) in enumerate(CASES):
            if not named:
                continue
            one = os.path.join(tmp, "named%d.zone" % i)
            zone_of(one, [("n%d" % i, tname, named)])
            for who, read in readers:
                if truth.get(who) is None:
                    continue
                got, why = read(one)
                if got is None:
                    unknown.setdefault((who, key), why)
                elif got.get("n%d" % i) == truth[who].get("n%d" % i):
                    t.ok()
                else:
                    t.bad("%s reads %s %s as %s, the document's octets as %s" % (
                        who, tname, named, got.get("n%d" % i), truth[who].get("n%d" % i)))
        for (who, key), why in sorted(unknown.items()):
            t.skip("%s does not read %s by name: %s" % (who, key, why.strip().splitlines()[-1]
                                                        if why.strip() else "refused"))
    t.need_pass("no example compared")
    t.finish()


if __name__ == "__main__":
    main()
