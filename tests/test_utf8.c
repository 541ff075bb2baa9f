/* test_utf8.c -- strict UTF-8: Kuhn-style malformed table and every scalar value round trip */
#include <criterion/criterion.h>
#include <string.h>

#include "idna/utf8.h"

static const struct {
  const char *bytes;
  size_t len;
  zp_status st;
  size_t off;
} bad[] = {
  {"\x80", 1, ZP_UTF8_BAD_BYTE, 0},            /* stray continuation */
  {"ab\xbf", 3, ZP_UTF8_BAD_BYTE, 2},
  {"\xc0\xaf", 2, ZP_UTF8_OVERLONG, 0},        /* overlong '/' */
  {"\xc1\xbf", 2, ZP_UTF8_OVERLONG, 0},
  {"\xe0\x80\xaf", 3, ZP_UTF8_OVERLONG, 0},
  {"\xe0\x9f\xbf", 3, ZP_UTF8_OVERLONG, 0},    /* U+07FF in three bytes */
  {"\xf0\x80\x80\xaf", 4, ZP_UTF8_OVERLONG, 0},
  {"\xf0\x8f\xbf\xbf", 4, ZP_UTF8_OVERLONG, 0},/* U+FFFF in four bytes */
  {"\xed\xa0\x80", 3, ZP_UTF8_SURROGATE, 0},   /* U+D800 */
  {"x\xed\xbf\xbf", 4, ZP_UTF8_SURROGATE, 1},  /* U+DFFF */
  {"\xf4\x90\x80\x80", 4, ZP_UTF8_RANGE, 0},   /* U+110000 */
  {"\xf5\x80\x80\x80", 4, ZP_UTF8_BAD_BYTE, 0},
  {"\xfe", 1, ZP_UTF8_BAD_BYTE, 0},
  {"\xff", 1, ZP_UTF8_BAD_BYTE, 0},
  {"\xc3", 1, ZP_UTF8_TRUNCATED, 0},
  {"a\xe2\x82", 3, ZP_UTF8_TRUNCATED, 1},
  {"\xf0\x9f\x98", 3, ZP_UTF8_TRUNCATED, 0},
  {"\xe2\x82x", 3, ZP_UTF8_TRUNCATED, 0},      /* continuation replaced by ASCII */
  {"\xc3(", 2, ZP_UTF8_TRUNCATED, 0},
};

Test(utf8, malformed_sequences)
{
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint32_t out[8];
    size_t n = 8, off = 99, voff = 99;
    cr_expect_eq(zp_utf8_decode((const uint8_t *)bad[i].bytes, bad[i].len, out, &n, &off),
                 bad[i].st, "case %zu: %s", i, zp_errname(bad[i].st));
    cr_expect_eq(off, bad[i].off, "case %zu offset", i);
    cr_expect_eq(zp_utf8_validate((const uint8_t *)bad[i].bytes, bad[i].len, &voff), bad[i].st,
                 "case %zu validate", i);
    cr_expect_eq(voff, bad[i].off, "case %zu validate offset", i);
  }
}

/* RFC 3629 section 3 table, written out independently of the code under test. */
static size_t ref_encode(uint32_t c, uint8_t *b)
{
  if (c <= 0x7F) {
    b[0] = (uint8_t)c;
    return 1;
  }
  if (c <= 0x7FF) {
    b[0] = (uint8_t)(0xC0 + c / 64);
    b[1] = (uint8_t)(0x80 + c % 64);
    return 2;
  }
  if (c <= 0xFFFF) {
    b[0] = (uint8_t)(0xE0 + c / 4096);
    b[1] = (uint8_t)(0x80 + c / 64 % 64);
    b[2] = (uint8_t)(0x80 + c % 64);
    return 3;
  }
  b[0] = (uint8_t)(0xF0 + c / 262144);
  b[1] = (uint8_t)(0x80 + c / 4096 % 64);
  b[2] = (uint8_t)(0x80 + c / 64 % 64);
  b[3] = (uint8_t)(0x80 + c % 64);
  return 4;
}

Test(utf8, every_scalar_value_round_trips)
{
  for (uint32_t c = 0; c <= 0x10FFFF; c++) {
    uint8_t want[4], got[4];
    size_t wlen = ref_encode(c, want), glen = 4, n = 1;
    uint32_t back;
    if (c >= 0xD800 && c <= 0xDFFF) {
      cr_assert_eq(zp_utf8_encode(&c, 1, got, &glen), ZP_UTF8_SURROGATE);
      cr_assert_eq(zp_utf8_decode(want, wlen, &back, &n, NULL), ZP_UTF8_SURROGATE);
      continue;
    }
    cr_assert_eq(zp_utf8_encode(&c, 1, got, &glen), ZP_OK);
    cr_assert(glen == wlen && memcmp(got, want, wlen) == 0, "U+%04X", c);
    cr_assert_eq(zp_utf8_decode(want, wlen, &back, &n, NULL), ZP_OK, "U+%04X", c);
    cr_assert(n == 1 && back == c, "U+%04X", c);
    cr_assert_eq(zp_utf8_validate(want, wlen, NULL), ZP_OK);
    /* Every proper prefix of a multi-byte sequence is truncated. */
    for (size_t k = 1; k < wlen; k++) {
      n = 1;
      cr_assert_eq(zp_utf8_decode(want, k, &back, &n, NULL), ZP_UTF8_TRUNCATED, "U+%04X/%zu",
                   c, k);
    }
  }
  uint32_t big = 0x110000;
  size_t len = 4;
  uint8_t b[4];
  cr_expect_eq(zp_utf8_encode(&big, 1, b, &len), ZP_UTF8_RANGE);
}

Test(utf8, buffers)
{
  uint32_t out[2];
  size_t n = 2, off = 0;
  cr_expect_eq(zp_utf8_decode((const uint8_t *)"abc", 3, out, &n, &off), ZP_EBUFFER);
  cr_expect_eq(off, 2u);
  uint32_t cps[2] = {0xFC, 0x4E00};
  uint8_t b[4];
  size_t len = 4;
  cr_expect_eq(zp_utf8_encode(cps, 2, b, &len), ZP_EBUFFER);
}
