/* test_punycode.c -- RFC 3492 vectors, decoder rejects, and GNU libidn as a differential oracle */
#include <criterion/criterion.h>
#include <punycode.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idna/punycode.h"
#include "idna/utf8.h"
#include "xorshift.h"

enum { CAP = 256 };

/* RFC 3492 section 7.1. "U+" marks a code point whose case flag is set (appendix A). */
static const struct { const char *cps, *puny; } rfc[] = {
  {"u+0644 u+064A u+0647 u+0645 u+0627 u+0628 u+062A u+0643 u+0644 u+0645 u+0648 u+0634 "
   "u+0639 u+0631 u+0628 u+064A u+061F", "egbpdaj6bu4bxfgehfvwxn"},
  {"u+4ED6 u+4EEC u+4E3A u+4EC0 u+4E48 u+4E0D u+8BF4 u+4E2D u+6587",
   "ihqwcrb4cv8a8dqg056pqjye"},
  {"u+4ED6 u+5011 u+7232 u+4EC0 u+9EBD u+4E0D u+8AAA u+4E2D u+6587",
   "ihqwctvzc91f659drss3x8bo0yb"},
  {"U+0050 u+0072 u+006F u+010D u+0070 u+0072 u+006F u+0073 u+0074 u+011B u+006E u+0065 "
   "u+006D u+006C u+0075 u+0076 u+00ED u+010D u+0065 u+0073 u+006B u+0079",
   "Proprostnemluvesky-uyb24dma41a"},
  {"u+05DC u+05DE u+05D4 u+05D4 u+05DD u+05E4 u+05E9 u+05D5 u+05D8 u+05DC u+05D0 u+05DE "
   "u+05D3 u+05D1 u+05E8 u+05D9 u+05DD u+05E2 u+05D1 u+05E8 u+05D9 u+05EA",
   "4dbcagdahymbxekheh6e0a7fei0b"},
  {"u+092F u+0939 u+0932 u+094B u+0917 u+0939 u+093F u+0928 u+094D u+0926 u+0940 u+0915 "
   "u+094D u+092F u+094B u+0902 u+0928 u+0939 u+0940 u+0902 u+092C u+094B u+0932 u+0938 "
   "u+0915 u+0924 u+0947 u+0939 u+0948 u+0902", "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"},
  {"u+306A u+305C u+307F u+3093 u+306A u+65E5 u+672C u+8A9E u+3092 u+8A71 u+3057 u+3066 "
   "u+304F u+308C u+306A u+3044 u+306E u+304B", "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"},
  {"u+C138 u+ACC4 u+C758 u+BAA8 u+B4E0 u+C0AC u+B78C u+B4E4 u+C774 u+D55C u+AD6D u+C5B4 "
   "u+B97C u+C774 u+D574 u+D55C u+B2E4 u+BA74 u+C5BC u+B9C8 u+B098 u+C88B u+C744 u+AE4C",
   "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c"},
  {"U+043F u+043E u+0447 u+0435 u+043C u+0443 u+0436 u+0435 u+043E u+043D u+0438 u+043D "
   "u+0435 u+0433 u+043E u+0432 u+043E u+0440 u+044F u+0442 u+043F u+043E u+0440 u+0443 "
   "u+0441 u+0441 u+043A u+0438", "b1abfaaepdrnnbgefbaDotcwatmq2g4l"},
  {"U+0050 u+006F u+0072 u+0071 u+0075 u+00E9 u+006E u+006F u+0070 u+0075 u+0065 u+0064 "
   "u+0065 u+006E u+0073 u+0069 u+006D u+0070 u+006C u+0065 u+006D u+0065 u+006E u+0074 "
   "u+0065 u+0068 u+0061 u+0062 u+006C u+0061 u+0072 u+0065 u+006E U+0045 u+0073 u+0070 "
   "u+0061 u+00F1 u+006F u+006C", "PorqunopuedensimplementehablarenEspaol-fmd56a"},
  {"U+0054 u+1EA1 u+0069 u+0073 u+0061 u+006F u+0068 u+1ECD u+006B u+0068 u+00F4 u+006E "
   "u+0067 u+0074 u+0068 u+1EC3 u+0063 u+0068 u+1EC9 u+006E u+00F3 u+0069 u+0074 u+0069 "
   "u+1EBF u+006E u+0067 U+0056 u+0069 u+1EC7 u+0074",
   "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"},
  {"u+0033 u+5E74 U+0042 u+7D44 u+91D1 u+516B u+5148 u+751F", "3B-ww4c5e180e575a65lsy2b"},
  {"u+5B89 u+5BA4 u+5948 u+7F8E u+6075 u+002D u+0077 u+0069 u+0074 u+0068 u+002D U+0053 "
   "U+0055 U+0050 U+0045 U+0052 u+002D U+004D U+004F U+004E U+004B U+0045 U+0059 U+0053",
   "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
  {"U+0048 u+0065 u+006C u+006C u+006F u+002D U+0041 u+006E u+006F u+0074 u+0068 u+0065 "
   "u+0072 u+002D U+0057 u+0061 u+0079 u+002D u+305D u+308C u+305E u+308C u+306E u+5834 "
   "u+6240", "Hello-Another-Way--fc4qua05auwb3674vfr0b"},
  {"u+3072 u+3068 u+3064 u+5C4B u+6839 u+306E u+4E0B u+0032", "2-u9tlzr9756bt3uc0v"},
  {"U+004D u+0061 u+006A u+0069 u+3067 U+004B u+006F u+0069 u+3059 u+308B u+0035 u+79D2 "
   "u+524D", "MajiKoi5-783gue6qz075azm5e"},
  {"u+30D1 u+30D5 u+30A3 u+30FC u+0064 u+0065 u+30EB u+30F3 u+30D0", "de-jg4avhby1noc0d"},
  {"u+305D u+306E u+30B9 u+30D4 u+30FC u+30C9 u+3067", "d9juau41awczczp"},
  {"u+002D u+003E u+0020 u+0024 u+0031 u+002E u+0030 u+0030 u+0020 u+003C u+002D",
   "-> $1.00 <--"},
};

static size_t parse_cps(const char *s, uint32_t *cp, unsigned char *flags)
{
  size_t n = 0;
  while (*s) {
    char *end;
    flags[n] = s[0] == 'U';
    cp[n++] = (uint32_t)strtoul(s + 2, &end, 16);
    s = end + (*end == ' ');
  }
  return n;
}

Test(punycode, rfc3492_samples_encode_with_case_flags)
{
  for (size_t v = 0; v < sizeof rfc / sizeof rfc[0]; v++) {
    uint32_t cp[CAP];
    unsigned char fl[CAP];
    char out[CAP], idn[CAP];
    size_t n = parse_cps(rfc[v].cps, cp, fl), len = CAP, ilen = CAP;
    cr_assert_eq(zp_puny_encode(cp, n, fl, out, &len), ZP_OK, "sample %zu", v);
    cr_expect_eq(len, strlen(rfc[v].puny), "sample %zu", v);
    cr_expect_eq(memcmp(out, rfc[v].puny, len), 0, "sample %zu: %.*s", v, (int)len, out);
    /* The vectors were typed from the RFC; libidn confirms them independently. */
    cr_assert_eq(punycode_encode(n, cp, fl, &ilen, idn), 0);
    cr_expect(ilen == len && memcmp(idn, out, len) == 0, "libidn disagrees on sample %zu", v);
  }
}

Test(punycode, rfc3492_samples_decode_with_case_flags)
{
  for (size_t v = 0; v < sizeof rfc / sizeof rfc[0]; v++) {
    uint32_t want[CAP], got[CAP];
    unsigned char wfl[CAP], gfl[CAP];
    size_t n = parse_cps(rfc[v].cps, want, wfl), len = CAP;
    cr_assert_eq(zp_puny_decode(rfc[v].puny, strlen(rfc[v].puny), got, &len, gfl), ZP_OK,
                 "sample %zu", v);
    cr_assert_eq(len, n, "sample %zu", v);
    for (size_t i = 0; i < n; i++) {
      cr_expect_eq(got[i], want[i], "sample %zu position %zu", v, i);
      cr_expect_eq(gfl[i], wfl[i], "sample %zu flag %zu", v, i);
    }
  }
}

/* The example table of the Punycode overview seed: UTF-8 input, encoded without case flags
 * (basic code points keep their case, digits are lowercase). */
static const struct { const char *in, *puny; } overview[] = {
  {"", ""}, {"a", "a-"}, {"A", "A-"}, {"3", "3-"}, {"-", "--"}, {"--", "---"},
  {"London", "London-"}, {"Lloyd-Atkinson", "Lloyd-Atkinson-"},
  {"This has spaces", "This has spaces-"}, {"-> $1.00 <-", "-> $1.00 <--"},
  {"Б", "d0a"}, {"ü", "tda"}, {"α", "mxa"}, {"例", "fsq"}, {"😉", "n28h"},
  {"αβγ", "mxacd"}, {"München", "Mnchen-3ya"}, {"Mnchen-3ya", "Mnchen-3ya-"},
  {"München-Ost", "Mnchen-Ost-9db"}, {"Bahnhof München-Ost", "Bahnhof Mnchen-Ost-u6b"},
  {"abæcdöef", "abcdef-qua4k"}, {"правда", "80aafi6cg"}, {"ยจฆฟคฏข", "22cdfh1b8fsa"},
  {"도메인", "hq1bm8jm9l"}, {"ドメイン名例", "eckwd4c7cu47r2wf"},
  {"MajiでKoiする5秒前", "MajiKoi5-783gue6qz075azm5e"}, {"「bücher」", "bcher-kva8445foa"},
};

Test(punycode, overview_table_both_directions)
{
  for (size_t v = 0; v < sizeof overview / sizeof overview[0]; v++) {
    uint32_t cp[CAP], back[CAP];
    char out[CAP];
    size_t n = CAP, len = CAP, blen = CAP;
    cr_assert_eq(zp_utf8_decode((const uint8_t *)overview[v].in, strlen(overview[v].in), cp, &n,
                                NULL), ZP_OK);
    cr_assert_eq(zp_puny_encode(cp, n, NULL, out, &len), ZP_OK, "%s", overview[v].in);
    cr_expect(len == strlen(overview[v].puny) && memcmp(out, overview[v].puny, len) == 0,
              "%s: got %.*s want %s", overview[v].in, (int)len, out, overview[v].puny);
    cr_assert_eq(zp_puny_decode(overview[v].puny, strlen(overview[v].puny), back, &blen, NULL),
                 ZP_OK, "%s", overview[v].puny);
    cr_expect(blen == n && memcmp(back, cp, n * sizeof *cp) == 0, "%s", overview[v].puny);
  }
}

static zp_status dec(const char *s, size_t cap)
{
  uint32_t out[CAP];
  return zp_puny_decode(s, strlen(s), out, &cap, NULL);
}

Test(punycode, decoder_rejects_every_non_digit_byte)
{
  for (int c = 0; c < 256; c++) {
    char s[2] = {(char)c, 0};
    int alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    uint32_t out[4];
    size_t cap = 4;
    zp_status st = zp_puny_decode(s, 1, out, &cap, NULL);
    /* A lone digit either ends a delta (value below threshold 1: only "a"/"A") or leaves it
     * unfinished; a lone '-' is a delimiter with nothing before it, then '-' as a digit. */
    if (!alnum)
      cr_expect_eq(st, ZP_PUNY_BAD_DIGIT, "byte 0x%02x", c);
    else if (c == 'a' || c == 'A')
      cr_expect(st == ZP_OK && cap == 1 && out[0] == 0x80, "byte 0x%02x", c);
    else
      cr_expect_eq(st, ZP_PUNY_TRUNCATED, "byte 0x%02x", c);
    /* After a valid basic part, the same byte in the delta part. */
    char t[8] = "ab-";
    t[3] = (char)c;
    cap = 4;
    st = zp_puny_decode(t, 4, out, &cap, NULL);
    if (!alnum && c != '-')
      cr_expect_eq(st, ZP_PUNY_BAD_DIGIT, "ab-%02x", c);
  }
}

Test(punycode, decoder_rejects_crafted_inputs)
{
  /* Non-basic octet before the last delimiter. */
  cr_expect_eq(dec("\xc3\xbc-a", CAP), ZP_PUNY_NON_BASIC);
  /* "b": digit 1 >= t(36) = tmin = 1, so the delta goes on past the end. */
  cr_expect_eq(dec("b", CAP), ZP_PUNY_TRUNCATED);
  cr_expect_eq(dec("abc-9", CAP), ZP_PUNY_TRUNCATED);
  /* '9' is digit 35: weights run 1, 35, 1225, 12250, 122500, ... (x35 twice, then x10), so by
   * the 8th digit i would need 35 * 122500000 on top of ~4.9e8 already, past 2^32. */
  cr_expect_eq(dec("9999999999999", CAP), ZP_PUNY_OVERFLOW);
  cr_expect_eq(dec("999999999999999999999999", CAP), ZP_PUNY_OVERFLOW);
  /* "bb05g": digits 1,1,26,31,6 with thresholds 1,1,26,26,26 and weights 1,35,1225,12250,
   * 122500 give i = 1 + 35 + 31850 + 379750 + 735000 = 1146636, so n = 0x80 + i = 0x117F8C,
   * beyond U+10FFFF. */
  cr_expect_eq(dec("bb05g", CAP), ZP_PUNY_BAD_CODE_POINT);
  /* "bb0c": i = 1 + 35 + 31850 + 12250*2 = 56386, n = 0x80 + i = 0xDCC2, a surrogate. */
  cr_expect_eq(dec("bb0c", CAP), ZP_PUNY_BAD_CODE_POINT);
  /* Output longer than the caller's buffer, in the basic part and in the delta part. */
  cr_expect_eq(dec("abc-", 2), ZP_EBUFFER);
  cr_expect_eq(dec("Mnchen-3ya", 6), ZP_EBUFFER);
  cr_expect_eq(dec("Mnchen-3ya", 7), ZP_OK);
}

Test(punycode, decoder_never_yields_basic_code_points_from_deltas)
{
  /* RFC 3492 6.2 tells the decoder to reject a basic code point produced by a delta. With
   * initial_n = 0x80 and checked arithmetic that cannot happen; this exhausts every delta part
   * of up to three digits to show it. */
  static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  char s[4];
  for (int a = 0; a < 36; a++)
    for (int b = 0; b < 37; b++)
      for (int c = 0; c < 37; c++) {
        size_t len = 1;
        s[0] = digits[a];
        if (b < 36) {
          s[len++] = digits[b];
          if (c < 36)
            s[len++] = digits[c];
        }
        uint32_t out[4];
        size_t cap = 4;
        if (zp_puny_decode(s, len, out, &cap, NULL) == ZP_OK)
          for (size_t i = 0; i < cap; i++)
            cr_assert_geq(out[i], 0x80u, "%.*s", (int)len, s);
      }
}

Test(punycode, encoder_limits)
{
  uint32_t cp[3] = {'a', 0xFC, 'b'};
  char out[CAP];
  size_t len = 3;
  cr_expect_eq(zp_puny_encode(cp, 3, NULL, out, &len), ZP_EBUFFER);
  /* By hand: delta = (0xFC - 0x80) * (2 + 1) + 1 (one basic code point before it) = 373;
   * k=36, t=1: digit 1 + 372 % 35 = 23 'x', q = 10; k=72, t=1: digit 1 + 9 % 35 = 10 'k',
   * q = 0; k=108, t=26: 0 < 26, digit 0 'a'. */
  len = 6;
  cr_expect_eq(zp_puny_encode(cp, 3, NULL, out, &len), ZP_OK);
  cr_expect(len == 6 && memcmp(out, "ab-xka", 6) == 0, "%.*s", (int)len, out);
  cp[1] = 0xD800;
  len = CAP;
  cr_expect_eq(zp_puny_encode(cp, 3, NULL, out, &len), ZP_PUNY_BAD_CODE_POINT);
  cp[1] = 0x110000;
  cr_expect_eq(zp_puny_encode(cp, 3, NULL, out, &len), ZP_PUNY_BAD_CODE_POINT);
}

/* Section 6.4: the encoder fails when delta would pass 2^32 - 1, in either of its two steps.
 * By hand, with B basic code points followed by one code point m (so h + 1 = B + 1):
 * step 1 adds (m - 0x80) * (B + 1), step 2 then adds one per basic code point before m.
 * B = 3855, m = U+10FFFF: 1113983 * 3856 = 4295518448 > 4294967295, step 1 overflows;
 * B = 3854: 1113983 * 3855 + 3854 = 4294408319 fits.
 * B = 65536, m = U+1007F: 65535 * 65537 = 4294967295 exactly fits, and the first increment of
 * step 2 overflows; m = U+1007E: 65534 * 65537 + 65536 = 4294967294 fits.
 * libidn agrees on all four (its punycode_uint is 32 bits too). */
Test(punycode, encoder_overflow_both_steps)
{
  static const struct { size_t basic; uint32_t m; zp_status want; } cases[] = {
    {3855, 0x10FFFF, ZP_PUNY_OVERFLOW}, {3854, 0x10FFFF, ZP_OK},
    {65536, 0x1007F, ZP_PUNY_OVERFLOW}, {65536, 0x1007E, ZP_OK},
  };
  enum { MAXLEN = 65537, OUTCAP = MAXLEN + 16 };
  uint32_t *cp = malloc(MAXLEN * sizeof *cp);
  char *ours = malloc(OUTCAP), *theirs = malloc(OUTCAP);
  cr_assert(cp && ours && theirs);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    for (size_t j = 0; j < cases[i].basic; j++)
      cp[j] = 'a';
    cp[cases[i].basic] = cases[i].m;
    size_t n = cases[i].basic + 1, olen = OUTCAP, tlen = OUTCAP;
    cr_expect_eq(zp_puny_encode(cp, n, NULL, ours, &olen), cases[i].want, "case %zu", i);
    int rc = punycode_encode(n, cp, NULL, &tlen, theirs);
    cr_expect_eq(rc == 0, cases[i].want == ZP_OK, "libidn case %zu: %d", i, rc);
    if (cases[i].want == ZP_OK && rc == 0)
      cr_expect(olen == tlen && memcmp(ours, theirs, olen) == 0, "case %zu output", i);
  }
  free(cp);
  free(ours);
  free(theirs);
}

