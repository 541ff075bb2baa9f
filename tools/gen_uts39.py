#!/usr/bin/python3
# gen_uts39.py -- writes src/idna/uts39_tables.c: Unicode 15.0.0's scripts and confusables for
# UTS #39 (Unicode Security Mechanisms)
#
# Facts come from the UCD files of Debian's unicode-data (UCD_DIR, default /usr/share/unicode):
# UnicodeData.txt (canonical combining classes and decompositions, for NFD), Scripts.txt,
# ScriptExtensions.txt and PropertyValueAliases.txt (the scripts' codes and names); and from
# UTS #39's confusables.txt of the same version, which no Debian package ships, kept verbatim in
# tools/data/ (tools/data/SOURCES.md says where it came from).
# The layout is unorm.h's (a record per code point in two stages, a pool of sequences): the
# engine's MAP bit and map are the prototype of confusables.txt, DECOMP and dec the full
# canonical decomposition (precomposed Hangul has none here: NFD decomposes it by arithmetic),
# ccc the combining class, the table's ALONE bit and comp the skeleton of the code point alone; zp_u39_scx[record] indexes zp_u39_sets, the Script_Extensions sets.
# Output is deterministic: run twice, same bytes.
import os
import sys

from unitable import MAXCP, MAP, DECOMP, Table, hangul_syllable, S_BASE, L_BASE, V_BASE, \
    T_BASE, V_COUNT, T_COUNT

UCD = os.environ.get('UCD_DIR', '/usr/share/unicode')
CONFUSABLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data',
                           'confusables-15.0.0.txt')
# section 5.1's augmented sets, after the UCD's scripts
AUGMENTED = [('Hanb', 'Han_with_Bopomofo'), ('Jpan', 'Japanese'), ('Kore', 'Korean')]
WORDS = 3
ALONE = 1 << 2   # uts39_tables.h's ZP_U39_ALONE


def full_dec_seq(seq, full_dec):
    return [x for c in seq for x in full_dec(c)]
# the scripts section 5.2 names, in the order of uts39_tables.h's enum zp_u39_name
NAMED = ['Latn', 'Cyrl', 'Grek', 'Cher', 'Hanb', 'Jpan', 'Kore']


def data_lines(path):
    with open(path, encoding='utf-8-sig') as f:
        for line in f:
            data = line.split('#', 1)[0].strip()
            if data:
                yield [x.strip() for x in data.split(';')]


def cp_range(field):
    a, _, b = field.partition('..')
    return range(int(a, 16), int(b or a, 16) + 1)


