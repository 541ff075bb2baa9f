/* uts39_tables.h -- layout of the generated UTS #39 tables (uts39_tables.c) */
#ifndef ZP_UTS39_TABLES_H
#define ZP_UTS39_TABLES_H

#include <stdint.h>

#include "unorm.h"
#include "uts39.h"

/* unorm.h's layout: ZP_U_MAP and map are a code point's prototype (confusables.txt),
 * ZP_U_DECOMP and dec its full canonical decomposition, ccc its combining class;
 * zp_u39_sets[zp_u39_scx[record]] is its Script_Extensions. The table's own bit: */
enum {
  /* the skeleton of a string of such code points is theirs end to end: each one's NFD and
   * prototypes start with a starter, so no canonical ordering reaches across them; comp is the
   * code point's skeleton (0: itself) */
  ZP_U39_ALONE = 1 << 2
};
extern const uint16_t zp_u39_stage1[];
extern const uint16_t zp_u39_stage2[];
extern const struct zp_u_rec zp_u39_recs[];
extern const uint16_t zp_u39_scx[];
extern const uint32_t zp_u39_data[];
extern const zp_script_set zp_u39_sets[];        /* as the UCD gives them */
extern const zp_script_set zp_u39_augmented[];   /* section 5.1's augmented sets */
/* The indices of the scripts section 5.2 names. */
enum zp_u39_name { ZP_U39_LATN, ZP_U39_CYRL, ZP_U39_GREK, ZP_U39_CHER, ZP_U39_HANB, ZP_U39_JPAN,
                   ZP_U39_KORE };
extern const uint8_t zp_u39_named[];

#endif
