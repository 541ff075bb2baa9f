#!/usr/bin/python3
"""genadversarial.py -- worst-case zones for `make bench` (section "Adversarial zones").

usage: genadversarial.py KIND SIZE OUT.zone

KIND and what SIZE means:
  paren     one parenthesised TXT record of SIZE bytes, 100 quoted strings per line; zonepuny
            refuses it at 1 MiB (doc/limits.md) and must skip the rest in linear time
  escapes   SIZE bytes of records whose every octet is a \\DDD escape: owners of UTF-8 written as
            escapes (each label goes through ToASCII), TXT strings of escaped ASCII
  punycode  SIZE bytes of records whose owners are three 63-octet "xn--" labels (the ACE check
            decodes and re-encodes each: the longest Punycode a label can hold), made by Python's
            encodings.idna from random CJK strings
  nul       SIZE NUL octets in the comment of one record (flex rescans a token at each NUL it
            holds unless the scanner takes them apart)
  types     one name with as many types as SIZE bytes hold (TYPE1000 and up, at most 64,000):
            named's load limits group a run of lines by type
  glue      a delegation with as many NS records as SIZE / 2 bytes hold, then an address record
            at each of their names (glue): each owner is asked whether an NS names it
  include   an include bomb SIZE levels deep, ten $INCLUDEs per level, ten records per leaf: OUT
            and OUT.d/ hold one file per level; zonepuny opens 10 + 100 + ... files up to its
            limit of 10,000, then refuses the rest at their directive

The files are deterministic (fixed seed). A trailing valid record shows that parsing goes on.
"""
import encodings.idna
import itertools
import os
import random
import sys

CHUNK = 1 << 20


def write_until(f, size, make_line):
    """Writes lines from make_line() until at least size bytes are written; returns the count."""
    done = 0
    buf = []
    pending = 0
    while done + pending < size:
        line = make_line()
        buf.append(line)
        pending += len(line)
        if pending >= CHUNK:
            f.write(b"".join(buf))
            done += pending
            buf, pending = [], 0
    f.write(b"".join(buf))
    return done + pending


def paren(f, size):
    f.write(b"$ORIGIN example.\n$TTL 300\nbig IN TXT (\n")
    line = b" " + b" ".join([b'"' + b"x" * 60 + b'"'] * 100) + b"\n"
    write_until(f, size, lambda: line)
    f.write(b")\nafter IN A 192.0.2.1\n")


def escapes(f, size):
    rnd = random.Random(5)
    f.write(b"$ORIGIN example.\n$TTL 300\n")
    # two-byte UTF-8 letters U+00E0..U+00FF (nameprep keeps them) as \DDD pairs: 20 per label,
    # which encodes to well under 63 octets of Punycode
    def line():
        labels = []
        for _ in range(3):
            cps = [0xE0 + rnd.randrange(0x1F) for _ in range(20)]
            cps = [c for c in cps if c != 0xF7]  # DIVISION SIGN is no letter
            labels.append("".join("".join("\\%03d" % b for b in chr(c).encode()) for c in cps))
        txt = "".join("\\%03d" % rnd.randrange(0x61, 0x7B) for _ in range(200))
        return ("%s IN TXT \"%s\"\n" % (".".join(labels), txt)).encode()
    write_until(f, size, line)
    f.write(b"after IN A 192.0.2.1\n")


def maximal_ace(rnd):
    """The longest ACE label (at most 63 octets) from random CJK ideographs."""
    best = None
    s = ""
    while True:
        s += chr(0x4E00 + rnd.randrange(0x51A6))
        try:
            ace = encodings.idna.ToASCII(s)
        except UnicodeError:  # past 63 octets
            return best
        best = ace


def punycode(f, size):
    rnd = random.Random(7)
    pool = [maximal_ace(rnd) for _ in range(300)]
    f.write(b"$ORIGIN example.\n$TTL 300\n")
    write_until(f, size, lambda: b".".join(rnd.sample(pool, 3)) + b" IN A 192.0.2.1\n")
    f.write(b"after IN A 192.0.2.1\n")


APEX = b"$ORIGIN example.\n$TTL 300\n@ SOA ns h 1 7200 3600 1209600 300\n@ NS ns\nns A 192.0.2.1\n"


def nul(f, size):
    f.write(APEX + b"x A 192.0.2.2 ; ")
    for at in range(0, size, CHUNK):
        f.write(b"\0" * min(CHUNK, size - at))
    f.write(b"\nafter IN A 192.0.2.1\n")


def types(f, size):
    f.write(APEX)
    n = iter(range(1000, 65000))
    write_until(f, size, lambda: b"x TYPE%d \\# 0\n" % next(n))
    f.write(b"after IN A 192.0.2.1\n")


def glue(f, size):
    f.write(APEX)
    ns, addr = itertools.count(), itertools.count()
    n = write_until(f, size // 2, lambda: b"sub NS g%d.sub\n" % next(ns))
    write_until(f, n, lambda: b"g%d.sub A 192.0.2.1\n" % next(addr))
    f.write(b"after IN A 192.0.2.1\n")


def include(out, levels):
    d = out + ".d"
    os.makedirs(d, exist_ok=True)
    base = os.path.basename(d)
    with open(out, "wb") as f:
        f.write(b"$ORIGIN example.\n$TTL 300\n")
        for i in range(10):
            f.write(b"$INCLUDE %s/l1.zone\n" % base.encode())
        f.write(b"after IN A 192.0.2.1\n")
    for lv in range(1, levels + 1):
        with open(os.path.join(d, "l%d.zone" % lv), "wb") as f:
            if lv < levels:
                for i in range(10):
                    f.write(b"$INCLUDE l%d.zone\n" % (lv + 1))
            else:
                for i in range(10):
                    f.write(b"h%d IN A 192.0.2.%d\n" % (i, i + 1))


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("paren", "escapes", "punycode", "nul", "types",
                                                  "glue", "include"):
        sys.exit(__doc__)
    kind, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "include":
        include(out, size)
        return
    with open(out, "wb") as f:
        {"paren": paren, "escapes": escapes, "punycode": punycode, "nul": nul, "types": types,
         "glue": glue}[kind](f, size)


if __name__ == "__main__":
    main()
