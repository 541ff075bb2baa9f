/* nameprep.c -- RFC 3491 Nameprep: map, NFKC (Unicode 3.2), prohibit, bidi, unassigned */
#include "nameprep.h"

#include "nameprep_tables.h"

/* The bits a finished string is checked against; ASCII code points carry at most ZP_NP_L. */
#define CHECK_BITS (ZP_NP_PROHIB | ZP_NP_RANDAL | ZP_NP_UNASSIGNED)

static const zp_u_table tables = {zp_np_stage1, zp_np_stage2, zp_np_recs, zp_np_data};

static inline const struct zp_u_rec *rec_of(uint32_t cp)
{
  return zp_u_rec_of(&tables, cp);
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
  size_t n = *outlen;
  unsigned all = 0;

  if (bad_cp == NULL)
    bad_cp = &dummy;
  /* RFC 3491 section 3 (mapping: B.1, B.2) and section 4 (NFKC) */
  zp_status st = zp_u_prepare(&tables, in, inlen, out, &n, true, &all, bad_cp);
  if (st == ZP_OK && (all & CHECK_BITS))
    st = check(out, n, all, flags, bad_cp);
  *outlen = st == ZP_OK ? n : 0;
  return st;
}

zp_status zp_nfkc(const uint32_t *in, size_t inlen, uint32_t *out, size_t *outlen,
                  uint32_t *bad_cp)
{
  unsigned all;
  return zp_u_prepare(&tables, in, inlen, out, outlen, false, &all, bad_cp);
}
