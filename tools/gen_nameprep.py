#!/usr/bin/python3
# gen_nameprep.py -- writes src/nameprep_tables.c from the Unicode 3.2 data in Python's stdlib
#
# Every fact comes from unicodedata.ucd_3_2_0 (combining classes, decompositions, NFKC) and the
# stringprep module (RFC 3454 tables A.1, B.1, B.2, C.*, D.1, D.2). The layout is described in
# src/unorm.h and src/nameprep_tables.h; keep them in step. Output is deterministic: run twice, same bytes.
import stringprep
import sys
import unicodedata

UCD = unicodedata.ucd_3_2_0
MAXCP = 0x110000
SHIFT = 7                      # must match ZP_U_SHIFT in unorm.h
BLOCK = 1 << SHIFT

# Flag bits; must match unorm.h (B1 is ZP_U_DROP) and nameprep_tables.h.
B1, MAP, PROHIB, UNASSIGNED, RANDAL, L, STABLE, DECOMP, SECOND, FIRST = \
    (1 << i for i in range(10))

S_BASE, L_BASE, V_BASE, T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
L_COUNT, V_COUNT, T_COUNT = 19, 21, 28
S_COUNT = L_COUNT * V_COUNT * T_COUNT


def is_surrogate(cp):
    return 0xD800 <= cp <= 0xDFFF


def prohibited(u):
    # RFC 3491 section 5: C.1.2, C.2.2, C.3, C.4, C.5, C.6, C.7, C.8, C.9.
    return (stringprep.in_table_c12(u) or stringprep.in_table_c22(u) or stringprep.in_table_c3(u)
            or stringprep.in_table_c4(u) or stringprep.in_table_c5(u)
            or stringprep.in_table_c6(u) or stringprep.in_table_c7(u)
            or stringprep.in_table_c8(u) or stringprep.in_table_c9(u))


def assigned(u):
    return not is_surrogate(ord(u)) and not stringprep.in_table_a1(u)


def b2(u):
    """RFC 3454 B.2 (case fold for use with NFKC), built as RFC 3454 section 6.1 of the
    stringprep construction describes: B.3 folding, NFKC, fold again, NFKC. stringprep's own
    map_table_b2 uses the running Python's NFKC and lower(), which know later Unicode versions;
    here normalisation is 3.2's, and a fold is kept only between code points assigned in 3.2
    (U+04C0 gained its lowercase U+04CF only in Unicode 5.0)."""
    if not assigned(u):
        return u
    al = stringprep.map_table_b3(u)
    if not all(assigned(x) for x in al):
        return u
    b = UCD.normalize('NFKC', al)
    bl = ''.join(stringprep.map_table_b3(x) if assigned(x) else x for x in b)
    c = UCD.normalize('NFKC', bl)
    r = c if b != c else al
    return r if all(assigned(x) for x in r) else u


def primary_composites():
    """(first, second) -> composite for every canonical pair decomposition that NFC recomposes:
    that leaves out singletons, non-starter decompositions and the composition exclusions."""
    pairs = {}
    for cp in range(MAXCP):
        if is_surrogate(cp) or (S_BASE <= cp < S_BASE + S_COUNT):
            continue
        d = UCD.decomposition(chr(cp))
        if not d or d.startswith('<'):
            continue
        parts = [int(x, 16) for x in d.split()]
        if len(parts) != 2:
            continue
        if UCD.normalize('NFC', chr(cp)) != chr(cp):
            continue
        pairs[(parts[0], parts[1])] = cp
    return pairs


def main():
    pairs = primary_composites()
    seconds = {s for (_, s) in pairs}
    firsts = {}
    for (f, s), c in sorted(pairs.items()):
        firsts.setdefault(f, []).append((s, c))

    data = [0]                 # packed uint32 sequences; offset 0 means "none"
    seq_at = {}

    def intern(seq):
        key = tuple(seq)
        if key not in seq_at:
            seq_at[key] = len(data)
            data.append(len(seq))
            data.extend(seq)
        return seq_at[key]

    records = [(0, 0, 0, 0, 0)]   # (flags, ccc, map, dec, comp); record 0 is plain/unassigned-free
    rec_at = {records[0]: 0}
    cp_rec = []
    for cp in range(MAXCP):
        u = chr(cp)
        flags = 0
        ccc = 0
        m = dec = comp = 0
        if is_surrogate(cp):
            flags |= PROHIB
        else:
            ccc = UCD.combining(u)
            if stringprep.in_table_a1(u):
                flags |= UNASSIGNED
            if stringprep.in_table_b1(u):
                flags |= B1
            else:
                folded = b2(u)
                if folded != u:
                    flags |= MAP
                    m = intern([ord(x) for x in folded])
            if prohibited(u):
                flags |= PROHIB
            if stringprep.in_table_d1(u):
                flags |= RANDAL
            if stringprep.in_table_d2(u):
                flags |= L
            # A precomposed Hangul syllable is already composed; only a following T jamo (a
            # SECOND) can change it, and composition handles LV + T without decomposing.
            if not S_BASE <= cp < S_BASE + S_COUNT:
                nfkd = UCD.normalize('NFKD', u)
                if nfkd != u:
                    flags |= DECOMP
                    dec = intern([ord(x) for x in nfkd])
            if cp in seconds or (V_BASE <= cp < V_BASE + V_COUNT) or \
                    (T_BASE < cp < T_BASE + T_COUNT):
                flags |= SECOND
            if cp in firsts:
                flags |= FIRST
                comp = intern([x for sc in firsts[cp] for x in sc])
        # NFKC_QC=Yes in UAX #15 terms: its own NFKC, and not a composition's second.
        if not flags & SECOND and (is_surrogate(cp) or UCD.normalize('NFKC', u) == u):
            flags |= STABLE
        rec = (flags, ccc, m, dec, comp)
        if rec not in rec_at:
            rec_at[rec] = len(records)
            records.append(rec)
        cp_rec.append(rec_at[rec])

    blocks = []
    block_at = {}
    stage1 = []
    for b in range(0, MAXCP, BLOCK):
        blk = tuple(cp_rec[b:b + BLOCK])
        if blk not in block_at:
            block_at[blk] = len(blocks)
            blocks.append(blk)
        stage1.append(block_at[blk])

    assert len(records) < 65536 and len(data) < 65536 and len(blocks) * BLOCK < 65536

    out = sys.stdout.write
    out('/* nameprep_tables.c -- generated by tools/gen_nameprep.py from Python\'s Unicode 3.2 '
        'data; do not edit */\n')
    out('#include "nameprep_tables.h"\n\n')
    out('/* %d records, %d stage-2 blocks of %d, %d data words */\n'
        % (len(records), len(blocks), BLOCK, len(data)))

    def emit(decl, values, fmt, per_line):
        out(decl + ' = {\n')
        for i in range(0, len(values), per_line):
            out('  ' + ', '.join(fmt % v for v in values[i:i + per_line]) + ',\n')
        out('};\n\n')

    emit('const uint16_t zp_np_stage1[%d]' % len(stage1), stage1, '%d', 16)
    emit('const uint16_t zp_np_stage2[%d]' % (len(blocks) * BLOCK),
         [r for blk in blocks for r in blk], '%d', 16)
    out('const struct zp_u_rec zp_np_recs[%d] = {\n' % len(records))
    for (f, c, m, d, k) in records:
        out('  {0x%03x, %d, %d, %d, %d},\n' % (f, c, m, d, k))
    out('};\n\n')
    emit('const uint32_t zp_np_data[%d]' % len(data), data, '0x%x', 10)


if __name__ == '__main__':
    main()
