/* sort.c -- records in canonical order (RFC 4034 section 6.1, RRsets as section 6.3) through a
 * spill, duplicates dropped as the sorted records come out: --sort's output, and the RRsets
 * whose signatures the checks verify */
#include "sort.h"

#include <string.h>

#include "wire_name.h"

/* An entry: a head, the order string (the owner's sort key, a 0 octet, class and type
 * big-endian, RDATA), then the owner in wire form where the key does not give it back: the key
 * folds ASCII case, and the label policy has lowercased nearly every owner already, so most
 * entries spare the octets (a quarter of what is spilled). */
typedef struct head {
  uint32_t ttl;
  uint16_t rdlen, key_len;
  uint8_t owner_len, generic;   /* owner_len 0: the owner is the key's name */
  uint8_t extra_len;
} head;

enum {
  HEAD = sizeof(head),
  ENTRY_MAX = HEAD + ZP_NAME_KEY_MAX + 5 + UINT16_MAX + ZP_NAME_MAX + ZP_SORT_EXTRA_MAX
};

static head head_of(const uint8_t *entry)
{
  head h;
  memcpy(&h, entry, sizeof h);
  return h;
}

/* Octet strings in order, a missing octet first. */
static int bytes_cmp(const uint8_t *x, size_t nx, const uint8_t *y, size_t ny)
{
  int c = memcmp(x, y, nx < ny ? nx : ny);
  if (c != 0)
    return c;
  return nx < ny ? -1 : nx > ny;
}

/* Order strings x[0..nx) and y[0..ny), whose owners' sort keys are xk and yk octets: owner,
 * class, type, then RDATA. */
static int order_cmp(const uint8_t *x, size_t xk, size_t nx, const uint8_t *y, size_t yk,
                     size_t ny)
{
  int c = bytes_cmp(x, xk, y, yk);
  if (c != 0)
    return c;
  /* class and type, big-endian: in order as octets */
  if ((c = memcmp(x + xk + 1, y + yk + 1, 4)) != 0)
    return c;
  return bytes_cmp(x + xk + 5, nx - xk - 5, y + yk + 5, ny - yk - 5);
}

static int entry_cmp(const uint8_t *a, const uint8_t *b)
{
  head x = head_of(a), y = head_of(b);
  return order_cmp(a + HEAD, x.key_len, x.key_len + 5u + x.rdlen, b + HEAD, y.key_len,
                   y.key_len + 5u + y.rdlen);
}

/* Copies what of src[0..n), at string position *pos, falls in the window [from, from + PREFIX). */
static void put(uint8_t *out, size_t from, size_t *pos, const uint8_t *src, size_t n)
{
  size_t lo = *pos > from ? *pos : from, hi = *pos + n;
  if (hi > from + ZP_SPILL_PREFIX)
    hi = from + ZP_SPILL_PREFIX;
  if (lo < hi)
    memcpy(out + (lo - from), src + (lo - *pos), hi - lo);
  *pos += n;
}

/* The string spill sorts by, in entry_cmp's order: the sort key, 0, class and type, then RDATA
 * with each 0 octet written 0 1 and a 0 0 after it. No such string is the start of another (the
 * key holds no 0 octet after a 0, and the RDATA ends in the one 0 0), so windows that tie where
 * one string ends are equal strings: the spill's condition for a complete window. */
static bool order_prefix(const uint8_t *entry, size_t len, size_t window,
                         uint8_t out[ZP_SPILL_PREFIX], void *ctx)
{
  (void)len;
  (void)ctx;
  head h = head_of(entry);
  const uint8_t *p = entry + HEAD, *rd = p + h.key_len + 5, *end = rd + h.rdlen;
  size_t from = window * ZP_SPILL_PREFIX, pos = 0;
  static const uint8_t zero_one[2] = {0, 1}, zero_zero[2] = {0, 0};
  memset(out, 0, ZP_SPILL_PREFIX);
  put(out, from, &pos, p, h.key_len + 5u);
  while (rd < end && pos < from + ZP_SPILL_PREFIX) {
    const uint8_t *z = memchr(rd, 0, (size_t)(end - rd));
    put(out, from, &pos, rd, (size_t)((z ? z : end) - rd));
    if (z)
      put(out, from, &pos, zero_one, 2);
    rd = z ? z + 1 : end;
  }
  if (rd == end)
    put(out, from, &pos, zero_zero, 2);
  return rd == end && pos <= from + ZP_SPILL_PREFIX;
}

