/* diverge.c -- a label under IDNA2003 and under IDNA2008, compared: UTS #46 section 2.3 names
 * the deviation characters; the rest is what each standard's tables make of a code point */
#include "diverge.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"
#include "idna/idna2008.h"
#include "idna/utf8.h"

static const char *const standard[2] = {"IDNA2003", "IDNA2008"};

zp_status zp_idna_label_alone(const uint8_t *in, size_t len, unsigned flags, int k,
                              zp_idna_both *b)
{
  memset(&b->det[k], 0, sizeof b->det[k]);
  b->len[k] = sizeof b->ace[k];
  if (k == 0)
    return b->st[0] = zp_idna_label_to_ascii((const char *)in, len, b->ace[0], &b->len[0], flags,
                                             &b->det[0]);
  unsigned bidi;
  b->st[1] = zp_idna2008_label_to_ascii((const char *)in, len, b->ace[1], &b->len[1], flags,
                                        &b->det[1], &bidi);
  if (b->st[1] == ZP_OK && (bidi & ZP_IDNA_BIDI_RTL) && (bidi & ZP_IDNA_BIDI_BROKEN))
    b->st[1] = ZP_IDNA_BIDI_RULE;
  return b->st[1];
}

static bool same(const zp_idna_both *b)
{
  if (b->st[0] != b->st[1] || b->len[0] != b->len[1])
    return false;
  for (size_t i = 0; i < b->len[0]; i++)
    if ((b->ace[0][i] | 0x20) != (b->ace[1][i] | 0x20))
      return false;
  return true;
}

/* The first deviation character of in[0..len) (valid UTF-8), or 0. */
static uint32_t deviation(const uint8_t *in, size_t len)
{
  for (size_t i = 0, n; i < len; i += n) {
    uint32_t cp;
    size_t one = 1;
    n = 1;
    while (i + n < len && (in[i + n] & 0xC0) == 0x80)
      n++;
    if (zp_utf8_decode(in + i, n, &cp, &one, NULL) == ZP_OK && zp_idna2008_is_deviation(cp))
      return cp;
  }
  return 0;
}

/* Whether the non-ASCII label in[0..len) (valid UTF-8) converts alike under both standards for
 * what it is made of: ASCII letters, digits and hyphens (not in the third and fourth places,
 * which IDNA2008 refuses and IDNA2003 takes) and code points zp_idna2008_alike says so of. */
static bool alike(const uint8_t *in, size_t len)
{
  size_t pos = 0;
  for (size_t i = 0; i < len; pos++) {
    uint8_t c = in[i];
    if (c < 0x80) {
      if (!zp_idna_is_ldh(c) || (c == '-' && (pos == 2 || pos == 3)))
        return false;
      i++;
      continue;
    }
    uint32_t cp;
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2, one = 1;
    if (zp_utf8_decode(in + i, n, &cp, &one, NULL) != ZP_OK || !zp_idna2008_alike(cp))
      return false;
    i += n;
  }
  return true;
}

zp_divergence zp_idna_diverge(const uint8_t *in, size_t len, unsigned flags, int k,
                              zp_idna_both *b)
{
  bool high = false;
  for (size_t i = 0; i < len; i++)
    high |= in[i] >= 0x80;
  if (!high && !zp_idna_is_ace((const char *)in, len))
    return ZP_DIV_NONE;
  if (zp_utf8_validate(in, len, NULL) != ZP_OK)
    return ZP_DIV_NONE;   /* refused alike, before either standard */
  zp_idna_label_alone(in, len, flags, k, b);
  /* the label, or what an "xn--" label decodes to when standard k takes it: both standards
   * encode a label of alike code points to the same ACE form */
  const char *u = high ? (const char *)in : b->st[k] == ZP_OK ? b->det[k].decoded : NULL;
  if (u && alike((const uint8_t *)u, high ? len : strlen(u)))
    return ZP_DIV_NONE;
  zp_idna_label_alone(in, len, flags, 1 - k, b);
  bool ok03 = b->st[0] == ZP_OK, ok08 = b->st[1] == ZP_OK;
  if ((!ok03 && !ok08) || (ok03 && ok08 && same(b)))
    return ZP_DIV_NONE;
  /* (an ACE label's deviation characters are in what it decodes to, as a standard that takes
   * it decoded it) */
  const char *text = high ? (const char *)in : b->det[ok03 ? 0 : 1].decoded;
  b->cp = deviation((const uint8_t *)text, high ? len : strlen(text));
  if (ok03 != ok08)
    return ok03 ? ZP_DIV_ONLY_2003 : ZP_DIV_ONLY_2008;
  return b->cp ? ZP_DIV_DEVIATION : ZP_DIV_MAPPING;
}

