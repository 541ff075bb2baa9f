/* test_uts39.c -- UTS #39 at Unicode 15.0.0 (src/idna/uts39.h) against ICU 72 over every code
 * point: Script_Extensions (uscript), skeletons of code points and of random strings, and the
 * restriction level of section 5.2 (the spoof checker of libicui18n).
 * Every expected value comes from ICU 72 (Debian's libicu72), whose data is Unicode 15.0, the
 * version of our generated tables; none is derived from zonepuny's own code. ICU's character
 * properties only choose which strings to try (the pool of the random skeletons). */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/uset.h>
#include <unicode/uspoof.h>

#include "idna/uts39.h"
#include "xorshift.h"

#define CONFUSABLES "tools/data/confusables-15.0.0.txt"

/* Mismatches are printed up to SHOWN, then the test fails with their count. */
enum { SHOWN = 20 };

ZP_PRINTF(2, 3) static void mismatch(size_t *count, const char *fmt, ...)
{
  if ((*count)++ >= SHOWN)
    return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* The comparison means something only if ICU's data is the Unicode of our tables. */
static void icu_is_unicode_15(void)
{
  UVersionInfo v;
  u_getUnicodeVersion(v);
  cr_assert(v[0] == 15 && v[1] == 0, "ICU's Unicode is %u.%u, the tables' 15.0", v[0], v[1]);
}

static USpoofChecker *open_checker(void)
{
  UErrorCode e = U_ZERO_ERROR;
  USpoofChecker *sc = uspoof_open(&e);
  cr_assert(U_SUCCESS(e), "uspoof_open: %s", u_errorName(e));
  return sc;
}

/* Code points into UTF-16 as ICU takes them. A surrogate code point is written as its one unit:
 * no string here puts a high surrogate before a low one, so each stays a lone unit, which ICU
 * reads back as that code point (U16_NEXT), as our functions are given it. */
static int32_t to_utf16(const uint32_t *cp, size_t n, UChar *out)
{
  int32_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (cp[i] < 0x10000) {
      out[k++] = (UChar)cp[i];
    } else {
      out[k++] = (UChar)(0xD7C0 + (cp[i] >> 10));
      out[k++] = (UChar)(0xDC00 | (cp[i] & 0x3FF));
    }
  }
  return k;
}

/* ICU's UTF-16 back into code points, a lone surrogate as itself. */
static size_t from_utf16(const UChar *s, int32_t n, uint32_t *out)
{
  size_t k = 0;
  for (int32_t i = 0; i < n; i++) {
    uint32_t u = s[i];
    if (u >= 0xD800 && u <= 0xDBFF && i + 1 < n && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF)
      u = 0x10000 + ((u - 0xD800) << 10) + (s[++i] - 0xDC00u);
    out[k++] = u;
  }
  return k;
}

/* "U+0061 U+0301" into buf. */
static const char *cps(const uint32_t *cp, size_t n, char *buf, size_t cap)
{
  size_t w = 0;
  buf[0] = 0;
  for (size_t i = 0; i < n && w + 10 < cap; i++)
    w += (size_t)snprintf(buf + w, cap - w, "%sU+%04X", i ? " " : "", (unsigned)cp[i]);
  return buf;
}

/* ---- Script_Extensions ---- */