/* Encode with both, compare; decode our output with both, compare. */
static void agree(const uint32_t *cp, size_t n)
{
  char ours[CAP * 2], theirs[CAP * 2];
  size_t olen = sizeof ours, tlen = sizeof theirs;
  zp_status st = zp_puny_encode(cp, n, NULL, ours, &olen);
  int rc = punycode_encode(n, cp, NULL, &tlen, theirs);
  cr_assert_eq(st == ZP_OK, rc == 0, "encode status: ours %s, libidn %d (first cp U+%04X)",
               zp_errname(st), rc, n ? cp[0] : 0);
  if (st != ZP_OK)
    return;
  cr_assert(olen == tlen && memcmp(ours, theirs, olen) == 0, "encode U+%04X...: %.*s vs %.*s",
            n ? cp[0] : 0, (int)olen, ours, (int)tlen, theirs);
  uint32_t back[CAP];
  size_t blen = CAP;
  cr_assert_eq(zp_puny_decode(ours, olen, back, &blen, NULL), ZP_OK);
  cr_assert(blen == n && memcmp(back, cp, n * sizeof *cp) == 0, "round trip U+%04X", cp[0]);
}

Test(punycode, libidn_every_code_point, .timeout = 120)
{
  for (uint32_t c = 0x80; c <= 0x10FFFF; c++) {
    if (c >= 0xD800 && c <= 0xDFFF)
      continue;
    uint32_t one[1] = {c}, mixed[4] = {'a', c, 'z', c == 0x10FFFF ? 0x80 : c + 1};
    agree(one, 1);
    agree(mixed, 4);
  }
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void)
{
  return (uint32_t)(xorshift64star(&rng_state) >> 32);
}

