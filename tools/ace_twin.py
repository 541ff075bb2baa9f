#!/usr/bin/python3
"""ace_twin.py -- the ASCII twin of a zone file: every name written in UTF-8 (raw, or as \\DDD
escapes of octets >= 0x80) rewritten label by label in ACE by Python's encodings.idna (an IDNA2003
implementation independent of ours), everything else byte for byte as written.

usage: ace_twin.py IN OUT

A field is taken for a name when it is not quoted and holds an octet >= 0x80, raw or escaped: in
the sample zones only names do (text is quoted). Comments and quoted strings are copied as they
are, so text is never touched, as zonepuny promises. Labels without such octets are kept as
written, escapes included.
"""
import encodings.idna
import re
import sys

DDD = re.compile(rb"\\([0-9]{3})")


def label_octets(text):
    """The octets a label's presentation text stands for (RFC 1035 section 5.1 escapes)."""
    out, i = bytearray(), 0
    while i < len(text):
        if text[i:i + 1] == b"\\":
            if DDD.match(text, i):
                out.append(int(text[i + 1:i + 4]))
                i += 4
            else:
                out += text[i + 1:i + 2]
                i += 2
        else:
            out += text[i:i + 1]
            i += 1
    return bytes(out)


def split_labels(name):
    """Splits at dots that are not escaped; the pieces keep their escapes."""
    labels, cur, i = [], bytearray(), 0
    while i < len(name):
        c = name[i:i + 1]
        if c == b"\\":
            cur += name[i:i + 2]
            i += 2
            continue
        if c == b".":
            labels.append(bytes(cur))
            cur = bytearray()
        else:
            cur += c
        i += 1
    labels.append(bytes(cur))
    return labels


def ace_name(field):
    out = []
    for label in split_labels(field):
        octets = label_octets(label)
        if max(octets, default=0) < 0x80:
            out.append(label)
        else:
            out.append(encodings.idna.ToASCII(octets.decode("utf-8")))
    return b".".join(out)


def needs_ace(field):
    return any(b >= 0x80 for b in field) or any(int(m.group(1)) >= 0x80 for m in DDD.finditer(field))


def twin_line(line):
    out, i = bytearray(), 0
    while i < len(line):
        c = line[i:i + 1]
        if c == b";":
            out += line[i:]
            break
        if c == b'"':
            j = i + 1
            while j < len(line) and line[j:j + 1] != b'"':
                j += 2 if line[j:j + 1] == b"\\" else 1
            out += line[i:j + 1]
            i = j + 1
            continue
        if c in b" \t\r\n()":
            out += c
            i += 1
            continue
        j = i
        while j < len(line) and line[j:j + 1] not in (b" ", b"\t", b"\r", b"\n", b"(", b")",
                                                      b";", b'"'):
            j += 2 if line[j:j + 1] == b"\\" else 1
        field = line[i:j]
        out += ace_name(field) if needs_ace(field) else field
        i = j
    return bytes(out)


def main():
    with open(sys.argv[1], "rb") as f, open(sys.argv[2], "wb") as g:
        for line in f:
            g.write(twin_line(line))


if __name__ == "__main__":
    main()