static int by_code(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A set of 4-letter codes, sorted, as "Arab Syrc Thaa". */
static void join_codes(const char **code, size_t n, char *buf, size_t cap)
{
  qsort(code, n, sizeof *code, by_code);
  size_t w = 0;
  buf[0] = 0;
  for (size_t i = 0; i < n && w + 6 < cap; i++)
    w += (size_t)snprintf(buf + w, cap - w, "%s%s", i ? " " : "", code[i]);
}

enum { MAX_SCX = 64 };

/* Surrogates included: uscript_getScriptExtensions takes any UChar32 (they are Zzzz). */
Test(uts39, script_extensions_agree_with_icu, .timeout = 120)
{
  icu_is_unicode_15();
  cr_assert_leq(zp_uts39_scripts_n, (size_t)ZP_SCRIPT_WORDS * 64);
  size_t bad = 0;
  for (uint32_t cp = 0; cp < 0x110000; cp++) {
    UScriptCode sc[MAX_SCX];
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = uscript_getScriptExtensions((UChar32)cp, sc, MAX_SCX, &e);
    cr_assert(U_SUCCESS(e) && n > 0, "U+%04X: uscript_getScriptExtensions: %s", cp,
              u_errorName(e));
    const char *theirs[MAX_SCX], *ours[ZP_SCRIPT_WORDS * 64];
    for (int32_t i = 0; i < n; i++)
      theirs[i] = uscript_getShortName(sc[i]);
    zp_script_set s = zp_uts39_script_extensions(cp);
    size_t m = 0;
    bool stray = false;   /* a bit past the last script */
    for (int i = 0; i < ZP_SCRIPT_WORDS * 64; i++) {
      if (!zp_script_has(&s, i))
        continue;
      if ((size_t)i < zp_uts39_scripts_n)
        ours[m++] = zp_uts39_script_codes[i];
      else
        stray = true;
    }
    char a[512], b[512];
    join_codes(theirs, (size_t)n, a, sizeof a);
    join_codes(ours, m, b, sizeof b);
    if (stray || strcmp(a, b) != 0)
      mismatch(&bad, "U+%04X: ICU {%s}, zonepuny {%s}%s", cp, a, b,
               stray ? " and a bit past the last script" : "");
  }
  cr_assert_eq(bad, 0, "%zu code points whose Script_Extensions differ from ICU's", bad);
}

/* ---- skeletons ---- */

enum { SKEL_CAP = 512 };

/* ICU's skeleton of in[0..n) against ours; false, with the two in why, when they differ. */
static bool same_skeleton(const USpoofChecker *sc, const uint32_t *in, size_t n, char *why,
                          size_t cap)
{
  UChar u[64], d[SKEL_CAP];
  int32_t un = to_utf16(in, n, u);
  UErrorCode e = U_ZERO_ERROR;
  int32_t dn = uspoof_getSkeleton(sc, 0, u, un, d, SKEL_CAP, &e);
  cr_assert(U_SUCCESS(e), "uspoof_getSkeleton: %s", u_errorName(e));
  uint32_t want[SKEL_CAP], got[SKEL_CAP];
  size_t wn = from_utf16(d, dn, want), gn = SKEL_CAP;
  zp_status st = zp_uts39_skeleton(in, n, got, &gn);
  if (st == ZP_OK && gn == wn && memcmp(got, want, wn * sizeof *got) == 0)
    return true;
  char s[256], w[1024], g[1024];
  snprintf(why, cap, "skeleton of %s: ICU %s, zonepuny %s%s%s", cps(in, n, s, sizeof s),
           cps(want, wn, w, sizeof w), st == ZP_OK ? "" : zp_errname(st), st == ZP_OK ? "" : " ",
           st == ZP_OK ? cps(got, gn, g, sizeof g) : "");
  return false;
}

/* Surrogates included: ICU takes a lone surrogate unit, and its skeleton is itself. */
Test(uts39, skeleton_of_every_code_point_agrees_with_icu, .timeout = 120)
{
  icu_is_unicode_15();
  USpoofChecker *sc = open_checker();
  size_t bad = 0;
  for (uint32_t cp = 0; cp < 0x110000; cp++) {
    char why[4096];
    if (!same_skeleton(sc, &cp, 1, why, sizeof why))
      mismatch(&bad, "%s", why);
  }
  uspoof_close(sc);
  cr_assert_eq(bad, 0, "%zu code points whose skeleton differs from ICU's", bad);
}

typedef struct pool {
  uint32_t *cp;
  size_t n, cap;
} pool;

static void pool_add(pool *p, uint32_t cp)
{
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 1024;
    p->cp = realloc(p->cp, p->cap * sizeof *p->cp);
    cr_assert_not_null(p->cp);
  }
  p->cp[p->n++] = cp;
}

