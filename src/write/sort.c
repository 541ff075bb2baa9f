/* sort.c -- --sort: canonical order (RFC 4034 section 6.1, RRsets as section 6.3) */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "read/name.h"

/* One record held back: the canonical key (owner as zp_name_sort_key writes it, class, type, RDATA
 * wire form) and the presentation line already formatted, all stored at off in the arena. */
typedef struct held {
  uint64_t pre[2];      /* the key's first 16 octets, big-endian, zero-padded: most comparisons */
  size_t off;
  const uint8_t *p;     /* arena + off, set once the arena stops moving */
  size_t seq;
  uint16_t rclass, rtype;
  uint16_t key_len, rdata_len;
  uint32_t line_len;
} held;

zp_status zp_sort_hold(zp_sorter *s, const uint8_t *owner, uint16_t rclass, uint16_t rtype,
                       const uint8_t *rdata, size_t rdata_len, const char *line, size_t line_len)
{
  if (!zp_buf_reserve(&s->held, sizeof(held)))
    return ZP_ENOMEM;
  held h = {
    .off = s->arena.len,
    .seq = s->held.len / sizeof(held),
    .rclass = rclass,
    .rtype = rtype,
    .key_len = 0,
    .rdata_len = (uint16_t)rdata_len,
    .line_len = (uint32_t)line_len,
  };
  uint8_t key[ZP_NAME_KEY_MAX + 16];
  h.key_len = (uint16_t)zp_name_sort_key(owner, key);
  /* zero padding sorts right: inside a key a 0x00 (label end) is never followed by another */
  memset(key + h.key_len, 0, 16);
  for (size_t i = 0; i < 16; i++)
    h.pre[i / 8] = h.pre[i / 8] << 8 | key[i];
  if (!zp_buf_put(&s->arena, key, h.key_len) || !zp_buf_put(&s->arena, rdata, rdata_len) ||
      !zp_buf_put(&s->arena, line, line_len))
    return ZP_ENOMEM;
  return zp_buf_put(&s->held, &h, sizeof h) ? ZP_OK : ZP_ENOMEM;
}


/* Octet strings in order, a missing octet first. */
static int bytes_cmp(const uint8_t *x, size_t nx, const uint8_t *y, size_t ny)
{
  int c = memcmp(x, y, nx < ny ? nx : ny);
  if (c != 0)
    return c;
  return nx < ny ? -1 : nx > ny;
}

static int rdata_cmp(const held *x, const held *y)
{
  return bytes_cmp(x->p + x->key_len, x->rdata_len, y->p + y->key_len, y->rdata_len);
}

/* Owner, class, type, then RDATA as RFC 4034 section 6.3 orders an RRset. */
static int same_rr(const held *x, const held *y)
{
  if (x->pre[0] != y->pre[0])
    return x->pre[0] < y->pre[0] ? -1 : 1;
  if (x->pre[1] != y->pre[1])
    return x->pre[1] < y->pre[1] ? -1 : 1;
  int c = bytes_cmp(x->p, x->key_len, y->p, y->key_len);
  if (c != 0)
    return c;
  if (x->rclass != y->rclass)
    return x->rclass < y->rclass ? -1 : 1;
  if (x->rtype != y->rtype)
    return x->rtype < y->rtype ? -1 : 1;
  return rdata_cmp(x, y);
}

/* Equal records keep input order, so the first of a set of duplicates is the one written. */
static int held_cmp(const void *a, const void *b)
{
  const held *x = a, *y = b;
  int c = same_rr(x, y);
  if (c != 0)
    return c;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

zp_status zp_sort_write(zp_sorter *s, FILE *out)
{
  held *h = (held *)s->held.p;
  size_t n = s->held.len / sizeof *h;
  if (n == 0)
    return ZP_OK;
  for (size_t i = 0; i < n; i++)
    h[i].p = (const uint8_t *)s->arena.p + h[i].off;
  qsort(h, n, sizeof *h, held_cmp);
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && same_rr(&h[i - 1], &h[i]) == 0)
      continue;
    size_t len = h[i].line_len;
    if (fwrite(h[i].p + h[i].key_len + h[i].rdata_len, 1, len, out) != len)
      return ZP_EIO;
  }
  return ZP_OK;
}

void zp_sort_free(zp_sorter *s)
{
  zp_buf_free(&s->held);
  zp_buf_free(&s->arena);
}
