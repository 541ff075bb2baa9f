/* names.c -- the walk over a name's labels that IDNA2003 and IDNA2008 share: labels split at
 * the four separators of RFC 3490 section 3.1, each through the version's label converter,
 * and for ToASCII the Bidi rule of RFC 5893 across the labels */
#include <string.h>

#include "idna2008.h"
#include "names.h"
#include "utf8.h"

/* 255 octets of wire form, less the root and the first length octet */
enum { NAME_TEXT_MAX = 253 };

/* Length of the label separator at s[0..n) (U+002E, U+3002, U+FF0E, U+FF61), or 0. */
static size_t separator(const unsigned char *s, size_t n)
{
  if (s[0] == '.')
    return 1;
  if (n >= 3 && ((s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x82) ||
                 (s[0] == 0xEF && s[1] == 0xBC && s[2] == 0x8E) ||
                 (s[0] == 0xEF && s[1] == 0xBD && s[2] == 0xA1)))
    return 3;
  return 0;
}

size_t zp_idna_label_end(const char *in, size_t inlen, size_t start, size_t *seplen)
{
  const unsigned char *s = (const unsigned char *)in;
  for (size_t i = start; i < inlen; i++) {
    if (s[i] != '.' && s[i] != 0xE3 && s[i] != 0xEF)
      continue;
    *seplen = separator(s + i, inlen - i);
    if (*seplen)
      return i;
  }
  *seplen = 0;
  return inlen;
}

zp_status zp_idna_name_walk(const char *in, size_t inlen, char *out, size_t *outlen,
                            unsigned flags, zp_idna_detail *det, zp_idna_label_fn fn)
{
  size_t pos = 0, start = 0, seplen;
  unsigned rtl = 0;
  size_t broken = SIZE_MAX, broken_len = 0;   /* the first label that breaks the Bidi rule */

  if (inlen == 0 || separator((const unsigned char *)in, inlen) == inlen) {
    size_t len = inlen ? 1 : 0;
    if (len > *outlen)
      return ZP_EBUFFER;
    memcpy(out, ".", len);
    *outlen = len;
    return ZP_OK;
  }
  while (start < inlen) {
    char label[ZP_LABEL_MAX];
    size_t end = zp_idna_label_end(in, inlen, start, &seplen), len = sizeof label;
    unsigned bidi = 0;
    zp_status st = fn(in + start, end - start, label, &len, flags, det, &bidi);
    if (st == ZP_OK && pos + len > NAME_TEXT_MAX)
      st = ZP_IDNA_NAME_TOO_LONG;
    if (st == ZP_OK && pos + len + (seplen ? 1 : 0) > *outlen)
      st = ZP_EBUFFER;
    if (st != ZP_OK) {
      if (det) {
        det->offset = start;
        det->label_len = end - start;
      }
      return st;
    }
    rtl |= bidi & ZP_IDNA_BIDI_RTL;
    if ((bidi & ZP_IDNA_BIDI_BROKEN) && broken == SIZE_MAX) {
      broken = start;
      broken_len = end - start;
    }
    memcpy(out + pos, label, len);
    pos += len;
    if (seplen)
      out[pos++] = '.';
    start = end + seplen;
  }
  if (rtl && broken != SIZE_MAX) {
    if (det) {
      det->cp = 0;
      det->offset = broken;
      det->label_len = broken_len;
    }
    return ZP_IDNA_BIDI_RULE;
  }
  *outlen = pos;
  return ZP_OK;
}

zp_status zp_idna_name_walk_unicode(const char *in, size_t inlen, char *out, size_t *outlen,
                                    unsigned flags, zp_idna_unicode_fn fn)
{
  size_t pos = 0, start = 0, seplen;
  zp_status st = zp_utf8_validate((const uint8_t *)in, inlen, NULL);

  if (st != ZP_OK)
    return st;
  if (inlen && separator((const unsigned char *)in, inlen) == inlen) {
    if (*outlen < 1)
      return ZP_EBUFFER;
    out[0] = '.';
    *outlen = 1;
    return ZP_OK;
  }
  while (start < inlen) {
    size_t end = zp_idna_label_end(in, inlen, start, &seplen), len = *outlen - pos;
    st = fn(in + start, end - start, out + pos, &len, flags);
    if (st != ZP_OK)
      return st;
    pos += len;
    if (seplen) {
      if (pos >= *outlen)
        return ZP_EBUFFER;
      out[pos++] = '.';
    }
    start = end + seplen;
  }
  *outlen = pos;
  return ZP_OK;
}
