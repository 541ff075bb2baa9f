/* idna2008.c -- IDNA2008 (RFC 5891 section 4 and 5, RFC 5892, RFC 5893) with UTS #46
 * non-transitional mapping at Unicode 15.0.0: a label is mapped and put in NFC by unorm.c with
 * the tables of tools/gen_idna2008.py, then held to IDNA2008's rules and encoded */
#include "idna2008.h"

#include <string.h>

#include "idna2008_tables.h"
#include "names.h"
#include "punycode.h"
#include "unorm.h"
#include "utf8.h"

static const zp_u_table tables = {zp_i8_stage1, zp_i8_stage2, zp_i8_recs, zp_i8_data};

/* A label's code points in, at most the raw bound of a label in a zone (four octets for each of
 * 63), and the mapped, normalized form: a code point maps to at most 18 (U+FDFA). */
enum { IN_MAX = 4 * ZP_LABEL_MAX, WORK_MAX = 18 * IN_MAX, VIRAMA = 9 };

/* The index of cp's record, in zp_i8_recs and zp_i8_props alike. */
static unsigned rec_index(uint32_t cp)
{
  return zp_i8_stage2[(unsigned)zp_i8_stage1[cp >> ZP_U_SHIFT] << ZP_U_SHIFT | (cp & ZP_U_MASK)];
}

static const struct zp_u_rec *rec_of(uint32_t cp)
{
  return &zp_i8_recs[rec_index(cp)];
}

static unsigned props_of(uint32_t cp)
{
  return zp_i8_props[rec_index(cp)];
}

static unsigned bidi_of(uint32_t cp)
{
  return props_of(cp) & ZP_I8_BIDI_MASK;
}

static unsigned join_of(uint32_t cp)
{
  return props_of(cp) >> ZP_I8_JOIN_SHIFT & ZP_I8_JOIN_MASK;
}

static unsigned script_of(uint32_t cp)
{
  return props_of(cp) >> ZP_I8_SCRIPT_SHIFT & ZP_I8_SCRIPT_MASK;
}

bool zp_idna2008_is_deviation(uint32_t cp)
{
  return cp <= 0x10FFFF && (rec_of(cp)->flags & ZP_I8_DEVIATION);
}

bool zp_idna2008_alike(uint32_t cp)
{
  return cp <= 0x10FFFF && (rec_of(cp)->flags & ZP_I8_ALIKE);
}

static zp_status fail(zp_idna_detail *det, zp_status st, uint32_t cp)
{
  if (det) {
    det->cp = cp;
    det->offset = 0;
    det->label_len = 0;
  }
  return st;
}

/* RFC 5892 appendix A: the rule of the code point at s[i], in the label s[0..n). */
static bool in_context(const uint32_t *s, size_t n, size_t i)
{
  uint32_t cp = s[i];
  switch (cp) {
  case 0x200C: {   /* A.1 ZERO WIDTH NON-JOINER */
    if (i > 0 && rec_of(s[i - 1])->ccc == VIRAMA)
      return true;
    /* (Joining_Type:{L,D})(Joining_Type:T)* ZWNJ (Joining_Type:T)*(Joining_Type:{R,D}) */
    size_t b = i, a = i + 1;
    while (b > 0 && join_of(s[b - 1]) == ZP_JOIN_T)
      b--;
    while (a < n && join_of(s[a]) == ZP_JOIN_T)
      a++;
    return b > 0 && (join_of(s[b - 1]) == ZP_JOIN_L || join_of(s[b - 1]) == ZP_JOIN_D) &&
           a < n && (join_of(s[a]) == ZP_JOIN_R || join_of(s[a]) == ZP_JOIN_D);
  }
  case 0x200D:   /* A.2 ZERO WIDTH JOINER */
    return i > 0 && rec_of(s[i - 1])->ccc == VIRAMA;
  case 0x00B7:   /* A.3 MIDDLE DOT: between two l */
    return i > 0 && i + 1 < n && s[i - 1] == 0x6C && s[i + 1] == 0x6C;
  case 0x0375:   /* A.4 GREEK LOWER NUMERAL SIGN: before a Greek letter */
    return i + 1 < n && script_of(s[i + 1]) == ZP_SCRIPT_GREEK;
  case 0x05F3: case 0x05F4:   /* A.5, A.6 HEBREW GERESH, GERSHAYIM: after a Hebrew letter */
    return i > 0 && script_of(s[i - 1]) == ZP_SCRIPT_HEBREW;
  case 0x30FB:   /* A.7 KATAKANA MIDDLE DOT: in a label with Hiragana, Katakana or Han */
    for (size_t k = 0; k < n; k++) {
      unsigned sc = script_of(s[k]);
      if (sc == ZP_SCRIPT_HIRAGANA || sc == ZP_SCRIPT_KATAKANA || sc == ZP_SCRIPT_HAN)
        return true;
    }
    return false;
  default: {   /* A.8, A.9: Arabic-Indic digits of one kind only */
    uint32_t other = cp <= 0x0669 ? 0x06F0 : 0x0660;
    for (size_t k = 0; k < n; k++)
      if (s[k] - other < 10)
        return false;
    return true;
  }
  }
}

