"""check_wire_peers.py -- RFC 3597 RDATA ("\\# len hex") read as BIND reads it.

For every type zonepuny checks, and two it does not (NULL, TYPE65534), random octets: some drawn
at random, most the wire form of a random valid text (check_rdata_peers.py's generator, through
dnspython) or of a record of zones/every-type.zone, mutated (an octet changed, the end cut or
grown) or not. One zone of all of them goes to BIND (named-compilezone) and to zonepuny, which
must agree: what BIND refuses zonepuny refuses (its exit 0 means BIND loads the zone), and what
both take has the same octets (BIND's as dnspython reads its text, or BIND's own from its raw
zone format for the types dnspython lacks). zonepuny may refuse more only where the octets hold
a name its label policy refuses (bytes BIND takes as they are) or where BIND takes what the
type's RFC forbids; each such case is counted by its reason. Then zonepuny's text of the
records it takes (every type as text where it has one) goes to BIND and dnspython, which must
read it back to the same octets.

The octets drawn avoid upper-case letters and bytes over 0x7F, so that names inside them are
written alike by BIND and zonepuny (which lowercases and converts names; tested elsewhere).
"""
import collections
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import Tally, REPO_DIR  # noqa: E402
from peers import (FIRST, ZONEPUNY, bind, bind_octets, commented, have, run,  # noqa: E402
                   wire_of, write_zone, zonepuny)
from check_rdata_peers import TYPES, text_for, ORIGIN  # noqa: E402

import dns.rdata  # noqa: E402
import dns.rdatatype  # noqa: E402

# by number (IANA): more types, some of them dnspython lacks; some not checked at all (NULL,
# UINFO, UID, GID, UNSPEC, 65534); A6, SINK and BIND's that ldns lacks, which dnspython has no
# number or no text for
MORE = {"KEY": 25, "SIG": 24, "WKS": 11, "NSAP": 22, "GPOS": 27, "EID": 31, "NIMLOC": 32,
        "ATMA": 34, "HIP": 55, "AMTRELAY": 260, "A6": 38, "SINK": 40, "NULL": 10,
        "TYPE65534": 65534, "MB": 7, "MG": 8, "MR": 9,
        # BIND 9.18's types that ldns 1.8 does not know
        "NINFO": 56, "RKEY": 57, "DSYNC": 66, "HHIT": 67, "BRID": 68, "UINFO": 100, "UID": 101,
        "GID": 102, "UNSPEC": 103, "AVC": 258, "DOA": 259, "RESINFO": 261, "WALLET": 262,
        "TA": 32768}
PER_TYPE = 150
# What zonepuny refuses on purpose where BIND takes the octets (doc/output.md).
STRICTER = {
    "label": "a name with a label the label policy refuses",
    "AliasMode": "SVCB parameters in AliasMode (RFC 9460 section 2.4.2)",
    "digest of": "a DS digest of another length than its type's",
    "last field is empty": "no fingerprint, key or target",
    "address family": "an APL family other than IPv4 and IPv6",
    "only version 0": "a LOC version other than 0",
    "only formats 0": "an ATMA format other than 0 and 1",
    "relay types": "an AMTRELAY relay type over 3",
    "values are numbers": "GPOS values that are not numbers",
    "ohttp has no value": "an ohttp key with a value (RFC 9540 section 4; BIND 9.18 knows no "
                          "ohttp)",
    # the keys registered since, which BIND 9.18 takes as octets
    "tls-supported-groups lists": "a tls-supported-groups value of no group, half of one or "
                                  "one twice (draft-ietf-tls-key-share-prediction section 3.1)",
    "docpath holds": "a docpath segment empty or cut short (RFC 9953 section 3)",
    "pvd has no value": "a pvd key with a value (draft-ietf-intarea-proxy-config section 2.1)",
}


def draw(rng):
    """A byte without upper-case letters or the high bit: 0x00-0x40, 0x5B-0x7F."""
    b = rng.randrange(0x41 + 0x25)
    return b if b < 0x41 else b - 0x41 + 0x5B


def lowercase_only(w):
    return all(not (0x41 <= b <= 0x5A) and b < 0x80 for b in w)


def mutate(rng, w, draw):
    w = bytearray(w)
    r = rng.random()
    if r < 0.4 or not w:
        return bytes(w)
    if r < 0.7:
        w[rng.randrange(len(w))] = draw(rng)
    elif r < 0.85:
        del w[rng.randrange(len(w)):]
    else:
        w += bytes(draw(rng) for _ in range(1 + rng.randrange(4)))
    return bytes(w)


def seeds():
    """The RDATA of every-type.zone's records, by type, as BIND reads them (named-rrchecker -u
    would be a process each: zonepuny's generic output of the zone is checked against BIND
    below like any other record)."""
    out = run([ZONEPUNY, "--fragment", "--generic",
               ",".join(list(TYPES) + ["TYPE%d" % n for n in MORE.values()]),
               os.path.join(REPO_DIR, "zones", "every-type.zone")])
    by_type = collections.defaultdict(list)
    for line in out.stdout.splitlines():
        p = line.split("\t")
        m = re.match(r"\\# \d+ ?([0-9a-f]*)$", p[4])
        if m:
            by_type[p[3]].append(bytes.fromhex(m.group(1)))
    return by_type


