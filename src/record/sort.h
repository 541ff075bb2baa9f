/* sort.h -- records in wire form held back in bounded memory and handed out again in RFC 4034
 * section 6.1 order (--sort, and DNSSEC's RRsets for the checks) */
#ifndef ZP_SORT_H
#define ZP_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/spill.h"
#include "idna/status.h"
#include "record.h"

/* Records go through a spill (core/spill.h): sorted runs in a temporary file once they pass the
 * memory given, merged at the end, so memory does not grow with the zone. */
typedef struct zp_sorter {
  zp_spill *sp;         /* NULL until the first record */
  size_t mem;
  zp_buf last;          /* the order string of the record handed out last, to drop its
                           duplicates */
  size_t last_key;      /* the length of its owner's sort key, at its start */
  uint8_t owner[256];   /* the record handed out: its owner, aligned */
  const uint8_t *extra; /* and what was held with it (zp_sort_hold), unaligned */
} zp_sorter;

/* Octets a caller may hold with a record, at most. */
enum { ZP_SORT_EXTRA_MAX = 255 };

/* A sorter holding at most mem octets (zp_spill_new's bound). */
void zp_sort_init(zp_sorter *s, size_t mem);

/* Keeps what the writer needs of a record: owner, TTL, class, type, RDATA in wire form and
 * whether it is in RFC 3597 form, with extra[0..extra_len) of the caller's (at most
 * ZP_SORT_EXTRA_MAX octets), given back with it. ZP_ENOMEM, and the spill's failures
 * (ZP_ETMPFILE, ZP_ETMPLIMIT). */
ZP_NODISCARD zp_status zp_sort_hold(zp_sorter *s, const zp_record *rec, const void *extra,
                                    size_t extra_len);

/* The records in canonical order (owner, class, type, then RDATA as RFC 4034 section 6.3 orders
 * an RRset), one per call, the first of equal ones only (the first in the input: the sort is
 * stable); *more is false after the last. *rec has the fields zp_sort_hold keeps, the others
 * zero; its owner, RDATA and s->extra are the sorter's until the next call. */
ZP_NODISCARD zp_status zp_sort_next(zp_sorter *s, zp_record *rec, bool *more);

/* How the records a and b handed out last (zp_sort_next) are ordered, in its order: below 0, 0
 * for the same owner (ASCII case aside), class, type and RDATA (the TTL aside), above 0. */
int zp_sort_cmp(const zp_sorter *a, const zp_sorter *b);

void zp_sort_free(zp_sorter *s);

#endif
