/* unorm.c -- mapping and canonical ordering, decomposition and composition (UAX #15) by a
 * generated table: one engine for every Unicode version and normalization form zonepuny uses */
#include "unorm.h"

/* Hangul syllable arithmetic (conjoining jamo behaviour, the same in every version). */
enum {
  S_BASE = 0xAC00, L_BASE = 0x1100, V_BASE = 0x1161, T_BASE = 0x11A7,
  L_COUNT = 19, V_COUNT = 21, T_COUNT = 28, S_COUNT = L_COUNT * V_COUNT * T_COUNT
};

/* Appends c, moving it in front of any earlier combining marks of higher class: canonical
 * ordering (UAX #15 for Unicode 3.2) done incrementally while decomposing. */
static zp_status put_ordered(const zp_u_table *t, uint32_t *out, size_t cap, size_t *n, uint32_t c)
{
  if (*n == cap)
    return ZP_EBUFFER;
  unsigned ccc = zp_u_rec_of(t, c)->ccc;
  size_t j = *n;
  if (ccc != 0)
    for (; j > 0 && zp_u_rec_of(t, out[j - 1])->ccc > ccc; j--)
      out[j] = out[j - 1];
  out[j] = c;
  (*n)++;
  return ZP_OK;
}

/* Full compatibility decomposition of one mapped code point, appended in canonical order.
 * Precomposed Hangul stays composed: see ZP_U_DECOMP. */
static zp_status decompose(const zp_u_table *t, uint32_t *out, size_t cap, size_t *n, uint32_t cp,
                           const struct zp_u_rec *r)
{
  zp_status st = ZP_OK;
  if (!(r->flags & ZP_U_DECOMP))
    return put_ordered(t, out, cap, n, cp);
  const uint32_t *d = &t->data[r->dec];
  for (uint32_t k = 1; k <= d[0] && st == ZP_OK; k++)
    st = put_ordered(t, out, cap, n, d[k]);
  return st;
}

/* NFD of one code point, appended in canonical order: its decomposition, or precomposed
 * Hangul's jamo by arithmetic. */
static zp_status nfd_one(const zp_u_table *t, uint32_t *out, size_t cap, size_t *n, uint32_t c)
{
  if (c - S_BASE >= S_COUNT)
    return decompose(t, out, cap, n, c, zp_u_rec_of(t, c));
  uint32_t s = c - S_BASE;
  zp_status st = put_ordered(t, out, cap, n, L_BASE + s / (V_COUNT * T_COUNT));
  if (st == ZP_OK)
    st = put_ordered(t, out, cap, n, V_BASE + s % (V_COUNT * T_COUNT) / T_COUNT);
  if (st == ZP_OK && s % T_COUNT)
    st = put_ordered(t, out, cap, n, T_BASE + s % T_COUNT);
  return st;
}

zp_status zp_u_nfd(const zp_u_table *t, const uint32_t *in, size_t inlen, uint32_t *out,
                   size_t *outlen, bool map)
{
  size_t n = 0;
  zp_status st = ZP_OK;
  for (size_t i = 0; i < inlen && st == ZP_OK; i++) {
    if (in[i] > 0x10FFFF)
      return ZP_EINVAL;
    const struct zp_u_rec *r = zp_u_rec_of(t, in[i]);
    const uint32_t *seq = &in[i];
    uint32_t len = 1;
    if (map && (r->flags & ZP_U_MAP)) {
      seq = &t->data[r->map + 1];
      len = t->data[r->map];
    }
    for (uint32_t k = 0; k < len && st == ZP_OK; k++)
      st = nfd_one(t, out, *outlen, &n, seq[k]);
  }
  *outlen = n;
  return st;
}

/* The primary composite of a + b, or 0. */
static uint32_t combine(const zp_u_table *t, uint32_t a, uint32_t b)
{
  if (a - L_BASE < L_COUNT && b - V_BASE < V_COUNT)
    return S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT;
  if (a - S_BASE < S_COUNT && (a - S_BASE) % T_COUNT == 0 && b - (T_BASE + 1) < T_COUNT - 1)
    return a + (b - T_BASE);
  const struct zp_u_rec *r = zp_u_rec_of(t, a);
  if (!(r->flags & ZP_U_FIRST))
    return 0;
  const uint32_t *p = &t->data[r->comp];
  for (uint32_t k = 1; k < p[0]; k += 2)
    if (p[k] == b)
      return p[k + 1];
  return 0;
}

/* Canonical composition (UAX #15 for Unicode 3.2, with Corrigendum #5's reading of "blocked"),
 * in place: the string only shrinks, so the write index never passes the read index. */
