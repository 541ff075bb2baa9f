/* test_idna2008.c -- IDNA2008 at Unicode 15.0.0: the generated tables against RFC 5892's derived
 * property as Unicode publishes it (tests/data/idna/Idna2008-15.0.0.txt), the conversion
 * against Unicode's IdnaTestV2.txt and ICU 72, and libidn2 as a second opinion */
#include <criterion/criterion.h>
#include <idn2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "idna/idna2008.h"
#include "idna/idna2008_tables.h"
#include "idna/utf8.h"
#include "xorshift.h"

#include "icu.h"
#include "ucd.h"

static const zp_u_table t8 = {zp_i8_stage1, zp_i8_stage2, zp_i8_recs, zp_i8_data};

#define DATA "tests/data/idna/"

/* RFC 5892 section 2.9 (Unassigned) leaves out the noncharacters, which are DISALLOWED. */
static bool noncharacter(uint32_t cp)
{
  return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

/* RFC 5892's category of each code point (P, J, O, D, U), from Unicode's file. */
static const char *categories(void)
{
  const char *c = zp_rfc5892_categories();
  cr_assert_not_null(c, "tests/data/idna/Idna2008-15.0.0.txt: run from the repository's top");
  return c;
}

Test(idna2008, tables_agree_with_the_derived_property)
{
  const char *category = categories();
  size_t valid = 0;
  for (uint32_t cp = 0; cp < 0x110000; cp++) {
    unsigned fl = zp_u_rec_of(&t8, cp)->flags;
    char c = category[cp];
    cr_assert(c && c != '?', "U+%04X missing from the file, or of no category (%c)", cp, c);
    bool allowed = c == 'P' || c == 'J' || c == 'O';
    /* U+002E is valid in UTS #46 and DISALLOWED here: it is the label separator, never in a
     * label */
    if (cp != 0x2E)
      cr_assert_eq(!(fl & ZP_I8_INVALID), allowed, "U+%04X: %c, flags %#x", cp, c, fl);
    cr_assert_eq(!!(fl & ZP_I8_CONTEXT), c == 'J' || c == 'O', "U+%04X: %c", cp, c);
    cr_assert_eq(c == 'U', (fl & ZP_I8_UNASSIGNED) && !noncharacter(cp), "U+%04X: %c", cp, c);
    valid += allowed;
  }
  cr_assert_gt(valid, 100000, "%zu valid code points", valid);
}

/* ---- Unicode's conformance tests for UTS #46 (IdnaTestV2.txt, 15.0.0) ---- */

/* "\u00DF" and "\x{1F4A9}" escapes of the file, into UTF-8. */
static size_t unescape(const char *s, char *out)
{
  size_t w = 0;
  while (*s) {
    uint32_t cp;
    if (s[0] == '\\' && s[1] == 'u') {
      char hex[5] = {s[2], s[3], s[4], s[5], 0};
      cp = (uint32_t)strtoul(hex, NULL, 16);
      s += 6;
    } else if (s[0] == '\\' && s[1] == 'x' && s[2] == '{') {
      char *end;
      cp = (uint32_t)strtoul(s + 3, &end, 16);
      s = end + 1;
    } else {
      out[w++] = *s++;
      continue;
    }
    uint8_t b[4];
    size_t k = sizeof b;
    cr_assert_eq(zp_utf8_encode(&cp, 1, b, &k), ZP_OK);
    memcpy(out + w, b, k);
    w += k;
  }
  out[w] = 0;
  return w;
}

/* Column i (0-based) of a line, trimmed, into out; false when the line has fewer. */
static bool column(const char *line, int i, char *out, size_t cap)
{
  const char *p = line;
  for (int k = 0; k < i; k++) {
    p = strchr(p, ';');
    if (!p)
      return false;
    p++;
  }
  const char *end = strpbrk(p, ";#\n");
  if (!end)
    end = p + strlen(p);
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  size_t n = (size_t)(end - p) < cap - 1 ? (size_t)(end - p) : cap - 1;
  memcpy(out, p, n);
  out[n] = 0;
  return true;
}

/* name with its label separators (U+3002, U+FF0E, U+FF61 as well as U+002E) made "." */
static void dots(const char *name, char *out)
{
  size_t w = 0;
  for (const unsigned char *p = (const unsigned char *)name; *p;) {
    if ((p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x82) ||
        (p[0] == 0xEF && p[1] == 0xBC && p[2] == 0x8E) ||
        (p[0] == 0xEF && p[1] == 0xBD && p[2] == 0xA1)) {
      out[w++] = '.';
      p += 3;
    } else {
      out[w++] = (char)*p++;
    }
  }
  out[w] = 0;
}

/* Whether a label of name (UTF-8, dots between labels) is plain ASCII, not "xn--", and holds a
 * code point that is no letter, digit or hyphen, or a hyphen where STD3 has none. */
static bool has_ascii_non_ldh_label(const char *name)
{
  for (const char *p = name; *p;) {
    size_t n = strcspn(p, ".");
    bool ascii = true, ldh = n > 0 && p[0] != '-' && p[n - 1] != '-' &&
                            !(n >= 4 && p[2] == '-' && p[3] == '-');
    for (size_t i = 0; i < n; i++) {
      unsigned char c = (unsigned char)p[i];
      ascii &= c < 0x80;
      ldh &= c == '-' || (unsigned)((c | 0x20) - 'a') < 26 || (unsigned)(c - '0') < 10;
    }
    if (ascii && !ldh && !(n >= 4 && strncasecmp(p, "xn--", 4) == 0))
      return true;
    p += n + (p[n] == '.');
  }
  return false;
}

/* Whether a label of name is plain ASCII, not "xn--", and breaks RFC 5893's rule for a
 * left-to-right label (rules 1, 5, 6: a letter first, a letter or digit last). */
static bool has_ascii_bidi_breaker(const char *name)
{
  for (const char *p = name; *p;) {
    size_t n = strcspn(p, ".");
    bool ascii = true;
    for (size_t i = 0; i < n; i++)
      ascii &= (unsigned char)p[i] < 0x80;
    if (ascii && n > 0 && !(n >= 4 && strncasecmp(p, "xn--", 4) == 0)) {
      unsigned char a = (unsigned char)p[0], z = (unsigned char)p[n - 1];
      if ((unsigned)((a | 0x20) - 'a') >= 26 ||
          ((unsigned)((z | 0x20) - 'a') >= 26 && (unsigned)(z - '0') >= 10))
        return true;
    }
    p += n + (p[n] == '.');
  }
  return false;
}

/* Whether every code of a status list ("[B1, V6]") is one zonepuny leaves to the zone for a
 * plain-ASCII label: STD3 (U1, and P1, V6 where a plain-ASCII label is not LDH), the hyphen
 * rules (V2, V3), DNS lengths (A4_1, A4_2, P4, X4_2), the Bidi rule (B1-B6, where a plain-ASCII
 * label breaks it). */
static bool only_ascii_codes(const char *status, const char *name)
{
  static const char *const ok[] = {"U1", "V2", "V3", "B1", "B2", "B3", "B4", "B5", "B6",
                                   "A4_1", "A4_2", "P4", "X4_2", "P1", "V6"};
  char dotted[1024];
  dots(name, dotted);
  bool std3 = has_ascii_non_ldh_label(dotted), bidi = has_ascii_bidi_breaker(dotted);
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", status);
  for (char *t = strtok(buf, "[], "); t; t = strtok(NULL, "[], ")) {
    bool known = false;
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
      known |= strcmp(t, ok[i]) == 0 &&
               (std3 || (strcmp(t, "P1") != 0 && strcmp(t, "V6") != 0)) &&
               (bidi || t[0] != 'B');
    if (!known)
      return false;
  }
  return true;
}

static bool eq_nocase_ascii(const char *a, size_t n, const char *b)
{
  if (strlen(b) != n)
    return false;
  for (size_t i = 0; i < n; i++) {
    unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
    if (x != y && !(x < 0x80 && y < 0x80 && (x | 0x20) == (y | 0x20) && (unsigned)((x | 0x20) - 'a') < 26))
      return false;
  }
  return true;
}

/* Every toAsciiN and toUnicode row. zonepuny's deliberate differences, each counted:
 * - a label that is plain ASCII is the zone's own (no STD3, hyphen, Bidi or length rule; its
 *   case kept): rows whose only errors are those codes and whose name zonepuny takes;
 * - IDNA2008 refuses the symbols UTS #46 keeps (NV8, XV8): rows that expect success and fail
 *   with ZP_IDNA_NV8;
 * - ToUnicode copies a label that fails as it was written, where UTS #46 shows it mapped: a
 *   row with errors is held to ToASCII failing. */
Test(idna2008, idna_test_v2_15_0)
{
  FILE *f = fopen(DATA "IdnaTestV2-15.0.0.txt", "r");
  cr_assert_not_null(f, "run from the repository's top");
  char line[4096];
  size_t rows = 0, ascii_policy = 0, nv8 = 0, unicode_rows = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n')
      continue;
    char c[7][1024], source[1024], uni[1024], asc[1024];
    for (int i = 0; i < 5; i++)
      cr_assert(column(line, i, c[i], sizeof c[i]), "short line: %s", line);
    unescape(c[0], source);
    unescape(c[1][0] ? c[1] : c[0], uni);
    const char *ustatus = c[2];
    unescape(c[3][0] ? c[3] : (c[1][0] ? c[1] : c[0]), asc);
    const char *astatus = c[4][0] ? (strcmp(c[4], "[]") == 0 ? "" : c[4]) : ustatus;
    rows++;

    char out[4096];
    size_t n = sizeof out;
    zp_idna_detail det;
    zp_status st = zp_idna2008_name_to_ascii(source, strlen(source), out, &n,
                                             ZP_IDNA_CHECK_ACE, &det);
    if (!astatus[0]) {
      if (st == ZP_IDNA_NV8) {
        nv8++;
        continue;
      }
      cr_assert_eq(st, ZP_OK, "toAsciiN %s: %s (%s, U+%04X)", c[0], zp_errname(st),
                   zp_strerror(st), det.cp);
      cr_assert(eq_nocase_ascii(out, n, asc), "toAsciiN %s: %.*s, want %s", c[0], (int)n, out,
                asc);
    } else if (st == ZP_OK) {
      cr_assert(only_ascii_codes(astatus, source), "toAsciiN %s: taken, want %s", c[0], astatus);
      ascii_policy++;
    }
    /* toUnicode */
    if (!ustatus[0]) {
      char u[4096];
      size_t un = sizeof u;
      cr_assert_eq(zp_idna2008_name_to_unicode(source, strlen(source), u, &un, 0), ZP_OK);
      if (st == ZP_IDNA_NV8)
        continue;
      cr_assert(eq_nocase_ascii(u, un, uni), "toUnicode %s: %.*s, want %s", c[0], (int)un, u,
                uni);
      unicode_rows++;
    }
  }
  fclose(f);
  cr_assert_eq(rows, 6235, "%zu rows", rows);
  cr_log_info("IdnaTestV2 15.0.0: %zu rows; taken as zone policy for ASCII labels: %zu; "
              "NV8/XV8 refused: %zu; toUnicode rows compared: %zu", rows, ascii_policy, nv8,
              unicode_rows);
}

