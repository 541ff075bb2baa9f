/* fuzz_punycode.c -- libFuzzer harness: Punycode decode bounds, round trip, libidn agreement */
#include <punycode.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idna/punycode.h"

/* The first byte picks the direction and the output capacity; buffers are heap blocks of exactly
 * that capacity so ASan sees any write or read past them. */
enum { MAX_CP = 1024 };

static int ieq(const char *a, const char *b, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
    if (x >= 'A' && x <= 'Z') x += 'a' - 'A';
    if (y >= 'A' && y <= 'Z') y += 'a' - 'A';
    if (x != y)
      return 0;
  }
  return 1;
}

/* libidn's digit decoder computes cp - 48 < 10 in signed arithmetic, so every byte from 0x16 to
 * 0x2F ('-', '.', '/', '!', space...) in the delta part reads as a digit of value cp - 22, where
 * RFC 3492 says it is invalid (found by this harness; '-' '.' '/' also in
 * tests/test_punycode.c libidn_intentional_differences). */
static int libidn_digit_quirk(const char *s, size_t len)
{
  size_t b = 0;
  for (size_t i = 0; i < len; i++)
    if (s[i] == '-')
      b = i;
  for (size_t i = b > 0 ? b + 1 : 0; i < len; i++)
    if (s[i] >= 0x16 && s[i] <= 0x2F)
      return 1;
  return 0;
}

static void check_decode(const char *in, size_t len, size_t cap)
{
  uint32_t *out = malloc((cap ? cap : 1) * sizeof *out);
  unsigned char *fl = malloc(cap ? cap : 1);
  size_t n = cap;
  zp_status st = zp_puny_decode(in, len, out, &n, fl);
  if (st == ZP_OK) {
    if (n > cap)
      abort();
    /* Decoding is a bijection up to letter case: re-encoding gives the input back. */
    size_t elen = len + 1;
    char *enc = malloc(elen);
    zp_status est = zp_puny_encode(out, n, fl, enc, &elen);
    if (est != ZP_OK || elen != len || !ieq(enc, in, len))
      abort();
    free(enc);
  }
  if (cap == MAX_CP && !libidn_digit_quirk(in, len)) {
    uint32_t theirs[MAX_CP];
    size_t tn = MAX_CP;
    int rc = punycode_decode(len, in, &tn, theirs, NULL);
    int surrogate = 0;
    for (size_t i = 0; rc == 0 && i < tn; i++)
      surrogate |= theirs[i] >= 0xD800 && theirs[i] <= 0xDFFF;
    if (surrogate) {
      if (st != ZP_PUNY_BAD_CODE_POINT)
        abort();
    } else if ((rc == 0) != (st == ZP_OK) && st != ZP_EBUFFER) {
      abort();
    } else if (st == ZP_OK && (tn != n || memcmp(theirs, out, n * sizeof *out) != 0)) {
      abort();
    }
  }
  free(out);
  free(fl);
}

static void check_encode(const uint8_t *data, size_t size, size_t cap)
{
  size_t n = size / 3;
  if (n > MAX_CP)
    n = MAX_CP;
  uint32_t *cp = malloc((n ? n : 1) * sizeof *cp);
  int valid = 1;
  for (size_t i = 0; i < n; i++) {
    cp[i] = ((uint32_t)data[3 * i] << 16 | (uint32_t)data[3 * i + 1] << 8 | data[3 * i + 2]);
    /* Mostly small values, like real labels; the top bits still reach past U+10FFFF. */
    if (!(data[3 * i] & 0xE0))
      cp[i] &= 0x1FFFF;
    if (cp[i] > 0x10FFFF || (cp[i] >= 0xD800 && cp[i] <= 0xDFFF))
      valid = 0;
  }
  char *enc = malloc(cap ? cap : 1);
  size_t elen = cap;
  zp_status st = zp_puny_encode(cp, n, NULL, enc, &elen);
  if (st == ZP_OK) {
    if (!valid || elen > cap)
      abort();
    uint32_t *dec = malloc((n ? n : 1) * sizeof *dec);
    size_t dn = n;
    if (zp_puny_decode(enc, elen, dec, &dn, NULL) != ZP_OK || dn != n ||
        memcmp(dec, cp, n * sizeof *cp) != 0)
      abort();
    free(dec);
  } else if (st == ZP_PUNY_BAD_CODE_POINT ? valid : st != ZP_EBUFFER && st != ZP_PUNY_OVERFLOW) {
    abort();
  }
  free(enc);
  free(cp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  unsigned sel = data[0];
  data++, size--;
  /* Capacity: full (MAX_CP) half the time, else a small one to exercise ZP_EBUFFER. */
  size_t cap = (sel & 0x80) ? MAX_CP : (sel >> 1) & 0x3F;
  if (sel & 1)
    check_encode(data, size, cap == MAX_CP ? 4 * MAX_CP + 16 : cap);
  else
    check_decode((const char *)data, size, cap);
  return 0;
}
