#!/usr/bin/python3
"""check_lexer_dnspython.py -- the front end's reading of master-file syntax against dnspython's.

Random zones (fixed seeds) mix what the scanner must get right: blanks and tabs, `;` comments,
comment and empty lines, quoted strings holding blanks, `;`, parentheses and escapes, \\X and
\\DDD escapes in fields, parentheses joining lines with comments inside, blank owners, `@`, TTL
and class in either order or left out, UTF-8 in owners, in target names and in text, CRLF line
ends. dnspython (its own tokenizer and zone reader; Python's encodings.idna for UTF-8 names) reads
each zone, and reads zonepuny's output of it; both must give the same records (owner, TTL,
class, type, RDATA compared in wire form).

dnspython 2.3 departs from RFC 1035 section 5.1 in two places, so its copy of each zone differs
from zonepuny's there and nowhere else: it takes a CR for text, not for a blank, so its copy has
LF where zonepuny's has CRLF; and it wants the TTL before the class, so its copy has them in
that order where zonepuny's has the class first.
Owners are all different so that the records compare one to one.
"""
import os
import random
import subprocess
import sys
import tempfile

import dns.name
import dns.zone

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

zonepuny = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
UTF8_LABELS = ["m\u00fcnchen", "\u4f8b\u3048", "\u0baa\u0bb0\u0bbf\u0b9f\u0bcd\u0b9a\u0bc8",
               "\u03b5\u03bb\u03bb\u03ac\u03b4\u03b1", "caf\u00e9", "\u0434\u043e\u043c"]
TEXT_CHARS = "abcXYZ019 -_.,:/!#$%&*+<=>?@[]^`{|}~"


def ddd(c):
    return "\\%03d" % c


def text_piece(rng, quoted):
    """One character of a character-string, written one of the ways the syntax allows."""
    r = rng.random()
    if r < 0.08:
        return ddd(rng.randrange(256))
    if r < 0.16:
        return "\\" + rng.choice("\"\\;() abc.")
    if r < 0.22:
        return rng.choice(UTF8_LABELS)[0]
    if quoted:
        return rng.choice(TEXT_CHARS + ";()\t")
    return rng.choice(TEXT_CHARS.replace(" ", "").replace("$", "").replace("@", ""))


def text_field(rng):
    n = rng.randrange(0, 12)
    if rng.random() < 0.6 or n == 0:
        return '"' + "".join(text_piece(rng, True) for _ in range(n)) + '"'
    return "".join(text_piece(rng, False) for _ in range(n))


def owner_label(rng, i):
    if rng.random() < 0.2:
        return rng.choice(UTF8_LABELS) + "-" + str(i)
    label = "h" + str(i)
    # an escaped letter or digit is that letter or digit
    return "".join(ddd(ord(c)) if rng.random() < 0.1 else c for c in label)


def rdata(rng):
    t = rng.random()
    if t < 0.6:
        return "TXT", [text_field(rng) for _ in range(rng.randrange(1, 5))]
    if t < 0.8:
        target = rng.choice(["mail", "m\u00fcnchen", "a\\.b", "mx.other.", "@", "\\m\\x"])
        return "MX", [str(rng.randrange(65536)), target]
    return "A", [".".join(str(rng.randrange(256)) for _ in range(4))]


def record(rng, i):
    """The text of one record (maybe spanning lines) for zonepuny, and for dnspython."""
    blank = i > 0 and rng.random() < 0.15
    owner = "" if blank else ("@" if i == 0 and rng.random() < 0.5 else owner_label(rng, i))
    meta = []
    if rng.random() < 0.5:
        meta.append(str(rng.randrange(1, 86400)))
    if rng.random() < 0.5:
        meta.append(rng.choice(["IN", "in", "CLASS1"]))
    swap = len(meta) == 2 and rng.random() < 0.5
    rtype, fields = rdata(rng)
    sep = lambda: rng.choice([" ", "\t", "  ", " \t "])  # noqa: E731
    head = (rng.choice([" ", "\t"]) if blank else owner) + sep()
    seps = [sep() for _ in meta]
    their_head = head + "".join(m + s for m, s in zip(meta, seps)) + rtype
    head += "".join(m + s for m, s in zip(meta[::-1] if swap else meta, seps)) + rtype
    if rng.random() < 0.3:
        # parentheses joining lines, comments inside, a blank at the start of a continued line
        body = sep() + "("
        for f in fields:
            body += sep() + f
            if rng.random() < 0.4:
                body += rng.choice(["", sep()]) + "; in ( parens )" + "\n" + rng.choice(["", " "])
            elif rng.random() < 0.3:
                body += "\n" + rng.choice(["", "\t"])
        body += sep() + ")"
    else:
        body = "".join(sep() + f for f in fields)
    if rng.random() < 0.2:
        body += sep() + "; comment \u00e9 ( \""
    return head + body, their_head + body


def zone_text(rng, n):
    ours, theirs = ["$ORIGIN example.", "$TTL 3600"], ["$ORIGIN example.", "$TTL 3600"]
    for i in range(n):
        text, their_text = record(rng, i)
        ours.append(text)
        theirs.append(their_text)
        if rng.random() < 0.1:
            line = rng.choice(["", "; a comment line", "   ", "\t; indented comment"])
            ours.append(line)
            theirs.append(line)
    return "\n".join(ours) + "\n", "\n".join(theirs) + "\n"


def records(text):
    z = dns.zone.from_text(text, origin="example.", relativize=False, check_origin=False,
                           idna_codec=dns.name.IDNA_2003)
    out = []
    for name, rds in z.iterate_rdatasets():
        for rd in rds:
            out.append((name.to_text().lower(), rds.ttl, rds.rdclass, rds.rdtype,
                        rd.to_digestable(dns.name.root)))
    return sorted(out)


def main():
    t = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, 9):
            rng = random.Random(seed)
            data, text = zone_text(rng, 1000)
            crlf = seed % 2 == 0
            if crlf:
                data = data.replace("\n", "\r\n")
            path = os.path.join(tmp, "z%d.zone" % seed)
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(data)
            # --fragment: the zones are syntax only (no SOA or NS, MX targets without
            # addresses, names check-names refuses), not whole zones to check
            run = subprocess.run([zonepuny, "--fragment", path], capture_output=True)
            ok = run.returncode == 0 and not run.stderr
            if ok:
                ours = records(run.stdout.decode("utf-8"))
                theirs = records(text)
                ok = ours == theirs and len(theirs) > 900
            if ok:
                t.ok()
                continue
            t.bad("seed %d%s (exit %d)" % (seed, " CRLF" if crlf else "", run.returncode))
            print(run.stderr.decode("utf-8", "replace")[:600])
            if run.returncode == 0:
                missing = [r for r in theirs if r not in ours]
                extra = [r for r in ours if r not in theirs]
                for r in missing[:5]:
                    print("  dnspython only: %r" % (r,))
                for r in extra[:5]:
                    print("  zonepuny only:  %r" % (r,))
    t.need_pass("no zone compared")
    t.finish()


if __name__ == "__main__":
    main()
