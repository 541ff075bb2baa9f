/* test_idna.c -- ToASCII/ToUnicode: RFC and Python vectors, and GNU libidn as the oracle */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idna.h"
#include "nameprep.h"
#include "nameprep_tables.h"
#include "punycode.h"
#include "utf8.h"

enum { CAP = 1024 };

#define STD3 ZP_IDNA_USE_STD3
#define UNAS ZP_IDNA_ALLOW_UNASSIGNED
#define NONA ZP_IDNA_STD3_NON_ASCII
#define ACE ZP_IDNA_CHECK_ACE

/* ---- vectors: RFC 3492 section 7.1, RFC 3490/3491 rules by hand, and Python's encodings.idna
 * ToASCII (an independent implementation) for the expected ACE forms ---- */
static const struct {
  const char *in;
  unsigned flags;
  zp_status st;
  const char *out;  /* on success */
  uint32_t cp;      /* on a code point failure */
  size_t offset;
} to_ascii[] = {
  {"Bücher", 0, ZP_OK, "xn--bcher-kva", 0, 0},
  {"MÜNCHEN", 0, ZP_OK, "xn--mnchen-3ya", 0, 0},
  {"ÄÖÜ", 0, ZP_OK, "xn--4ca0bs", 0, 0},
  {"ñ", 0, ZP_OK, "xn--ida", 0, 0},
  {"日本語", 0, ZP_OK, "xn--wgv71a119e", 0, 0},
  /* RFC 3492 7.1 (A) Arabic (Egyptian), (B) Chinese (simplified), (D) Czech */
  {"\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628"
   "\u064A\u061F", 0, ZP_OK, "xn--egbpdaj6bu4bxfgehfvwxn", 0, 0},
  {"他们为什么不说中文", 0, ZP_OK, "xn--ihqwcrb4cv8a8dqg056pqjye", 0, 0},
  {"Pročprostěnemluvíčesky", 0, ZP_OK, "xn--proprostnemluvesky-uyb24dma41a", 0, 0},
  /* B.2 folds ß to "ss": the result is ASCII, so no prefix (step 4) */
  {"ß", 0, ZP_OK, "ss", 0, 0},
  {"straße", 0, ZP_OK, "strasse", 0, 0},
  {"ａｂｃ", 0, ZP_OK, "abc", 0, 0},
  {"ＸＮ--ｂｃｈｅｒ-ｋｖａ", 0, ZP_OK, "xn--bcher-kva", 0, 0},
  /* ASCII is never altered (4.1), whatever its case or punctuation without UseSTD3 */
  {"WWW", 0, ZP_OK, "WWW", 0, 0},
  {"a_b", 0, ZP_OK, "a_b", 0, 0},
  {"_dmarc", NONA, ZP_OK, "_dmarc", 0, 0},
  {"*", 0, ZP_OK, "*", 0, 0},
  {"xn--abc-", 0, ZP_OK, "xn--abc-", 0, 0},
  {"a_b", STD3, ZP_IDNA_NOT_LDH, NULL, '_', 1},
  {"-abc", STD3, ZP_IDNA_HYPHEN, NULL, '-', 0},
  {"abc-", STD3, ZP_IDNA_HYPHEN, NULL, '-', 3},
  {"ä_b", 0, ZP_OK, "xn--_b-uia", 0, 0},
  {"ä_b", NONA, ZP_IDNA_NOT_LDH, NULL, '_', 2},
  {"ä_b", STD3, ZP_IDNA_NOT_LDH, NULL, '_', 2},
  {"ä-", 0, ZP_OK, "xn----zfa", 0, 0},
  {"ä-", NONA, ZP_IDNA_HYPHEN, NULL, '-', 2},
  /* U+FF3F FULLWIDTH LOW LINE becomes "_" under NFKC: the offset is the code point's */
  {"x\uFF3F", NONA, ZP_IDNA_NOT_LDH, NULL, '_', 1},
  /* the ACE prefix after Nameprep (step 5) */
  {"xn--bücher", 0, ZP_IDNA_ACE_PREFIX, NULL, 0, 0},
  {"XN--bücher", 0, ZP_IDNA_ACE_PREFIX, NULL, 0, 0},
  /* step 8: 1..63 code points; "ü" x n encodes to "xn--tda" and n - 1 "a" */
  {"", 0, ZP_IDNA_EMPTY, NULL, 0, 0},
  {"\u00AD", 0, ZP_IDNA_EMPTY, NULL, 0, 0},
  {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, ZP_OK,
   "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, 0},
  {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, ZP_IDNA_TOO_LONG,
   NULL, 0, 0},
  {"üüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüü", 0, ZP_OK,
   "xn--tdaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, 0},
  {"üüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüü", 0, ZP_IDNA_TOO_LONG,
   NULL, 0, 0},
  /* Nameprep's own failures, with the code point and where it is */
  {"a\u0221", 0, ZP_IDNA_UNASSIGNED, NULL, 0x221, 1},
  {"a\u0221", UNAS, ZP_OK, "xn--a-4xa", 0, 0},
  {"ab\u2028", 0, ZP_IDNA_PROHIBITED, NULL, 0x2028, 2},
  {"\u05D0a", 0, ZP_IDNA_BIDI_MIXED, NULL, 0, 0},
  {"\u05D01", 0, ZP_IDNA_BIDI_ENDS, NULL, 0, 0},
  {"\u05D0\u05D1", 0, ZP_OK, "xn--4dbc", 0, 0},
  /* invalid UTF-8: the offset of the bad sequence */
  {"ab\xC3", 0, ZP_UTF8_TRUNCATED, NULL, 0, 2},
  {"a\xED\xA0\x80", 0, ZP_UTF8_SURROGATE, NULL, 0, 1},
  /* CHECK_ACE: zonepuny's rule for ASCII "xn--" labels */
  {"xn--abc-", ACE, ZP_IDNA_ACE_ASCII, NULL, 0, 0},
  {"XN--MNCHEN-3YA", ACE, ZP_OK, "XN--MNCHEN-3YA", 0, 0},
  {"xn--mnchen-3yb", ACE, ZP_OK, "xn--mnchen-3yb", 0, 0},
};

Test(idna, to_ascii_vectors)
{
  for (size_t i = 0; i < sizeof to_ascii / sizeof to_ascii[0]; i++) {
    char out[CAP];
    size_t len = sizeof out;
    zp_idna_detail det = {0};
    zp_status st = zp_idna_label_to_ascii(to_ascii[i].in, strlen(to_ascii[i].in), out, &len,
                                          to_ascii[i].flags, &det);
    cr_expect_eq(st, to_ascii[i].st, "%zu \"%s\": %s, expected %s", i, to_ascii[i].in,
                 zp_errname(st), zp_errname(to_ascii[i].st));
    if (st == ZP_OK && to_ascii[i].out) {
      cr_expect(len == strlen(to_ascii[i].out) && memcmp(out, to_ascii[i].out, len) == 0,
                "%zu \"%s\" gave \"%.*s\"", i, to_ascii[i].in, (int)len, out);
    } else if (st != ZP_OK && to_ascii[i].cp) {
      cr_expect_eq(det.cp, to_ascii[i].cp, "%zu: U+%04X", i, (unsigned)det.cp);
      cr_expect_eq(det.offset, to_ascii[i].offset, "%zu: offset %zu", i, det.offset);
    } else if (st != ZP_OK && to_ascii[i].offset) {
      cr_expect_eq(det.offset, to_ascii[i].offset, "%zu: offset %zu", i, det.offset);
    }
  }
}

Test(idna, to_ascii_buffer_too_small)
{
  char out[16];
  size_t len = 5;
  cr_expect_eq(zp_idna_label_to_ascii("abcdef", 6, out, &len, 0, NULL), ZP_EBUFFER);
  len = 12;
  cr_expect_eq(zp_idna_label_to_ascii("Bücher", 7, out, &len, 0, NULL), ZP_EBUFFER);
  len = 13;
  cr_expect_eq(zp_idna_label_to_ascii("Bücher", 7, out, &len, 0, NULL), ZP_OK);
  cr_expect_eq(len, 13);
}

/* A label far longer than the stack scratch, that Nameprep maps almost entirely to nothing
 * (B.1: U+00AD SOFT HYPHEN): it must still convert, as libidn and Python do. */
Test(idna, long_input_mapped_to_nothing)
{
  char in[3 * 1000 + 3], out[CAP];
  size_t k = 0, len = sizeof out;
  for (int i = 0; i < 1000; i++) {
    in[k++] = '\xC2';
    in[k++] = '\xAD';
  }
  memcpy(in + k, "\xC3\xBC", 2);
  k += 2;
  cr_assert_eq(zp_idna_label_to_ascii(in, k, out, &len, 0, NULL), ZP_OK);
  cr_expect(len == 7 && memcmp(out, "xn--tda", 7) == 0);
}

/* ToUnicode: decoded text, or the input unchanged when a step fails (4.2). */
static const struct {
  const char *in;
  unsigned flags;
  const char *out;
} to_unicode[] = {
  {"xn--bcher-kva", 0, "bücher"},
  {"xn--Bcher-kva", 0, "Bücher"},
  /* the prefix in any case (section 5); decoding keeps the basic code points' case */
  {"XN--MNCHEN-3YA", 0, "MüNCHEN"},
  {"xn--mnchen-3yb", 0, "m\u01ABnchen"},
  {"xn--egbpdaj6bu4bxfgehfvwxn", 0,
   "\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628"
   "\u064A\u061F"},
  {"abc", 0, "abc"},
  {"Bücher", 0, "Bücher"},
  {"ＸＮ--ｂｃｈｅｒ-ｋｖａ", 0, "bücher"},
  /* decodes to ASCII: ToASCII gives "abc", not the input (step 7) */
  {"xn--abc-", 0, "xn--abc-"},
  {"xn--www-", 0, "xn--www-"},
  {"xn--", 0, "xn--"},
  {"xn--99999999999", 0, "xn--99999999999"},
  /* "xn--a-4xa" holds unassigned U+0221: step 6 fails unless AllowUnassigned */
  {"xn--a-4xa", 0, "xn--a-4xa"},
  {"xn--a-4xa", UNAS, "a\u0221"},
  /* "xn--_b-uia" is "ä_b": fine by default, not under UseSTD3ASCIIRules */
  {"xn--_b-uia", 0, "ä_b"},
  {"xn--_b-uia", STD3, "xn--_b-uia"},
  {"xn--_b-uia", NONA, "xn--_b-uia"},
};

Test(idna, to_unicode_vectors)
{
  for (size_t i = 0; i < sizeof to_unicode / sizeof to_unicode[0]; i++) {
    char out[CAP];
    size_t len = sizeof out;
    zp_status st = zp_idna_label_to_unicode(to_unicode[i].in, strlen(to_unicode[i].in), out,
                                            &len, to_unicode[i].flags);
    cr_expect_eq(st, ZP_OK, "%zu: %s", i, zp_errname(st));
    cr_expect(len == strlen(to_unicode[i].out) && memcmp(out, to_unicode[i].out, len) == 0,
              "%zu \"%s\" gave \"%.*s\"", i, to_unicode[i].in, (int)len, out);
  }
  char out[4];
  size_t len = sizeof out;
  cr_expect_eq(zp_idna_label_to_unicode("a\xFF", 2, out, &len, 0), ZP_UTF8_BAD_BYTE);
  len = sizeof out;
  cr_expect_eq(zp_idna_label_to_unicode("abcde", 5, out, &len, 0), ZP_EBUFFER);
}

/* Issue 4's ACE cases. "xn--mnchen-3yb" decodes to "m\u01ABnchen" (Python's punycode codec),
 * a valid label of its own. "xn--BCHER-..." below is Punycode of "BÜCHER" (unprepared: Nameprep
 * would fold it to "bücher", whose ACE form is xn--bcher-kva). */
static const struct {
  const char *label;
  zp_status st;
  const char *decoded;
} ace_cases[] = {
  {"xn--abc-", ZP_IDNA_ACE_ASCII, "abc"},
  {"xn--www-", ZP_IDNA_ACE_ASCII, "www"},
  {"XN--MNCHEN-3YA", ZP_OK, "MüNCHEN"},
  {"xn--mnchen-3ya", ZP_OK, "münchen"},
  {"xn--mnchen-3yb", ZP_OK, "m\u01ABnchen"},
  {"xn--BCHER-2pa", ZP_IDNA_ACE_NOT_CANONICAL, "BÜCHER"},
  {"xn--ss-", ZP_IDNA_ACE_ASCII, "ss"},
  /* "xn--zca" is "ß", which ToASCII maps to "ss": not canonical */
  {"xn--zca", ZP_IDNA_ACE_NOT_CANONICAL, "ß"},
  {"xn--a-4xa", ZP_IDNA_UNASSIGNED, "a\u0221"},
  {"xn--bcher-!", ZP_IDNA_ACE_DECODE, ""},
  {"xn--99999999999", ZP_IDNA_ACE_DECODE, ""},
  {"xn--", ZP_IDNA_ACE_ASCII, ""},
};

Test(idna, ace_check)
{
  for (size_t i = 0; i < sizeof ace_cases / sizeof ace_cases[0]; i++) {
    zp_idna_detail det;
    memset(&det, 0x55, sizeof det);
    zp_status st = zp_idna_ace_check(ace_cases[i].label, strlen(ace_cases[i].label),
                                     NONA, &det);
    cr_expect_eq(st, ace_cases[i].st, "%s: %s", ace_cases[i].label, zp_errname(st));
    cr_expect_str_eq(det.decoded, ace_cases[i].decoded, "%s", ace_cases[i].label);
  }
  zp_idna_detail det;
  cr_expect_eq(zp_idna_ace_check("xn--a-4xa", 9, NONA, &det), ZP_IDNA_UNASSIGNED);
  cr_expect_eq(det.cp, 0x221);
  cr_expect_eq(det.offset, 1);
  cr_expect_eq(zp_idna_ace_check("abc", 3, 0, NULL), ZP_EINVAL);
}

/* Whole names. */
static const struct {
  const char *in;
  unsigned flags;
  zp_status st;
  const char *out;
  size_t offset, label_len;
} names[] = {
  {"Bücher.example", 0, ZP_OK, "xn--bcher-kva.example", 0, 0},
  {"Bücher.example.", 0, ZP_OK, "xn--bcher-kva.example.", 0, 0},
  {"a\u3002b\uFF0Ec\uFF61d", 0, ZP_OK, "a.b.c.d", 0, 0},
  {"日本語\u3002jp\u3002", 0, ZP_OK, "xn--wgv71a119e.jp.", 0, 0},
  {"", 0, ZP_OK, "", 0, 0},
  {".", 0, ZP_OK, ".", 0, 0},
  {"\u3002", 0, ZP_OK, ".", 0, 0},
  {"a..b", 0, ZP_IDNA_EMPTY, NULL, 2, 0},
  {".a", 0, ZP_IDNA_EMPTY, NULL, 0, 0},
  {"a.b..", 0, ZP_IDNA_EMPTY, NULL, 4, 0},
  {"ok.xn--abc-.example", ACE | NONA, ZP_IDNA_ACE_ASCII, NULL, 3, 8},
  {"ok.a_b.example", STD3, ZP_IDNA_NOT_LDH, NULL, 3, 3},
  {"ok.ä_b.example", NONA, ZP_IDNA_NOT_LDH, NULL, 3, 4},
};

Test(idna, names)
{
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char out[CAP];
    size_t len = sizeof out;
    zp_idna_detail det = {0};
    zp_status st = zp_idna_name_to_ascii(names[i].in, strlen(names[i].in), out, &len,
                                         names[i].flags, &det);
    cr_expect_eq(st, names[i].st, "%zu \"%s\": %s", i, names[i].in, zp_errname(st));
    if (st == ZP_OK)
      cr_expect(len == strlen(names[i].out) && memcmp(out, names[i].out, len) == 0,
                "%zu \"%s\" gave \"%.*s\"", i, names[i].in, (int)len, out);
    else {
      cr_expect_eq(det.offset, names[i].offset, "%zu: offset %zu", i, det.offset);
      cr_expect_eq(det.label_len, names[i].label_len, "%zu: label_len %zu", i, det.label_len);
    }
  }
}

/* 255 octets of wire form: four labels of 63 "a" and a fifth of one octet is 1 + 4*64 + 2 = 259;
 * 3 * 64 + 62 + 1 = 255 fits exactly. */
Test(idna, name_length)
{
  char in[CAP], out[CAP];
  size_t k = 0, len = sizeof out;
  for (int l = 0; l < 4; l++) {
    memset(in + k, 'a', l < 3 ? 63 : 61);
    k += l < 3 ? 63 : 61;
    in[k++] = '.';
  }
  cr_expect_eq(zp_idna_name_to_ascii(in, k, out, &len, 0, NULL), ZP_OK);
  cr_expect_eq(len, k);
  len = sizeof out;
  cr_expect_eq(zp_idna_name_to_ascii(in, k - 1, out, &len, 0, NULL), ZP_OK);
  in[k - 1] = 'a';
  in[k] = '.';
  len = sizeof out;
  cr_expect_eq(zp_idna_name_to_ascii(in, k + 1, out, &len, 0, NULL), ZP_IDNA_NAME_TOO_LONG);
  len = sizeof out;
  cr_expect_eq(zp_idna_name_to_ascii(in, k, out, &len, 0, NULL), ZP_IDNA_NAME_TOO_LONG);
}

Test(idna, name_to_unicode)
{
  static const char *const cases[][2] = {
    {"xn--bcher-kva.example.", "bücher.example."},
    {"xn--abc-.xn--wgv71a119e\u3002jp", "xn--abc-.日本語.jp"},
    {"", ""},
    {".", "."},
    {"a..b", "a..b"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char out[CAP];
    size_t len = sizeof out;
    cr_expect_eq(zp_idna_name_to_unicode(cases[i][0], strlen(cases[i][0]), out, &len, 0), ZP_OK);
    cr_expect(len == strlen(cases[i][1]) && memcmp(out, cases[i][1], len) == 0,
              "\"%s\" gave \"%.*s\"", cases[i][0], (int)len, out);
  }
}
