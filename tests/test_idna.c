/* test_idna.c -- ToASCII/ToUnicode: RFC and Python vectors, and GNU libidn as the oracle */
#include <criterion/criterion.h>
#include <idna.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idna/idna.h"
#include "idna/nameprep.h"
#include "idna/nameprep_tables.h"
#include "idna/punycode.h"
#include "idna/utf8.h"
#include "xorshift.h"

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

/* U+0000, which the libidn comparison cannot pass through its NUL-terminated API: it is ASCII,
 * so ToASCII leaves it alone (4.1) unless UseSTD3ASCIIRules refuses it as non-LDH. */
Test(idna, nul_code_point)
{
  char out[8];
  size_t len = sizeof out;
  zp_idna_detail det;
  cr_expect_eq(zp_idna_label_to_ascii("a\0b", 3, out, &len, 0, NULL), ZP_OK);
  cr_expect(len == 3 && memcmp(out, "a\0b", 3) == 0);
  len = sizeof out;
  cr_expect_eq(zp_idna_label_to_ascii("a\0b", 3, out, &len, STD3, &det), ZP_IDNA_NOT_LDH);
  cr_expect_eq(det.offset, 1);
  len = sizeof out;
  cr_expect_eq(zp_idna_label_to_ascii("\xC3\xA4\0", 3, out, &len, NONA, &det), ZP_IDNA_NOT_LDH);
  cr_expect_eq(det.offset, 2);
}

/* ToUnicode of a long label that Nameprep shortens into an ACE label: 500 soft hyphens (mapped
 * to nothing) in front of "xn--bcher-kva" take the heap path and still decode. */
