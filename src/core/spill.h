/* spill.h -- an ordered stream of entries in bounded memory: entries fill a fixed buffer, which
 * is sorted and spilled as a run to a temporary file when full; the runs are merged at the end */
#ifndef ZP_SPILL_H
#define ZP_SPILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "idna/status.h"

/* Octets in one entry, at most, for entries of known small size (zp_spill_new's entry_max):
 * the smaller, the less memory a merge needs at the least. */
enum { ZP_SPILL_ENTRY_MAX = 4096 };

/* Orders two entries (their octets, as added): negative, zero or positive. */
typedef int (*zp_spill_cmp)(const uint8_t *a, const uint8_t *b);

/* The first comparison of two entries, kept beside each so that most comparisons need not
 * touch the entries (which lie all over memory). An entry is ordered as a string of octets
 * (what cmp compares, as cmp orders it); window k of it is its octets from k * ZP_SPILL_PREFIX
 * on, zeros past its end, and complete when the string ends within it. Entries whose windows
 * tie and are not complete are ordered by their next windows (or cmp); entries whose strings
 * are equal keep the order they were added in (the sort is stable). A complete window that ties
 * with another is taken for an equal string: no entry's string may be the start of another's. */
enum { ZP_SPILL_PREFIX = 24 };

/* Writes window `window` of entry[0..len) to out; true if it is complete (ctx: zp_spill_new's). */
typedef bool (*zp_spill_prefix_fn)(const uint8_t *entry, size_t len, size_t window,
                                   uint8_t out[ZP_SPILL_PREFIX], void *ctx);

/* For entries ordered by their first n octets, n told by each entry (a length inside it): the
 * body of a zp_spill_prefix_fn, window `window` of e[0..n) into out, and of a zp_spill_cmp,
 * the order of two such strings (octet by octet, the shorter first where one starts the other). */
static inline bool zp_spill_window(const uint8_t *e, size_t n, size_t window,
                                   uint8_t out[ZP_SPILL_PREFIX])
{
  size_t at = window * ZP_SPILL_PREFIX;
  memset(out, 0, ZP_SPILL_PREFIX);
  if (at < n)
    memcpy(out, e + at, n - at < ZP_SPILL_PREFIX ? n - at : ZP_SPILL_PREFIX);
  return n <= at + ZP_SPILL_PREFIX;
}
static inline int zp_spill_cmp_n(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
  int d = memcmp(a, b, na < nb ? na : nb);
  return d ? d : (na > nb) - (na < nb);
}

typedef struct zp_spill zp_spill;

/* mem: the octets the spill may hold (its buffer of entries and their index, and the buffers of
 * writing and merging runs), at least 32 KiB and four times entry_max whatever is asked.
 * entry_max: the most octets an entry may have (below 2^31). The temporary file goes to
 * $TMPDIR (else /tmp), is unlinked as soon as it is made, so it is gone on every exit, signals
 * included, and counts against the bound of core/tmpfile.h.
 * Without prefix (and cmp), entries come back in the order they were added. cmp may be NULL
 * where every window is complete. */
ZP_NODISCARD zp_status zp_spill_new(size_t mem, size_t entry_max, zp_spill_cmp cmp,
                                    zp_spill_prefix_fn prefix, void *ctx, zp_spill **s);

/* Lowers the memory s may hold to mem from now on (for the runs it writes and merges next):
 * buffers already past it spill at the next entry that does not fit. */
void zp_spill_shrink(zp_spill *s, size_t mem);

/* Adds the entry made of parts[0..nparts) end to end, at most entry_max octets (ZP_EBUFFER).
 * ZP_ENOMEM, ZP_ETMPFILE (errno set) when the temporary file cannot be made or written,
 * ZP_ETMPLIMIT when it would pass the bound on temporary files. */
ZP_NODISCARD zp_status zp_spill_add(zp_spill *s, const struct iovec *parts, size_t nparts);

/* The entries in order, one per call: *entry is NULL after the last. An entry stays valid until
 * the next call. The first call ends adding. ZP_ETMPFILE, ZP_ETMPLIMIT, ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_spill_next(zp_spill *s, const uint8_t **entry, size_t *len);

/* Runs written to the temporary file so far (0: everything fitted in memory). */
size_t zp_spill_runs(const zp_spill *s);
/* The most octets of memory the spill held at once (for tests of its bound). */
size_t zp_spill_peak(const zp_spill *s);

void zp_spill_free(zp_spill *s);

#endif