/* Every code point confusables.txt names, as a source or inside a prototype. */
static void confusable_code_points(pool *p)
{
  FILE *f = fopen(CONFUSABLES, "r");
  cr_assert_not_null(f, CONFUSABLES ": run from the repository's top");
  static bool seen[0x110000];
  char line[1024];
  size_t rows = 0;
  while (fgets(line, sizeof line, f)) {
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    char *semi = strchr(line, ';');
    if (!semi)
      continue;
    char *end2 = strchr(semi + 1, ';');
    cr_assert_not_null(end2, "no second field: %s", line);
    *end2 = 0;
    rows++;
    /* the source, then the prototype's code points */
    for (char *q = line; *q && q < end2;) {
      char *after;
      unsigned long v = strtoul(q, &after, 16);
      if (after == q) {
        q++;
        continue;
      }
      cr_assert_leq(v, 0x10FFFFul, "%s", line);
      if (!seen[v])
        pool_add(p, (uint32_t)v);
      seen[v] = true;
      q = after;
    }
  }
  fclose(f);
  cr_assert_gt(rows, 6000, "%zu rows in " CONFUSABLES, rows);
}

/* 200,000 strings of one to eight code points, each drawn from one of four pools taken in
 * turn at random: what confusables.txt maps from and to, the combining marks (Mn), Hangul
 * syllables and jamo (NFD splits and recomposes them around prototypes), ASCII letters, digits
 * and hyphen. Marks next to confusables exercise the reordering of the second NFD. */
Test(uts39, skeletons_of_random_strings_agree_with_icu, .timeout = 120)
{
  icu_is_unicode_15();
  pool pools[4] = {{0}};
  confusable_code_points(&pools[0]);
  for (uint32_t cp = 0; cp < 0x110000; cp++)
    if (u_charType((UChar32)cp) == U_NON_SPACING_MARK)
      pool_add(&pools[1], cp);
  static const struct { uint32_t lo, hi; } hangul[] = {
    {0xAC00, 0xD7A3}, {0x1100, 0x11FF}, {0x3131, 0x318E}, {0xA960, 0xA97C}, {0xD7B0, 0xD7FB},
  };
  for (size_t i = 0; i < sizeof hangul / sizeof *hangul; i++)
    for (uint32_t cp = hangul[i].lo; cp <= hangul[i].hi; cp++)
      if (u_charType((UChar32)cp) != U_UNASSIGNED)
        pool_add(&pools[2], cp);
  for (uint32_t cp = 0; cp < 0x80; cp++)
    if ((cp | 0x20) - 'a' < 26 || cp - '0' < 10 || cp == '-')
      pool_add(&pools[3], cp);
  cr_assert(pools[0].n > 5000 && pools[1].n > 1500 && pools[2].n > 11000 && pools[3].n == 63,
            "pools of %zu, %zu, %zu, %zu", pools[0].n, pools[1].n, pools[2].n, pools[3].n);

  USpoofChecker *sc = open_checker();
  uint64_t seed = 39;
  size_t bad = 0;
  for (int i = 0; i < 200000; i++) {
    uint32_t s[8];
    size_t n = 1 + xorshift64star(&seed) % 8;
    for (size_t k = 0; k < n; k++) {
      const pool *p = &pools[xorshift64star(&seed) % 4];
      s[k] = p->cp[xorshift64star(&seed) % p->n];
    }
    char why[4096];
    if (!same_skeleton(sc, s, n, why, sizeof why))
      mismatch(&bad, "string %d: %s", i, why);
  }
  uspoof_close(sc);
  for (int i = 0; i < 4; i++)
    free(pools[i].cp);
  cr_assert_eq(bad, 0, "%zu of 200,000 strings whose skeleton differs from ICU's", bad);
}

/* ---- restriction levels ---- */

