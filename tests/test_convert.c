/* test_convert.c -- the label policy; ACE forms from Python's encodings.idna (ToASCII) */
#include <criterion/criterion.h>
#include <idna.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "label/convert.h"

typedef struct good_case {
  const char *in;
  const char *out;
} good_case;

/* Expected ACE labels: Python 3 encodings.idna.ToASCII of the same text. */
static const good_case good[] = {
  {"münchen", "xn--mnchen-3ya"},
  {"Bücher", "xn--bcher-kva"},
  {"MÜNCHEN", "xn--mnchen-3ya"},
  {"日本語", "xn--wgv71a119e"},
  {"ÄÖÜ", "xn--4ca0bs"},
  {"straße", "strasse"},   /* IDNA2003 maps ß to "ss" (RFC 3454 table B.2) */
  {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaüüüüü",
   "xn--aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-ykfaaaa"},   /* 63 octets */
  {"XN--MNCHEN-3YA", "xn--mnchen-3ya"},
  {"xn--mnchen-3yb", "xn--mnchen-3yb"},   /* decodes to "mƫnchen", which is canonical */
  {"WWW", "www"},
  {"_dmarc", "_dmarc"},
  {"*", "*"},
  {"a_b", "a_b"},
  {"-x-", "-x-"},
};

static zp_status run_at(const char *in, bool std3, bool idna2008, char *out, char *msg,
                        size_t *at)
{
  zp_convert c = {.std3 = std3, .idna2008 = idna2008};
  zp_label_conv conv = zp_convert_policy(&c);
  uint8_t buf[ZP_LABEL_MAX + 1];
  size_t len = sizeof buf;
  msg[0] = '\0';
  *at = 0;
  zp_status st = conv.fn(conv.ctx, (const uint8_t *)in, strlen(in), buf, &len, msg, 512, at);
  if (st == ZP_OK) {
    memcpy(out, buf, len);
    out[len] = '\0';
  }
  return st;
}

static zp_status run(const char *in, bool std3, char *out, char *msg)
{
  size_t at;
  return run_at(in, std3, false, out, msg, &at);
}

Test(convert, labels_become_their_ace_or_lowercase_form)
{
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    char out[128], msg[512];
    zp_status st = run(good[i].in, false, out, msg);
    cr_expect_eq(st, ZP_OK, "%s: %s", good[i].in, msg);
    if (st == ZP_OK)
      cr_expect_str_eq(out, good[i].out, "%s", good[i].in);
  }
}

typedef struct bad_case {
  const char *in;
  bool std3;
  zp_status st;
  const char *msg;
} bad_case;

static const bad_case bads[] = {
  {"xn--abc-", false, ZP_IDNA_ACE_ASCII,
   "label \"xn--abc-\" is an ACE label that decodes to pure ASCII \"abc\""},
  {"xn--www-", false, ZP_IDNA_ACE_ASCII,
   "label \"xn--www-\" is an ACE label that decodes to pure ASCII \"www\""},
  /* Punycode of "MÜNCHEN", which Nameprep would have lowercased first */
  {"xn--MNCHEN-psa", false, ZP_IDNA_ACE_NOT_CANONICAL,
   "label \"xn--MNCHEN-psa\" is not the canonical ACE form of \"MÜNCHEN\" (ToASCII gives "
   "\"xn--mnchen-3ya\")"},
  {"xn--a-!", false, ZP_IDNA_ACE_DECODE,
   "label \"xn--a-!\" is an ACE label that does not decode as Punycode"},
  /* 62 octets of UTF-8, 64 once encoded */
  {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaüüüüü", false, ZP_IDNA_TOO_LONG,
   "label \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaüüüüü\" is longer than 63 octets "
   "after ToASCII"},
  {"\xff\xfe", false, ZP_UTF8_BAD_BYTE,
   "label \"\\255\\254\" is not valid UTF-8: invalid UTF-8 byte at octet 1"},
  {"m\xc3", false, ZP_UTF8_TRUNCATED,
   "label \"m\\195\" is not valid UTF-8: truncated UTF-8 sequence at octet 2"},
  {"a\xc0\xaf", false, ZP_UTF8_OVERLONG,
   "label \"a\\192\\175\" is not valid UTF-8: overlong UTF-8 encoding at octet 2"},
  {"a\u0221", false, ZP_IDNA_UNASSIGNED,
   "label \"a\u0221\" contains U+0221, unassigned in Unicode 3.2 (RFC 3454 table A.1)"},
  {"ü_x", false, ZP_IDNA_NOT_LDH,
   "label \"ü_x\" contains U+005F after Nameprep, which is not a letter, digit or hyphen"},
  {"-ü", false, ZP_IDNA_HYPHEN, "label \"-ü\" starts or ends with a hyphen"},
  {"a_b", true, ZP_IDNA_NOT_LDH,
   "label \"a_b\" contains U+005F, which is not a letter, digit or hyphen (--std3)"},
  {"-ab", true, ZP_IDNA_HYPHEN, "label \"-ab\" starts with a hyphen (--std3)"},
  {"ab-", true, ZP_IDNA_HYPHEN, "label \"ab-\" ends with a hyphen (--std3)"},
  /* Fullwidth letters: Python's nameprep folds them to "xn--zca", which decodes to U+00DF,
   * whose ToASCII is "ss" (table B.2), so the label is not a canonical ACE label. */
  {"\uff58\uff4e--\uff5a\uff43\uff41", false, ZP_IDNA_ACE_NOT_CANONICAL,
   "label \"\uff58\uff4e--\uff5a\uff43\uff41\" becomes an ACE label after Nameprep, and it is "
   "refused: ACE label does not round-trip through ToASCII"},
  {"0123456789012345678901234567890123456789012345678901234567890123", false, ZP_IDNA_TOO_LONG,
   "label \"0123456789012345678901234567890123456789012345678901234567890123\" is longer than 63 "
   "octets"},
};

