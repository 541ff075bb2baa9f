#!/usr/bin/env python3
"""check_confusable_names.py -- -W confusable over generated zones against an oracle written here.

Each zone holds some 2,500 names made from random words: the word in ASCII, variants with Latin
letters replaced by Cyrillic look-alikes ("pаypal"), variants with an accented letter written
precomposed (U+00F3) and as a Cyrillic o with U+0301 (a skeleton no ASCII name has; two zones
have only these), some under a parent label; each name with one to three A records, all records shuffled, so that a name's
records lie far apart and the names with ACE labels come before and after their ASCII twins in
canonical order.

The oracle: a name is its IDNA2003 ACE form (Python's idna codec); its skeleton, UTS #39 section
4, is NFD, each code point replaced by its prototype from confusables.txt (tools/data, Unicode
15.0.0), NFD again (Python's unicodedata), label by label. Names of one skeleton make a group;
the first of a group is the one of the shortest sort key, then the least (labels from the root,
each ended by 0x00); every other name of the group is told against it, unless neither has an
ACE label, at the one whose first record comes later in the file. Compared: the set of pairs
told, and which of the two each message is at.
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

ZONEPUNY = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
CONFUSABLES = os.path.join(REPO_DIR, "tools", "data", "confusables-15.0.0.txt")

CYRILLIC = {"a": "\u0430", "c": "\u0441", "e": "\u0435", "o": "\u043e", "p": "\u0440",
            "x": "\u0445", "y": "\u0443", "i": "\u0456", "s": "\u0455", "j": "\u0458"}
LETTERS = "abcdefghijklmnoprstuvwxy"


def prototypes():
    table = {}
    with open(CONFUSABLES, encoding="utf-8-sig") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            src, target, _ = (x.strip() for x in line.split(";"))
            table[chr(int(src, 16))] = "".join(chr(int(x, 16)) for x in target.split())
    return table


PROTO = prototypes()


def skeleton(label):
    nfd = unicodedata.normalize("NFD", label)
    return unicodedata.normalize("NFD", "".join(PROTO.get(ch, ch) for ch in nfd))


def ace(name):
    return ".".join(lab.encode("idna").decode("ascii") for lab in name.split("."))


def unicode_of(ace_name):
    return ".".join(lab.encode("ascii").decode("idna") for lab in ace_name.split("."))


def sort_key(ace_name):
    labels = (ace_name + ".example").lower().split(".")
    key = b"".join(lab.encode("ascii") + b"\0" for lab in reversed(labels))
    return (len(key), key)


def words(rng, n):
    out = set()
    while len(out) < n:
        out.add("".join(rng.choice(LETTERS) for _ in range(rng.randint(4, 8))))
    return sorted(out)


def variants(rng, word, homographs):
    """The names made from one word: Unicode text, some of them alike."""
    names = []
    if rng.random() < 0.7:
        names.append(word)
    spots = [i for i, ch in enumerate(word) if ch in CYRILLIC]
    for _ in range(rng.randint(0, 2) if spots and homographs else 0):
        pick = rng.sample(spots, rng.randint(1, len(spots)))
        names.append("".join(CYRILLIC[ch] if i in pick else ch for i, ch in enumerate(word)))
    if "o" in word and rng.random() < 0.3:
        at = word.index("o")
        names.append(word[:at] + "\u00f3" + word[at + 1:])
        if rng.random() < 0.7:
            names.append(word[:at] + "\u043e\u0301" + word[at + 1:])
    if rng.random() < 0.2:
        parent = rng.choice(["www", "mail", "zzz"])
        names = [parent + "." + n for n in names]
    return names


def expected(names_in_order):
    """Pairs told: {(told, other)} by ACE form, from the names in the order first written."""
    first_line = {}
    for line, name in names_in_order:
        first_line.setdefault(name, line)
    groups = {}
    for name in first_line:
        sk = ".".join(skeleton(lab) for lab in unicode_of(name).split("."))
        groups.setdefault(sk, []).append(name)
    pairs = set()
    for group in groups.values():
        group.sort(key=sort_key)
        head = group[0]
        for other in group[1:]:
            if "xn--" not in head and "xn--" not in other:
                continue
            later, earlier = (other, head) if first_line[other] > first_line[head] else (head, other)
            pairs.add((later, earlier))
    return pairs


TOLD = re.compile(r"^[^:]*:(\d+):\d+: warning: name (\S+)(?: \((\S+)\))? looks like (\S+)"
                  r"(?: \((\S+)\))? at [^:]*:(\d+): .*\[-Wconfusable\]$")


def run(t, seed, size, homographs=True, args=()):
    rng = random.Random(seed)
    lines = []
    for word in words(rng, size):
        for name in variants(rng, word, homographs):
            for _ in range(rng.randint(1, 3)):
                lines.append(name)
    rng.shuffle(lines)
    head = ["$ORIGIN example.", "$TTL 3600", "@ SOA ns hostmaster 1 7200 3600 1209600 3600",
            "@ NS ns", "ns A 192.0.2.1"]
    body = ["%s A 192.0.2.%d" % (name, 1 + i % 250) for i, name in enumerate(lines)]
    written = [(len(head) + 1 + i, ace(name).lower()) for i, name in enumerate(lines)]
    want = expected(written)
    with tempfile.TemporaryDirectory() as tmp:
        zone = os.path.join(tmp, "alike.zone")
        with open(zone, "w", encoding="utf-8") as f:
            f.write("\n".join(head + body) + "\n")
        proc = subprocess.run([ZONEPUNY, "--check", "-W", "no-mixed-script", *args, zone],
                              capture_output=True, text=True)
    got = set()
    for line in proc.stderr.splitlines():
        m = TOLD.match(line)
        if not m:
            continue
        told = (m.group(3) or m.group(2)).rstrip(".")
        other = (m.group(5) or m.group(4)).rstrip(".")
        got.add((told[:-len(".example")], other[:-len(".example")]))
    label = "seed %d (%d records, %d pairs)" % (seed, len(lines), len(want))
    if proc.returncode != 0:
        t.bad(label, "exit", proc.returncode, proc.stderr.splitlines()[-1:])
        return
    if not want:
        t.bad(label, "the zone has no pair: the generator made nothing to check")
        return
    if got == want:
        t.ok()
    else:
        t.bad(label, "missing", sorted(want - got)[:5], "extra", sorted(got - want)[:5])


def main():
    t = Tally()
    if not os.access(ZONEPUNY, os.X_OK):
        t.skip("no zonepuny at", ZONEPUNY)
        t.finish()
    for seed in range(1, 9):
        run(t, seed, 600)
    # no name with a Cyrillic letter: no skeleton of the zone is one an ASCII name may have, and
    # the pass leaves the ASCII names alone
    for seed in range(9, 11):
        run(t, seed, 600, homographs=False)
    # the least memory: filters of 4 KiB, which hold many hashes falsely, and a spill of runs
    for seed in range(11, 13):
        run(t, seed, 600, args=("--check-memory", "64K"))
    t.need_pass("confusable pairs")
    t.finish()


if __name__ == "__main__":
    main()
