/* unorm.h -- mapping and Unicode normalization driven by a generated two-stage table: the one
 * engine of Nameprep's NFKC (Unicode 3.2, RFC 3491) and IDNA2008's NFC (Unicode 15.0, UTS #46) */
#ifndef ZP_UNORM_H
#define ZP_UNORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* Code point cp has record recs[stage2[(stage1[cp >> ZP_U_SHIFT] << ZP_U_SHIFT) +
 * (cp & ZP_U_MASK)]] for cp < 0x110000. Sequences in data are a length word followed by that
 * many words; offset 0 means none. */
#define ZP_U_SHIFT 7
#define ZP_U_MASK ((1u << ZP_U_SHIFT) - 1)

/* The bits this engine reads; bits 2-5 and 10-15 are the table's own. */
enum {
  ZP_U_DROP = 1 << 0,    /* mapped to nothing */
  ZP_U_MAP = 1 << 1,     /* map is the replacement sequence */
  /* The normalization's quick check (UAX #15 QC=Yes): the code point is its own normal form and
   * never the second of a composition. A string of such code points whose nonzero combining
   * classes do not decrease between starters is already normalized. */
  ZP_U_STABLE = 1 << 6,
  /* dec is the full decomposition of the code point; precomposed Hangul has none, as
   * composition rebuilds it unchanged (its jamo are all class 0). */
  ZP_U_DECOMP = 1 << 7,
  ZP_U_SECOND = 1 << 8,  /* may combine with a preceding starter (Hangul V/T included) */
  ZP_U_FIRST = 1 << 9    /* comp lists (second, composite) pairs sorted by second */
};

struct zp_u_rec {
  uint16_t flags;
  uint8_t ccc;
  uint16_t map, dec, comp;
};

typedef struct zp_u_table {
  const uint16_t *stage1, *stage2;
  const struct zp_u_rec *recs;
  const uint32_t *data;
} zp_u_table;

static inline const struct zp_u_rec *zp_u_rec_of(const zp_u_table *t, uint32_t cp)
{
  uint32_t blk = (uint32_t)t->stage1[cp >> ZP_U_SHIFT] << ZP_U_SHIFT;
  return &t->recs[t->stage2[blk | (cp & ZP_U_MASK)]];
}

/* Maps in[0..inlen) (when map: DROP and MAP records) and normalizes it as the table's
 * decompositions and compositions say, into out[0..*outlen) (capacity on entry, code points on
 * return; ZP_EBUFFER if too small: out also holds the decomposed form before recomposition).
 * *all is the union of the output's flags. ZP_EINVAL (with *bad_cp) for a value above U+10FFFF.
 * No allocation. */
ZP_NODISCARD zp_status zp_u_prepare(const zp_u_table *t, const uint32_t *in, size_t inlen,
                                    uint32_t *out, size_t *outlen, bool map, unsigned *all,
                                    uint32_t *bad_cp);

/* NFD of in[0..inlen) (when map: each code point with a MAP record replaced by its map first;
 * DROP is not read) into out[0..*outlen) (capacity on entry, code points on return; ZP_EBUFFER
 * if too small). Precomposed Hangul is decomposed by arithmetic, whatever the table holds.
 * ZP_EINVAL for a value above U+10FFFF. No allocation. */
ZP_NODISCARD zp_status zp_u_nfd(const zp_u_table *t, const uint32_t *in, size_t inlen,
                                uint32_t *out, size_t *outlen, bool map);

#endif