Test(convert, bad_labels_name_the_label_and_the_rule)
{
  for (size_t i = 0; i < sizeof bads / sizeof *bads; i++) {
    char out[128], msg[512];
    zp_status st = run(bads[i].in, bads[i].std3, out, msg);
    cr_expect_eq(st, bads[i].st, "%s: %s (%s)", bads[i].in, zp_errname(st), msg);
    cr_expect_str_eq(msg, bads[i].msg, "%s", bads[i].in);
  }
}

/* Bidi (RFC 3454 section 6) through the policy: the code point the library names is its
 * business; the message must name the rule. */
Test(convert, bidi_violations_are_named)
{
  static const char *const in[] = {"\u05d0a", "\u05d01"};
  for (size_t i = 0; i < 2; i++) {
    char out[128], msg[512];
    zp_status st = run(in[i], false, out, msg);
    cr_expect(st == ZP_IDNA_BIDI_MIXED || st == ZP_IDNA_BIDI_ENDS, "%s", zp_errname(st));
    cr_expect_not_null(strstr(msg, "breaks the bidi rule"), "%s", msg);
    cr_expect_not_null(strstr(msg, "U+"), "%s", msg);
  }
}

/* The policy against GNU libidn on random labels: a label with a non-ASCII code point gets
 * idna_to_ascii_8z with IDNA_USE_STD3_ASCII_RULES (host rules on, unassigned refused); an
 * ASCII label that is not ACE comes out lowercased. Separators (U+002E, U+3002, U+FF0E,
 * U+FF61) are left out: libidn would split the label there, the name parser already has. */
static uint64_t rng = 88172645463325252u;

static uint32_t rnd(uint32_t n)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11) % n;
}

static uint32_t rnd_cp(void)
{
  static const uint32_t ranges[][2] = {
    {0x21, 0x7E}, {0xA0, 0x24F}, {0x300, 0x36F}, {0x370, 0x3FF}, {0x400, 0x4FF},
    {0x590, 0x5FF}, {0x600, 0x6FF}, {0x900, 0x97F}, {0xE00, 0xE7F}, {0x1100, 0x11FF},
    {0x2000, 0x206F}, {0x3000, 0x30FF}, {0x4E00, 0x4E80}, {0xAC00, 0xAC80}, {0xFB00, 0xFDFF},
    {0xFE00, 0xFFFF}, {0x10000, 0x1D7FF}, {0xE0000, 0xE007F},
  };
  for (;;) {
    const uint32_t *r = ranges[rnd(sizeof ranges / sizeof *ranges)];
    uint32_t cp = r[0] + rnd(r[1] - r[0] + 1);
    bool separator = cp == 0x2E || cp == 0x3002 || cp == 0xFF0E || cp == 0xFF61;
    if (!separator && !(cp >= 0xD800 && cp <= 0xDFFF))
      return cp;
  }
}

static size_t put_utf8(uint32_t cp, char *out)
{
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | cp >> 6);
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | cp >> 12);
    out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | cp >> 18);
  out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
  out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

