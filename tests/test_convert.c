/* test_convert.c -- the label policy; ACE forms from Python's encodings.idna (ToASCII) */
#include <criterion/criterion.h>
#include <string.h>

#include "convert.h"

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

static zp_status run(const char *in, bool std3, char *out, char *msg)
{
  zp_convert c = {.std3 = std3};
  zp_label_conv conv = zp_convert_policy(&c);
  uint8_t buf[ZP_LABEL_MAX + 1];
  size_t len = sizeof buf;
  msg[0] = '\0';
  zp_status st = conv.fn(conv.ctx, (const uint8_t *)in, strlen(in), buf, &len, msg, 512);
  if (st == ZP_OK) {
    memcpy(out, buf, len);
    out[len] = '\0';
  }
  return st;
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
