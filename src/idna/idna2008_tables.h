/* idna2008_tables.h -- layout of the generated Unicode 15.0.0 / UTS #46 tables (idna2008_tables.c) */
#ifndef ZP_IDNA2008_TABLES_H
#define ZP_IDNA2008_TABLES_H

#include <stdint.h>

#include "unorm.h"

/* The layout is unorm.h's (zp_u_table); the engine's bits are UTS #46's mapping (ZP_U_DROP:
 * ignored, ZP_U_MAP: mapped; deviations are kept, as non-transitional processing has them) and
 * NFC's quick check, canonical decompositions and compositions. The table's own: */
enum {
  /* may not stand in a U-label: RFC 5892's DISALLOWED and UNASSIGNED, which are UTS #46's
   * disallowed, ignored and mapped code points, those disallowed under its STD3 rules, and the
   * symbols UTS #46 keeps but IDNA2008 does not (NV8, XV8) */
  ZP_I8_INVALID = 1 << 2,
  ZP_I8_NV8 = 1 << 3,         /* valid in UTS #46, DISALLOWED in IDNA2008 (NV8, XV8) */
  ZP_I8_DEVIATION = 1 << 4,   /* UTS #46 deviation: U+00DF, U+03C2, U+200C, U+200D */
  ZP_I8_MARK = 1 << 5,        /* General_Category M: no label starts with one */
  ZP_I8_STD3 = 1 << 10,       /* disallowed by UTS #46's STD3 rules alone (ASCII but LDH) */
  ZP_I8_UNASSIGNED = 1 << 11, /* not assigned in Unicode 15.0.0 */
  ZP_I8_CONTEXT = 1 << 12,    /* RFC 5892 appendix A: CONTEXTJ or CONTEXTO */
  /* IDNA2003 keeps it as IDNA2008 does, alone and beside any other such code point and ASCII
   * letters and digits (tools/gen_idna2008.py says how) */
  ZP_I8_ALIKE = 1 << 13
};

/* zp_i8_props[record]: Bidi_Class, Joining_Type and Script, for RFC 5893 and 5892's rules. */
enum {
  ZP_I8_BIDI_MASK = 0xf,
  ZP_I8_JOIN_SHIFT = 4, ZP_I8_JOIN_MASK = 0x7,
  ZP_I8_SCRIPT_SHIFT = 7, ZP_I8_SCRIPT_MASK = 0x7
};
/* in the order tools/gen_idna2008.py lists them */
enum zp_i8_bidi {
  ZP_BIDI_OTHER, ZP_BIDI_L, ZP_BIDI_R, ZP_BIDI_AL, ZP_BIDI_AN, ZP_BIDI_EN, ZP_BIDI_ES,
  ZP_BIDI_CS, ZP_BIDI_ET, ZP_BIDI_ON, ZP_BIDI_BN, ZP_BIDI_NSM
};
enum zp_i8_join { ZP_JOIN_U, ZP_JOIN_T, ZP_JOIN_D, ZP_JOIN_L, ZP_JOIN_R, ZP_JOIN_C };
enum zp_i8_script {
  ZP_SCRIPT_OTHER, ZP_SCRIPT_GREEK, ZP_SCRIPT_HEBREW, ZP_SCRIPT_HIRAGANA, ZP_SCRIPT_KATAKANA,
  ZP_SCRIPT_HAN
};

extern const uint16_t zp_i8_stage1[];
extern const uint16_t zp_i8_stage2[];
extern const struct zp_u_rec zp_i8_recs[];
extern const uint16_t zp_i8_props[];
extern const uint32_t zp_i8_data[];

#endif