/* ---- ICU 72 (UTS #46 at Unicode 15.0, non-transitional, STD3, Bidi, CONTEXTJ, CONTEXTO) ---- */

typedef struct verdict {
  bool ok;
  uint32_t errors;       /* ICU's */
  char out[1024];
  size_t len;
  zp_status st;
  uint32_t cp;
} verdict;

static verdict by_icu(const char *name, size_t n)
{
  verdict v = {0};
  UErrorCode e = U_ZERO_ERROR;
  UIDNAInfo info = UIDNA_INFO_INITIALIZER;
  int32_t len = uidna_nameToASCII_UTF8(zp_icu(), name, (int32_t)n, v.out, (int32_t)sizeof v.out,
                                       &info, &e);
  v.ok = U_SUCCESS(e) && info.errors == 0;
  v.errors = U_SUCCESS(e) ? info.errors : 0xFFFFFFFFu;
  v.len = v.ok ? (size_t)len : 0;
  return v;
}

static verdict by_zonepuny(const char *name, size_t n)
{
  verdict v = {0};
  zp_idna_detail det;
  memset(&det, 0, sizeof det);
  v.len = sizeof v.out;
  v.st = zp_idna2008_name_to_ascii(name, n, v.out, &v.len, ZP_IDNA_CHECK_ACE, &det);
  v.ok = v.st == ZP_OK;
  v.cp = det.cp;
  return v;
}