Test(idna, to_unicode_long_input)
{
  char in[1100], out[4 * 1100];
  size_t k = 0, len = sizeof out;
  for (int i = 0; i < 500; i++) {
    in[k++] = '\xC2';
    in[k++] = '\xAD';
  }
  memcpy(in + k, "xn--bcher-kva", 13);
  k += 13;
  cr_assert_eq(zp_idna_label_to_unicode(in, k, out, &len, 0), ZP_OK);
  cr_expect(len == 7 && memcmp(out, "bücher", 7) == 0, "gave \"%.*s\"", (int)len, out);
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

/* ---- differential against GNU libidn 1.41 (idna_to_ascii_8z, idna_to_unicode_8z8z) ---- */

/* Flags are handed to libidn as they are: the two libraries give these the same values. */
_Static_assert(IDNA_ALLOW_UNASSIGNED == ZP_IDNA_ALLOW_UNASSIGNED &&
               IDNA_USE_STD3_ASCII_RULES == ZP_IDNA_USE_STD3, "libidn's flags are ours");

/* libidn composes a Hangul L jamo with a following V jamo (and a T after that) even when
 * combining marks stand between them (see test_nameprep.c, which pins the same difference in
 * Nameprep alone). This rewrites our Nameprep output the way libidn would. */
static int is_mark(uint32_t c)
{
  static const zp_u_table t = {zp_np_stage1, zp_np_stage2, zp_np_recs, zp_np_data};
  return zp_u_rec_of(&t, c)->ccc != 0;
}

static size_t libidn_hangul(uint32_t *s, size_t n)
{
  uint32_t marks[CAP];
  size_t w = 0;
  for (size_t i = 0; i < n;) {
    size_t nm = 0, j = i + 1;
    uint32_t syl = s[i];
    if (s[i] - 0x1100u < 19) {
      while (j < n && is_mark(s[j]))
        j++;
      if (j == n || s[j] - 0x1161u >= 21) {
        s[w++] = s[i++];
        continue;
      }
      for (size_t k = i + 1; k < j; k++)
        marks[nm++] = s[k];
      syl = 0xAC00 + ((s[i] - 0x1100) * 21 + (s[j] - 0x1161)) * 28;
      j++;
    }
    if (syl - 0xAC00u < 11172 && (syl - 0xAC00) % 28 == 0) {
      size_t k = j;
      while (k < n && is_mark(s[k]))
        k++;
      if (k < n && s[k] - 0x11A8u < 27) {
        for (; j < k; j++)
          marks[nm++] = s[j];
        syl += s[k] - 0x11A7;
        j = k + 1;
      }
    }
    s[w++] = syl;
    for (size_t k = 0; k < nm; k++)
      s[w++] = marks[k];
    i = j;
  }
  return w;
}

/* Is libidn's ToASCII result what ours would be with libidn's Hangul composition? */
static bool hangul_explains(const char *in, unsigned flags, const char *theirs)
{
  uint32_t cps[CAP], prep[CAP * 18], bad;
  size_t n = CAP, m = sizeof prep / sizeof prep[0];
  char out[CAP];
  if (zp_utf8_decode((const uint8_t *)in, strlen(in), cps, &n, NULL) != ZP_OK ||
      zp_nameprep(cps, n, prep, &m, flags & UNAS ? ZP_NAMEPREP_ALLOW_UNASSIGNED : 0, &bad) !=
          ZP_OK)
    return false;
  size_t k = libidn_hangul(prep, m), len = sizeof out - 4;
  if (k == m || zp_puny_encode(prep, k, NULL, out + 4, &len) != ZP_OK)
    return false;
  memcpy(out, "xn--", 4);
  out[len + 4] = 0;
  return strcmp(out, theirs) == 0;
}

/* The flag sets compared. Ours with ZP_IDNA_STD3_NON_ASCII is libidn with UseSTD3ASCIIRules on
 * a label holding a non-ASCII code point and without it on an ASCII one: zonepuny's rule is
 * checked against the oracle too. */
static const unsigned flag_sets[] = {0, UNAS, STD3, STD3 | UNAS, NONA, NONA | UNAS};
enum { NFLAGS = sizeof flag_sets / sizeof flag_sets[0] };

static int libidn_flags(unsigned fl, const char *in)
{
  bool ascii = true;
  for (const char *p = in; *p; p++)
    ascii &= (unsigned char)*p < 0x80;
  return (int)((fl & (UNAS | STD3)) | ((fl & NONA) && !ascii ? STD3 : 0));
}

enum verdict { SAME, HANGUL_DIFF, OTHER_DIFF };

typedef struct tally {
  size_t diff, hangul, ok, calls;
} tally;

/* ToUnicode of one name both ways; ours never fails on UTF-8, libidn's must then succeed. */
static bool same_unicode(const char *in, unsigned fl, char *why, size_t whylen)
{
  char ours[4 * CAP], *theirs = NULL;
  size_t len = sizeof ours - 1;
  zp_status st = zp_idna_name_to_unicode(in, strlen(in), ours, &len, fl);
  /* ToUnicode's step 6 runs ToASCII on the decoded text, which is not ASCII: under
   * ZP_IDNA_STD3_NON_ASCII that is libidn's UseSTD3ASCIIRules. */
  int rc = idna_to_unicode_8z8z(in, &theirs, (int)((fl & (UNAS | STD3)) | (fl & NONA ? STD3 : 0)));
  bool same = (st == ZP_OK) == (rc == 0);
  if (same && st == ZP_OK) {
    ours[len] = 0;
    same = strcmp(ours, theirs) == 0;
  }
  if (!same)
    snprintf(why, whylen, "ToUnicode flags %u: ours %s \"%s\", libidn %d \"%s\"", fl,
             zp_errname(st), st == ZP_OK ? ours : "", rc, rc == 0 ? theirs : "");
  free(theirs);
  return same;
}

static enum verdict compare(const char *in, const unsigned *fls, size_t nfl, char *why,
                            size_t whylen, tally *t);

/* ZP_IDNA_STD3_NON_ASCII chooses per label, libidn's flags hold for a whole name: a name of
 * several labels is compared label by label (the name rules are compared under the other
 * flag sets). Returns false for a single label; *v gets the worst verdict. */
static bool split_labels(const char *in, unsigned fl, char *why, size_t whylen, tally *t,
                         enum verdict *v)
{
  static const char *const seps[] = {".", "\u3002", "\uFF0E", "\uFF61"};
  const char *p = in;
  bool split = false;
  while (*p) {
    const char *end = p + strlen(p);
    size_t seplen = 0;
    for (size_t i = 0; i < 4; i++) {
      const char *q = strstr(p, seps[i]);
      if (q && q < end) {
        end = q;
        seplen = strlen(seps[i]);
      }
    }
    if (!seplen && !split)
      return false;
    split = true;
    if (end > p && *v != OTHER_DIFF) {
      char label[CAP];
      memcpy(label, p, (size_t)(end - p));
      label[end - p] = 0;
      enum verdict lv = compare(label, &fl, 1, why, whylen, t);
      if (lv > *v)
        *v = lv;
    }
    p = end + seplen;
  }
  return true;
}

/* ToASCII of one name with the flag sets fls[0..nfl), then ToUnicode of the input and of the
 * result. */
static enum verdict compare(const char *in, const unsigned *fls, size_t nfl, char *why,
                            size_t whylen, tally *t)
{
  enum verdict v = SAME;
  for (size_t k = 0; k < nfl; k++) {
    unsigned fl = fls[k];
    if ((fl & NONA) && split_labels(in, fl, why, whylen, t, &v)) {
      if (v == OTHER_DIFF)
        return v;
      continue;
    }
    char ours[CAP], *theirs = NULL;
    size_t len = sizeof ours - 1;
    zp_status st = zp_idna_name_to_ascii(in, strlen(in), ours, &len, fl, NULL);
    int rc = idna_to_ascii_8z(in, &theirs, libidn_flags(fl, in));
    t->calls++;
    if (st == ZP_OK)
      ours[len] = 0;
    bool same = (st == ZP_OK) == (rc == 0) && (st != ZP_OK || strcmp(ours, theirs) == 0);
    if (!same && st == ZP_OK && rc == 0 && hangul_explains(in, fl, theirs)) {
      v = HANGUL_DIFF;
      free(theirs);
      continue;
    }
    if (!same) {
      snprintf(why, whylen, "ToASCII flags %u: ours %s \"%s\", libidn %d \"%s\"", fl,
               zp_errname(st), st == ZP_OK ? ours : "", rc, rc == 0 ? theirs : "");
      free(theirs);
      return OTHER_DIFF;
    }
    free(theirs);
    t->ok += st == ZP_OK;
    if (!same_unicode(in, fl, why, whylen))
      return OTHER_DIFF;
    if (st == ZP_OK && strcmp(ours, in) != 0 && !same_unicode(ours, fl, why, whylen))
      return OTHER_DIFF;
  }
  return v;
}

static size_t put_utf8(char *p, uint32_t cp)
{
  /* Surrogates as their three-byte pattern: neither side may accept them. */
  if (cp >= 0xD800 && cp <= 0xDFFF) {
    p[0] = (char)0xED;
    p[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    p[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  size_t o = 4;
  cr_assert_eq(zp_utf8_encode(&cp, 1, (uint8_t *)p, &o), ZP_OK);
  return o;
}

/* U+0000 cannot be given to libidn's NUL-terminated API, so it starts at U+0001. */
static void every_code_point(const char *pre, const char *post)
{
  tally t = {0};
  for (uint32_t cp = 1; cp <= 0x10FFFF; cp++) {
    char in[32], why[8 * CAP];
    size_t k = strlen(pre);
    memcpy(in, pre, k);
    k += put_utf8(in + k, cp);
    strcpy(in + k, post);
    enum verdict v = compare(in, flag_sets, NFLAGS, why, sizeof why, &t);
    t.hangul += v == HANGUL_DIFF;
    if (v == OTHER_DIFF && t.diff++ < 30)
      fprintf(stderr, "U+%04X in \"%s...%s\": %s\n", (unsigned)cp, pre, post, why);
  }
  cr_expect_eq(t.diff, 0, "%zu code points differ", t.diff);
  cr_expect_eq(t.hangul, 0, "%zu Hangul differences", t.hangul);
  cr_log_info("\"%s...%s\": %zu conversions, %zu successful", pre, post, t.calls, t.ok);
}

Test(idna, every_code_point_alone_agrees_with_libidn, .timeout = 300)
{
  every_code_point("", "");
}

Test(idna, every_code_point_between_letters_agrees_with_libidn, .timeout = 300)
{
  every_code_point("a", "b");
}

/* xorshift64*: fixed seed, the same labels on every run. */
static uint64_t rng_state = 0x2545F4914F6CDD1Du;
static uint32_t rnd(uint32_t n)
{
  return (uint32_t)(xorshift64star(&rng_state) >> 32) % n;
}

/* Scripts (Latin, Greek, Cyrillic, Hebrew, Arabic, Devanagari, Thai, Tibetan, Hangul, CJK,
 * kana), combining marks, Hangul jamo, B.1 characters, compatibility forms, fullwidth ASCII,
 * separators, and the whole range (mostly unassigned). */
static const struct { uint32_t lo, hi; } pools[] = {
  {'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {'-', '-'}, {0x20, 0x7E},
  {0x00A0, 0x024F}, {0x0300, 0x036F}, {0x0370, 0x03FF}, {0x0400, 0x04FF}, {0x0591, 0x05C4},
  {0x05D0, 0x05F4}, {0x0600, 0x06FF}, {0x0660, 0x0669}, {0x0900, 0x097F}, {0x0E00, 0x0E7F},
  {0x0F00, 0x0FFF}, {0x1100, 0x1112}, {0x1161, 0x1175}, {0x11A8, 0x11C2}, {0xAC00, 0xD7A3},
  {0x1E00, 0x1FFF}, {0x2000, 0x218F}, {0x2460, 0x24FF}, {0x3000, 0x30FF}, {0x4E00, 0x9FA5},
  {0xF900, 0xFAFF}, {0xFB00, 0xFDFF}, {0xFE20, 0xFE2F}, {0xFE70, 0xFEFF}, {0xFF00, 0xFFEF},
  {0x1D400, 0x1D7FF}, {0x00AD, 0x00AD}, {0x200B, 0x200D}, {0x3002, 0x3002}, {0xFF0E, 0xFF0E},
  {0x0221, 0x0221}, {0xE0001, 0xE007F}, {0x1, 0x10FFFF},
};

static uint32_t random_cp(size_t pool)
{
  for (;;) {
    uint32_t cp = pools[pool].lo + rnd(pools[pool].hi - pools[pool].lo + 1);
    if (cp != '.' && (cp < 0xD800 || cp > 0xDFFF))
      return cp;
  }
}

/* One label: a run of code points from one to three pools, ASCII runs that push it towards
 * 63 octets, an ACE prefix now and then, or an ACE label made by libidn, recased or damaged. */
static void random_label(char *in, size_t cap)
{
  size_t k = 0, np = sizeof pools / sizeof pools[0];
  uint32_t kind = rnd(10);
  if (kind == 0) {
    size_t len = 1 + rnd(70);
    for (size_t j = 0; j < len; j++)
      in[k++] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789--_"[rnd(65)];
    in[k] = 0;
    return;
  }
  if (kind <= 2)
    k += (size_t)sprintf(in, "%s", rnd(2) ? "xn--" : "XN--");
  size_t p[3] = {rnd((uint32_t)np), rnd((uint32_t)np), rnd((uint32_t)np)};
  size_t len = 1 + rnd(kind == 3 ? 60 : 20);
  for (size_t j = 0; j < len && k + 8 < cap; j++)
    k += put_utf8(in + k, random_cp(p[rnd(kind % 3 + 1)]));
  if (kind == 4)
    for (size_t j = rnd(60); j > 0 && k + 8 < cap; j--)
      in[k++] = (char)('a' + rnd(26));
  in[k] = 0;
  if (kind >= 8) {
    /* an ACE form from the oracle, then maybe uppercased or with one digit changed */
    char *ace = NULL;
    if (idna_to_ascii_8z(in, &ace, IDNA_ALLOW_UNASSIGNED) == 0 && strlen(ace) < cap) {
      strcpy(in, ace);
      size_t n = strlen(in);
      if (kind == 9 && n > 4)
        in[4 + rnd((uint32_t)(n - 4))] = "abcxyz019-"[rnd(10)];
      else if (rnd(2))
        for (size_t j = 0; j < n; j++)
          if (rnd(2) && in[j] >= 'a' && in[j] <= 'z')
            in[j] = (char)(in[j] - 32);
    }
    free(ace);
  }
}

Test(idna, random_labels_agree_with_libidn, .timeout = 600)
{
  tally t = {0};
  for (long i = 0; i < 1000000; i++) {
    char in[CAP], why[8 * CAP];
    random_label(in, 400);
    /* zonepuny's flags on every label, and one other set in turn */
    unsigned fls[2] = {NONA, flag_sets[i % NFLAGS]};
    enum verdict v = compare(in, fls, fls[1] == NONA ? 1 : 2, why, sizeof why, &t);
    t.hangul += v == HANGUL_DIFF;
    if (v == OTHER_DIFF && t.diff++ < 30)
      fprintf(stderr, "random %ld \"%s\": %s\n", i, in, why);
  }
  cr_expect_eq(t.diff, 0, "%zu random labels differ", t.diff);
  /* each holds an L jamo, combining marks, then a V jamo; pinned so that a change shows */
  cr_expect_eq(t.hangul, 9, "%zu labels differ only by libidn's blocked Hangul composition",
               t.hangul);
  cr_log_info("random: %zu conversions, %zu successful, %zu Hangul differences", t.calls, t.ok,
              t.hangul);
}

/* Arbitrary bytes, most of them not UTF-8: both refuse what is not UTF-8 (libidn 1.41 validates
 * too), nothing crashes, and the rest agrees as above. */
Test(idna, random_bytes_agree_with_libidn, .timeout = 300)
{
  static const unsigned char interesting[] = {0x00, 0x2D, 0x2E, 0x41, 0x61, 0x78, 0x6E, 0x7F,
                                               0x80, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xDF,
                                               0xE0, 0xE3, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
  tally t = {0};
  for (long i = 0; i < 200000; i++) {
    char in[80], why[8 * CAP];
    size_t len = 1 + rnd(40);
    for (size_t j = 0; j < len; j++) {
      unsigned char c = rnd(2) ? interesting[rnd(sizeof interesting)] : (unsigned char)rnd(256);
      in[j] = (char)(c ? c : 'a');
    }
    in[len] = 0;
    unsigned fls[1] = {flag_sets[i % NFLAGS]};
    enum verdict v = compare(in, fls, 1, why, sizeof why, &t);
    if (v != SAME && t.diff++ < 30)
      fprintf(stderr, "bytes %ld: %s\n", i, why);
  }
  cr_expect_eq(t.diff, 0, "%zu byte strings differ", t.diff);
  cr_log_info("bytes: %zu conversions, %zu successful", t.calls, t.ok);
}