static uint32_t random_cp(void)
{
  static const uint32_t blocks[][2] = {
    {0x20, 0x7E}, {0x61, 0x7A}, {0xA0, 0x24F}, {0x300, 0x36F}, {0x370, 0x3FF}, {0x400, 0x4FF},
    {0x590, 0x5FF}, {0x600, 0x6FF}, {0x900, 0x97F}, {0xE00, 0xE7F}, {0x1100, 0x11FF},
    {0x1E00, 0x1EFF}, {0x3040, 0x30FF}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7A3}, {0xFF00, 0xFFEF},
    {0x10000, 0x1FFFF}, {0x20000, 0x10FFFF},
  };
  const uint32_t *b = blocks[rnd() % (sizeof blocks / sizeof blocks[0])];
  uint32_t c;
  do
    c = b[0] + rnd() % (b[1] - b[0] + 1);
  while (c >= 0xD800 && c <= 0xDFFF);
  return c;
}

Test(punycode, libidn_one_million_random_strings, .timeout = 120)
{
  for (int r = 0; r < 1000000; r++) {
    uint32_t cp[64];
    size_t n = 1 + rnd() % 40;
    for (size_t i = 0; i < n; i++)
      cp[i] = random_cp();
    agree(cp, n);
  }
}

/* Intentional differences from libidn 1.41's decoder, both where libidn accepts what RFC 3492
 * rejects: (1) its digit decoder compares a signed code unit, "c - 48 < 10" holding for every
 * byte below '0', and returns c - 22, so the bytes 0x16 to 0x2F (SYN to '/', blank, '!', '+',
 * ',', '.' and a leading '-' among them) decode as the digits 0 to 25 ("a.b" gives U+008D U+0080
 * U+008C), where section 5 allows only A-Z, a-z, 0-9; (2) it returns surrogate code points
 * ("bb0c" gives U+DCC2), which are not Unicode scalar values and cannot be encoded in UTF-8.
 * Test libidn_digit_quirk_is_exactly_0x16_to_0x2F below finds the range byte by byte. */
