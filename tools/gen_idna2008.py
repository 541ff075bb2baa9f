#!/usr/bin/python3
# gen_idna2008.py -- writes src/idna/idna2008_tables.c from the Unicode 15.0.0 data Debian installs
#
# Every fact comes from the files of the packages unicode-data and unicode-idna (UCD_DIR,
# default /usr/share/unicode): UnicodeData.txt (general category, combining class, canonical
# decompositions), DerivedNormalizationProps.txt (NFC_QC, Full_Composition_Exclusion),
# extracted/DerivedBidiClass.txt, extracted/DerivedJoiningType.txt, Scripts.txt and
# idna/IdnaMappingTable.txt (UTS #46); but for one bit (ALIKE), which also asks IDNA2003's
# Nameprep at Unicode 3.2 through gen_nameprep.py (Python's unicodedata.ucd_3_2_0 and stringprep).
# The layout is described in src/idna/unorm.h and src/idna/idna2008_tables.h; keep them in step.
# Output is deterministic: run twice, same bytes.
import os
import stringprep
import sys

import gen_nameprep

from unitable import MAXCP, DROP, MAP, STABLE, DECOMP, SECOND, FIRST, Table, hangul_second, \
    hangul_syllable

UCD = os.environ.get('UCD_DIR', '/usr/share/unicode')
# The table's own bits (idna2008_tables.h).
INVALID, NV8, DEVIATION, MARK = 1 << 2, 1 << 3, 1 << 4, 1 << 5
STD3, UNASSIGNED, CONTEXT, ALIKE = 1 << 10, 1 << 11, 1 << 12, 1 << 13

BIDI = ['OTHER', 'L', 'R', 'AL', 'AN', 'EN', 'ES', 'CS', 'ET', 'ON', 'BN', 'NSM']
BIDI_LONG = {'Left_To_Right': 'L', 'Right_To_Left': 'R', 'Arabic_Letter': 'AL',
             'Arabic_Number': 'AN', 'European_Number': 'EN', 'European_Separator': 'ES',
             'Common_Separator': 'CS', 'European_Terminator': 'ET', 'Other_Neutral': 'ON',
             'Boundary_Neutral': 'BN', 'Nonspacing_Mark': 'NSM'}
JOIN = ['U', 'T', 'D', 'L', 'R', 'C']
SCRIPT = ['OTHER', 'Greek', 'Hebrew', 'Hiragana', 'Katakana', 'Han']
# RFC 5892 appendix A: the code points with a contextual rule (CONTEXTJ, then CONTEXTO)
CONTEXT_CPS = [0x200C, 0x200D, 0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB] + \
    list(range(0x0660, 0x066A)) + list(range(0x06F0, 0x06FA))


