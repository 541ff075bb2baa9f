/* explain.c -- why a label is refused: the rule it breaks, the code point, the RFC */
#include "explain.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "idna/idna2008.h"
#include "idna/utf8.h"

enum { SHOW_MAX = 4 * 4 * ZP_LABEL_MAX + 1 };   /* a raw label of up to 4 * 63 octets, shown */

size_t zp_explain_show(const uint8_t *in, size_t len, char *out, size_t cap)
{
  bool utf8 = zp_utf8_validate(in, len, NULL) == ZP_OK;
  size_t k = 0;
  for (size_t i = 0; i < len && k + 5 <= cap; i++) {
    uint8_t c = in[i];
    if (c < 0x20 || c == 0x7F || c == '"' || c == '\\' || (c >= 0x80 && !utf8))
      k += (size_t)snprintf(out + k, cap - k, "\\%03u", c);
    else
      out[k++] = (char)c;
  }
  if (cap > 0)
    out[k < cap ? k : cap - 1] = '\0';
  return k;
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
    snprintf(out, cap, "is empty once mapped: IDNA maps every code point in it to nothing");
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
  case ZP_IDNA_DISALLOWED:
    snprintf(out, cap, "contains U+%04X, which IDNA2008 disallows (RFC 5892)", cp);
    break;
  case ZP_IDNA_NV8:
    snprintf(out, cap, "contains U+%04X, a symbol UTS #46 keeps but IDNA2008 disallows "
             "(RFC 5892; NV8)", cp);
    break;
  case ZP_IDNA_UNASSIGNED_15:
    snprintf(out, cap, "contains U+%04X, unassigned in Unicode 15.0 (RFC 5892)", cp);
    break;
  case ZP_IDNA_LEADING_MARK:
    snprintf(out, cap, "starts with the combining mark U+%04X (RFC 5891 section 5.4)", cp);
    break;
  case ZP_IDNA_HYPHEN_34:
    snprintf(out, cap, "has hyphens in its third and fourth places (RFC 5891 section 4.2.3.1)");
    break;
  case ZP_IDNA_CONTEXTJ:
    snprintf(out, cap, "contains U+%04X where its rule does not allow it (RFC 5892 appendix "
             "A.1, A.2: a joiner after a virama, a non-joiner between joining letters)", cp);
    break;
  case ZP_IDNA_CONTEXTO:
    snprintf(out, cap, "contains U+%04X where its rule does not allow it (RFC 5892 appendix "
             "A.3-A.9)", cp);
    break;
  case ZP_IDNA_BIDI_RULE:
    snprintf(out, cap, "breaks the Bidi rule of a name with right-to-left labels (RFC 5893 "
             "section 2)");
    break;
  case ZP_IDNA_DOT:
    snprintf(out, cap, "contains a code point that IDNA maps to a full stop, which would split "
             "the label (UTS #46 section 4)");
    break;
  default:
    snprintf(out, cap, "is refused by ToASCII: %s", zp_strerror(st));
    break;
  }
}

/* What a label that starts with "xn--" does wrong: it fails the ACE check, or what it decodes
 * to breaks a rule. */
static void ace(zp_status st, const zp_idna_detail *det, unsigned flags, char *out, size_t cap)
{
  char decoded[SHOW_MAX], reason[256];
  zp_explain_show((const uint8_t *)det->decoded, strnlen(det->decoded, sizeof det->decoded),
                  decoded, sizeof decoded);
  switch (st) {
  case ZP_IDNA_ACE_DECODE:
    snprintf(out, cap, "is an ACE label that does not decode as Punycode");
    return;
  case ZP_IDNA_ACE_ASCII:
    snprintf(out, cap, "is an ACE label that decodes to pure ASCII \"%s\"", decoded);
    return;
  case ZP_IDNA_ACE_NOT_CANONICAL: {
    char canon[ZP_LABEL_MAX + 1];
    size_t clen = ZP_LABEL_MAX;
    const char *d = det->decoded;
    unsigned f = flags & ~(ZP_IDNA_CHECK_ACE | ZP_IDNA_2008);
    if ((flags & ZP_IDNA_2008 ? zp_idna2008_label_to_ascii(d, strnlen(d, sizeof det->decoded),
                                                           canon, &clen, f, NULL, NULL)
                              : zp_idna_label_to_ascii(d, strnlen(d, sizeof det->decoded), canon,
                                                       &clen, f, NULL)) != ZP_OK)
      clen = 0;
    canon[clen] = '\0';
    snprintf(out, cap, "is not the canonical ACE form of \"%s\" (ToASCII gives \"%s\")", decoded,
             canon);
    return;
  }
  default:
    why(st, det, reason, sizeof reason);
    snprintf(out, cap, "is an ACE label that decodes to \"%s\", which %s", decoded, reason);
    return;
  }
}

/* What an ASCII label does wrong: it breaks the host-name rules of --std3 (RFC 1123 as IDNA's
 * UseSTD3ASCIIRules states them) or is too long. */
static void ascii(zp_status st, const uint8_t *in, size_t len, char *out, size_t cap)
{
  size_t i = 0;
  switch (st) {
  case ZP_IDNA_NOT_LDH:
    while (i < len && zp_idna_is_ldh(in[i]))
      i++;
    snprintf(out, cap, "contains U+%04X, which is not a letter, digit or hyphen (--std3)",
             i < len ? in[i] : 0);
    return;
  case ZP_IDNA_HYPHEN:
    snprintf(out, cap, "%s with a hyphen (--std3)", len > 0 && in[0] == '-' ? "starts" : "ends");
    return;
  case ZP_IDNA_TOO_LONG:
    snprintf(out, cap, "is longer than 63 octets");
    return;
  default:
    snprintf(out, cap, ": %s", zp_strerror(st));
    return;
  }
}

void zp_explain_why(zp_status st, const uint8_t *in, size_t len, const zp_idna_detail *det,
                    unsigned flags, char *out, size_t cap)
{
  size_t off = 0;
  zp_status u = zp_utf8_validate(in, len, &off);
  if (u != ZP_OK) {
    snprintf(out, cap, "is not valid UTF-8: %s at octet %zu", zp_strerror(u), off + 1);
    return;
  }
  bool high = false;
  for (size_t i = 0; i < len; i++)
    high |= in[i] >= 0x80;
  if (high)
    why(st, det, out, cap);
  else if (zp_idna_is_ace((const char *)in, len) && st != ZP_IDNA_TOO_LONG)
    ace(st, det, flags, out, cap);
  else
    ascii(st, in, len, out, cap);
}

void zp_explain_label(zp_status st, const uint8_t *in, size_t len, const zp_idna_detail *det,
                      unsigned flags, char *msg, size_t cap)
{
  char label[SHOW_MAX], reason[512];
  zp_explain_show(in, len, label, sizeof label);
  zp_explain_why(st, in, len, det, flags, reason, sizeof reason);
  /* (a predicate that starts with ':' is a status's own text) */
  snprintf(msg, cap, "label \"%s\"%s%s", label, reason[0] == ':' ? "" : " ", reason);
}
