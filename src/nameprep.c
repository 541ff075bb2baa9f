/* nameprep.c -- RFC 3491 Nameprep: map, NFKC (Unicode 3.2), prohibit, bidi, unassigned */
#include "nameprep.h"

#include "nameprep_tables.h"

/* Hangul syllable arithmetic (Unicode 3.2, section 3.12). */
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
 * ordering (Unicode 3.2 section 3.11) done incrementally while decomposing. */
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
 * Precomposed Hangul stays composed: see ZP_NP_STABLE. */
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

/* Canonical composition (Unicode 3.2 section 3.11 with Corrigendum #5's reading of "blocked"),
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

zp_status zp_nameprep(const uint32_t *in, size_t inlen, uint32_t *out, size_t *outlen,
                      unsigned flags, uint32_t *bad_cp)
{
  uint32_t dummy;
  size_t cap = *outlen, n = 0;
  unsigned all = 0, stable = 1, last_ccc = 0;
  zp_status st = ZP_OK;

  if (bad_cp == NULL)
    bad_cp = &dummy;
  /* Map (RFC 3491 section 3) and, for anything that fails the quick check, decompose. */
  for (size_t i = 0; i < inlen; i++) {
    uint32_t cp = in[i];
    if (cp < 0x80) {
      /* B.2 lowercases A-Z; D.2 holds the letters; nothing else in the tables is ASCII. */
      if (n == cap) {
        st = ZP_EBUFFER;
        goto out;
      }
      cp |= (cp - 'A' < 26) ? 0x20 : 0;
      if (cp - 'a' < 26)
        all |= ZP_NP_L;
      out[n++] = cp;
      last_ccc = 0;
      continue;
    }
    if (cp > 0x10FFFF) {
      *bad_cp = cp;
      st = ZP_EINVAL;
      goto out;
    }
    const struct zp_np_rec *r = rec_of(cp);
    if (r->flags & ZP_NP_B1)
      continue;
    const uint32_t *seq = &cp;
    uint32_t len = 1;
    if (r->flags & ZP_NP_MAP) {
      seq = &zp_np_data[r->map + 1];
      len = zp_np_data[r->map];
    }
    for (uint32_t k = 0; k < len; k++) {
      uint32_t c = seq[k];
      const struct zp_np_rec *cr = seq == &cp ? r : rec_of(c);
      if ((cr->flags & ZP_NP_STABLE) && (cr->ccc == 0 || cr->ccc >= last_ccc)) {
        if (n == cap) {
          st = ZP_EBUFFER;
          goto out;
        }
        all |= cr->flags;
        out[n++] = c;
        last_ccc = cr->ccc;
        continue;
      }
      stable = 0;
      st = decompose(out, cap, &n, c, cr);
      if (st != ZP_OK)
        goto out;
      last_ccc = rec_of(out[n - 1])->ccc;
    }
  }
  /* NFKC (RFC 3491 section 4): a string that passed the quick check is already normalised. */
  if (!stable) {
    n = compose(out, n);
    all = 0;
    for (size_t i = 0; i < n; i++)
      all |= rec_of(out[i])->flags;
  }
  if (all & CHECK_BITS)
    st = check(out, n, all, flags, bad_cp);
out:
  *outlen = st == ZP_OK ? n : 0;
  return st;
}
