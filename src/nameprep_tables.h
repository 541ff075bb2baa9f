/* nameprep_tables.h -- layout of the generated Unicode 3.2 / RFC 3454 tables (nameprep_tables.c) */
#ifndef ZP_NAMEPREP_TABLES_H
#define ZP_NAMEPREP_TABLES_H

#include <stdint.h>

/* Code point cp has record zp_np_recs[zp_np_stage2[(zp_np_stage1[cp >> ZP_NP_SHIFT] <<
 * ZP_NP_SHIFT) + (cp & ZP_NP_MASK)]] for cp < 0x110000. Sequences in zp_np_data are stored as
 * a length word followed by that many words; offset 0 means none. */
#define ZP_NP_SHIFT 7
#define ZP_NP_MASK ((1u << ZP_NP_SHIFT) - 1)

enum {
  ZP_NP_B1 = 1 << 0,          /* RFC 3454 B.1: mapped to nothing */
  ZP_NP_MAP = 1 << 1,         /* B.2: case fold for NFKC; map is the replacement sequence */
  ZP_NP_PROHIB = 1 << 2,      /* C.1.2, C.2.2, C.3-C.9 (the RFC 3491 section 5 set) */
  ZP_NP_UNASSIGNED = 1 << 3,  /* A.1 */
  ZP_NP_RANDAL = 1 << 4,      /* D.1 */
  ZP_NP_L = 1 << 5,           /* D.2 */
  /* NFKC quick check (UAX #15 NFKC_QC=Yes): the code point is its own NFKC and never the
   * second of a composition. A string of such code points whose nonzero combining classes do
   * not decrease between starters is already in NFKC. */
  ZP_NP_STABLE = 1 << 6,
  /* dec is the full NFKD of the code point; precomposed Hangul has none, as composition
   * rebuilds it unchanged (its jamo are all class 0). */
  ZP_NP_DECOMP = 1 << 7,
  ZP_NP_SECOND = 1 << 8,      /* may combine with a preceding starter (Hangul V/T included) */
  ZP_NP_FIRST = 1 << 9        /* comp lists (second, composite) pairs sorted by second */
};

struct zp_np_rec {
  uint16_t flags;
  uint8_t ccc;
  uint16_t map, dec, comp;
};

extern const uint16_t zp_np_stage1[];
extern const uint16_t zp_np_stage2[];
extern const struct zp_np_rec zp_np_recs[];
extern const uint32_t zp_np_data[];

#endif