/* The two agree on name, or zonepuny refuses a symbol that UTS #46 keeps and RFC 5892 calls
 * DISALLOWED (NV8, XV8; counted in *nv8), or takes a name that ICU refuses for a plain-ASCII
 * label, which is the zone's own (STD3, hyphens, Bidi; counted in *ascii). */
static void agree(const char *name, size_t n, size_t *nv8, size_t *ascii)
{
  verdict a = by_icu(name, n), z = by_zonepuny(name, n);
  if (!a.ok && z.ok) {
    char text[1024], dotted[1024];
    snprintf(text, sizeof text, "%.*s", (int)n, name);
    dots(text, dotted);
    if (has_ascii_non_ldh_label(dotted) || has_ascii_bidi_breaker(dotted)) {
      (*ascii)++;
      return;
    }
  }
  if (a.ok && !z.ok && z.st == ZP_IDNA_NV8) {
    cr_assert_eq(categories()[z.cp], 'D', "U+%04X refused as NV8, but RFC 5892 calls it %c",
                 z.cp, categories()[z.cp]);
    (*nv8)++;
    return;
  }
  cr_assert_eq(z.ok, a.ok, "\"%.*s\" (%zu octets): ICU %s (%#x), zonepuny %s (%s, U+%04X)", (int)n, name, n,
               a.ok ? "takes it" : "refuses it", a.errors, z.ok ? "takes it" : "refuses it",
               zp_errname(z.st), z.cp);
  if (a.ok)
    cr_assert(eq_nocase_ascii(z.out, z.len, a.out),
              "\"%.*s\": ICU %.*s, zonepuny %.*s", (int)n, name, (int)a.len, a.out, (int)z.len,
              z.out);
}