void zp_sort_init(zp_sorter *s, size_t mem)
{
  *s = (zp_sorter){.mem = mem ? mem : (size_t)16 << 20};   /* as the checks' default */
}

zp_status zp_sort_hold(zp_sorter *s, const zp_record *rec, const void *extra, size_t extra_len)
{
  zp_status st;
  if (!s->sp &&
      (st = zp_spill_new(s->mem, ENTRY_MAX, entry_cmp, order_prefix, NULL, &s->sp)) != ZP_OK)
    return st;
  uint8_t key[ZP_NAME_KEY_MAX + 5];
  size_t owner_len = zp_name_wire_len(rec->owner), key_len = zp_name_sort_key(rec->owner, key);
  bool folded = false;   /* (no label length is an octet of 'A' to 'Z': labels have 63 at most) */
  for (size_t i = 0; i < owner_len && !folded; i++)
    folded = rec->owner[i] >= 'A' && rec->owner[i] <= 'Z';
  if (!folded)
    owner_len = 0;
  head h = {.ttl = rec->ttl, .rdlen = (uint16_t)rec->rdlen, .key_len = (uint16_t)key_len,
            .owner_len = (uint8_t)owner_len, .generic = rec->generic,
            .extra_len = (uint8_t)extra_len};
  key[key_len] = 0;
  key[key_len + 1] = (uint8_t)(rec->rclass >> 8);
  key[key_len + 2] = (uint8_t)rec->rclass;
  key[key_len + 3] = (uint8_t)(rec->rtype >> 8);
  key[key_len + 4] = (uint8_t)rec->rtype;
  struct iovec parts[5] = {{&h, HEAD}, {key, key_len + 5}, {(void *)rec->rdata, rec->rdlen},
                           {(void *)rec->owner, owner_len}, {(void *)extra, extra_len}};
  return zp_spill_add(s->sp, parts, 5);
}

zp_status zp_sort_next(zp_sorter *s, zp_record *rec, bool *more)
{
  *more = false;
  for (;;) {
    const uint8_t *e;
    size_t len;
    zp_status st = s->sp ? zp_spill_next(s->sp, &e, &len) : ZP_OK;
    if (st != ZP_OK || !s->sp || !e)
      return st;
    head h = head_of(e);
    const uint8_t *order = e + HEAD;
    size_t order_len = h.key_len + 5u + h.rdlen;
    if (s->last.len == order_len && memcmp(s->last.p, order, order_len) == 0)
      continue;
    s->last.len = 0;
    if (!zp_buf_put(&s->last, order, order_len))
      return ZP_ENOMEM;
    s->last_key = h.key_len;
    s->extra = order + order_len + h.owner_len;
    if (h.owner_len)
      memcpy(s->owner, order + order_len, h.owner_len);
    else
      zp_name_from_sort_key(order, h.key_len, s->owner);
    const uint8_t *ct = order + h.key_len + 1;   /* class and type */
    *rec = (zp_record){.owner = s->owner, .ttl = h.ttl, .rclass = (uint16_t)(ct[0] << 8 | ct[1]),
                       .rtype = (uint16_t)(ct[2] << 8 | ct[3]), .generic = h.generic,
                       .rdata = ct + 4, .rdlen = h.rdlen};
    *more = true;
    return ZP_OK;
  }
}

int zp_sort_cmp(const zp_sorter *a, const zp_sorter *b)
{
  return order_cmp((const uint8_t *)a->last.p, a->last_key, a->last.len,
                   (const uint8_t *)b->last.p, b->last_key, b->last.len);
}

void zp_sort_free(zp_sorter *s)
{
  zp_spill_free(s->sp);
  zp_buf_free(&s->last);
  *s = (zp_sorter){0};
}