/* "is "RESULT" under STANDARD" for a label converted to a non-ASCII-looking form; "is valid
 * under" for an ACE label, which stays as written. */
static int result(char *out, size_t cap, const zp_idna_both *b, int k, bool ace)
{
  if (ace)
    return snprintf(out, cap, "is valid under %s", standard[k]);
  return snprintf(out, cap, "is \"%.*s\" under %s", (int)b->len[k], b->ace[k], standard[k]);
}

void zp_divergence_hint(zp_divergence d, const zp_idna_both *b, const uint8_t *in, size_t len,
                        char *out, size_t cap)
{
  int k = d == ZP_DIV_ONLY_2008;
  const char *year = standard[k] + 4;
  if (zp_idna_is_ace((const char *)in, len))
    snprintf(out, cap, "%s takes it (--idna=%s)", standard[k], year);
  else
    snprintf(out, cap, "%s makes it \"%.*s\" (--idna=%s)", standard[k], (int)b->len[k],
             b->ace[k], year);
}

void zp_divergence_explain(zp_divergence d, const zp_idna_both *b, const uint8_t *in,
                           size_t len, unsigned flags, char *msg, size_t cap)
{
  char label[4 * 4 * ZP_LABEL_MAX + 1], first[160], why[768];
  zp_explain_show(in, len, label, sizeof label);
  bool ace = zp_idna_is_ace((const char *)in, len);
  switch (d) {
  case ZP_DIV_DEVIATION:
    snprintf(msg, cap, "label \"%s\" is \"%.*s\" under IDNA2003 and \"%.*s\" under IDNA2008: "
             "U+%04X is a deviation character, which IDNA2003 maps and IDNA2008 keeps (UTS "
             "#46 section 2.3)", label, (int)b->len[0], b->ace[0], (int)b->len[1],
             b->ace[1], (unsigned)b->cp);
    return;
  case ZP_DIV_MAPPING:
    snprintf(msg, cap, "label \"%s\" is \"%.*s\" under IDNA2003 and \"%.*s\" under IDNA2008: "
             "the standards map it apart (Nameprep and NFKC of Unicode 3.2, RFC 3491; UTS #46 "
             "and NFC of Unicode 15.0)", label, (int)b->len[0], b->ace[0], (int)b->len[1],
             b->ace[1]);
    return;
  case ZP_DIV_ONLY_2003:
  case ZP_DIV_ONLY_2008: {
    int ok = d == ZP_DIV_ONLY_2003 ? 0 : 1, no = 1 - ok;
    result(first, sizeof first, b, ok, ace);
    zp_explain_why(b->st[no], in, len, &b->det[no], flags | (no ? ZP_IDNA_2008 : 0), why,
                   sizeof why);
    int n = snprintf(msg, cap, "label \"%s\" %s, but %s refuses it: it %s", label, first,
                     standard[no], why);
    if (b->cp && n > 0 && (size_t)n < cap)
      snprintf(msg + n, cap - (size_t)n, " (U+%04X is a deviation character, which IDNA2003 "
               "maps and IDNA2008 keeps: UTS #46 section 2.3)", (unsigned)b->cp);
    return;
  }
  case ZP_DIV_NONE:
    break;
  }
  snprintf(msg, cap, "label \"%s\" is the same under IDNA2003 and IDNA2008", label);
}