static size_t put_cp(char *out, uint32_t cp)
{
  uint8_t b[4];
  size_t k = sizeof b;
  cr_assert_eq(zp_utf8_encode(&cp, 1, b, &k), ZP_OK);
  memcpy(out, b, k);
  return k;
}

/* Every code point past ASCII (ASCII labels are the zone's own), alone and between letters. */
Test(idna2008, every_code_point_against_icu, .timeout = 120)
{
  size_t nv8 = 0, taken = 0, ascii = 0;
  for (uint32_t cp = 0x80; cp < 0x110000; cp++) {
    if (cp >= 0xD800 && cp <= 0xDFFF)
      continue;
    char name[16];
    size_t n = put_cp(name, cp);
    /* (a label separator alone is the root for zonepuny's name functions, as idna.h says) */
    if (cp != 0x3002 && cp != 0xFF0E && cp != 0xFF61)
      agree(name, n, &nv8, &ascii);
    taken += by_icu(name, n).ok;
    name[0] = 'a';
    n = 1 + put_cp(name + 1, cp);
    name[n++] = 'b';
    agree(name, n, &nv8, &ascii);
  }
  cr_assert_gt(taken, 100000, "%zu code points taken", taken);
  cr_log_info("every code point: ICU takes %zu alone; zonepuny refuses %zu NV8/XV8 labels ICU "
              "takes", taken, nv8);
  cr_assert_eq(ascii, 0);
}

