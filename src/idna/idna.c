/* idna.c -- IDNA2003 ToASCII and ToUnicode (draft-ietf-idn-idna-04 section 4, RFC 3490; ACE prefix "xn--") */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "idna.h"
#include "idna2008.h"
#include "names.h"
#include "nameprep.h"
#include "punycode.h"
#include "utf8.h"

enum {
  ACE_LEN = 4,
  /* Nameprep's output needs up to 18 code points per input code point (U+FDFA), and the input
   * itself one: scratch holds both. Labels up to STACK_IN bytes stay on the stack. */
  PREP_FACTOR = 18,
  STACK_IN = 96,
};

bool zp_idna_is_ldh(uint32_t c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

static int lower(int c)
{
  return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* Section 5: the prefix is recognised in any case. */
bool zp_idna_is_ace(const char *s, size_t n)
{
  return zp_idna_ace_prefix(s, n);
}

/* The same test on code points (step 5 of ToASCII): a non-ASCII code point is no prefix octet. */
static bool ace_prefix_cps(const uint32_t *s, size_t n)
{
  char head[ACE_LEN];
  size_t k = n < ACE_LEN ? n : ACE_LEN;
  for (size_t i = 0; i < k; i++)
    head[i] = s[i] < 0x80 ? (char)s[i] : '\0';
  return zp_idna_is_ace(head, k);
}

static bool eq_nocase(const char *a, size_t an, const char *b, size_t bn)
{
  if (an != bn)
    return false;
  for (size_t i = 0; i < an; i++)
    if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
      return false;
  return true;
}

/* Room for a label of inlen bytes: inlen code points of input and PREP_FACTOR times that for
 * Nameprep. Long labels (rare: a zone label is 63 octets) go to the heap. */
typedef struct scratch {
  uint32_t *cps, *work, *heap;
  size_t cap, wcap;
  uint32_t stack[STACK_IN * (PREP_FACTOR + 1)];
} scratch;

static zp_status scratch_init(scratch *s, size_t inlen)
{
  size_t n = inlen ? inlen : 1;
  s->heap = NULL;
  if (n <= STACK_IN) {
    s->cps = s->stack;
  } else {
    if (n > SIZE_MAX / sizeof(uint32_t) / (PREP_FACTOR + 1))
      return ZP_ELIMIT;
    s->heap = malloc(n * (PREP_FACTOR + 1) * sizeof(uint32_t));
    if (!s->heap)
      return ZP_ENOMEM;
    s->cps = s->heap;
  }
  s->cap = n;
  s->work = s->cps + n;
  s->wcap = n * PREP_FACTOR;
  return ZP_OK;
}

/* Byte offset in the UTF-8 label of the input code point that bad came from: the first (or,
 * from_end, the last) occurrence of bad itself, else the first code point whose own Nameprep
 * output holds bad or is refused for it; 0 if none. Only ever called on a failure. */
static size_t locate(const char *in, size_t inlen, uint32_t bad, bool from_end)
{
  size_t found = SIZE_MAX;
  for (int pass = 0; pass < 2 && found == SIZE_MAX; pass++) {
    for (size_t i = 0; i < inlen;) {
      uint32_t c, m[PREP_FACTOR], why = 0;
      size_t k = 1, n = 1, mn = PREP_FACTOR;
      while (i + k < inlen && ((unsigned char)in[i + k] & 0xC0) == 0x80)
        k++;
      if (zp_utf8_decode((const uint8_t *)in + i, k, &c, &n, NULL) == ZP_OK) {
        bool hit = c == bad;
        if (pass == 1) {
          zp_status st = zp_nameprep(&c, 1, m, &mn, ZP_NAMEPREP_ALLOW_UNASSIGNED, &why);
          hit = st != ZP_OK && why == bad;
          for (size_t j = 0; st == ZP_OK && j < mn; j++)
            hit |= m[j] == bad;
        }
        if (hit) {
          found = i;
          if (!from_end || pass == 1)
            break;
        }
      }
      i += k;
    }
  }
  return found == SIZE_MAX ? 0 : found;
}

/* Step 3 of section 4.1 on s[0..n): only ASCII code points can be non-LDH. */
static zp_status host_rules(const uint32_t *s, size_t n, uint32_t *bad, bool *at_end)
{
  *at_end = false;
  for (size_t i = 0; i < n; i++)
    if (s[i] < 0x80 && !zp_idna_is_ldh(s[i])) {
      *bad = s[i];
      return ZP_IDNA_NOT_LDH;
    }
  if (n && (s[0] == '-' || s[n - 1] == '-')) {
    *bad = '-';
    *at_end = s[0] != '-';
    return ZP_IDNA_HYPHEN;
  }
  return ZP_OK;
}

/* Steps 1-8 of section 4.1 on code points; the ASCII label goes to out[0..63]. On failure
 * *bad names the code point (0 if none) and *at_end says it is the label's last hyphen. */
static zp_status cps_to_ascii(const uint32_t *in, size_t n, scratch *sc, char *out,
                              size_t *outlen, unsigned flags, uint32_t *bad, bool *at_end,
                              bool *encoded)
{
  const uint32_t *s = in;
  size_t m = n, len;
  bool ascii = true;
  zp_status st;

  *bad = 0;
  *at_end = false;
  *encoded = false;
  for (size_t i = 0; i < n; i++)
    ascii &= in[i] < 0x80;
  if (!ascii) {
    m = sc->wcap;
    st = zp_nameprep(in, n, sc->work, &m,
                     flags & ZP_IDNA_ALLOW_UNASSIGNED ? ZP_NAMEPREP_ALLOW_UNASSIGNED : 0, bad);
    if (st != ZP_OK)
      return st;
    s = sc->work;
  }
  if ((flags & ZP_IDNA_USE_STD3) || (!ascii && (flags & ZP_IDNA_STD3_NON_ASCII))) {
    st = host_rules(s, m, bad, at_end);
    if (st != ZP_OK)
      return st;
  }
  ascii = true;
  for (size_t i = 0; i < m; i++)
    ascii &= s[i] < 0x80;
  if (ascii) {
    if (m > ZP_LABEL_MAX)
      return ZP_IDNA_TOO_LONG;
    for (size_t i = 0; i < m; i++)
      out[i] = (char)s[i];
    len = m;
  } else {
    if (ace_prefix_cps(s, m))
      return ZP_IDNA_ACE_PREFIX;
    len = ZP_LABEL_MAX - ACE_LEN;
    st = zp_puny_encode(s, m, NULL, out + ACE_LEN, &len);
    if (st == ZP_EBUFFER)
      return ZP_IDNA_TOO_LONG;
    if (st != ZP_OK)
      return st;
    memcpy(out, "xn--", ACE_LEN);
    len += ACE_LEN;
    *encoded = true;
  }
  if (len == 0)
    return ZP_IDNA_EMPTY;
  *outlen = len;
  return ZP_OK;
}

/* Statuses that name a code point in zp_idna_detail. */
static bool names_cp(zp_status st)
{
  return st == ZP_IDNA_PROHIBITED || st == ZP_IDNA_UNASSIGNED || st == ZP_IDNA_BIDI_MIXED ||
         st == ZP_IDNA_BIDI_ENDS || st == ZP_IDNA_NOT_LDH || st == ZP_IDNA_HYPHEN;
}

static void set_detail(zp_idna_detail *det, uint32_t cp, size_t offset)
{
  if (det) {
    det->cp = cp;
    det->offset = offset;
    det->label_len = 0;
  }
}

/* UTF-8 of s[0..n) into dst (cap bytes with the NUL), cut at a code point boundary. */
static void put_decoded(char *dst, size_t cap, const uint32_t *s, size_t n)
{
  size_t w = 0;
  for (size_t i = 0; i < n; i++) {
    uint8_t b[4];
    size_t k = sizeof b;
    if (zp_utf8_encode(&s[i], 1, b, &k) != ZP_OK || w + k >= cap)
      break;
    memcpy(dst + w, b, k);
    w += k;
  }
  dst[w] = 0;
}

void zp_idna_ace_decoded(zp_idna_detail *det, const uint32_t *s, size_t n)
{
  if (det)
    put_decoded(det->decoded, sizeof det->decoded, s, n);
}

static zp_status ace_check(const char *label, size_t len, unsigned flags, zp_idna_detail *det,
                           scratch *sc)
{
  char canon[ZP_LABEL_MAX];
  size_t n = sc->cap, clen = 0;
  uint32_t bad = 0;
  bool at_end = false, encoded;
  zp_status st;

  if (det)
    det->decoded[0] = 0;
  set_detail(det, 0, 0);
  if (!zp_idna_is_ace(label, len))
    return ZP_EINVAL;
  if (zp_puny_decode(label + ACE_LEN, len - ACE_LEN, sc->cps, &n, NULL) != ZP_OK)
    return ZP_IDNA_ACE_DECODE;
  zp_idna_ace_decoded(det, sc->cps, n);
  bool ascii = true;
  for (size_t i = 0; i < n; i++)
    ascii &= sc->cps[i] < 0x80;
  if (ascii)
    return ZP_IDNA_ACE_ASCII;
  st = cps_to_ascii(sc->cps, n, sc, canon, &clen, flags, &bad, &at_end, &encoded);
  if (st != ZP_OK) {
    if (det)
      set_detail(det, bad, names_cp(st) ? locate(det->decoded, strlen(det->decoded), bad, at_end)
                                        : 0);
    return st;
  }
  return eq_nocase(canon, clen, label, len) ? ZP_OK : ZP_IDNA_ACE_NOT_CANONICAL;
}

zp_status zp_idna_ace_check(const char *label, size_t len, unsigned flags, zp_idna_detail *det)
{
  /* Refused before decoding: Punycode decoding inserts, so its time grows with the square of
   * the label, and a hostile zone can write a label of megabytes (bench/bench_adversarial.c). */
  if (len > ZP_LABEL_MAX)
    return ZP_IDNA_TOO_LONG;
  scratch sc;
  zp_status st = scratch_init(&sc, len);
  if (st != ZP_OK)
    return st;
  st = ace_check(label, len, flags, det, &sc);
  free(sc.heap);
  return st;
}

static zp_status label_to_ascii_slow(const char *in, size_t inlen, char *out, size_t *outlen,
                                     unsigned flags, zp_idna_detail *det)
{
  char res[ZP_LABEL_MAX];
  size_t n, len = 0, off = 0;
  uint32_t bad = 0;
  bool at_end = false, encoded;
  scratch sc;
  /* A full label's worth at least: the ACE check below decodes what Nameprep made. */
  zp_status st = scratch_init(&sc, inlen > ZP_LABEL_MAX ? inlen : ZP_LABEL_MAX);
  if (st != ZP_OK)
    return st;
  n = sc.cap;
  st = zp_utf8_decode((const uint8_t *)in, inlen, sc.cps, &n, &off);
  if (st != ZP_OK) {
    set_detail(det, 0, off);
    goto out;
  }
  st = cps_to_ascii(sc.cps, n, &sc, res, &len, flags, &bad, &at_end, &encoded);
  if (st != ZP_OK) {
    set_detail(det, bad, names_cp(st) ? locate(in, inlen, bad, at_end) : 0);
    goto out;
  }
  /* Nameprep can turn text into an "xn--" label (fullwidth letters, say): it gets the same
   * check as one written in ASCII, lest it slip an invalid ACE label past. */
  if ((flags & ZP_IDNA_CHECK_ACE) && !encoded && zp_idna_is_ace(res, len)) {
    st = ace_check(res, len, flags & ~ZP_IDNA_CHECK_ACE, det, &sc);
    if (st != ZP_OK)
      goto out;
  }
  if (len > *outlen) {
    st = ZP_EBUFFER;
    goto out;
  }
  memcpy(out, res, len);
  *outlen = len;
out:
  free(sc.heap);
  return st;
}

zp_status zp_idna_label_to_ascii(const char *in, size_t inlen, char *out, size_t *outlen,
                                 unsigned flags, zp_idna_detail *det)
{
  size_t i;
  unsigned char hi;
  if (zp_idna_ascii_label(in, inlen, out, outlen, flags, &hi))
    return ZP_OK;
  if (det)
    det->decoded[0] = 0;
  if (hi & 0x80)
    return label_to_ascii_slow(in, inlen, out, outlen, flags, det);

  /* Section 4.1 step 1: an ASCII label skips Nameprep and goes straight to step 3. */
  if (flags & ZP_IDNA_USE_STD3) {
    for (i = 0; i < inlen; i++)
      if (!zp_idna_is_ldh((unsigned char)in[i])) {
        set_detail(det, (unsigned char)in[i], i);
        return ZP_IDNA_NOT_LDH;
      }
    if (inlen && (in[0] == '-' || in[inlen - 1] == '-')) {
      set_detail(det, '-', in[0] == '-' ? 0 : inlen - 1);
      return ZP_IDNA_HYPHEN;
    }
  }
  if (inlen == 0)
    return ZP_IDNA_EMPTY;
  if (inlen > ZP_LABEL_MAX)
    return ZP_IDNA_TOO_LONG;
  if ((flags & ZP_IDNA_CHECK_ACE) && zp_idna_is_ace(in, inlen)) {
    zp_status st = zp_idna_ace_check(in, inlen, flags & ~ZP_IDNA_CHECK_ACE, det);
    if (st != ZP_OK)
      return st;
  }
  if (inlen > *outlen)
    return ZP_EBUFFER;
  memcpy(out, in, inlen);
  *outlen = inlen;
  return ZP_OK;
}

/* Section 4.2 on a label that is valid UTF-8. Returns false where the text says "the original
 * input sequence is returned"; otherwise the decoded code points are in sc->cps[0..*n). */
static bool to_unicode_steps(const char *in, size_t inlen, bool ascii, unsigned flags,
                             scratch *sc, size_t *n)
{
  char ace[ZP_LABEL_MAX], canon[ZP_LABEL_MAX];
  const char *seq = in;
  size_t seqlen = inlen, m, clen = 0;
  uint32_t bad;
  bool at_end, encoded;

  if (!ascii) {
    size_t k = sc->cap;
    if (zp_utf8_decode((const uint8_t *)in, inlen, sc->cps, &k, NULL) != ZP_OK)
      return false;
    m = sc->wcap;
    if (zp_nameprep(sc->cps, k, sc->work, &m,
                    flags & ZP_IDNA_ALLOW_UNASSIGNED ? ZP_NAMEPREP_ALLOW_UNASSIGNED : 0,
                    &bad) != ZP_OK)
      return false;
    /* Only an all-ASCII result of at most 63 code points can pass step 7. */
    if (m > sizeof ace)
      return false;
    for (size_t i = 0; i < m; i++) {
      if (sc->work[i] >= 0x80)
        return false;
      ace[i] = (char)sc->work[i];
    }
    seq = ace;
    seqlen = m;
  }
  if (!zp_idna_is_ace(seq, seqlen) || seqlen > ZP_LABEL_MAX)
    return false;
  *n = sc->cap;
  if (zp_puny_decode(seq + ACE_LEN, seqlen - ACE_LEN, sc->cps, n, NULL) != ZP_OK)
    return false;
  if (cps_to_ascii(sc->cps, *n, sc, canon, &clen, flags, &bad, &at_end, &encoded) != ZP_OK)
    return false;
  return eq_nocase(canon, clen, seq, seqlen);
}

zp_status zp_idna_label_to_unicode(const char *in, size_t inlen, char *out, size_t *outlen,
                                   unsigned flags)
{
  size_t i, n = 0;
  unsigned char hi = 0;
  scratch sc;
  zp_status st;

  for (i = 0; i < inlen; i++)
    hi |= (unsigned char)in[i];
  if (hi & 0x80) {
    st = zp_utf8_validate((const uint8_t *)in, inlen, NULL);
    if (st != ZP_OK)
      return st;
  } else if (!zp_idna_is_ace(in, inlen)) {
    goto copy;
  }
  /* At least a full label's worth, as Nameprep may lengthen the input before decoding. */
  st = scratch_init(&sc, inlen > ZP_LABEL_MAX ? inlen : ZP_LABEL_MAX);
  if (st != ZP_OK)
    return st;
  if (to_unicode_steps(in, inlen, !(hi & 0x80), flags, &sc, &n)) {
    size_t cap = *outlen;
    st = zp_utf8_encode(sc.cps, n, (uint8_t *)out, &cap);
    if (st == ZP_OK)
      *outlen = cap;
    free(sc.heap);
    return st;
  }
  free(sc.heap);
copy:
  if (inlen > *outlen)
    return ZP_EBUFFER;
  memcpy(out, in, inlen);
  *outlen = inlen;
  return ZP_OK;
}

/* IDNA2003's converter as a walker's: no Bidi rule across labels (RFC 3491 has its own, per
 * label). */
static zp_status label_2003(const char *in, size_t inlen, char *out, size_t *outlen,
                            unsigned flags, zp_idna_detail *det, unsigned *bidi)
{
  *bidi = 0;
  return zp_idna_label_to_ascii(in, inlen, out, outlen, flags, det);
}

zp_status zp_idna_name_to_ascii(const char *in, size_t inlen, char *out, size_t *outlen,
                                unsigned flags, zp_idna_detail *det)
{
  return zp_idna_name_walk(in, inlen, out, outlen, flags, det, label_2003);
}

zp_status zp_idna_name_to_unicode(const char *in, size_t inlen, char *out, size_t *outlen,
                                  unsigned flags)
{
  return zp_idna_name_walk_unicode(in, inlen, out, outlen, flags, zp_idna_label_to_unicode);
}