/* RFC 5893 section 2 on a label whose Bidi classes are the set seen (bits 1 << class), first
 * the class of its first code point and last that of its last one that is not NSM (the first's
 * when all others are): its ZP_IDNA_BIDI_* bits. */
static unsigned bidi_rule(unsigned seen, unsigned first, unsigned last)
{
#define B(c) (1u << ZP_BIDI_##c)
  unsigned rtl = seen & (B(R) | B(AL) | B(AN)) ? ZP_IDNA_BIDI_RTL : 0;
  bool ok;
  if (first == ZP_BIDI_R || first == ZP_BIDI_AL) {   /* rules 2-4 */
    ok = !(seen & ~(B(R) | B(AL) | B(AN) | B(EN) | B(ES) | B(CS) | B(ET) | B(ON) | B(BN) |
                    B(NSM))) &&
         (last == ZP_BIDI_R || last == ZP_BIDI_AL || last == ZP_BIDI_EN || last == ZP_BIDI_AN) &&
         !((seen & B(EN)) && (seen & B(AN)));
  } else if (first == ZP_BIDI_L) {   /* rules 5, 6 */
    ok = !(seen & ~(B(L) | B(EN) | B(ES) | B(CS) | B(ET) | B(ON) | B(BN) | B(NSM))) &&
         (last == ZP_BIDI_L || last == ZP_BIDI_EN);
  } else {   /* rule 1 */
    ok = false;
  }
#undef B
  return rtl | (ok ? 0 : ZP_IDNA_BIDI_BROKEN);
}

/* RFC 5893 section 2 on the label s[0..n): its ZP_IDNA_BIDI_* bits. */
static unsigned bidi_bits(const uint32_t *s, size_t n)
{
  unsigned seen = 0, first = bidi_of(s[0]), last = first;
  for (size_t i = 0; i < n; i++) {
    unsigned c = bidi_of(s[i]);
    seen |= 1u << c;
    if (i > 0 && c != ZP_BIDI_NSM)
      last = c;
  }
  return bidi_rule(seen, first, last);
}

static bool memchr_u32(const uint32_t *s, size_t n, uint32_t c)
{
  for (size_t i = 0; i < n; i++)
    if (s[i] == c)
      return true;
  return false;
}

/* The refusal of a code point that may not stand in a label, by its reason. */
static zp_status invalid(zp_idna_detail *det, uint32_t cp, unsigned f)
{
  return fail(det, f & ZP_I8_NV8 ? ZP_IDNA_NV8 : f & ZP_I8_STD3 ? ZP_IDNA_NOT_LDH
                   : f & ZP_I8_UNASSIGNED ? ZP_IDNA_UNASSIGNED_15 : ZP_IDNA_DISALLOWED, cp);
}

/* RFC 5891 section 5.4 and 4.2.3, RFC 5892, UTS #46 section 4.1 on a mapped, normalized label
 * s[0..n) (n > 0). */
