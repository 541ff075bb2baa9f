# check_idna2008_python.py -- zonepuny --idna=2008 --to-ascii against the idna package
#
# python3-idna 3.3 (Debian 12) is an independent IDNA2008 with UTS #46 mapping, at Unicode 14.0.0:
# idna.encode(label, uts46=True, std3_rules=True, transitional=False). A second opinion beside
# ICU (tests/test_idna2008.c): every code point past ASCII as a label alone and between two
# letters, in one run of our binary. They must give the same verdict and the same ACE form; the
# one difference allowed is the package's Unicode version: a code point assigned after 14.0
# (DerivedAge.txt of the unicode-data package) is unassigned there and refused, counted.
import os
import subprocess
import sys

import idna

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from lib import REPO_DIR, Tally  # noqa: E402

ZONEPUNY = os.environ.get('ZONEPUNY', os.path.join(REPO_DIR, 'build', 'zonepuny'))
AGE = '/usr/share/unicode/DerivedAge.txt'
PACKAGE_UNICODE = (14, 0)
# (the name separators, which split a name before IDNA sees a label)
SEPARATORS = {0x3002, 0xFF0E, 0xFF61}


def ages():
    """Code point -> (major, minor) of the Unicode version that assigned it."""
    age = {}
    with open(AGE, encoding='utf-8') as f:
        for line in f:
            line = line.split('#')[0].strip()
            if not line:
                continue
            cps, version = [x.strip() for x in line.split(';')]
            lo, _, hi = cps.partition('..')
            major, minor = version.split('.')
            for cp in range(int(lo, 16), int(hi or lo, 16) + 1):
                age[cp] = (int(major), int(minor))
    return age


def shown(s):
    """A name as our messages write it (control characters, quote and backslash as \\DDD)."""
    return ''.join('\\%03d' % ord(c) if ord(c) < 0x20 or c in '\x7f"\\' else c for c in s)


def ours(labels):
    """zonepuny's ACE form of each label, or None where it refuses it."""
    data = ''.join(s + '\n' for s in labels).encode('utf-8')
    p = subprocess.run([ZONEPUNY, '--idna=2008', '--to-ascii', '-W', 'no-idna-divergence'],
                       input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.decode('utf-8').split('\n')[:-1]
    err = p.stderr.decode('utf-8').split('\n')[:-1]
    got, oi, ei = [], 0, 0
    for s in labels:
        if ei < len(err) and err[ei].startswith('zonepuny: error: %s: ' % shown(s)):
            got.append(None)
            ei += 1
        else:
            got.append(out[oi] if oi < len(out) else '<missing>')
            oi += 1
    return got, oi == len(out) and ei == len(err)


def theirs(s):
    try:
        return idna.encode(s, uts46=True, std3_rules=True, transitional=False).decode('ascii')
    except idna.IDNAError:
        return None


def main():
    t = Tally(shown=30)
    age = ages()
    cps, labels = [], []
    for cp in range(0x80, 0x110000):
        if 0xD800 <= cp <= 0xDFFF or cp in SEPARATORS:
            continue
        for s in (chr(cp), 'a' + chr(cp) + 'b'):
            cps.append(cp)
            labels.append(s)
    got, matched = ours(labels)
    if not matched:
        t.bad('our output and errors do not pair with the labels')
    newer = 0
    for cp, s, z in zip(cps, labels, got):
        p = theirs(s)
        if (z is None) == (p is None) and (z is None or z.lower() == p.lower()):
            t.ok()
        elif p is None and age.get(cp, (0, 0)) > PACKAGE_UNICODE:
            newer += 1
            t.ok()
        else:
            t.bad('U+%04X %s: zonepuny %s, idna %s' % (cp, ascii(s), z, p))
    print('idna %s: refuses %d labels of code points newer than Unicode %d.%d' %
          (idna.__version__, newer, *PACKAGE_UNICODE))
    t.need_pass('no label compared')
    t.finish()


if __name__ == '__main__':
    main()