def lines(path):
    """(fields, comment) of each data line; '# @missing' lines as ('@missing', fields)."""
    with open(os.path.join(UCD, path), encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('# @missing:'):
                yield '@missing', [x.strip() for x in line[len('# @missing:'):].split(';')]
                continue
            data = line.split('#', 1)[0].strip()
            if data:
                yield 'data', [x.strip() for x in data.split(';')]


def cp_range(field):
    a, _, b = field.partition('..')
    return range(int(a, 16), int(b or a, 16) + 1)


def unicode_data():
    """Per code point: general category, combining class, canonical decomposition (or None)."""
    gc, ccc, dec = {}, {}, {}
    first = None
    for _, f in lines('UnicodeData.txt'):
        cp = int(f[0], 16)
        if f[1].endswith(', First>'):
            first = cp
            continue
        cps = range(first, cp + 1) if f[1].endswith(', Last>') else [cp]
        for c in cps:
            gc[c] = f[2]
            ccc[c] = int(f[3])
            if f[5] and not f[5].startswith('<'):
                dec[c] = [int(x, 16) for x in f[5].split()]
    return gc, ccc, dec


def by_value(path):
    """{code point: value} from a file of `range ; value`."""
    return {c: f[1] for kind, f in lines(path) if kind == 'data' for c in cp_range(f[0])}


def with_property(path, name):
    """{code point: value} of a file of `range ; property [; value]`, for one property (a
    property without values gives True)."""
    return {c: f[2] if len(f) > 2 else True
            for kind, f in lines(path) if kind == 'data' and f[1] == name for c in cp_range(f[0])}


def bidi_classes():
    out = [None] * MAXCP
    for kind, f in lines('extracted/DerivedBidiClass.txt'):
        if kind == '@missing':
            for c in cp_range(f[0]):
                out[c] = BIDI_LONG.get(f[1], 'OTHER')
    for kind, f in lines('extracted/DerivedBidiClass.txt'):
        if kind == 'data':
            for c in cp_range(f[0]):
                out[c] = f[1] if f[1] in BIDI else 'OTHER'
    return out


def mapping_table():
    """{code point: (status, mapping list or None, idna2008 field)} from UTS #46's table."""
    out = {}
    for kind, f in lines('idna/IdnaMappingTable.txt'):
        if kind != 'data':
            continue
        status = f[1]
        mapping = [int(x, 16) for x in f[2].split()] if len(f) > 2 and f[2] else None
        v8 = f[3] if len(f) > 3 else ''
        for c in cp_range(f[0]):
            out[c] = (status, mapping, v8)
    assert len(out) == MAXCP, len(out)
    return out


def main():
    gc, ccc, dec1 = unicode_data()
    nfc_qc = with_property('DerivedNormalizationProps.txt', 'NFC_QC')
    excluded = with_property('DerivedNormalizationProps.txt', 'Full_Composition_Exclusion')
    bidi = bidi_classes()
    join = by_value('extracted/DerivedJoiningType.txt')
    script = by_value('Scripts.txt')
    uts46 = mapping_table()

    def full_dec(c):
        d = dec1.get(c)
        return [c] if d is None else [x for y in d for x in full_dec(y)]

    # primary composites: canonical pair decompositions not excluded from composition
    firsts = {}
    seconds = set()
    for c, d in sorted(dec1.items()):
        if len(d) == 2 and c not in excluded:
            firsts.setdefault(d[0], []).append((d[1], c))
            seconds.add(d[1])

    seconds_32 = {p[1] for p in gen_nameprep.primary_composites()}

    def alike(cp):
        """A code point past ASCII that both standards keep as it is, alone and beside any other
        such code point or ASCII letter or digit: PVALID without a context rule, unmapped and
        not NV8 in UTS #46; assigned in Unicode 3.2, not prohibited, not mapped by Nameprep
        (B.1, B.2, NFKC); a left-to-right starter (Bidi L, combining class 0, not a mark) that
        NFC and NFKC compose with nothing before it, in either version."""
        if cp < 0x80 or 0xD800 <= cp <= 0xDFFF:
            return False
        status, _, v8 = uts46[cp]
        u = chr(cp)
        ucd = gen_nameprep.UCD
        return (status == 'valid' and not v8 and cp not in CONTEXT_CPS
                and not gc.get(cp, 'Cn').startswith('M') and bidi[cp] == 'L'
                and ccc.get(cp, 0) == 0 and cp not in nfc_qc and cp not in seconds
                and not hangul_second(cp)
                and gen_nameprep.assigned(u) and not gen_nameprep.prohibited(u)
                and not stringprep.in_table_b1(u) and gen_nameprep.b2(u) == u
                and ucd.normalize('NFKC', u) == u and ucd.combining(u) == 0
                and ucd.bidirectional(u) == 'L' and cp not in seconds_32)

    t = Table()
    intern = t.intern
    for cp in range(MAXCP):
        status, mapping, v8 = uts46[cp]
        flags = 0
        m = d = k = 0
        if status == 'ignored':
            flags |= DROP
        elif status == 'mapped':
            flags |= MAP
            m = intern(mapping)
        elif status == 'deviation':
            flags |= DEVIATION
        # What may stand in a U-label (RFC 5892's PVALID, CONTEXTJ, CONTEXTO): UTS #46's valid
        # and deviation code points but for NV8 and XV8, with STD3's rules on ASCII.
        if status not in ('valid', 'deviation') or v8:
            flags |= INVALID
        if v8:
            flags |= NV8
        if status.startswith('disallowed_STD3'):
            flags |= STD3
        if cp not in gc:
            flags |= UNASSIGNED
        if gc.get(cp, 'Cn').startswith('M'):
            flags |= MARK
        if cp in CONTEXT_CPS:
            flags |= CONTEXT
        if alike(cp):
            flags |= ALIKE
        if cp not in nfc_qc:
            flags |= STABLE
        if not hangul_syllable(cp):
            fd = full_dec(cp)
            if fd != [cp]:
                flags |= DECOMP
                d = intern(fd)
        if cp in seconds or hangul_second(cp):
            flags |= SECOND
        if cp in firsts:
            flags |= FIRST
            k = intern([x for sc in sorted(firsts[cp]) for x in sc])
        props = BIDI.index(bidi[cp]) | JOIN.index(join.get(cp, 'U')) << 4 | \
            (SCRIPT.index(script[cp]) if script.get(cp) in SCRIPT else 0) << 7
        t.add((flags, ccc.get(cp, 0), m, d, k, props))

    t.write(sys.stdout.write, 'zp_i8', 'idna2008_tables.c -- generated by tools/gen_idna2008.py '
            'from the Unicode 15.0.0 UCD and UTS #46 mapping table', 'idna2008_tables.h',
            '0x%04x', [('props', 'uint16_t', [r[5] for r in t.records], '0x%03x', 12)])


if __name__ == '__main__':
    main()
