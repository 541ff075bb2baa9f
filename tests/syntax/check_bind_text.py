"""check_bind_text.py -- zonepuny reads BIND's text of the types only BIND 9.18 reads as text.

For A6, SINK, NINFO, RKEY, DSYNC, HHIT, BRID, AVC, DOA, RESINFO, WALLET and TA (ldns 1.8, NSD
4.6 and Knot 3.2 do not read them, or read A6 and SINK otherwise), random RDATA in RFC 3597 form
("\\# len hex"): octets drawn field by field from each type's RFC or draft (draw_*), a third of
them mutated (an octet changed, the end cut or grown). What zonepuny takes of them:
  - named-compilezone loads (zonepuny's exit 0 means named loads the zone), and holds the same
    octets (its raw zone format) where they have no upper-case letter, which zonepuny lowercases
    in A6's names (RFC 4034 section 6.2);
  - named-compilezone writes as text (-s full, the form a zone that went through BIND is in);
  - zonepuny reads that text without an error, back to the octets it took from RFC 3597 form.
Each type must have records that make the round trip. Counts are printed.
"""
import collections
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "output"))
from lib import Tally  # noqa: E402
from peers import (FIRST, bind_octets, commented, have, run, write_zone,  # noqa: E402
                   zonepuny)

TYPES = {"A6": 38, "SINK": 40, "NINFO": 56, "RKEY": 57, "DSYNC": 66, "HHIT": 67, "BRID": 68,
         "AVC": 258, "DOA": 259, "RESINFO": 261, "WALLET": 262, "TA": 32768}
PER_TYPE = 150
LEAST = 60          # records of each type that must make the round trip


def octets(rng, lo, hi):
    return bytes(rng.randrange(256) for _ in range(rng.randint(lo, hi)))


def draw_name(rng):
    """An uncompressed name (RFC 1035 section 3.1) of up to three labels: mostly letters, digits
    and hyphens, with the bytes a writer must escape; upper case now and then."""
    alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789-" * 3 + b"_*. \\\"();$@\t\x00\x7f"
    wire = b""
    for _ in range(rng.randrange(4)):
        label = bytes(rng.choice(alphabet) for _ in range(rng.randint(1, 10)))
        if rng.random() < 0.1:
            label = label.upper()
        wire += bytes([len(label)]) + label
    return wire + b"\x00"


def draw_strings(rng):
    """Character-strings (RFC 1035 section 3.3), one to four, of any octets."""
    return b"".join(bytes([len(s)]) + s for s in
                    (octets(rng, 0, 30) for _ in range(rng.randint(1, 4))))