/* One of each script the levels of section 5.2 tell apart, Common and Inherited. */
static const uint32_t reps[] = {
  'a', 0x0430, 0x03B1, 0x3042, 0x30A2, 0x4E2D, 0xD55C, 0x3105, 0x0627, 0x05D0, 0x0905, 0x13A0,
  0x0E01, '1', 0x0301,
};
enum { NREPS = sizeof reps / sizeof *reps, SHAPES = 1 + 3 * NREPS };

/* The strings tried with cp: shape 0 cp alone; then x+cp, cp+x and 'a'+x+cp for x of reps. */
static size_t shape_string(int shape, uint32_t cp, uint32_t *s)
{
  if (shape == 0) {
    s[0] = cp;
    return 1;
  }
  int form = (shape - 1) / NREPS;
  uint32_t x = reps[(shape - 1) % NREPS];
  switch (form) {
  case 0:
    s[0] = x, s[1] = cp;
    return 2;
  case 1:
    s[0] = cp, s[1] = x;
    return 2;
  default:
    s[0] = 'a', s[1] = x, s[2] = cp;
    return 3;
  }
}

/* ICU's level as ours, or -1 for USPOOF_UNRESTRICTIVE (which with every code point allowed it
 * should never answer) or a level we do not know. */
static int icu_level(const USpoofChecker *sc, USpoofCheckResult *r, const uint32_t *s, size_t n)
{
  UChar u[8];
  int32_t un = to_utf16(s, n, u);
  UErrorCode e = U_ZERO_ERROR;
  uspoof_check2(sc, u, un, r, &e);
  URestrictionLevel lv = uspoof_getCheckResultRestrictionLevel(r, &e);
  cr_assert(U_SUCCESS(e), "uspoof_check2: %s", u_errorName(e));
  switch (lv) {
  case USPOOF_ASCII: return ZP_RESTRICT_ASCII;
  case USPOOF_SINGLE_SCRIPT_RESTRICTIVE: return ZP_RESTRICT_SINGLE;
  case USPOOF_HIGHLY_RESTRICTIVE: return ZP_RESTRICT_HIGHLY;
  case USPOOF_MODERATELY_RESTRICTIVE: return ZP_RESTRICT_MODERATELY;
  case USPOOF_MINIMALLY_RESTRICTIVE: return ZP_RESTRICT_MINIMALLY;
  default: return -1;
  }
}

static const char *level_name(int lv)
{
  static const char *const name[] = {"ASCII", "single script", "highly restrictive",
                                     "moderately restrictive", "minimally restrictive"};
  return lv >= 0 && lv < 5 ? name[lv] : lv == -1 ? "unrestrictive or unknown" : "out of range";
}

/* The classes of code points ICU cannot tell apart in a restriction level: same
 * Script_Extensions (uscript_getScriptExtensions), same ASCII or not. */
enum { MAX_CLASSES = 2048, HASH = 8192 };
typedef struct klass {
  int32_t n;
  UScriptCode sc[MAX_SCX];
  bool ascii;
  size_t seen;
  int8_t level[SHAPES];   /* ICU's, -2 until asked */
} klass;

static int by_script(const void *a, const void *b)
{
  UScriptCode x = *(const UScriptCode *)a, y = *(const UScriptCode *)b;
  return (x > y) - (x < y);
}

static klass *class_of(klass *cls, size_t *ncls, int32_t *table, uint32_t cp)
{
  klass k = {.ascii = cp < 0x80};
  UErrorCode e = U_ZERO_ERROR;
  k.n = uscript_getScriptExtensions((UChar32)cp, k.sc, MAX_SCX, &e);
  cr_assert(U_SUCCESS(e), "U+%04X: %s", cp, u_errorName(e));
  qsort(k.sc, (size_t)k.n, sizeof *k.sc, by_script);
  uint64_t h = 1469598103934665603u ^ k.ascii;
  for (int32_t i = 0; i < k.n; i++)
    h = (h ^ (uint64_t)k.sc[i]) * 1099511628211u;
  for (size_t slot = h % HASH;; slot = (slot + 1) % HASH) {
    if (table[slot] < 0) {
      cr_assert_lt(*ncls, (size_t)MAX_CLASSES);
      memset(k.level, -2, sizeof k.level);
      cls[*ncls] = k;
      table[slot] = (int32_t)(*ncls)++;
      return &cls[table[slot]];
    }
    klass *c = &cls[table[slot]];
    if (c->n == k.n && c->ascii == k.ascii && memcmp(c->sc, k.sc, (size_t)k.n * sizeof *k.sc) == 0)
      return c;
  }
}

