/* convert.c -- the label policy: ASCII pass-through, ACE checks, ToASCII for UTF-8 labels */
#include "convert.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "idna.h"
#include "utf8.h"

enum { SHOW_MAX = 4 * 255 + 1 };

/* A label as a message shows it: UTF-8 as it is (when the whole label is valid UTF-8), the
 * rest of the control, quote and non-UTF-8 octets as \DDD the way a zone file writes them. */
static void show(const uint8_t *in, size_t len, char *out)
{
  size_t off;
  bool utf8 = zp_utf8_validate(in, len, &off) == ZP_OK;
  size_t k = 0;
  for (size_t i = 0; i < len; i++) {
    uint8_t c = in[i];
    if (c < 0x20 || c == 0x7F || c == '"' || c == '\\' || (c >= 0x80 && !utf8))
      k += (size_t)sprintf(out + k, "\\%03u", c);
    else
      out[k++] = (char)c;
  }
  out[k] = '\0';
}

ZP_PRINTF(4, 5) static zp_status fail(zp_status st, char *msg, size_t cap, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, cap, fmt, ap);
  va_end(ap);
  return st;
}

static uint8_t lower(uint8_t c)
{
  return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* Why ToASCII refused a label, in the words of the rule it broke: the end of a sentence that
 * starts with the label. */
static void why(zp_status st, const zp_idna_detail *det, char *out, size_t cap)
{
  unsigned cp = det->cp;
  switch (st) {
  case ZP_IDNA_PROHIBITED:
    snprintf(out, cap, "contains U+%04X, prohibited by Nameprep (RFC 3491 section 5)", cp);
    break;
  case ZP_IDNA_UNASSIGNED:
    snprintf(out, cap, "contains U+%04X, unassigned in Unicode 3.2 (RFC 3454 table A.1)", cp);
    break;
  case ZP_IDNA_BIDI_MIXED:
    snprintf(out, cap, "breaks the bidi rule: it mixes left-to-right and right-to-left "
             "characters, at U+%04X (RFC 3454 section 6)", cp);
    break;
  case ZP_IDNA_BIDI_ENDS:
    snprintf(out, cap, "breaks the bidi rule: a right-to-left label must start and end with a "
             "right-to-left character, not U+%04X (RFC 3454 section 6)", cp);
    break;
  case ZP_IDNA_NOT_LDH:
    snprintf(out, cap, "contains U+%04X after Nameprep, which is not a letter, digit or hyphen",
             cp);
    break;
  case ZP_IDNA_HYPHEN:
    snprintf(out, cap, "starts or ends with a hyphen");
    break;
  case ZP_IDNA_ACE_PREFIX:
    snprintf(out, cap, "starts with the ACE prefix \"xn--\" after Nameprep");
    break;
  case ZP_IDNA_EMPTY:
    snprintf(out, cap, "is empty after Nameprep");
    break;
  case ZP_IDNA_TOO_LONG:
    snprintf(out, cap, "is longer than 63 octets after ToASCII");
    break;
  case ZP_IDNA_ACE_DECODE:
  case ZP_IDNA_ACE_ASCII:
  case ZP_IDNA_ACE_NOT_CANONICAL:
    /* e.g. fullwidth letters that Nameprep folds into an "xn--" label */
    snprintf(out, cap, "becomes an ACE label after Nameprep, and it is refused: %s",
             zp_strerror(st));
    break;
  default:
    snprintf(out, cap, "is refused by ToASCII: %s", zp_strerror(st));
    break;
  }
}

static zp_status non_ascii(const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen,
                           char *msg, size_t cap)
{
  char label[SHOW_MAX];
  size_t off = 0;
  zp_status st = zp_utf8_validate(in, inlen, &off);
  if (st != ZP_OK) {
    show(in, inlen, label);
    return fail(st, msg, cap, "label \"%s\" is not valid UTF-8: %s at octet %zu", label,
                zp_strerror(st), off + 1);
  }
  zp_idna_detail det;
  memset(&det, 0, sizeof det);
  st = zp_idna_label_to_ascii((const char *)in, inlen, (char *)out, outlen,
                              ZP_IDNA_STD3_NON_ASCII | ZP_IDNA_CHECK_ACE, &det);
  if (st == ZP_OK)
    return ZP_OK;
  char reason[256];
  show(in, inlen, label);
  why(st, &det, reason, sizeof reason);
  return fail(st, msg, cap, "label \"%s\" %s", label, reason);
}

static zp_status ace(const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen, char *msg,
                     size_t cap)
{
  char label[SHOW_MAX];
  zp_idna_detail det;
  memset(&det, 0, sizeof det);
  zp_status st = zp_idna_ace_check((const char *)in, inlen, ZP_IDNA_STD3_NON_ASCII, &det);
  if (st == ZP_OK) {
    if (inlen > ZP_LABEL_MAX || inlen > *outlen) {
      show(in, inlen, label);
      return fail(ZP_IDNA_TOO_LONG, msg, cap, "label \"%s\" is longer than 63 octets", label);
    }
    for (size_t i = 0; i < inlen; i++)
      out[i] = lower(in[i]);
    *outlen = inlen;
    return ZP_OK;
  }
  char decoded[SHOW_MAX], reason[256];
  show(in, inlen, label);
  show((const uint8_t *)det.decoded, strnlen(det.decoded, sizeof det.decoded), decoded);
  switch (st) {
  case ZP_IDNA_ACE_DECODE:
    return fail(st, msg, cap, "label \"%s\" is an ACE label that does not decode as Punycode",
                label);
  case ZP_IDNA_ACE_ASCII:
    return fail(st, msg, cap, "label \"%s\" is an ACE label that decodes to pure ASCII \"%s\"",
                label, decoded);
  case ZP_IDNA_ACE_NOT_CANONICAL: {
    char canon[ZP_IDNA_LABEL_MAX + 1];
    size_t clen = ZP_IDNA_LABEL_MAX;
    if (zp_idna_label_to_ascii(det.decoded, strnlen(det.decoded, sizeof det.decoded), canon,
                               &clen, ZP_IDNA_STD3_NON_ASCII, NULL) != ZP_OK)
      clen = 0;
    canon[clen] = '\0';
    return fail(st, msg, cap, "label \"%s\" is not the canonical ACE form of \"%s\" "
                "(ToASCII gives \"%s\")", label, decoded, canon);
  }
  default:
    why(st, &det, reason, sizeof reason);
    return fail(st, msg, cap, "ACE label \"%s\" decodes to \"%s\", which %s", label, decoded,
                reason);
  }
}

/* RFC 1123 host names, as IDNA's UseSTD3ASCIIRules states them. */
static zp_status std3(const uint8_t *in, size_t inlen, char *msg, size_t cap)
{
  char label[SHOW_MAX];
  for (size_t i = 0; i < inlen; i++) {
    uint8_t c = in[i];
    bool ldh = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-';
    if (!ldh) {
      show(in, inlen, label);
      return fail(ZP_IDNA_NOT_LDH, msg, cap, "label \"%s\" contains U+%04X, which is not a letter, digit or hyphen (--std3)", label, c);
    }
  }
  if (inlen > 0 && (in[0] == '-' || in[inlen - 1] == '-')) {
    show(in, inlen, label);
    return fail(ZP_IDNA_HYPHEN, msg, cap, "label \"%s\" %s with a hyphen (--std3)", label,
                in[0] == '-' ? "starts" : "ends");
  }
  return ZP_OK;
}

zp_status zp_convert_label(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out,
                           size_t *outlen, char *msg, size_t msgcap)
{
  const zp_convert *c = ctx;
  for (size_t i = 0; i < inlen; i++)
    if (in[i] >= 0x80)
      return non_ascii(in, inlen, out, outlen, msg, msgcap);
  if (inlen >= 4 && lower(in[0]) == 'x' && lower(in[1]) == 'n' && in[2] == '-' && in[3] == '-')
    return ace(in, inlen, out, outlen, msg, msgcap);
  if (c && c->std3) {
    zp_status st = std3(in, inlen, msg, msgcap);
    if (st != ZP_OK)
      return st;
  }
  if (inlen > ZP_LABEL_MAX || inlen > *outlen) {
    char label[SHOW_MAX];
    show(in, inlen, label);
    return fail(ZP_IDNA_TOO_LONG, msg, msgcap, "label \"%s\" is longer than 63 octets", label);
  }
  for (size_t i = 0; i < inlen; i++)
    out[i] = lower(in[i]);
  *outlen = inlen;
  return ZP_OK;
}

zp_label_conv zp_convert_policy(zp_convert *c)
{
  return (zp_label_conv){zp_convert_label, c};
}
