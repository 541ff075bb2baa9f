/* nameprep.c -- RFC 3491 Nameprep: map, NFKC (Unicode 3.2), prohibit, bidi, unassigned */
#include "nameprep.h"

#include "nameprep_tables.h"

/* Hangul syllable arithmetic (conjoining jamo behaviour, Unicode 3.2). */
enum {
  S_BASE = 0xAC00, L_BASE = 0x1100, V_BASE = 0x1161, T_BASE = 0x11A7,
  L_COUNT = 19, V_COUNT = 21, T_COUNT = 28, S_COUNT = L_COUNT * V_COUNT * T_COUNT
};

/* The bits a finished string is checked against; ASCII code points carry at most ZP_NP_L. */
#define CHECK_BITS (ZP_NP_PROHIB | ZP_NP_RANDAL | ZP_NP_UNASSIGNED)

static inline const struct zp_np_rec *rec_of(uint32_t cp)
{
  uint32_t blk = (uint32_t)zp_np_stage1[cp >> ZP_NP_SHIFT] << ZP_NP_SHIFT;
  return &zp_np_recs[zp_np_stage2[blk | (cp & ZP_NP_MASK)]];
}

/* Appends c, moving it in front of any earlier combining marks of higher class: canonical
 * ordering (UAX #15 for Unicode 3.2) done incrementally while decomposing. */
static zp_status put_ordered(uint32_t *out, size_t cap, size_t *n, uint32_t c)
{
  if (*n == cap)
    return ZP_EBUFFER;
  unsigned ccc = rec_of(c)->ccc;
  size_t j = *n;
  if (ccc != 0)
    for (; j > 0 && rec_of(out[j - 1])->ccc > ccc; j--)
      out[j] = out[j - 1];
  out[j] = c;
  (*n)++;
  return ZP_OK;
}

/* Full compatibility decomposition of one mapped code point, appended in canonical order.
 * Precomposed Hangul stays composed: see ZP_NP_DECOMP. */
static zp_status decompose(uint32_t *out, size_t cap, size_t *n, uint32_t cp,
                           const struct zp_np_rec *r)
{
  zp_status st = ZP_OK;
  if (!(r->flags & ZP_NP_DECOMP))
    return put_ordered(out, cap, n, cp);
  const uint32_t *d = &zp_np_data[r->dec];
  for (uint32_t k = 1; k <= d[0] && st == ZP_OK; k++)
    st = put_ordered(out, cap, n, d[k]);
  return st;
}

/* The primary composite of a + b, or 0. */
static uint32_t combine(uint32_t a, uint32_t b)
{
  if (a - L_BASE < L_COUNT && b - V_BASE < V_COUNT)
    return S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT;
  if (a - S_BASE < S_COUNT && (a - S_BASE) % T_COUNT == 0 && b - (T_BASE + 1) < T_COUNT - 1)
    return a + (b - T_BASE);
  const struct zp_np_rec *r = rec_of(a);
  if (!(r->flags & ZP_NP_FIRST))
    return 0;
  const uint32_t *p = &zp_np_data[r->comp];
  for (uint32_t k = 1; k < p[0]; k += 2)
    if (p[k] == b)
      return p[k + 1];
  return 0;
}

/* Canonical composition (UAX #15 for Unicode 3.2, with Corrigendum #5's reading of "blocked"),
 * in place: the string only shrinks, so the write index never passes the read index. */