static zp_status validate(const uint32_t *s, size_t n, zp_idna_detail *det)
{
  if (n >= 4 && s[2] == '-' && s[3] == '-')
    return fail(det, ZP_IDNA_HYPHEN_34, '-');
  if (s[0] == '-' || s[n - 1] == '-')
    return fail(det, ZP_IDNA_HYPHEN, '-');
  if (rec_of(s[0])->flags & ZP_I8_MARK)
    return fail(det, ZP_IDNA_LEADING_MARK, s[0]);
  for (size_t i = 0; i < n; i++) {
    unsigned f = rec_of(s[i])->flags;
    if (s[i] == '.')
      return fail(det, ZP_IDNA_DOT, s[i]);
    if (f & ZP_I8_INVALID)
      return invalid(det, s[i], f);
    if ((f & ZP_I8_CONTEXT) && !in_context(s, n, i))
      return fail(det, s[i] == 0x200C || s[i] == 0x200D ? ZP_IDNA_CONTEXTJ : ZP_IDNA_CONTEXTO,
                  s[i]);
  }
  return ZP_OK;
}

static zp_status ace_label(const char *in, size_t inlen, uint32_t *u, size_t *n,
                           zp_idna_detail *det);

/* Byte offset in the UTF-8 label in[0..inlen) of what a refusal with st names (bad, a code
 * point of the mapped label): the third code point for hyphens in the third and fourth places;
 * for a hyphen at an end, the input code point that gave the first hyphen when nothing came
 * before it, else the one that gave the last; else the first input code point that is bad or
 * whose own mapping and normalization holds it; 0 if none. Only ever called on a failure. */
static size_t locate(const char *in, size_t inlen, zp_status st, uint32_t bad)
{
  size_t third = 0, first = SIZE_MAX, last = 0;
  bool before = false;   /* an input code point gave something before the first hyphen */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0, count = 0; i < inlen; count++) {
      size_t k = 1, one = 1;
      uint32_t cp, m[WORK_MAX];
      size_t mn = WORK_MAX;
      unsigned all;
      while (i + k < inlen && ((unsigned char)in[i + k] & 0xC0) == 0x80)
        k++;
      if (count == 2)
        third = i;
      bool ok = zp_utf8_decode((const uint8_t *)in + i, k, &cp, &one, NULL) == ZP_OK;
      bool hit = ok && cp == bad;
      if (ok && (pass == 1 || st == ZP_IDNA_HYPHEN)) {
        hit = zp_u_prepare(&tables, &cp, 1, m, &mn, true, &all, NULL) == ZP_OK &&
              memchr_u32(m, mn, bad);
        if (hit && first == SIZE_MAX)
          first = i;
        if (hit)
          last = i;
        before |= first == SIZE_MAX && mn > 0;
      }
      if (hit && st != ZP_IDNA_HYPHEN && st != ZP_IDNA_HYPHEN_34)
        return i;
      i += k;
    }
    if (st == ZP_IDNA_HYPHEN_34)
      return third;
    if (st == ZP_IDNA_HYPHEN)
      return first == SIZE_MAX ? 0 : before ? last : first;
  }
  return 0;
}

/* The U-label of in[0..inlen) (UTF-8), mapped and normalized, in u[0..*n); ZP_OK when it is
 * valid. */