static int libidn_quirk_byte(unsigned char c)
{
  return c >= 0x16 && c <= 0x2F;
}

static int libidn_digit_quirk(const char *s, size_t len)
{
  size_t b = 0;
  for (size_t i = 0; i < len; i++)
    if (s[i] == '-')
      b = i;
  /* As in section 6.2, a delimiter is consumed only when basic code points precede it, so a
   * leading '-' (0x2D) is in the delta part too. */
  for (size_t i = b > 0 ? b + 1 : 0; i < len; i++)
    if (libidn_quirk_byte((unsigned char)s[i]))
      return 1;
  return 0;
}

static int has_surrogate(const uint32_t *cp, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (cp[i] >= 0xD800 && cp[i] <= 0xDFFF)
      return 1;
  return 0;
}

Test(punycode, libidn_intentional_differences)
{
  uint32_t out[8];
  size_t n = 8;
  cr_expect_eq(zp_puny_decode("a.b", 3, out, &n, NULL), ZP_PUNY_BAD_DIGIT);
  cr_expect_eq(punycode_decode(3, "a.b", &n, out, NULL), 0, "libidn fixed its digit decoder?");
  n = 8;
  cr_expect_eq(zp_puny_decode("-bopot", 6, out, &n, NULL), ZP_PUNY_BAD_DIGIT);
  n = 8;
  cr_expect_eq(punycode_decode(4, "bb0c", &n, out, NULL), 0);
  cr_expect(n == 1 && out[0] == 0xDCC2, "libidn no longer returns the surrogate?");
}

