/* nameprep_tables.h -- layout of the generated Unicode 3.2 / RFC 3454 tables (nameprep_tables.c) */
#ifndef ZP_NAMEPREP_TABLES_H
#define ZP_NAMEPREP_TABLES_H

#include <stdint.h>

#include "unorm.h"

/* The layout is unorm.h's (zp_u_table); the engine's bits are ZP_U_DROP (RFC 3454 B.1: mapped
 * to nothing), ZP_U_MAP (B.2: case fold for NFKC), and NFKC's quick check, decompositions and
 * compositions. Nameprep's own: */
enum {
  ZP_NP_PROHIB = 1 << 2,      /* C.1.2, C.2.2, C.3-C.9 (the RFC 3491 section 5 set) */
  ZP_NP_UNASSIGNED = 1 << 3,  /* A.1 */
  ZP_NP_RANDAL = 1 << 4,      /* D.1 */
  ZP_NP_L = 1 << 5            /* D.2 */
};

extern const uint16_t zp_np_stage1[];
extern const uint16_t zp_np_stage2[];
extern const struct zp_u_rec zp_np_recs[];
extern const uint32_t zp_np_data[];

#endif
