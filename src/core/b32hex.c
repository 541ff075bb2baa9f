/* b32hex.c -- base32hex without padding (RFC 4648 section 7) */
#include "b32hex.h"

size_t zp_b32hex(char *out, const uint8_t *d, size_t n)
{
  static const char b32[] = "0123456789abcdefghijklmnopqrstuv";
  size_t k = 0;
  uint32_t acc = 0;
  unsigned bits = 0;
  for (size_t i = 0; i < n; i++) {
    acc = acc << 8 | d[i];
    for (bits += 8; bits >= 5; bits -= 5)
      out[k++] = b32[acc >> (bits - 5) & 31];
    acc &= (1u << bits) - 1;
  }
  if (bits > 0)
    out[k++] = b32[acc << (5 - bits) & 31];
  return k;
}
