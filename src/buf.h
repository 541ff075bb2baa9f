/* buf.h -- the one growable buffer: an octet string that doubles its capacity as it fills */
#ifndef ZP_BUF_H
#define ZP_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct zp_buf {
  char *p;        /* NULL until the first reserve; the caller frees it with zp_buf_free */
  size_t len, cap;
} zp_buf;

/* Room for more octets past len: false when out of memory (the buffer is left as it was).
 * p may move, so callers keep offsets into it, not pointers. */
bool zp_buf_reserve(zp_buf *b, size_t more);
/* Appends data[0..n); false when out of memory. */
bool zp_buf_put(zp_buf *b, const void *data, size_t n);
void zp_buf_free(zp_buf *b);

#endif