def main():
    ucd = lambda name: os.path.join(UCD, name)
    scripts = [(f[1], f[2]) for f in data_lines(ucd('PropertyValueAliases.txt')) if f[0] == 'sc']
    scripts += AUGMENTED
    assert len(scripts) <= 64 * WORDS
    index = {code: i for i, (code, _) in enumerate(scripts)}
    index.update({name: i for i, (_, name) in enumerate(scripts)})

    ccc, dec1 = {}, {}
    first = None
    for f in data_lines(ucd('UnicodeData.txt')):
        cp = int(f[0], 16)
        if f[1].endswith(', First>'):
            first = cp
            continue
        for c in (range(first, cp + 1) if f[1].endswith(', Last>') else [cp]):
            ccc[c] = int(f[3])
            if f[5] and not f[5].startswith('<'):
                dec1[c] = [int(x, 16) for x in f[5].split()]

    def full_dec(c):
        d = dec1.get(c)
        return [c] if d is None else [x for y in d for x in full_dec(y)]

    scx = [frozenset([index['Zzzz']])] * MAXCP
    for f in data_lines(ucd('Scripts.txt')):
        for c in cp_range(f[0]):
            scx[c] = frozenset([index[f[1]]])
    for f in data_lines(ucd('ScriptExtensions.txt')):
        for c in cp_range(f[0]):
            scx[c] = frozenset(index[s] for s in f[1].split())

    proto = {}
    for f in data_lines(CONFUSABLES):
        assert f[2] == 'MA', f
        proto[int(f[0], 16)] = [int(x, 16) for x in f[1].split()]

    # uts39.c's ASCII path copies the prototypes of ASCII characters as they are: each must be
    # its own NFD, of starters only; check/confusable.c holds them in 4 code points
    for cp in range(0x80):
        assert len(proto.get(cp, [cp])) <= 4, hex(cp)
        for c in proto.get(cp, [cp]):
            assert full_dec(c) == [c] and ccc.get(c, 0) == 0, hex(cp)

    def nfd_dec(c):
        """Full canonical decomposition, precomposed Hangul's by arithmetic included."""
        if not hangul_syllable(c):
            return full_dec(c)
        i = c - S_BASE
        lvt = [L_BASE + i // (V_COUNT * T_COUNT), V_BASE + i % (V_COUNT * T_COUNT) // T_COUNT]
        return lvt + ([T_BASE + i % T_COUNT] if i % T_COUNT else [])

    def ordered(seq):
        """Canonical ordering: each run of non-starters sorted (stably) by combining class."""
        out, run = [], []
        for c in seq + [None]:
            if c is not None and ccc.get(c, 0):
                run.append(c)
                continue
            out += sorted(run, key=lambda x: ccc.get(x, 0))
            run = []
            if c is not None:
                out.append(c)
        return out

    sets, set_at = [], {}
    t = Table()
    for cp in range(MAXCP):
        s = scx[cp]
        if s not in set_at:
            set_at[s] = len(sets)
            sets.append(s)
        flags = m = d = k = 0
        if cp in proto:
            flags |= MAP
            m = t.intern(proto[cp])
        fd = full_dec(cp)
        if fd != [cp]:
            flags |= DECOMP
            d = t.intern(fd)
        # the skeleton of cp alone, when a string's is the skeletons of its code points end to
        # end: its NFD and its prototypes' start with a starter, so no canonical ordering
        # reaches across code points (precomposed Hangul, which NFD takes apart by
        # arithmetic, is left to the whole algorithm)
        if not hangul_syllable(cp):
            nfd = ordered(fd)
            mapped = [x for c in nfd for x in full_dec_seq(proto.get(c, [c]), nfd_dec)]
            if nfd and mapped and not ccc.get(nfd[0], 0) and not ccc.get(mapped[0], 0):
                flags |= ALONE
                skel = ordered(mapped)
                k = t.intern(skel) if skel != [cp] else 0
        t.add((flags, ccc.get(cp, 0), m, d, k, set_at[s]))

    def words(s):
        return [sum(1 << (i & 63) for i in s if i >> 6 == w) for w in range(WORDS)]

    out = sys.stdout.write
    t.write(out, 'zp_u39', 'uts39_tables.c -- generated by tools/gen_uts39.py from the Unicode '
            '15.0.0 UCD and UTS #39 confusables.txt', 'uts39_tables.h', '0x%x',
            [('scx', 'uint16_t', [r[5] for r in t.records], '%d', 16)])
    def augmented(s):
        a = set(s)
        if index['Hani'] in s:
            a |= {index['Hanb'], index['Jpan'], index['Kore']}
        if index['Hira'] in s or index['Kana'] in s:
            a.add(index['Jpan'])
        if index['Hang'] in s:
            a.add(index['Kore'])
        if index['Bopo'] in s:
            a.add(index['Hanb'])
        if index['Zyyy'] in s or index['Zinh'] in s:
            a = set(range(len(scripts)))
        return a

    for name, f in (('sets', lambda s: s), ('augmented', augmented)):
        out('const zp_script_set zp_u39_%s[%d] = {\n' % (name, len(sets)))
        for s in sets:
            out('  {{%s}},\n' % ', '.join('0x%xu' % w for w in words(f(s))))
        out('};\n\n')
    out('const uint8_t zp_u39_named[] = {%s};\n\n' % ', '.join(str(index[c]) for c in NAMED))
    out('const char *const zp_uts39_script_codes[] = {\n')
    for code, _ in scripts:
        out('  "%s",\n' % code)
    out('};\n\nconst char *const zp_uts39_script_names[] = {\n')
    for _, name in scripts:
        out('  "%s",\n' % name.replace('_', ' '))
    out('};\n\nconst size_t zp_uts39_scripts_n = %d;\n' % len(scripts))


if __name__ == '__main__':
    main()
