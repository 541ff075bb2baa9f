# unitable.py -- what the Unicode table generators share: src/idna/unorm.h's layout (a record per
# code point in two stages, and a pool of code point sequences), its engine's bits, Hangul's
# arithmetic, and the C text of a table. Imported by gen_nameprep.py and gen_idna2008.py.
MAXCP = 0x110000
SHIFT = 7                      # must match ZP_U_SHIFT in unorm.h
BLOCK = 1 << SHIFT

# unorm.h's bits; bits 2-5 and 10-15 are each table's own
DROP, MAP, STABLE, DECOMP, SECOND, FIRST = 1 << 0, 1 << 1, 1 << 6, 1 << 7, 1 << 8, 1 << 9

S_BASE, L_BASE, V_BASE, T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
L_COUNT, V_COUNT, T_COUNT = 19, 21, 28
S_COUNT = L_COUNT * V_COUNT * T_COUNT


def hangul_syllable(cp):
    """A precomposed Hangul syllable: already composed, so it gets no decomposition; only a
    following T jamo (a SECOND) can change it, and composition handles LV + T itself."""
    return S_BASE <= cp < S_BASE + S_COUNT


def hangul_second(cp):
    """A V or T jamo, which composition joins to a preceding L or LV."""
    return V_BASE <= cp < V_BASE + V_COUNT or T_BASE < cp < T_BASE + T_COUNT


class Table:
    """Records (tuples whose first five are flags, ccc, map, dec, comp), one per code point in
    order, and the sequences they point to."""

    def __init__(self, first_record=None):
        self.data = [0]        # packed uint32 sequences; offset 0 means "none"
        self.seq_at = {}
        self.records = [first_record] if first_record else []
        self.rec_at = {first_record: 0} if first_record else {}
        self.cp_rec = []

    def intern(self, seq):
        key = tuple(seq)
        if key not in self.seq_at:
            self.seq_at[key] = len(self.data)
            self.data.append(len(seq))
            self.data.extend(seq)
        return self.seq_at[key]

    def add(self, rec):
        """The record of the next code point."""
        if rec not in self.rec_at:
            self.rec_at[rec] = len(self.records)
            self.records.append(rec)
        self.cp_rec.append(self.rec_at[rec])

    def write(self, out, prefix, head, include, flags_fmt, extra=()):
        """The C text: head (the file's first comment), include, then prefix_stage1, _stage2,
        _recs (flags as flags_fmt), each (name, type, values, format, per line) of extra, and
        _data."""
        blocks, block_at, stage1 = [], {}, []
        for b in range(0, MAXCP, BLOCK):
            blk = tuple(self.cp_rec[b:b + BLOCK])
            if blk not in block_at:
                block_at[blk] = len(blocks)
                blocks.append(blk)
            stage1.append(block_at[blk])
        assert len(self.records) < 65536 and len(self.data) < 65536 and \
            len(blocks) * BLOCK < 65536

        out('/* %s; do not edit */\n' % head)
        out('#include "%s"\n\n' % include)
        out('/* %d records, %d stage-2 blocks of %d, %d data words */\n'
            % (len(self.records), len(blocks), BLOCK, len(self.data)))

        def emit(decl, values, fmt, per_line):
            out(decl + ' = {\n')
            for i in range(0, len(values), per_line):
                out('  ' + ', '.join(fmt % v for v in values[i:i + per_line]) + ',\n')
            out('};\n\n')

        emit('const uint16_t %s_stage1[%d]' % (prefix, len(stage1)), stage1, '%d', 16)
        emit('const uint16_t %s_stage2[%d]' % (prefix, len(blocks) * BLOCK),
             [r for blk in blocks for r in blk], '%d', 16)
        out('const struct zp_u_rec %s_recs[%d] = {\n' % (prefix, len(self.records)))
        for r in self.records:
            out(('  {' + flags_fmt + ', %d, %d, %d, %d},\n') % r[:5])
        out('};\n\n')
        for name, ctype, values, fmt, per_line in extra:
            emit('const %s %s_%s[%d]' % (ctype, prefix, name, len(values)), values, fmt, per_line)
        emit('const uint32_t %s_data[%d]' % (prefix, len(self.data)), self.data, '0x%x', 10)