static size_t compose(const zp_u_table *t, uint32_t *s, size_t n)
{
  size_t w = 0, starter = 0;
  int have_starter = 0;
  unsigned last_ccc = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t c = s[i];
    const struct zp_u_rec *r = zp_u_rec_of(t, c);
    unsigned ccc = r->ccc;
    if (have_starter && (r->flags & ZP_U_SECOND) &&
        (w == starter + 1 || (ccc != 0 && last_ccc < ccc))) {
      uint32_t k = combine(t, s[starter], c);
      if (k != 0) {
        s[starter] = k;
        continue;
      }
    }
    if (ccc == 0) {
      starter = w;
      have_starter = 1;
    }
    last_ccc = ccc;
    s[w++] = c;
  }
  return w;
}

/* One pass of mapping (when map is set) and normalization into
 * out[0..cap); *np is the length written and *all the union of the output's flags.
 * The quick pass (full == 0) copies code points while the UAX #15 quick check holds and gives up
 * (*gave_up = 1) at the first that fails it: composites already written could then need
 * decomposing, so the caller starts again with a full pass, which decomposes every code point,
 * orders the marks, and composes. Inlined with constant map and full, so their tests are free. */
static inline zp_status pass(const zp_u_table *t, const uint32_t *in, size_t inlen, uint32_t *out, size_t cap,
                             size_t *np, int map, int full, unsigned *all, int *gave_up,
                             uint32_t *bad_cp)
{
  size_t n = 0;
  unsigned seen = 0, last_ccc = 0;

  for (size_t i = 0; i < inlen; i++) {
    uint32_t cp = in[i];
    if (cp > 0x10FFFF) {
      *bad_cp = cp;
      return ZP_EINVAL;
    }
    const struct zp_u_rec *r = zp_u_rec_of(t, cp);
    /* The common case: kept as is and passes the quick check. */
    const unsigned kept = map ? ZP_U_DROP | ZP_U_MAP : 0;
    if (!full && (r->flags & (ZP_U_STABLE | kept)) == ZP_U_STABLE &&
        (r->ccc == 0 || r->ccc >= last_ccc)) {
      if (n == cap)
        return ZP_EBUFFER;
      seen |= r->flags;
      out[n++] = cp;
      last_ccc = r->ccc;
      continue;
    }
    const uint32_t *seq = &cp;
    uint32_t len = 1;
    if (map && (r->flags & ZP_U_DROP))
      continue;
    if (map && (r->flags & ZP_U_MAP)) {
      seq = &t->data[r->map + 1];
      len = t->data[r->map];
    }
    for (uint32_t k = 0; k < len; k++) {
      uint32_t c = seq[k];
      const struct zp_u_rec *cr = seq == &cp ? r : zp_u_rec_of(t, c);
      if (full) {
        zp_status st = decompose(t, out, cap, &n, c, cr);
        if (st != ZP_OK)
          return st;
        continue;
      }
      if (!(cr->flags & ZP_U_STABLE) || (cr->ccc != 0 && cr->ccc < last_ccc)) {
        *gave_up = 1;
        return ZP_OK;
      }
      if (n == cap)
        return ZP_EBUFFER;
      seen |= cr->flags;
      out[n++] = c;
      last_ccc = cr->ccc;
    }
  }
  if (full) {
    n = compose(t, out, n);
    seen = 0;
    for (size_t i = 0; i < n; i++)
      seen |= zp_u_rec_of(t, out[i])->flags;
  }
  *np = n;
  *all = seen;
  return ZP_OK;
}

zp_status zp_u_prepare(const zp_u_table *t, const uint32_t *in, size_t inlen, uint32_t *out,
                       size_t *outlen, bool map, unsigned *all, uint32_t *bad_cp)
{
  uint32_t dummy;
  int gave_up = 0;
  size_t n = 0;
  if (!bad_cp)
    bad_cp = &dummy;
  /* (each call with constant map and full, so that pass() is made for each) */
  zp_status st = map ? pass(t, in, inlen, out, *outlen, &n, 1, 0, all, &gave_up, bad_cp)
                     : pass(t, in, inlen, out, *outlen, &n, 0, 0, all, &gave_up, bad_cp);
  if (st == ZP_OK && gave_up)
    st = map ? pass(t, in, inlen, out, *outlen, &n, 1, 1, all, &gave_up, bad_cp)
             : pass(t, in, inlen, out, *outlen, &n, 0, 1, all, &gave_up, bad_cp);
  *outlen = st == ZP_OK ? n : 0;
  return st;
}
