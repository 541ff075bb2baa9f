/* utf8.c -- strict UTF-8 (RFC 3629): no overlongs, no surrogates, nothing above U+10FFFF */
#include "utf8.h"

/* Decodes one sequence at in[0..avail), avail >= 1. Returns its length, or 0 with *st set.
 * The second-byte ranges of RFC 3629's ABNF reject overlongs, surrogates and values above
 * U+10FFFF before the rest of the sequence is read, so every error is found at its lead byte. */
static size_t decode_one(const uint8_t *in, size_t avail, uint32_t *cp, zp_status *st)
{
  uint8_t b0 = in[0];
  size_t len;
  uint8_t lo = 0x80, hi = 0xBF;
  uint32_t c;

  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  if (b0 < 0xC2) {
    *st = b0 < 0xC0 ? ZP_UTF8_BAD_BYTE : ZP_UTF8_OVERLONG;
    return 0;
  }
  if (b0 < 0xE0) {
    len = 2;
    c = b0 & 0x1F;
  } else if (b0 < 0xF0) {
    len = 3;
    c = b0 & 0x0F;
    if (b0 == 0xE0)
      lo = 0xA0;
    else if (b0 == 0xED)
      hi = 0x9F;
  } else if (b0 < 0xF5) {
    len = 4;
    c = b0 & 0x07;
    if (b0 == 0xF0)
      lo = 0x90;
    else if (b0 == 0xF4)
      hi = 0x8F;
  } else {
    *st = ZP_UTF8_BAD_BYTE;
    return 0;
  }
  if (avail < 2) {
    *st = ZP_UTF8_TRUNCATED;
    return 0;
  }
  if (in[1] < lo || in[1] > hi) {
    if (in[1] < 0x80 || in[1] > 0xBF)
      *st = ZP_UTF8_TRUNCATED;
    else if (b0 == 0xE0 || b0 == 0xF0)
      *st = ZP_UTF8_OVERLONG;
    else if (b0 == 0xED)
      *st = ZP_UTF8_SURROGATE;
    else
      *st = ZP_UTF8_RANGE;
    return 0;
  }
  for (size_t i = 1; i < len; i++) {
    if (i >= avail || (in[i] & 0xC0) != 0x80) {
      *st = ZP_UTF8_TRUNCATED;
      return 0;
    }
    c = (c << 6) | (in[i] & 0x3F);
  }
  *cp = c;
  return len;
}

zp_status zp_utf8_decode(const uint8_t *in, size_t inlen, uint32_t *out, size_t *outlen,
                         size_t *erroff)
{
  size_t cap = *outlen, n = 0, i = 0;
  zp_status st = ZP_OK;

  while (i < inlen) {
    uint32_t cp;
    size_t len = decode_one(in + i, inlen - i, &cp, &st);
    if (len == 0)
      goto fail;
    if (n == cap) {
      st = ZP_EBUFFER;
      goto fail;
    }
    out[n++] = cp;
    i += len;
  }
  *outlen = n;
  return ZP_OK;
fail:
  if (erroff)
    *erroff = i;
  *outlen = n;
  return st;
}

zp_status zp_utf8_validate(const uint8_t *in, size_t inlen, size_t *erroff)
{
  size_t i = 0;
  zp_status st = ZP_OK;

  while (i < inlen) {
    uint32_t cp;
    size_t len;
    if (in[i] < 0x80) {
      i++;
      continue;
    }
    len = decode_one(in + i, inlen - i, &cp, &st);
    if (len == 0) {
      if (erroff)
        *erroff = i;
      return st;
    }
    i += len;
  }
  return ZP_OK;
}

zp_status zp_utf8_encode(const uint32_t *in, size_t inlen, uint8_t *out, size_t *outlen)
{
  size_t cap = *outlen, n = 0;

  for (size_t i = 0; i < inlen; i++) {
    uint32_t c = in[i];
    size_t len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (c >= 0xD800 && c <= 0xDFFF)
      return ZP_UTF8_SURROGATE;
    if (c > 0x10FFFF)
      return ZP_UTF8_RANGE;
    if (cap - n < len)
      return ZP_EBUFFER;
    switch (len) {
    case 1:
      out[n] = (uint8_t)c;
      break;
    case 2:
      out[n] = (uint8_t)(0xC0 | (c >> 6));
      out[n + 1] = (uint8_t)(0x80 | (c & 0x3F));
      break;
    case 3:
      out[n] = (uint8_t)(0xE0 | (c >> 12));
      out[n + 1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
      out[n + 2] = (uint8_t)(0x80 | (c & 0x3F));
      break;
    default:
      out[n] = (uint8_t)(0xF0 | (c >> 18));
      out[n + 1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
      out[n + 2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
      out[n + 3] = (uint8_t)(0x80 | (c & 0x3F));
      break;
    }
    n += len;
  }
  *outlen = n;
  return ZP_OK;
}

size_t zp_utf8_chars(const char *text, size_t len)
{
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    n += ((unsigned char)text[i] & 0xC0) != 0x80;
  return n;
}