/* A million random names of one to three labels of one to eight code points, from a pool that
 * mixes scripts (Latin, Greek, Hebrew, Arabic, Devanagari, Katakana, Han), joiners, marks,
 * digits of three kinds, the code points of RFC 5892's contextual rules, deviations and
 * mapped forms (capitals, fullwidth), hyphens. */
Test(idna2008, random_names_against_icu, .timeout = 300)
{
  static const uint32_t pool[] = {
    'a', 'b', 'l', 'x', 'z', '0', '9', '-', 'A', 'Z',
    0x00DF, 0x03C2, 0x03C3, 0x03B1, 0x03C9, 0x0391, 0x0375, 0x00B7,    /* ß ς σ α ω Α keraia · */
    0x05D0, 0x05D1, 0x05EA, 0x05F3, 0x05F4, 0x05B0, 0x0591,            /* Hebrew, geresh, marks */
    0x0627, 0x0628, 0x0644, 0x0647, 0x064B, 0x0660, 0x0669, 0x06F0, 0x06F9, 0x0640, /* Arabic */
    0x0915, 0x0937, 0x094D, 0x093F, 0x0966,                            /* Devanagari, virama */
    0x30A2, 0x30AB, 0x30FB, 0x3042, 0x4E00, 0x6F22,                    /* kana, ・, Han */
    0x200C, 0x200D, 0x0300, 0x0301, 0x0308, 0x20DD,                    /* joiners, marks */
    0xFF21, 0xFF41, 0xFF10, 0x1E9E, 0x2160, 0x00C4, 0x0041, 0x0308,    /* mapped forms */
    0x00E4, 0x00FC, 0x0430, 0x0410, 0x10D0, 0x0E01, 0x0E48,            /* ä ü Cyrillic Georgian Thai */
  };
  uint64_t seed = 2008;
  size_t nv8 = 0, taken = 0, ascii = 0;
  for (int i = 0; i < 1000000; i++) {
    char name[256];
    size_t n = 0, labels = 1 + xorshift64star(&seed) % 3;
    for (size_t l = 0; l < labels; l++) {
      if (l)
        name[n++] = '.';
      size_t cps = 1 + xorshift64star(&seed) % 8;
      for (size_t k = 0; k < cps; k++)
        n += put_cp(name + n, pool[xorshift64star(&seed) % (sizeof pool / sizeof *pool)]);
    }
    agree(name, n, &nv8, &ascii);
    taken += by_icu(name, n).ok;
  }
  cr_assert_gt(taken, 10000, "%zu names taken", taken);
  cr_log_info("random names: ICU takes %zu of 1,000,000; zonepuny also takes %zu for a "
              "plain-ASCII label ICU refuses; refuses %zu for NV8/XV8", taken, ascii, nv8);
}

/* ---- second opinions: libidn2 2.3.3 (IDNA2008 with TR46 at Unicode 12.1) ---- */

static void set_age(uint32_t lo, uint32_t hi, const char *v, void *user)
{
  unsigned major = 0, minor = 0;
  cr_assert_eq(sscanf(v, "%u.%u", &major, &minor), 2, "age %s", v);
  for (uint32_t cp = lo; cp <= hi; cp++)
    ((uint8_t *)user)[cp] = (uint8_t)(major * 10 + minor);
}

/* The Unicode version that assigned each code point, times ten (DerivedAge.txt of the
 * unicode-data package, Unicode 15.0.0); 0: unassigned. */
static const uint8_t *ages(void)
{
  static uint8_t age[0x110000];
  static bool read;
  if (!read)
    cr_assert(zp_ucd_read("/usr/share/unicode/DerivedAge.txt", set_age, age),
              "DerivedAge.txt (package unicode-data)");
  read = true;
  return age;
}

