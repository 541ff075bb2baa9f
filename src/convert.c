/* convert.c -- the label policy: ASCII pass-through, ACE checks, ToASCII for UTF-8 labels */
#include "convert.h"

#include <stdio.h>
#include <string.h>

#include "explain.h"
#include "idna.h"
#include "idna2008.h"
#include "utf8.h"

/* Flags of every IDNA call here: the host-name rules apply to non-ASCII labels always. */
enum { FLAGS = ZP_IDNA_STD3_NON_ASCII };

static uint8_t lower(uint8_t c)
{
  return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

static zp_status refuse(zp_status st, const uint8_t *in, size_t inlen, const zp_idna_detail *det,
                        char *msg, size_t cap)
{
  zp_explain_label(st, in, inlen, det, FLAGS, msg, cap);
  return st;
}

/* A label's hash, ASCII case folded in. */
static uint32_t label_hash(const uint8_t *in, size_t inlen)
{
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < inlen; i++)
    h = (h ^ lower(in[i])) * 16777619u;
  return h;
}

/* The cache's slot for in[0..inlen) (ASCII case folded into the hash, not the comparison). */
static zp_label_seen *slot(zp_label_cache *c, const uint8_t *in, size_t inlen)
{
  return &c->seen[label_hash(in, inlen) & 255];
}

static bool hit(const zp_label_seen *e, const uint8_t *in, size_t inlen)
{
  return e->len == inlen && memcmp(e->label, in, inlen) == 0;
}

/* e for the non-ASCII label in[0..inlen) whose ACE form is ace[0..acelen): whether IDNA keeps it
 * (ToUnicode of the ACE form is the label, ASCII case aside). */
static void remember(const zp_convert *c, zp_label_seen *e, const uint8_t *in, size_t inlen,
                     const uint8_t *ace, size_t acelen)
{
  char back[4 * ZP_LABEL_MAX + 1];
  size_t backlen = sizeof back;
  e->len = (uint8_t)inlen;
  e->ace_len = (uint8_t)acelen;
  memcpy(e->label, in, inlen);
  memcpy(e->ace, ace, acelen);
  e->kept = (c->idna2008 ? zp_idna2008_label_to_unicode : zp_idna_label_to_unicode)(
                (const char *)ace, acelen, back, &backlen, FLAGS) == ZP_OK &&
            backlen == inlen;
  for (size_t i = 0; e->kept && i < inlen; i++)
    e->kept = (uint8_t)back[i] == lower(in[i]);
}

static zp_status non_ascii(zp_convert *c, const uint8_t *in, size_t inlen, uint8_t *out,
                           size_t *outlen, char *msg, size_t cap)
{
  zp_label_seen *e = NULL;
  if (c && c->cache && inlen <= sizeof e->label) {
    e = slot(c->cache, in, inlen);
    if (hit(e, in, inlen) && *outlen >= e->ace_len) {
      memcpy(out, e->ace, e->ace_len);
      *outlen = e->ace_len;
      c->mapped |= !e->kept;
      return ZP_OK;
    }
  }
  zp_idna_detail det;
  memset(&det, 0, sizeof det);
  zp_status st = zp_utf8_validate(in, inlen, NULL);
  if (st == ZP_OK && c && c->idna2008)
    st = zp_idna2008_label_to_ascii((const char *)in, inlen, (char *)out, outlen,
                                    FLAGS | ZP_IDNA_CHECK_ACE, &det, NULL);
  else if (st == ZP_OK)
    st = zp_idna_label_to_ascii((const char *)in, inlen, (char *)out, outlen,
                                FLAGS | ZP_IDNA_CHECK_ACE, &det);
  if (st != ZP_OK)
    return refuse(st, in, inlen, &det, msg, cap);
  if (e) {
    remember(c, e, in, inlen, out, *outlen);
    c->mapped |= !e->kept;
  }
  return ZP_OK;
}

/* RFC 1123 host names, as IDNA's UseSTD3ASCIIRules states them. */
static zp_status std3(const uint8_t *in, size_t inlen)
{
  for (size_t i = 0; i < inlen; i++)
    if (!zp_idna_is_ldh(in[i]))
      return ZP_IDNA_NOT_LDH;
  if (inlen > 0 && (in[0] == '-' || in[inlen - 1] == '-'))
    return ZP_IDNA_HYPHEN;
  return ZP_OK;
}

