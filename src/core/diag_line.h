/* diag_line.h -- the line a message is about, read again for the sink (diag.c): its text,
 * where its field ends, and its columns in bytes and UTF-16 code units */
#ifndef ZP_DIAG_LINE_H
#define ZP_DIAG_LINE_H

#include <stdint.h>
#include <sys/types.h>

#include "diag.h"

enum { ZP_QUOTE_MAX = 160 };   /* the bytes of a line a message quotes */

/* The line at loc, up to ZP_QUOTE_MAX bytes, into buf: its length, or -1 when it cannot be
 * read. */
ssize_t zp_diag_the_line(zp_diag *d, const zp_loc *loc, char buf[ZP_QUOTE_MAX]);

/* The column just past the field loc points at, in characters (loc->col when the line cannot
 * be read again). */
uint32_t zp_diag_end_col(zp_diag *d, const zp_loc *loc);

/* Columns col and end of loc's line in bytes (b, bend) and UTF-16 code units (u, uend), from
 * 1; all 0 where the line cannot be read again or is shorter. */
typedef struct zp_other_cols {
  uint32_t b, bend, u, uend;
} zp_other_cols;
void zp_diag_other_cols(zp_diag *d, const zp_loc *loc, uint32_t col, uint32_t end,
                        zp_other_cols *c);

#endif
