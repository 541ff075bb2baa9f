#!/usr/bin/env python3
"""check_txt_split.py -- a TXT character-string over 255 octets is an error (RFC 1035 section 3.3)
whose message gives the strings it makes, ready to paste: random strings of 256 to 700 octets,
with \\DDD, \\" and \\\\ escapes where a cut may fall; each suggestion pasted back is read by
zonepuny, its output by dnspython (the oracle), and its strings, joined, must be the octets
written, each at most 255; 2,900 octets come whole in the message (255 x 11 and 95). A type of
one string (HINFO) gets no suggestion.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

t = Tally(shown=10)
ZP = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
try:
    import dns.zone
except ImportError:
    t.skip("no dnspython (make deps-test)")
    t.finish()
BASE = "$ORIGIN example.\n$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n"
rnd = random.Random(20261202)
tmp = tempfile.mkdtemp(prefix="zp-split-")


def unescape(text):
    """The octets of zone text (RFC 1035 section 5.1 escapes), written by hand."""
    out, i = bytearray(), 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1].isdigit():
            out.append(int(text[i + 1:i + 4]))
            i += 4
        elif text[i] == "\\":
            out += text[i + 1].encode()
            i += 2
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)


def run(*args):
    return subprocess.run([ZP, *args], capture_output=True, text=True, errors="replace")


for trial in range(60):
    parts = []
    for _ in range(rnd.randint(256, 700)):
        r = rnd.random()
        parts.append("\\%03d" % rnd.randint(0, 255) if r < 0.05 else '\\"' if r < 0.08 else
                     "\\\\" if r < 0.1 else rnd.choice("abcXYZ019;= "))
    text = "".join(parts)
    z = os.path.join(tmp, "t.zone")
    with open(z, "w") as f:
        f.write(BASE + 't TXT "%s"\n' % text)
    first = run("--check", z).stderr.splitlines()[0]
    m = re.search(r"one after the other: (.*)$", first)
    if not m:
        t.bad("trial %d: no strings suggested: %s" % (trial, first[:300]))
        continue
    with open(z, "w") as f:
        f.write(BASE + "t TXT %s\n" % m.group(1))
    r = run(z)
    if r.returncode != 0:
        t.bad("trial %d: the suggestion does not read: %s" % (trial, r.stderr[:300]))
        continue
    rd = list(dns.zone.from_text(r.stdout, origin="example.", relativize=False)
              .find_rdataset("t.example.", "TXT"))[0]
    if b"".join(rd.strings) == unescape(text) and all(len(s) <= 255 for s in rd.strings):
        t.ok()
    else:
        t.bad("trial %d: strings of %s octets, joined not the text" %
              (trial, [len(s) for s in rd.strings]))

# a long one (a 4096-bit key's worth): the message holds every string, none cut short
with open(os.path.join(tmp, "long.zone"), "w") as f:
    f.write(BASE + 't TXT "%s"\n' % ("y" * 2900))
m = re.search(r"one after the other: (.*)$", run("--check", os.path.join(tmp, "long.zone"))
              .stderr.splitlines()[0])
pieces = re.findall(r'"([^"]*)"', m.group(1)) if m else []
if [len(p) for p in pieces] == [255] * 11 + [95]:
    t.ok()
else:
    t.bad("2900 octets: strings of %s" % [len(p) for p in pieces])

with open(os.path.join(tmp, "h.zone"), "w") as f:
    f.write(BASE + 'h HINFO "%s" x\n' % ("b" * 300))
e = run("--check", os.path.join(tmp, "h.zone")).stderr
if "longer than 255 octets" in e and "one after the other" not in e:
    t.ok()
else:
    t.bad("HINFO: %s" % e[:300])
subprocess.run(["rm", "-rf", tmp])
t.finish()
