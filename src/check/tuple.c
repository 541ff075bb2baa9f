/* tuple.c -- the tuples of the checks as spill stores and orders them: keys stored without the
 * zone most of them share, the string spill sorts them by */
#include "check_int.h"

int zp_ck_tuple_cmp(const uint8_t *a, const uint8_t *b)
{
  zp_ck_tuple x, y;
  memcpy(&x, a, sizeof x);
  memcpy(&y, b, sizeof y);
  size_t n = x.key_len < y.key_len ? x.key_len : y.key_len;
  int c = memcmp(a + sizeof x, b + sizeof y, n);
  if (c != 0)
    return c;
  if (x.key_len != y.key_len)
    return x.key_len < y.key_len ? -1 : 1;
  if (x.kind != y.kind)
    return x.kind < y.kind ? -1 : 1;
  if (x.rclass != y.rclass)
    return x.rclass < y.rclass ? -1 : 1;
  if (x.rtype != y.rtype)
    return x.rtype < y.rtype ? -1 : 1;
  if (zp_ck_is_sig(&x) && x.covered != y.covered)
    return x.covered < y.covered ? -1 : 1;
  return (x.seq > y.seq) - (x.seq < y.seq);
}

/* The string spill orders tuples by: whether the key sorts before (0), within (1) or after (2)
 * the first record's zone, the key (past that zone within it), a 0 (before any descendant's
 * next octet, which is at least 1), kind, class and type, and an RRSIG's (a SIG's) type
 * covered; input order, kept by the sort, does the rest. */
bool zp_ck_key_prefix(const uint8_t *entry, size_t entry_len, size_t window,
                      uint8_t out[ZP_SPILL_PREFIX], void *ctx)
{
  const zp_checker *c = ctx;
  const uint8_t *key = entry + sizeof(zp_ck_tuple);
  uint16_t key_len, rclass, rtype, covered;
  uint8_t kind, flags;
  memcpy(&key_len, entry + offsetof(zp_ck_tuple, key_len), sizeof key_len);
  memcpy(&covered, entry + offsetof(zp_ck_tuple, covered), sizeof covered);
  memcpy(&rclass, entry + offsetof(zp_ck_tuple, rclass), sizeof rclass);
  memcpy(&rtype, entry + offsetof(zp_ck_tuple, rtype), sizeof rtype);
  kind = entry[offsetof(zp_ck_tuple, kind)];
  flags = entry[offsetof(zp_ck_tuple, flags)];
  (void)entry_len;
  uint8_t flag = 1;
  if (!(flags & F_KEY_REL))
    flag = memcmp(key, c->skip, key_len < c->skip_len ? key_len : c->skip_len) > 0 ? 2 : 0;
  /* the string: flag, key, 0, kind, class, type (, covered); nearly always one window holds it
   * all, and it is made there */
  bool rrsig = kind == K_RECORD && (rtype == ZP_TYPE_RRSIG || rtype == ZP_TYPE_SIG);
  uint8_t str[1 + ZP_NAME_KEY_MAX + 8 + ZP_SPILL_PREFIX];
  size_t len = 1 + (size_t)key_len + 6 + (rrsig ? 2 : 0);
  bool whole = len <= ZP_SPILL_PREFIX;
  uint8_t *q = whole ? out : str;
  memset(q, 0, ZP_SPILL_PREFIX);
  q[0] = flag;
  memcpy(q + 1, key, key_len);
  q += 1 + key_len;
  q[0] = 0;
  q[1] = kind;
  q[2] = (uint8_t)(rclass >> 8);
  q[3] = (uint8_t)rclass;
  q[4] = (uint8_t)(rtype >> 8);
  q[5] = (uint8_t)rtype;
  if (rrsig) {
    q[6] = (uint8_t)(covered >> 8);
    q[7] = (uint8_t)covered;
  }
  size_t from = window * ZP_SPILL_PREFIX;
  if (whole) {
    if (window > 0)
      memset(out, 0, ZP_SPILL_PREFIX);
  } else {
    memset(str + len, 0, ZP_SPILL_PREFIX);
    memcpy(out, str + (from < len ? from : len), ZP_SPILL_PREFIX);
  }
  return len <= from + ZP_SPILL_PREFIX;
}

/* Whether key[0..len) starts with skip: it is then stored without it. */
static bool relative(const zp_checker *c, const uint8_t *key, size_t len)
{
  return len >= c->skip_len && memcmp(key, c->skip, c->skip_len) == 0;
}

zp_status zp_ck_add(zp_checker *c, zp_spill *sp, const zp_ck_tuple *whole, const uint8_t *key,
                    const uint8_t *extra, uint64_t alike)
{
  zp_ck_tuple stored = *whole, *t = &stored;
  if (relative(c, key, t->key_len)) {
    t->flags |= F_KEY_REL;
    key += c->skip_len;
    t->key_len = (uint16_t)(t->key_len - c->skip_len);
  }
  if (t->kind == K_REF && relative(c, extra, t->extra_len)) {
    t->flags |= F_EXTRA_REL;
    extra += c->skip_len;
    t->extra_len = (uint16_t)(t->extra_len - c->skip_len);
  }
  if (alike)
    t->flags |= F_ALIKE;
  struct iovec parts[4] = {{t, sizeof *t}, {(void *)key, t->key_len},
                           {(void *)extra, t->extra_len}, {&alike, sizeof alike}};
  return zp_spill_add(sp, parts, alike ? 4 : 3);
}

zp_ck_tuple zp_ck_at_field(const zp_record *r, const zp_ck_tuple *t, size_t i)
{
  zp_ck_tuple at = *t;
  if (i < r->nfields && r->fields[i].loc.src == r->loc.src) {
    at.line = r->fields[i].loc.line;
    at.col = (uint16_t)(r->fields[i].loc.col < UINT16_MAX ? r->fields[i].loc.col : UINT16_MAX);
    at.line_off = r->fields[i].loc.line_off;
  }
  return at;
}

size_t zp_ck_whole_extra(const zp_checker *c, const zp_ck_tuple *t, const uint8_t *extra,
                         uint8_t *from)
{
  size_t skip = t->flags & F_EXTRA_REL ? c->skip_len : 0;
  memcpy(from, c->skip, skip);
  memcpy(from + skip, extra, t->extra_len);
  return skip + t->extra_len;
}