/* Every byte in several positions of a delta: we accept only the 36 digits of section 5 (and
 * agree with libidn on them); libidn also takes each byte from 0x16 to 0x2F as the digit
 * c - 0x16 (its string decodes as the same string with that digit spelt as a letter), and
 * refuses all other bytes. Every quirk byte must be seen accepted at least once. */
Test(punycode, libidn_digit_quirk_is_exactly_0x16_to_0x2F)
{
  static const char *const templates[] = {"?ba", "b?a", "ba?", "xy-?bc", "xy-b?c"};
  int accepted[256] = {0};
  for (size_t t = 0; t < sizeof templates / sizeof *templates; t++) {
    const char *tp = templates[t];
    size_t len = strlen(tp), at = (size_t)(strchr(tp, '?') - tp);
    for (int c = 0; c < 256; c++) {
      if (c == '-')
        continue;  /* the delimiter, not a digit */
      char s[8], spelt[8];
      memcpy(s, tp, len);
      memcpy(spelt, tp, len);
      s[at] = (char)c;
      spelt[at] = (char)('a' + (c - 0x16));
      int digit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      uint32_t ours[CAP], theirs[CAP], want[CAP];
      size_t olen = CAP, tlen = CAP, wlen = CAP;
      zp_status st = zp_puny_decode(s, len, ours, &olen, NULL);
      int rc = punycode_decode(len, s, &tlen, theirs, NULL);
      cr_assert_eq(libidn_digit_quirk(s, len), libidn_quirk_byte((unsigned char)c), "%s 0x%02X",
                   tp, c);
      if (digit) {
        cr_assert_eq(st == ZP_OK, rc == 0, "%s 0x%02X: ours %s, libidn %d", tp, c,
                     zp_errname(st), rc);
        cr_assert(st != ZP_OK || (olen == tlen && memcmp(ours, theirs, olen * sizeof *ours) == 0),
                  "%s 0x%02X", tp, c);
        continue;
      }
      cr_assert_eq(st, ZP_PUNY_BAD_DIGIT, "%s 0x%02X: %s", tp, c, zp_errname(st));
      if (libidn_quirk_byte((unsigned char)c)) {
        int want_rc = punycode_decode(len, spelt, &wlen, want, NULL);
        cr_assert(rc == want_rc && (rc != 0 || (tlen == wlen &&
                                                memcmp(theirs, want, wlen * sizeof *want) == 0)),
                  "libidn on %s 0x%02X: %d, not as %.*s", tp, c, rc, (int)len, spelt);
        accepted[c] |= rc == 0;
      } else {
        cr_assert_neq(rc, 0, "libidn accepts %s 0x%02X", tp, c);
      }
    }
  }
  for (int c = 0x16; c <= 0x2F; c++)
    cr_assert(c == '-' || accepted[c], "libidn never took 0x%02X as a digit", c);
}

