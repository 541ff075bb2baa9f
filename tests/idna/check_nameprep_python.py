# check_nameprep_python.py -- nameprep and NFKC against Python's encodings.idna and ucd_3_2_0
#
# Corpus: every code point alone (surrogates and U+000A excepted) and 200,000 random strings
# (fixed seed) mixing scripts, combining marks, Hangul jamo, RTL, compatibility forms and
# unassigned code points. Python's nameprep has no unassigned check (it is ToASCII's
# AllowUnassigned), so our driver runs with -u for the comparison; the A.1 refusal is checked
# separately against stringprep.in_table_a1. Where Python's data postdates Unicode 3.2 (case
# pairs, combining classes of later marks) the difference is recognised and counted; the counts
# are pinned. Then zp_nfkc against ucd_3_2_0.normalize('NFKC'), and nameprep's idempotence.
import os
import random
import stringprep
import subprocess
import sys
import unicodedata
from encodings.idna import nameprep

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from lib import REPO_DIR, Tally  # noqa: E402

BUILD = os.environ.get('BUILD', 'build')
DRIVER = os.path.join(REPO_DIR, BUILD, 'tests', 'nameprep_driver')

POOLS = [(0x61, 0x7A), (0x41, 0x5A), (0x30, 0x39), (0x2D, 0x2D), (0xA0, 0x24F), (0x300, 0x36F),
         (0x370, 0x3FF), (0x400, 0x4FF), (0x591, 0x5C4), (0x5D0, 0x5F4), (0x600, 0x6FF),
         (0x900, 0x97F), (0xB00, 0xB7F), (0xE00, 0xE7F), (0xF00, 0xFFF), (0x1100, 0x11FF),
         (0x1100, 0x1112), (0x1161, 0x1175), (0x11A8, 0x11C2), (0xAC00, 0xD7A3),
         (0x1E00, 0x1FFF), (0x2000, 0x218F), (0x2460, 0x24FF), (0x3000, 0x33FF),
         (0x4E00, 0x9FA5), (0xF900, 0xFAFF), (0xFB00, 0xFDFF), (0xFE20, 0xFE2F),
         (0xFE70, 0xFFEF), (0x1D100, 0x1D1FF), (0x1D400, 0x1D7FF), (0x2F800, 0x2FA1F),
         (0xAD, 0xAD), (0x200B, 0x200D), (0x340, 0x345), (0x10A0, 0x10C5), (0xB80, 0xDFF),
         (0x1000, 0x1059), (0xB3E, 0xB57), (0xB47, 0xB4D), (0x1, 0x10FFFF)]


def random_cp(rng):
    while True:
        lo, hi = POOLS[rng.randrange(len(POOLS))]
        cp = rng.randint(lo, hi)
        if cp != 0xA and not 0xD800 <= cp <= 0xDFFF:
            return cp


def corpus():
    for cp in range(1, 0x110000):
        if cp != 0xA and not 0xD800 <= cp <= 0xDFFF:
            yield chr(cp)
    rng = random.Random(20261122)
    for _ in range(200000):
        yield ''.join(chr(random_cp(rng)) for _ in range(rng.randint(1, 12)))


PYTHON_B2 = stringprep.map_table_b2


def python_verdict(s, b2):
    """encodings.idna.nameprep(s) in the driver's terms, with stringprep.map_table_b2 = b2."""
    stringprep.map_table_b2 = b2
    try:
        return 'OK ' + nameprep(s)
    except UnicodeError as e:
        msg = str(e)
        if 'Invalid character' in msg:
            return 'ERR ZP_IDNA_PROHIBITED'
        if 'requirement 2' in msg:
            return 'ERR ZP_IDNA_BIDI_MIXED'
        if 'requirement 3' in msg:
            return 'ERR ZP_IDNA_BIDI_ENDS'
        raise


def rfc_b2(c, python_b2=stringprep.map_table_b2):
    """Python's stringprep.map_table_b2 folds with the running Python's str.lower(), which knows
    case pairs added after Unicode 3.2 (U+0370 -> U+0371, U+04C0 -> U+04CF, U+10A0 -> U+2D00,
    ...); RFC 3454 table B.2 has no entry for a code point unassigned in 3.2 nor a target that
    is. This wraps it to leave those alone; the test counts the strings where that mattered."""
    m = python_b2(c)
    if m != c and (stringprep.in_table_a1(c) or any(stringprep.in_table_a1(x) for x in m)):
        return c
    return m


