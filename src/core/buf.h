/* buf.h -- the one growable buffer: an octet string that doubles its capacity as it fills */
#ifndef ZP_BUF_H
#define ZP_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct zp_buf {
  char *p;        /* NULL until the first reserve; the caller frees it with zp_buf_free */
  size_t len, cap;
} zp_buf;

enum { ZP_BUF_FIRST_CAP = 256 };   /* a buffer's capacity when it is first reserved */

/* The capacity, cap doubled (from first when 0) as often as needed, that holds n: how buffers
 * and arrays here grow, for those that budget their memory before they grow. */
size_t zp_grown_cap(size_t cap, size_t n, size_t first);

/* Room for one more element in the array *items of *cap elements of size octets holding n:
 * doubled (first to first) when full; false when out of memory (the array as it was). */
bool zp_array_room(void *items, size_t n, size_t *cap, size_t size, size_t first);

/* Grows b to hold more octets past len; false when out of memory (b is left as it was). */
bool zp_buf_grow(zp_buf *b, size_t more);
void zp_buf_free(zp_buf *b);

/* Room for more octets past len. p may move, so callers keep offsets into it, not pointers.
 * Inline: the writer reserves a few octets for every field of every record. */
static inline bool zp_buf_reserve(zp_buf *b, size_t more)
{
  return more <= b->cap - b->len || zp_buf_grow(b, more);
}

/* Appends data[0..n); false when out of memory. */
static inline bool zp_buf_put(zp_buf *b, const void *data, size_t n)
{
  if (n == 0)
    return true;   /* data may be NULL, and b->p + 0 with b->p NULL is undefined */
  if (!zp_buf_reserve(b, n))
    return false;
  memcpy(b->p + b->len, data, n);
  b->len += n;
  return true;
}

#endif