Test(punycode, libidn_decode_random_ascii, .timeout = 120)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789-ABCXYZ-. !+/:@[`{\x16\x15";
  for (int r = 0; r < 1000000; r++) {
    char s[32];
    size_t len = 1 + rnd() % 16;
    for (size_t i = 0; i < len; i++)
      s[i] = alphabet[rnd() % (sizeof alphabet - 1)];
    uint32_t ours[CAP], theirs[CAP];
    unsigned char ofl[CAP], tfl[CAP];
    size_t olen = CAP, tlen = CAP;
    zp_status st = zp_puny_decode(s, len, ours, &olen, ofl);
    int rc = punycode_decode(len, s, &tlen, theirs, tfl);
    if (libidn_digit_quirk(s, len)) {
      cr_assert_neq(st, ZP_OK, "%.*s", (int)len, s);
      continue;
    }
    if (rc == 0 && has_surrogate(theirs, tlen)) {
      cr_assert_eq(st, ZP_PUNY_BAD_CODE_POINT, "%.*s", (int)len, s);
      continue;
    }
    cr_assert_eq(st == ZP_OK, rc == 0, "decode %.*s: ours %s, libidn %d", (int)len, s,
                 zp_errname(st), rc);
    if (st == ZP_OK) {
      cr_assert(olen == tlen && memcmp(ours, theirs, olen * sizeof *ours) == 0, "%.*s",
                (int)len, s);
      cr_assert_eq(memcmp(ofl, tfl, olen), 0, "case flags of %.*s", (int)len, s);
    }
  }
}
