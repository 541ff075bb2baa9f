/* sort.h -- --sort: formatted records held back and written in RFC 4034 section 6.1 order */
#ifndef ZP_SORT_H
#define ZP_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/buf.h"
#include "idna/status.h"

/* Every record is kept (its canonical key, RDATA and formatted line in one arena), so memory
 * grows with the zone: the price of a sorted output. */
typedef struct zp_sorter {
  zp_buf held;          /* struct held, one per record */
  zp_buf arena;
} zp_sorter;

/* Keeps one record: owner in wire form, RDATA in wire form, and its output line. ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_sort_hold(zp_sorter *s, const uint8_t *owner, uint16_t rclass,
                                    uint16_t rtype, const uint8_t *rdata, size_t rdata_len,
                                    const char *line, size_t line_len);
/* Writes the lines in canonical order, the first of equal records only. ZP_EIO when a write
 * fails. */
ZP_NODISCARD zp_status zp_sort_write(zp_sorter *s, FILE *out);
void zp_sort_free(zp_sorter *s);

#endif