static size_t compose(uint32_t *s, size_t n)
{
  size_t w = 0, starter = 0;
  int have_starter = 0;
  unsigned last_ccc = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t c = s[i];
    const struct zp_np_rec *r = rec_of(c);
    unsigned ccc = r->ccc;
    if (have_starter && (r->flags & ZP_NP_SECOND) &&
        (w == starter + 1 || (ccc != 0 && last_ccc < ccc))) {
      uint32_t k = combine(s[starter], c);
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

/* RFC 3491 section 5, RFC 3454 section 6, then A.1: the first failure, in that order. */
static zp_status check(const uint32_t *s, size_t n, unsigned all, unsigned flags,
                       uint32_t *bad_cp)
{
  if (all & ZP_NP_PROHIB)
    for (size_t i = 0; i < n; i++)
      if (rec_of(s[i])->flags & ZP_NP_PROHIB) {
        *bad_cp = s[i];
        return ZP_IDNA_PROHIBITED;
      }
  if (all & ZP_NP_RANDAL) {
    if (all & ZP_NP_L) {
      /* Name the first code point whose direction contradicts the first strong one. */
      unsigned seen = 0;
      for (size_t i = 0; i < n; i++) {
        unsigned f = rec_of(s[i])->flags & (ZP_NP_L | ZP_NP_RANDAL);
        if (seen && f && f != seen) {
          *bad_cp = s[i];
          return ZP_IDNA_BIDI_MIXED;
        }
        if (!seen)
          seen = f;
      }
    }
    if (!(rec_of(s[0])->flags & ZP_NP_RANDAL)) {
      *bad_cp = s[0];
      return ZP_IDNA_BIDI_ENDS;
    }
    if (!(rec_of(s[n - 1])->flags & ZP_NP_RANDAL)) {
      *bad_cp = s[n - 1];
      return ZP_IDNA_BIDI_ENDS;
    }
  }
  /* RFC 3454 section 7 asks for the check on the input; mapping and NFKC never produce or remove
   * an A.1 code point, so checking the output is the same test. */
  if ((all & ZP_NP_UNASSIGNED) && !(flags & ZP_NAMEPREP_ALLOW_UNASSIGNED))
    for (size_t i = 0; i < n; i++)
      if (rec_of(s[i])->flags & ZP_NP_UNASSIGNED) {
        *bad_cp = s[i];
        return ZP_IDNA_UNASSIGNED;
      }
  return ZP_OK;
}

/* One pass of mapping (RFC 3491 section 3, when map is set) and NFKC (section 4) into
 * out[0..cap); *np is the length written and *all the union of the output's flags.
 * The quick pass (full == 0) copies code points while the UAX #15 quick check holds and gives up
 * (*gave_up = 1) at the first that fails it: composites already written could then need
 * decomposing, so the caller starts again with a full pass, which decomposes every code point,
 * orders the marks, and composes. Inlined with constant map and full, so their tests are free. */
static inline zp_status pass(const uint32_t *in, size_t inlen, uint32_t *out, size_t cap,
                             size_t *np, int map, int full, unsigned *all, int *gave_up,
                             uint32_t *bad_cp)
{
  size_t n = 0;
  unsigned seen = 0, last_ccc = 0;

  for (size_t i = 0; i < inlen; i++) {
    uint32_t cp = in[i];
    if (cp < 0x80) {
      /* B.2 lowercases A-Z; D.2 holds the letters; nothing else in the tables is ASCII. */
      if (n == cap)
        return ZP_EBUFFER;
      if (map)
        cp |= (cp - 'A' < 26) ? 0x20 : 0;
      if ((cp | 0x20) - 'a' < 26)
        seen |= ZP_NP_L;
      out[n++] = cp;
      last_ccc = 0;
      continue;
    }
    if (cp > 0x10FFFF) {
      *bad_cp = cp;
      return ZP_EINVAL;
    }
    const struct zp_np_rec *r = rec_of(cp);
    /* The common case: kept as is and passes the quick check. */
    const unsigned kept = map ? ZP_NP_B1 | ZP_NP_MAP : 0;
    if (!full && (r->flags & (ZP_NP_STABLE | kept)) == ZP_NP_STABLE &&
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
    if (map && (r->flags & ZP_NP_B1))
      continue;
    if (map && (r->flags & ZP_NP_MAP)) {
      seq = &zp_np_data[r->map + 1];
      len = zp_np_data[r->map];
    }
    for (uint32_t k = 0; k < len; k++) {
      uint32_t c = seq[k];
      const struct zp_np_rec *cr = seq == &cp ? r : rec_of(c);
      if (full) {
        zp_status st = decompose(out, cap, &n, c, cr);
        if (st != ZP_OK)
          return st;
        continue;
      }
      if (!(cr->flags & ZP_NP_STABLE) || (cr->ccc != 0 && cr->ccc < last_ccc)) {
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
    n = compose(out, n);
    seen = 0;
    for (size_t i = 0; i < n; i++)
      seen |= rec_of(out[i])->flags;
  }
  *np = n;
  *all = seen;
  return ZP_OK;
}

/* Both passes as needed; see pass(). */
static inline zp_status prepare(const uint32_t *in, size_t inlen, uint32_t *out, size_t cap,
                                size_t *np, int map, unsigned *all, uint32_t *bad_cp)
{
  int gave_up = 0;
  zp_status st = pass(in, inlen, out, cap, np, map, 0, all, &gave_up, bad_cp);
  if (st == ZP_OK && gave_up)
    st = pass(in, inlen, out, cap, np, map, 1, all, &gave_up, bad_cp);
  return st;
}

zp_status zp_nameprep(const uint32_t *in, size_t inlen, uint32_t *out, size_t *outlen,
                      unsigned flags, uint32_t *bad_cp)
{
  uint32_t dummy;
  size_t n = 0;
  unsigned all = 0;

  if (bad_cp == NULL)
    bad_cp = &dummy;
  zp_status st = prepare(in, inlen, out, *outlen, &n, 1, &all, bad_cp);
  if (st == ZP_OK && (all & CHECK_BITS))
    st = check(out, n, all, flags, bad_cp);
  *outlen = st == ZP_OK ? n : 0;
  return st;
}

zp_status zp_nfkc(const uint32_t *in, size_t inlen, uint32_t *out, size_t *outlen,
                  uint32_t *bad_cp)
{
  uint32_t dummy;
  size_t n = 0;
  unsigned all;
  zp_status st = prepare(in, inlen, out, *outlen, &n, 0, &all, bad_cp ? bad_cp : &dummy);
  *outlen = st == ZP_OK ? n : 0;
  return st;
}