def post_3_2_ccc(s):
    """Python's ucd_3_2_0.normalize decomposes with 3.2 data but orders and composes with the
    running Python's combining classes, so a code point unassigned in 3.2 (class 0 there) that
    is a combining mark today (U+035A, U+FE24..U+FE2F, ...) gets moved. True if s holds one."""
    return any(stringprep.in_table_a1(c) and unicodedata.combining(c) != 0 for c in s)


def same_marks(a, b):
    """The same code points up to order and composition: what a different class can change."""
    return sorted(unicodedata.normalize('NFD', a)) == sorted(unicodedata.normalize('NFD', b))


def run(args, lines):
    data = ''.join(x + '\n' for x in lines).encode('utf-8', 'surrogatepass')
    out = subprocess.run([DRIVER] + args, input=data, stdout=subprocess.PIPE, check=True).stdout
    res = out.decode('utf-8').split('\n')
    assert res[-1] == '' and len(res) == len(lines) + 1
    return res[:-1]


def main():
    lines = list(corpus())
    allow = run(['-u'], lines)
    strict = run([], lines)
    t = Tally(shown=30)
    explained = {'case': 0, 'ccc': 0}
    for s, a, b in zip(lines, allow, strict):
        want = python_verdict(s, PYTHON_B2)
        got = a if a.startswith('OK ') else ' '.join(a.split(' ')[:2])
        ok = got == want
        if not ok:
            want = python_verdict(s, rfc_b2)
            ok = got == want
            explained['case'] += ok
        if not ok and post_3_2_ccc(s) and got[:3] == want[:3] == 'OK ' and \
                same_marks(got, want):
            explained['ccc'] += 1
            ok = True
        # A.1: refused exactly when the allowed run succeeds and the input holds an A.1 code point.
        if a.startswith('OK ') and any(stringprep.in_table_a1(c) for c in s):
            ok = ok and b.startswith('ERR ZP_IDNA_UNASSIGNED ')
        else:
            ok = ok and b == a
        if ok:
            t.ok()
        else:
            t.bad('differ: %s: ours %r / %r, python %r' % (ascii(s), a, b, want))
    print('strings that differ only by Python\'s post-3.2 data: %d by case mapping, %d by '
          'combining class' % (explained['case'], explained['ccc']))
    # Pinned: a change in either implementation shows up here.
    if explained != EXPLAINED:
        t.bad('expected %r' % EXPLAINED, show=True)
    else:
        t.ok()
    # NFKC alone (driver -n) against ucd_3_2_0.normalize, on the same corpus.
    nfkc_ccc = 0
    for s, a in zip(lines, run(['-n'], lines)):
        want = 'OK ' + unicodedata.ucd_3_2_0.normalize('NFKC', s)
        if a == want:
            t.ok()
        elif post_3_2_ccc(s) and a.startswith('OK ') and same_marks(a, want):
            nfkc_ccc += 1
            t.ok()
        else:
            t.bad('NFKC differs: %s: ours %r, python %r' % (ascii(s), a, want))
    print('NFKC: %d strings differ only by Python\'s post-3.2 combining classes' % nfkc_ccc)
    if nfkc_ccc != EXPLAINED_NFKC:
        t.bad('expected %d' % EXPLAINED_NFKC, show=True)
    # Nameprep is idempotent: B.2 is the case fold "for use with NFKC" so that it is.
    again = [a[3:] for a in allow if a.startswith('OK ') and '\n' not in a]
    for b, a2 in zip(again, run(['-u'], again)):
        if a2 == 'OK ' + b:
            t.ok()
        else:
            t.bad('not idempotent: %s -> %r' % (ascii(b), a2))
    t.finish()


# Counts for Debian 12's /usr/bin/python3 (3.11, Unicode 14 as its current version).
EXPLAINED = {'case': 20119, 'ccc': 1271}
EXPLAINED_NFKC = 2106

if __name__ == '__main__':
    main()