zp_status zp_convert_label(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out,
                           size_t *outlen, char *msg, size_t msgcap)
{
  zp_convert *c = ctx;
  bool keep = c && c->keep_case, fits = inlen <= ZP_LABEL_MAX && inlen <= *outlen;
  /* ASCII, the common case, is copied (lowercased) as it is looked at */
  for (size_t i = 0; i < inlen; i++) {
    if (in[i] >= 0x80)
      return non_ascii(c, in, inlen, out, outlen, msg, msgcap);
    if (fits)
      out[i] = keep ? in[i] : lower(in[i]);
  }
  /* the detail of a failure is only filled in by the ACE check (it is large: not zeroed for
   * every label) */
  zp_idna_detail det;
  bool ace = zp_idna_is_ace((const char *)in, inlen);
  zp_status st = ZP_OK;
  if (ace) {
    memset(&det, 0, sizeof det);
    char back[ZP_LABEL_MAX];
    size_t blen = sizeof back;
    st = c && c->idna2008
             ? zp_idna2008_label_to_ascii((const char *)in, inlen, back, &blen,
                                          FLAGS | ZP_IDNA_CHECK_ACE, &det, NULL)
             : zp_idna_ace_check((const char *)in, inlen, FLAGS, &det);
  } else if (c && c->std3) {
    st = std3(in, inlen);
  }
  if (st == ZP_OK && !fits)
    st = ZP_IDNA_TOO_LONG;
  if (st != ZP_OK) {
    if (!ace)
      memset(&det, 0, sizeof det);
    return refuse(st, in, inlen, &det, msg, msgcap);
  }
  *outlen = inlen;
  return ZP_OK;
}

/* A non-ASCII label is the same name before and after ToASCII when ToUnicode gives it back:
 * "münchen" is "xn--mnchen-3ya" whichever is written, while "straße" (ss), "BÜCHER" (case) or
 * fullwidth letters are spellings that ToASCII maps onto another label's name. Such a label is
 * kept as written, ASCII case and all, for messages; spellings are compared ignoring it. */
static zp_status spell_label(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out,
                             size_t *outlen, char *msg, size_t msgcap)
{
  const zp_convert *c = ctx;
  zp_convert plain = {.cache = c->cache, .idna2008 = c->idna2008};
  bool high = false;
  for (size_t i = 0; i < inlen; i++)
    high |= in[i] >= 0x80;
  zp_status st = zp_convert_label(&plain, in, inlen, out, outlen, msg, msgcap);
  if (st != ZP_OK || !high || !plain.mapped)
    return st;
  /* the label as written; past 63 octets only its start, cut at a character */
  size_t n = inlen <= ZP_LABEL_MAX ? inlen : ZP_LABEL_MAX;
  while (n < inlen && n > 0 && (in[n] & 0xC0) == 0x80)
    n--;
  memcpy(out, in, n);
  *outlen = n;
  return ZP_OK;
}

zp_label_conv zp_convert_spelling(zp_convert *c)
{
  return (zp_label_conv){spell_label, c, NULL};
}

/* The Bidi bits of the ACE label a[0..n) (valid: every label of a converted name is). */
static unsigned ace_bidi(zp_convert *c, const uint8_t *a, size_t n)
{
  zp_ace_bidi *e = NULL;
  if (c->cache) {
    e = &c->cache->bidi[(uint8_t)(label_hash(a, n))];
    if (e->len == n && memcmp(e->ace, a, n) == 0)
      return e->bits;
  }
  char tmp[ZP_LABEL_MAX];
  size_t tlen = sizeof tmp;
  unsigned bits = 0;
  if (zp_idna2008_label_to_ascii((const char *)a, n, tmp, &tlen, FLAGS | ZP_IDNA_CHECK_ACE, NULL,
                                 &bits) != ZP_OK)
    bits = 0;
  if (e) {
    e->len = (uint8_t)n;
    e->bits = (uint8_t)bits;
    memcpy(e->ace, a, n);
  }
  return bits;
}

/* RFC 5893 across the labels of wire: when one holds a right-to-left code point, each that is
 * not plain ASCII (its ACE form) must keep the Bidi rule. */
static zp_status name_bidi(void *ctx, const uint8_t *wire, char *msg, size_t cap)
{
  zp_convert *c = ctx;
  unsigned rtl = 0;
  const uint8_t *broken = NULL;
  for (const uint8_t *p = wire; *p; p += *p + 1) {
    if (!zp_idna_is_ace((const char *)p + 1, *p))
      continue;
    unsigned bits = ace_bidi(c, p + 1, *p);
    rtl |= bits & ZP_IDNA_BIDI_RTL;
    if ((bits & ZP_IDNA_BIDI_BROKEN) && !broken)
      broken = p;
  }
  if (!rtl || !broken)
    return ZP_OK;
  char u[4 * ZP_LABEL_MAX];
  size_t ulen = sizeof u;
  if (zp_idna2008_label_to_unicode((const char *)broken + 1, *broken, u, &ulen, FLAGS) != ZP_OK)
    ulen = 0;
  snprintf(msg, cap, "label \"%.*s\" (%.*s) breaks the Bidi rule of a name with right-to-left "
           "labels (RFC 5893 section 2)", (int)ulen, u, (int)*broken, (const char *)broken + 1);
  return ZP_IDNA_BIDI_RULE;
}

zp_label_conv zp_convert_policy(zp_convert *c)
{
  return (zp_label_conv){zp_convert_label, c, c->idna2008 ? name_bidi : NULL};
}
