"""check_nsec3_owners.py -- an NSEC3 owner's first label, held to named's check-names.

named refuses an NSEC3 record whose owner does not start with a hash in base32hex without
padding (RFC 5155 section 3), at check-names fail and warn alike. One zone of NSEC3 records at
some 700 random labels (of every length from 1 to 19: digits and letters of base32hex in both
cases, now and then a letter past "v", "=", "-") goes to `named-checkzone -k warn`, whose
"bad owner name" lines must be exactly the lines where zonepuny --check reports the owner, as an
error; and to `named-checkzone -k ignore` and zonepuny --check-names=ignore, which take them
all. Wildcards are left out (named refuses an NSEC3 at one at any level; zones/bad holds it).
"""
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import Tally, REPO_DIR  # noqa: E402

ZONEPUNY = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
HEAD = "$ORIGIN example.\n$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n"
RDATA = "NSEC3 1 0 0 - 2t7b4g4vsa5smi47k61mv5bv1a22bojr A"
ENV = dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=ENV)


def main():
    t = Tally(shown=30)
    if run(["sh", "-c", "command -v named-checkzone"]).returncode != 0:
        t.skip("named-checkzone not installed (bind9-utils)")
        t.finish()
    rng = random.Random(5155)
    digits = "0123456789abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUV"
    other = "wxyzWXYZ=-"
    labels = set()
    for n in range(1, 20):
        for _ in range(40):
            labels.add("".join(rng.choice(digits if rng.random() < 0.95 else other)
                               for _ in range(n)))
    labels = sorted(labels)
    first = HEAD.count("\n") + 1
    with tempfile.TemporaryDirectory() as tmp:
        zone = os.path.join(tmp, "n3.zone")
        with open(zone, "w") as f:
            f.write(HEAD + "".join("%s %s\n" % (label, RDATA) for label in labels))
        bind = run(["named-checkzone", "-k", "warn", "example.", zone])
        theirs = {int(m) for m in re.findall(r"n3\.zone:(\d+): \S+: bad owner name", bind.stdout)}
        ours = run([ZONEPUNY, "--check", "--check-names=warn", "--max-errors", "0", zone])
        mine = {int(m) for m in re.findall(r"n3\.zone:(\d+):\d+: error: the owner of this NSEC3",
                                           ours.stderr)}
        for i, label in enumerate(labels):
            line = first + i
            if (line in theirs) == (line in mine):
                t.ok()
            else:
                t.bad("%s: named %s, zonepuny %s" % (label,
                                                     "refuses" if line in theirs else "takes",
                                                     "refuses" if line in mine else "takes"))
        # both sides refused some and took some, or the comparison says little
        if not theirs or len(theirs) == len(labels):
            t.bad("named refused %d of %d labels" % (len(theirs), len(labels)))
        if bind.returncode == 0 or ours.returncode != 1:
            t.bad("exits: named %d, zonepuny %d" % (bind.returncode, ours.returncode))
        ign = run(["named-checkzone", "-k", "ignore", "example.", zone])
        ours = run([ZONEPUNY, "--check", "--check-names=ignore", zone])
        if ign.returncode == 0 and ours.returncode == 0:
            t.ok()
        else:
            t.bad("check-names ignore: named exits %d, zonepuny %d" % (ign.returncode,
                                                                      ours.returncode))
    print("%d labels, %d refused by named" % (len(labels), len(theirs)))
    t.need_pass("no label compared")
    t.finish()


if __name__ == "__main__":
    main()