static zp_status u_label(const char *in, size_t inlen, uint32_t *u, size_t *n,
                         zp_idna_detail *det)
{
  uint32_t cps[IN_MAX];
  size_t k = IN_MAX;
  unsigned all;
  if (inlen > IN_MAX)
    return ZP_IDNA_TOO_LONG;
  zp_status st = zp_utf8_decode((const uint8_t *)in, inlen, cps, &k, NULL);
  if (st != ZP_OK)
    return st;
  /* UTS #46 section 4 step 1: a code point it disallows is an error as written, even where NFC
   * would then replace it (U+2F868 by U+36FC); one it keeps that IDNA2008 does not (NV8) is
   * judged in the U-label, after NFC (U+1100 U+1161 compose to U+AC00, which is PVALID) */
  for (size_t i = 0; i < k; i++) {
    unsigned f = rec_of(cps[i])->flags;
    if ((f & ZP_I8_INVALID) && !(f & (ZP_U_MAP | ZP_U_DROP | ZP_I8_NV8)))
      return invalid(det, cps[i], f);
  }
  *n = WORK_MAX;
  uint32_t bad = 0;
  st = zp_u_prepare(&tables, cps, k, u, n, true, &all, &bad);
  if (st != ZP_OK)
    return fail(det, st, bad);
  if (*n == 0)
    return ZP_IDNA_EMPTY;   /* (every code point ignored) */
  /* mapped to an ACE label (UTS #46 section 4 step 4): that label is checked as one */
  if (*n > 4 && *n <= IN_MAX && u[0] == 'x' && u[1] == 'n' && u[2] == '-' && u[3] == '-') {
    char ace[IN_MAX];
    bool ascii = true;
    for (size_t i = 0; i < *n; i++) {
      ascii &= u[i] < 0x80;
      ace[i] = (char)u[i];
    }
    if (ascii)
      return ace_label(ace, *n, u, n, det);
  }
  return validate(u, *n, det);
}

/* The ACE form of a valid label u[0..n) into out[0..*outlen): the label itself when it is all
 * ASCII. ZP_EBUFFER when out is too small. */
static zp_status encode(const uint32_t *u, size_t n, char *out, size_t *outlen)
{
  bool ascii = true;
  for (size_t i = 0; i < n; i++)
    ascii &= u[i] < 0x80;
  if (ascii) {
    if (n > *outlen)
      return ZP_EBUFFER;
    for (size_t i = 0; i < n; i++)
      out[i] = (char)u[i];
    *outlen = n;
    return ZP_OK;
  }
  if (*outlen < 4)
    return ZP_EBUFFER;
  memcpy(out, "xn--", 4);
  size_t len = *outlen - 4;
  zp_status st = zp_puny_encode(u, n, NULL, out + 4, &len);
  *outlen = len + 4;
  return st;
}

/* ToASCII's last steps: the ACE form, at most 63 octets, into out. */
static zp_status to_ace(const uint32_t *u, size_t n, char *out, size_t *outlen)
{
  char ace[ZP_LABEL_MAX];
  size_t len = sizeof ace;
  zp_status st = encode(u, n, ace, &len);
  if (st != ZP_OK)
    return st == ZP_EBUFFER ? ZP_IDNA_TOO_LONG : st;
  if (len > *outlen)
    return ZP_EBUFFER;
  memcpy(out, ace, len);
  *outlen = len;
  return ZP_OK;
}

/* An "xn--" label (any case): it decodes, holds a non-ASCII code point, is a valid U-label as
 * it stands (mapping and NFC leave it alone) and encodes back to itself, case aside. ASCII
 * capitals are lowercased first, as UTS #46 maps the whole label before it decodes one
 * (section 4 steps 1 and 4): "XN--MNCHEN-3YA" is "münchen". The decoded label is in
 * u[0..*n). */
static zp_status ace_label(const char *in, size_t inlen, uint32_t *u, size_t *n,
                           zp_idna_detail *det)
{
  if (inlen > IN_MAX)
    return ZP_IDNA_TOO_LONG;   /* (decoding time grows with the square of the length) */
  char low[IN_MAX];
  for (size_t i = 0; i < inlen; i++)
    low[i] = (char)(in[i] >= 'A' && in[i] <= 'Z' ? in[i] + 32 : in[i]);
  *n = IN_MAX;
  zp_status st = zp_puny_decode(low + 4, inlen - 4, u, n, NULL);
  if (st != ZP_OK)
    return ZP_IDNA_ACE_DECODE;
  zp_idna_ace_decoded(det, u, *n);
  bool ascii = true;
  for (size_t i = 0; i < *n; i++)
    ascii &= u[i] < 0x80;
  if (ascii || *n == 0)
    return ZP_IDNA_ACE_ASCII;
  uint32_t m[WORK_MAX];
  size_t mn = WORK_MAX;
  unsigned all;
  if (zp_u_prepare(&tables, u, *n, m, &mn, true, &all, NULL) != ZP_OK || mn != *n ||
      memcmp(m, u, mn * sizeof *m) != 0)
    return ZP_IDNA_ACE_NOT_CANONICAL;
  if ((st = validate(u, *n, det)) != ZP_OK)
    return st;
  char back[IN_MAX];
  size_t blen = sizeof back;
  if (encode(u, *n, back, &blen) != ZP_OK || blen != inlen)
    return ZP_IDNA_ACE_NOT_CANONICAL;
  for (size_t i = 0; i < inlen; i++)
    if ((in[i] | (in[i] >= 'A' && in[i] <= 'Z' ? 0x20 : 0)) != back[i])
      return ZP_IDNA_ACE_NOT_CANONICAL;
  return ZP_OK;
}