def draw_a6(rng):
    # RFC 2874 section 3.1.1: a prefix length, the suffix (128 - length bits, zero pad bits
    # first), the prefix name unless the length is 0
    plen = rng.choice([0, 128, rng.randint(1, 127)])
    suffix = bytearray(octets(rng, 16 - plen // 8, 16 - plen // 8)) if plen < 128 else b""
    if suffix:
        suffix[0] &= 0xFF >> (plen % 8)
    return bytes([plen]) + bytes(suffix) + (draw_name(rng) if plen else b"")


def draw_dsync(rng):
    # draft-ietf-dnsop-generalized-notify: RRtype, scheme, port, target
    rrtype = rng.choice([59, 62, 0, 1, 255, 41, 65533, rng.randrange(65536)])
    scheme = rng.choice([1, 1, 0, rng.randrange(256)])
    return rrtype.to_bytes(2, "big") + bytes([scheme]) + octets(rng, 2, 2) + draw_name(rng)


def draw_doa(rng):
    # draft-durand-doa-over-dns: enterprise, type, location, media type, data (none or more)
    media = octets(rng, 0, 20)
    return octets(rng, 9, 9) + bytes([len(media)]) + media + octets(rng, 0, 40)


def draw_ta(rng):
    # as DS (RFC 4034 section 5.1): key tag, algorithm, digest type, digest of its type's length
    dtype = rng.choice([1, 2, 4, rng.randrange(256)])
    n = {1: 20, 2: 32, 3: 32, 4: 48}.get(dtype, rng.randint(1, 40))
    return octets(rng, 3, 3) + bytes([dtype]) + octets(rng, n, n)


DRAW = {
    "A6": draw_a6,
    # draft-eastlake-kitchen-sink: meaning, coding, subcoding, data (none or more octets)
    "SINK": lambda rng: octets(rng, 3, 3) + octets(rng, 0, 40),
    "NINFO": draw_strings, "AVC": draw_strings, "RESINFO": draw_strings, "WALLET": draw_strings,
    # as DNSKEY (RFC 4034 section 2.1), flags 0 (draft-reid-dnsext-rkey section 2.1)
    "RKEY": lambda rng: b"\x00\x00" + octets(rng, 2, 2) + octets(rng, 1, 40),
    "DSYNC": draw_dsync,
    # DRIP's HHIT and BRID: octets, at least one (BIND writes them in base64)
    "HHIT": lambda rng: octets(rng, 1, 40), "BRID": lambda rng: octets(rng, 1, 40),
    "DOA": draw_doa,
    "TA": draw_ta,
}


def mutate(rng, w):
    w = bytearray(w)
    r = rng.random()
    if r < 0.67 or not w:
        return bytes(w)
    if r < 0.8:
        w[rng.randrange(len(w))] = rng.randrange(256)
    elif r < 0.9:
        del w[rng.randrange(len(w)):]
    else:
        w += octets(rng, 1, 4)
    return bytes(w)


def lowercase_only(hexs):
    return not any(0x41 <= b <= 0x5A for b in bytes.fromhex(hexs))


def main():
    t = Tally(shown=50)
    if not have("named-compilezone"):
        t.skip("named-compilezone not installed (bind9-utils)")
        t.finish()
    rng = random.Random(2874)
    records = []
    for tname in TYPES:
        for _ in range(PER_TYPE):
            w = mutate(rng, DRAW[tname](rng))
            records.append((FIRST + len(records), "r%d" % len(records), "TYPE%d" % TYPES[tname],
                            "\\# %d %s" % (len(w), w.hex()) if w else "\\# 0"))
    generic = ["TYPE%d" % n for n in TYPES.values()]
    round_trip = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        zone = os.path.join(tmp, "g.zone")
        write_zone(zone, records)
        refused, ours = zonepuny(zone, generic)
        if refused is None:
            t.bad("zonepuny refuses the zone without the lines it refused: " + ours)
            t.finish()
        taken = commented(zone, refused)
        text = os.path.join(tmp, "text.zone")
        out = run(["named-compilezone", "-k", "ignore", "-i", "none", "-s", "full", "-o", text,
                   "example.", taken])
        if out.returncode != 0:
            t.bad("BIND refuses what zonepuny takes: " + (out.stdout + out.stderr)[-600:])
            t.finish()
        theirs = bind_octets(taken)
        if theirs is None:
            t.bad("BIND refuses to write its raw form of what it loaded")
            t.finish()
        again_refused, again = zonepuny(text, generic)
        if again_refused is None:
            t.bad("zonepuny refuses BIND's text without the lines it refused: " + again)
            t.finish()
        with open(text) as f:
            text_lines = f.read().split("\n")
        for n in sorted(again_refused):
            t.bad("zonepuny refuses BIND's text %r" % text_lines[n - 1])
        lines = {l.split(".")[0]: l for l in text_lines if l.startswith("r")}
    for line, owner, code, rdata in records:
        if line in refused:
            continue
        tname = next(k for k, v in TYPES.items() if "TYPE%d" % v == code)
        want = ours.get(owner)
        if want is None:
            t.bad("zonepuny took %s %s and wrote nothing for it" % (code, rdata))
        elif again.get(owner) != want:
            t.bad("BIND's text %r is read as %s, not %s (from %s)" %
                  (lines.get(owner), again.get(owner), want, rdata))
        elif lowercase_only("".join(rdata.split()[2:])) and theirs.get(owner, [None])[0] != want:
            t.bad("BIND holds %s as %s, zonepuny as %s" % (rdata, theirs.get(owner), want))
        else:
            round_trip[tname] += 1
            t.ok()
    for tname in TYPES:
        if round_trip[tname] < LEAST:
            t.bad("%s: only %d records made the round trip" % (tname, round_trip[tname]))
    print("%d records in RFC 3597 form, %d refused by zonepuny; BIND's text of the rest read "
          "back to the same octets: %s" % (len(records), len(refused),
                                           ", ".join("%s %d" % kv for kv in
                                                     sorted(round_trip.items()))))
    t.need_pass("no record compared")
    t.finish()


if __name__ == "__main__":
    main()
