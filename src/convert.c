/* convert.c -- the label policy: ASCII pass-through, ACE checks, ToASCII for UTF-8 labels */
#include "convert.h"

#include <string.h>

#include "explain.h"
#include "idna.h"
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

static zp_status non_ascii(const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen,
                           char *msg, size_t cap)
{
  zp_idna_detail det;
  memset(&det, 0, sizeof det);
  zp_status st = zp_utf8_validate(in, inlen, NULL);
  if (st == ZP_OK)
    st = zp_idna_label_to_ascii((const char *)in, inlen, (char *)out, outlen,
                                FLAGS | ZP_IDNA_CHECK_ACE, &det);
  return st == ZP_OK ? ZP_OK : refuse(st, in, inlen, &det, msg, cap);
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
  const zp_convert *c = ctx;
  bool keep = c && c->keep_case, fits = inlen <= ZP_LABEL_MAX && inlen <= *outlen;
  /* ASCII, the common case, is copied (lowercased) as it is looked at */
  for (size_t i = 0; i < inlen; i++) {
    if (in[i] >= 0x80)
      return non_ascii(in, inlen, out, outlen, msg, msgcap);
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
    st = zp_idna_ace_check((const char *)in, inlen, FLAGS, &det);
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
/* e for the non-ASCII label in[0..inlen): its ACE form, and whether IDNA keeps it (ToUnicode
 * of the ACE form is the label, ASCII case aside). false when ToASCII refuses the label (the
 * conversion itself reports that). */
static bool spell(zp_spelled *e, const uint8_t *in, size_t inlen)
{
  char back[4 * ZP_LABEL_MAX + 1];
  size_t acelen = sizeof e->ace, backlen = sizeof back;
  e->len = 0;
  if (zp_idna_label_to_ascii((const char *)in, inlen, (char *)e->ace, &acelen, FLAGS, NULL) !=
      ZP_OK)
    return false;
  e->len = (uint8_t)inlen;
  e->ace_len = (uint8_t)acelen;
  memcpy(e->label, in, inlen);
  e->kept = zp_idna_label_to_unicode((const char *)e->ace, acelen, back, &backlen, FLAGS) ==
                ZP_OK && backlen == inlen;
  for (size_t i = 0; e->kept && i < inlen; i++)
    e->kept = (uint8_t)back[i] == lower(in[i]);
  return true;
}

static zp_status spell_label(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out,
                             size_t *outlen, char *msg, size_t msgcap)
{
  zp_spelling *sp = ctx;
  bool high = false;
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < inlen; i++) {
    high |= in[i] >= 0x80;
    h = (h ^ lower(in[i])) * 16777619u;
  }
  zp_spelled *e = &sp->seen[h & 255];
  if (high && inlen <= sizeof e->label &&
      ((e->len == inlen && memcmp(e->label, in, inlen) == 0) || spell(e, in, inlen))) {
    if (e->kept) {
      memcpy(out, e->ace, e->ace_len);
      *outlen = e->ace_len;
    } else {
      /* the label as written; past 63 octets only its start, cut at a character */
      size_t n = inlen <= ZP_LABEL_MAX ? inlen : ZP_LABEL_MAX;
      while (n < inlen && n > 0 && (in[n] & 0xC0) == 0x80)
        n--;
      memcpy(out, in, n);
      *outlen = n;
    }
    return ZP_OK;
  }
  zp_convert plain = {0};
  return zp_convert_label(&plain, in, inlen, out, outlen, msg, msgcap);
}

zp_label_conv zp_convert_spelling(zp_spelling *s)
{
  return (zp_label_conv){spell_label, s};
}

zp_label_conv zp_convert_policy(zp_convert *c)
{
  return (zp_label_conv){zp_convert_label, c};
}