Test(convert, agrees_with_libidn_on_random_labels, .timeout = 120)
{
  enum { N = 200000 };
  size_t ascii = 0, converted = 0, refused = 0;
  for (size_t iter = 0; iter < N; iter++) {
    char label[256];
    size_t len = 0, n = 1 + rnd(rnd(4) ? 12 : 40);
    bool all_ascii = rnd(4) == 0;
    for (size_t i = 0; i < n; i++) {
      uint32_t cp = all_ascii || rnd(3) == 0 ? 0x21 + rnd(0x5E) : rnd_cp();
      if (cp == '.')
        cp = 'a';
      len += put_utf8(cp, label + len);
    }
    label[len] = '\0';
    char out[128], msg[512];
    zp_status st = run(label, false, out, msg);
    bool has_high = false;
    for (size_t i = 0; i < len; i++)
      has_high |= (unsigned char)label[i] >= 0x80;
    bool ace = len >= 4 && strncasecmp(label, "xn--", 4) == 0;
    if (!has_high && !ace) {
      ascii++;
      char want[256];
      for (size_t i = 0; i <= len; i++)
        want[i] = (char)(label[i] >= 'A' && label[i] <= 'Z' ? label[i] + 32 : label[i]);
      if (len <= 63) {
        cr_assert_eq(st, ZP_OK, "%s: %s", label, msg);
        cr_assert_str_eq(out, want);
      } else {
        cr_assert_neq(st, ZP_OK, "%s", label);
      }
      continue;
    }
    if (!has_high)
      continue;   /* ACE labels: tests above */
    char *theirs = NULL;
    int rc = idna_to_ascii_8z(label, &theirs, IDNA_USE_STD3_ASCII_RULES);
    if (rc == IDNA_SUCCESS) {
      cr_assert_eq(st, ZP_OK, "%s: libidn gives %s, we say %s", label, theirs, msg);
      cr_assert_str_eq(out, theirs, "%s", label);
      converted++;
    } else {
      cr_assert_neq(st, ZP_OK, "%s: libidn refuses (%s), we give %s", label,
                    idna_strerror(rc), out);
      cr_assert_neq(msg[0], '\0', "%s: refused without a message", label);
      refused++;
    }
    free(theirs);
  }
  cr_expect_gt(ascii, N / 10);
  cr_expect_gt(converted, N / 20);
  cr_expect_gt(refused, N / 20);
}

/* Where a refusal points: the octet of the code point (or ASCII character) the rule is about,
 * counted by hand in UTF-8 ("ab" before U+2603 is two octets; "é" is two). */
Test(convert, refusals_point_at_the_code_point)
{
  static const struct {
    const char *in;
    bool std3, idna2008;
    size_t at;
  } cases[] = {
    {"ab\u2603c", false, true, 2},         /* NV8 under IDNA2008 */
    {"\u00e9\u2603", false, true, 2},
    {"ab\u0378c", false, false, 2},        /* unassigned in Unicode 3.2 */
    {"ab\u0378c", false, true, 2},         /* unassigned in Unicode 15.0 */
    {"x\u00e9\u200cy", false, true, 3},   /* ZWNJ out of context */
    {"ab\ue000", false, false, 2},         /* private use: prohibited by Nameprep (C.3) */
    {"a\u00a0b", false, false, 1},         /* Nameprep maps U+00A0 to a space (not LDH) */
    {"a\u00a0b", false, true, 1},          /* and so does UTS #46 */
    {"ab-\u00e9-", false, true, 5},        /* a hyphen at the end */
    {"ab--\u00e9", false, true, 2},        /* hyphens in the third and fourth places */
    {"\u0301ab", false, true, 0},          /* a mark first */
    {"a_b", true, false, 1},               /* --std3 */
    {"ab-", true, false, 2},
    {"xn--abc-", false, false, 0},         /* ACE: the label */
    {"\uff0d\u00fc", false, true, 0},     /* U+FF0D maps to a hyphen, first */
    {"\u00fc\uff0d", false, true, 2},     /* last */
    {"\u00fc-\ufe0f", false, true, 2},    /* last, then a code point mapped to nothing */
    /* fullwidth letters that Nameprep makes an ACE label: its detail is about what that
     * decodes to ("ab" and U+E000), not about the octets written */
    {"\uff58\uff4e--ab-ke4l", false, false, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char out[128], msg[512];
    size_t at;
    zp_status st = run_at(cases[i].in, cases[i].std3, cases[i].idna2008, out, msg, &at);
    cr_expect_neq(st, ZP_OK, "%s", cases[i].in);
    cr_expect_eq(at, cases[i].at, "%s: at %zu, want %zu (%s)", cases[i].in, at, cases[i].at, msg);
  }
}