/* The common non-ASCII label in one pass over its UTF-8 (at most IN_MAX octets): every code
 * point valid as it stands (UTS #46 neither maps nor ignores it, no context rule), the label in
 * NFC by the quick check (UAX #15 section 9), no mark first, no hyphen at an end or in the third
 * and fourth places. Its code points go to u[0..*n) and its Bidi bits to *bidi. Any other label
 * (and any flaw of UTF-8) is left to the full path, which also says what is wrong. */
static bool quick(const char *in, size_t inlen, uint32_t *u, size_t *n, unsigned *bidi)
{
  const uint8_t *p = (const uint8_t *)in, *end = p + inlen;
  size_t k = 0;
  unsigned seen = 0, first = 0, last = 0, prev_ccc = 0;
  while (p < end) {
    uint32_t cp = *p;
    if (cp < 0x80) {   /* letters, digits and hyphens (ASCII), without the table */
      unsigned c = cp - 'a' < 26 ? ZP_BIDI_L : cp - '0' < 10 ? ZP_BIDI_EN
                 : cp == '-' ? ZP_BIDI_ES : ZP_BIDI_OTHER;
      if (c == ZP_BIDI_OTHER)
        return false;
      if (k == 0)
        first = c;
      last = c;
      seen |= 1u << c;
      prev_ccc = 0;
      u[k++] = cp;
      p++;
      continue;
    }
    if (cp < 0xC2 || cp > 0xF4)   /* a continuation byte, or no lead byte of a code point */
      return false;
    size_t len = cp >= 0xF0 ? 4 : cp >= 0xE0 ? 3 : 2;
    if ((size_t)(end - p) < len)
      return false;
    uint32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    cp &= 0x7F >> len;
    for (size_t i = 1; i < len; i++) {
      if ((p[i] & 0xC0) != 0x80)
        return false;
      cp = cp << 6 | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    p += len;
    unsigned idx = rec_index(cp);
    const struct zp_u_rec *r = &zp_i8_recs[idx];
    unsigned f = r->flags;
    if ((f & (ZP_U_DROP | ZP_U_MAP | ZP_I8_INVALID | ZP_I8_CONTEXT)) || !(f & ZP_U_STABLE) ||
        (r->ccc && r->ccc < prev_ccc))
      return false;
    prev_ccc = r->ccc;
    unsigned c = zp_i8_props[idx] & ZP_I8_BIDI_MASK;
    if (k == 0) {
      if (f & ZP_I8_MARK)
        return false;
      first = last = c;
    } else if (c != ZP_BIDI_NSM) {
      last = c;
    }
    seen |= 1u << c;
    u[k++] = cp;
  }
  if (k == 0 || u[0] == '-' || u[k - 1] == '-' || (k >= 4 && u[2] == '-' && u[3] == '-'))
    return false;
  *n = k;
  *bidi = bidi_rule(seen, first, last);
  return true;
}

/* zp_idna2008_label_to_ascii past its common case, with room for a label's mapped form (not
 * inlined: the ASCII labels of the common case need no such stack frame). */
static __attribute__((noinline)) zp_status label_to_ascii(const char *in, size_t inlen,
                                                          char *out, size_t *outlen,
                                                          unsigned flags, zp_idna_detail *det,
                                                          unsigned *bidi, unsigned char hi)
{
  uint32_t u[WORK_MAX];
  size_t n;
  if (det)
    det->decoded[0] = 0;
  if (!(hi & 0x80)) {
    bool ace = (flags & ZP_IDNA_CHECK_ACE) && zp_idna_is_ace(in, inlen);
    if (!ace)   /* as IDNA2003 has it: an ASCII label is the zone's own business */
      return zp_idna_label_to_ascii(in, inlen, out, outlen, flags & ~ZP_IDNA_CHECK_ACE, det);
    zp_status st = inlen > ZP_LABEL_MAX ? ZP_IDNA_TOO_LONG : ace_label(in, inlen, u, &n, det);
    if (st != ZP_OK)
      return st;
    if (bidi)
      *bidi = bidi_bits(u, n);
    if (inlen > *outlen)
      return ZP_EBUFFER;
    memcpy(out, in, inlen);
    *outlen = inlen;
    return ZP_OK;
  }
  unsigned bits;
  if (inlen <= IN_MAX && quick(in, inlen, u, &n, &bits)) {
    if (bidi)
      *bidi = bits;
    return to_ace(u, n, out, outlen);
  }
  zp_status st = u_label(in, inlen, u, &n, det);
  if (st != ZP_OK) {
    /* (a label that maps to an "xn--" label: its detail is about what that decodes to) */
    if (det && !det->decoded[0])
      det->offset = locate(in, inlen, st, det->cp);
    return st;
  }
  if (bidi)
    *bidi = bidi_bits(u, n);
  return to_ace(u, n, out, outlen);
}

unsigned zp_idna2008_ace_bidi(const char *ace, size_t n)
{
  uint32_t u[IN_MAX];
  size_t k = IN_MAX;
  char low[IN_MAX];
  if (n <= 4 || n > IN_MAX)
    return 0;
  for (size_t i = 0; i < n; i++)
    low[i] = (char)(ace[i] >= 'A' && ace[i] <= 'Z' ? ace[i] + 32 : ace[i]);
  if (zp_puny_decode(low + 4, n - 4, u, &k, NULL) != ZP_OK || k == 0)
    return 0;
  return bidi_bits(u, k);
}

zp_status zp_idna2008_label_to_ascii(const char *in, size_t inlen, char *out, size_t *outlen,
                                     unsigned flags, zp_idna_detail *det, unsigned *bidi)
{
  unsigned char hi;
  if (bidi)
    *bidi = 0;
  if (zp_idna_ascii_label(in, inlen, out, outlen, flags, &hi))
    return ZP_OK;
  return label_to_ascii(in, inlen, out, outlen, flags, det, bidi, hi);
}

zp_status zp_idna2008_label_to_unicode(const char *in, size_t inlen, char *out, size_t *outlen,
                                       unsigned flags)
{
  uint32_t u[WORK_MAX];
  size_t n = 0;
  unsigned char hi = 0;
  zp_status st = zp_utf8_validate((const uint8_t *)in, inlen, NULL);
  if (st != ZP_OK)
    return st;
  for (size_t i = 0; i < inlen; i++)
    hi |= (unsigned char)in[i];
  (void)flags;
  bool ok = hi & 0x80 ? u_label(in, inlen, u, &n, NULL) == ZP_OK
                      : zp_idna_is_ace(in, inlen) && ace_label(in, inlen, u, &n, NULL) == ZP_OK;
  if (!ok) {
    if (inlen > *outlen)
      return ZP_EBUFFER;
    memcpy(out, in, inlen);
    *outlen = inlen;
    return ZP_OK;
  }
  return zp_utf8_encode(u, n, (uint8_t *)out, outlen);
}

zp_status zp_idna2008_name_to_ascii(const char *in, size_t inlen, char *out, size_t *outlen,
                                    unsigned flags, zp_idna_detail *det)
{
  return zp_idna_name_walk(in, inlen, out, outlen, flags, det, zp_idna2008_label_to_ascii);
}

zp_status zp_idna2008_name_to_unicode(const char *in, size_t inlen, char *out, size_t *outlen,
                                      unsigned flags)
{
  return zp_idna_name_walk_unicode(in, inlen, out, outlen, flags, zp_idna2008_label_to_unicode);
}