/* Every code point alone, before and after each of reps, and after 'a' and each of reps:
 * 51 million strings. ICU's getRestrictionLevel sees a code point only through the allowed set
 * (every code point), whether its UTF-16 is ASCII, and the augmented script set of section 5.1,
 * which it builds from uscript_getScriptExtensions alone; so ICU is asked once for each class of
 * code points with the same Script_Extensions and ASCII-ness and each string shape, and its
 * answer held for the whole class (asking it 51 million times takes ICU 20 s). That premise is
 * itself checked against ICU, string by string, on the second code point of every class and on
 * every 101st code point. Surrogates are included: each stays a lone unit (see to_utf16). */
Test(uts39, restriction_levels_agree_with_icu, .timeout = 120)
{
  icu_is_unicode_15();
  USpoofChecker *sc = open_checker();
  UErrorCode e = U_ZERO_ERROR;
  /* ICU's default allowed set is every code point; were it smaller, ICU would answer
   * USPOOF_UNRESTRICTIVE for what it leaves out, a level zonepuny does not have. */
  if (!uset_containsRange(uspoof_getAllowedChars(sc, &e), 0, 0x10FFFF)) {
    USet *all = uset_open(0, 0x10FFFF);
    uspoof_setAllowedChars(sc, all, &e);
    uset_close(all);
  }
  uspoof_setChecks(sc, USPOOF_RESTRICTION_LEVEL | USPOOF_AUX_INFO, &e);
  USpoofCheckResult *r = uspoof_openCheckResult(&e);
  cr_assert(U_SUCCESS(e), "setting up the spoof checker: %s", u_errorName(e));

  klass *cls = calloc(MAX_CLASSES, sizeof *cls);
  int32_t *table = malloc(HASH * sizeof *table);
  cr_assert(cls && table);
  memset(table, -1, HASH * sizeof *table);
  size_t ncls = 0, bad = 0, premise = 0, direct = 0;
  for (uint32_t cp = 0; cp < 0x110000; cp++) {
    klass *c = class_of(cls, &ncls, table, cp);
    bool check = ++c->seen == 2 || cp % 101 == 0;
    for (int shape = 0; shape < SHAPES; shape++) {
      uint32_t s[3];
      size_t n = shape_string(shape, cp, s);
      if (c->level[shape] == -2)
        c->level[shape] = (int8_t)icu_level(sc, r, s, n);
      int want = c->level[shape];
      char str[64];
      if (check) {
        int asked = icu_level(sc, r, s, n);
        direct++;
        if (asked != want)
          mismatch(&premise, "ICU's own level for %s is %s, its level for its class %s",
                   cps(s, n, str, sizeof str), level_name(asked), level_name(want));
      }
      int got = (int)zp_uts39_restriction(s, n);
      if (got != want || want < 0)
        mismatch(&bad, "level of %s: ICU %s, zonepuny %s", cps(s, n, str, sizeof str),
                 level_name(want), level_name(got));
    }
  }
  uspoof_closeCheckResult(r);
  uspoof_close(sc);
  free(cls);
  free(table);
  cr_assert_eq(premise, 0, "%zu strings whose ICU level differs from their class's", premise);
  cr_assert_gt(direct, 500000, "only %zu strings checked directly against ICU", direct);
  cr_assert_eq(bad, 0, "%zu strings whose restriction level differs from ICU's", bad);
  cr_log_info("restriction levels: %d strings, %zu classes of code points, %zu strings also "
              "asked of ICU directly", 0x110000 * SHAPES, ncls, direct);
}