def random_records(rng, per_type, draw=draw, keep=lowercase_only):
    """(type code, "\\# len hex") for every type: per_type records each, their octets the wire
    form of a random valid text, a record of every-type.zone or random bytes (from draw), then
    mutated or not; octets that fail keep are replaced by random ones."""
    from_zone = seeds()
    records = []
    for tname in list(TYPES) + list(MORE):
        code = "TYPE%d" % (MORE[tname] if tname in MORE else dns.rdatatype.from_text(tname))
        pool = [w for w in from_zone.get(code, []) if keep(w)]
        for _ in range(per_type):
            r = rng.random()
            w = None
            if r < 0.6 and tname in TYPES:
                try:
                    rd = dns.rdata.from_text("IN", tname, text_for(rng, TYPES[tname]),
                                             origin=ORIGIN)
                    w = rd.to_wire(origin=ORIGIN)
                except Exception:   # noqa: BLE001
                    w = None
            elif r < 0.8 and pool:
                w = rng.choice(pool)
            if w is None or not keep(w):
                w = bytes(draw(rng) for _ in range(rng.randrange(24)))
            w = mutate(rng, w, draw)
            records.append((code, "\\# %d %s" % (len(w), w.hex()) if w else "\\# 0"))
    return records


def main():
    t = Tally(shown=100)
    if not have("named-compilezone") or not have("named-rrchecker"):
        t.skip("named-compilezone or named-rrchecker not installed (bind9, bind9-utils)")
        t.finish()
    rng = random.Random(3597)
    records = [(FIRST + i, "r%d" % i, code, text)
               for i, (code, text) in enumerate(random_records(rng, PER_TYPE))]
    with tempfile.TemporaryDirectory() as tmp:
        zone = os.path.join(tmp, "w.zone")
        write_zone(zone, records)
        ours_bad, ours_wire = zonepuny(zone, {r[2] for r in records})
        if ours_bad is None:
            t.bad("zonepuny refuses the zone without the lines it refused: " + ours_wire)
            t.finish()
        msgs = run([ZONEPUNY, "--check", "--fragment",
                    "--max-errors", "0", zone]).stderr
        why = {int(m.group(1)): m.group(2)
               for m in re.finditer(r"w\.zone:(\d+):\d+: error: (.*)", msgs)}
        # zonepuny's own text of what it took (every type as text where it has one), read back
        # by dnspython directly and by BIND, must be the octets it took; taken from a copy
        # without the lines it refuses (a conversion with an error writes nothing), before
        # bind() comments out BIND's in the zone itself
        text = run([ZONEPUNY, "--fragment", "--max-errors",
                    "0", "--generic", "none", commented(zone, ours_bad)]).stdout
        bind_bad, taken = bind(zone)
        if bind_bad is None:
            t.bad("BIND refuses the zone without naming a line: " + taken)
            t.finish()
        octets = bind_octets(zone) or {}
        back = os.path.join(tmp, "back.zone")
        with open(back, "w") as f:
            f.write(text)
        again, taken_again = bind(back)
        if again is None or again:
            t.bad("BIND refuses zonepuny's text of the records it took: %s" % (again or
                                                                            taken_again))
        octets_again = bind_octets(back) or {}
    readback = 0
    for line in text.splitlines():
        p = line.split("\t")
        owner = p[0].split(".")[0]
        if not owner.startswith("r"):
            continue
        want = ours_wire.get(owner)
        py = None
        try:
            py = dns.rdata.from_text("IN", p[3], p[4], origin=ORIGIN).to_wire(
                origin=ORIGIN).hex()
        except Exception:   # noqa: BLE001
            pass
        tname, btext = taken_again.get(owner, (None, None))
        bw = None if btext is None else wire_of(tname, btext, ORIGIN,
                                                  octets_again.get(owner, [None])[0])
        if bw != want or (py is not None and py != want):
            t.bad("zonepuny's text %r is read back as BIND %s, dnspython %s, not %s" %
                  (p[4], bw, py, want))
        else:
            readback += 1
            t.ok()
    agree = stricter = 0
    reasons = collections.Counter()
    for line, owner, code, text in records:
        ours = None if line in ours_bad else ours_wire.get(owner, "?")
        if line in bind_bad:
            theirs = None
        else:
            tname, btext = taken.get(owner, (None, None))
            theirs = None if btext is None else wire_of(tname, btext, ORIGIN,
                                                        octets.get(owner, [None])[0])
            theirs = "?" if theirs is None else theirs
        what = "%s %s (BIND %s, zonepuny %s: %s)" % (code, text, theirs, ours,
                                                     why.get(line, ""))
        if theirs is None and ours is not None:
            t.bad("BIND refuses, zonepuny takes: " + what)
        elif theirs == ours:
            agree += 1
            t.ok()
        elif ours is None:
            reason = next((k for k in STRICTER if k in why.get(line, "")), None)
            if reason:
                stricter += 1
                reasons[STRICTER[reason]] += 1
                t.ok()
            else:
                t.bad("BIND takes, zonepuny refuses: " + what)
        else:
            t.bad("different octets: " + what)
    print("%d records: BIND and zonepuny agree on %d; zonepuny refuses %d on purpose (%s); "
          "its text of the %d it takes reads back alike in BIND and dnspython" %
          (len(records), agree, stricter,
           ", ".join("%s: %d" % kv for kv in reasons.most_common()) or "none", readback))
    t.need_pass("no record compared")
    t.finish()


if __name__ == "__main__":
    main()