/* Every code point past ASCII, alone and between two letters, through libidn2's
 * idn2_to_ascii_8z (non-transitional TR46, STD3 rules) beside zonepuny's IDNA2008. Where they
 * differ, each difference is one of libidn2's own, counted:
 * - the code point is newer than libidn2's tables (Unicode 12.1): libidn2 calls it unassigned;
 * - RFC 5892's CONTEXTO rules (appendix A.3-A.9: U+00B7, U+0375, U+05F3, U+05F4, U+30FB, the
 *   Arabic-Indic digits), which libidn2 does not apply;
 * - UTS #46 maps the code point to ASCII that STD3 rules refuse (disallowed_STD3_mapped: U+00A0
 *   to a space, U+2047 to "??"), which libidn2 drops from the label instead;
 * - the label maps to nothing (U+00AD alone), which libidn2 takes as an empty label. */
Test(idna2008, every_code_point_against_libidn2, .timeout = 300)
{
  const uint8_t *age = ages();
  size_t newer = 0, contexto = 0, std3_mapped = 0, empty = 0, same = 0;
  for (uint32_t cp = 0x80; cp < 0x110000; cp++) {
    if (cp >= 0xD800 && cp <= 0xDFFF)
      continue;
    for (int between = 0; between < 2; between++) {
      if (!between && (cp == 0x3002 || cp == 0xFF0E || cp == 0xFF61))
        continue;   /* (a separator alone is the root) */
      char name[16];
      size_t n = 0;
      if (between)
        name[n++] = 'a';
      n += put_cp(name + n, cp);
      if (between)
        name[n++] = 'b';
      name[n] = '\0';
      verdict z = by_zonepuny(name, n);
      char *theirs = NULL;
      int rc = idn2_to_ascii_8z(name, &theirs, IDN2_NONTRANSITIONAL | IDN2_USE_STD3_ASCII_RULES);
      bool agree = z.ok == (rc == IDN2_OK) && (!z.ok || eq_nocase_ascii(z.out, z.len, theirs));
      unsigned flags = zp_u_rec_of(&t8, cp)->flags;
      if (agree)
        same++;
      else if (age[cp] > 121 && rc != IDN2_OK)
        newer++;
      else if (z.st == ZP_IDNA_CONTEXTO && rc == IDN2_OK)
        contexto++;
      else if (z.st == ZP_IDNA_NOT_LDH && (flags & ZP_I8_STD3) && rc == IDN2_OK &&
               strcmp(theirs, between ? "ab" : "") == 0)
        std3_mapped++;
      else if (z.st == ZP_IDNA_EMPTY && rc == IDN2_OK && !between && theirs[0] == '\0')
        empty++;
      else
        cr_assert(false, "U+%04X%s: zonepuny %s (%.*s), libidn2 %s (%s)", cp,
                  between ? " between letters" : "", zp_errname(z.st), (int)z.len, z.out,
                  rc == IDN2_OK ? "takes it" : idn2_strerror_name(rc),
                  rc == IDN2_OK ? theirs : "");
      free(theirs);
    }
  }
  cr_assert_gt(same, 2000000);
  cr_log_info("libidn2: %zu names alike; libidn2's own: newer than its Unicode 12.1 %zu, "
              "CONTEXTO not applied %zu, STD3-mapped code points dropped %zu, empty label "
              "taken %zu", same, newer, contexto, std3_mapped, empty);
}

/* What is not UTF-8 is refused as such, whichever path a label takes: stray continuation
 * bytes, lead bytes no code point has, overlong forms, surrogates, truncation. */
Test(idna2008, invalid_utf8_is_refused)
{
  static const char *const bad[] = {
    "\x83\xa9", "a\xbf", "\xf8\x90\x80\x80", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf",
    "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc3", "ab\xe2\x82", "\xff",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char out[64];
    size_t len = sizeof out;
    zp_status st = zp_idna2008_label_to_ascii(bad[i], strlen(bad[i]), out, &len,
                                              ZP_IDNA_CHECK_ACE, NULL, NULL);
    cr_expect(st <= ZP_UTF8_TRUNCATED && st >= ZP_UTF8_RANGE, "case %zu: %s", i,
              zp_errname(st));
  }
}
