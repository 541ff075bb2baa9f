/* test_unorm.c -- the normalization engine with the Unicode 15.0.0 tables against Unicode's own
 * conformance file (NormalizationTest.txt of the same version, from Debian's unicode-data):
 * every NFC column of every line, and every code point Part 1 does not list is its own NFC. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idna/idna2008_tables.h"
#include "idna/unorm.h"

static const zp_u_table nfc15 = {zp_i8_stage1, zp_i8_stage2, zp_i8_recs, zp_i8_data};

enum { MAX = 64 };

/* "0044 0307" into cps; returns the count. */
static size_t parse(const char *field, uint32_t *cps)
{
  size_t n = 0;
  char *end;
  for (const char *p = field; *p && *p != ';' && n < MAX; p = end) {
    while (*p == ' ')
      p++;
    if (*p == ';' || !*p)
      break;
    cps[n++] = (uint32_t)strtoul(p, &end, 16);
  }
  return n;
}

static size_t nfc(const uint32_t *in, size_t n, uint32_t *out)
{
  size_t m = MAX * 4;
  unsigned all;
  cr_assert_eq(zp_u_prepare(&nfc15, in, n, out, &m, false, &all, NULL), ZP_OK);
  return m;
}

static bool same(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
  return na == nb && memcmp(a, b, na * sizeof *a) == 0;
}

Test(unorm, nfc_conformance_15_0)
{
  FILE *f = popen("bzcat /usr/share/unicode/NormalizationTest.txt.bz2", "r");
  cr_assert_not_null(f);
  static bool listed[0x110000];
  char *line = NULL;
  size_t cap = 0, lines = 0, part = 0;
  while (getline(&line, &cap, f) >= 0) {
    if (strncmp(line, "@Part", 5) == 0) {
      part = (size_t)atoi(line + 5);
      continue;
    }
    if (line[0] == '#' || line[0] == '\n')
      continue;
    uint32_t c[5][MAX], out[MAX * 4];
    size_t n[5];
    const char *p = line;
    for (int k = 0; k < 5; k++) {
      n[k] = parse(p, c[k]);
      p = strchr(p, ';') + 1;
    }
    if (part == 1)
      listed[c[0][0]] = true;
    /* c2 == NFC(c1) == NFC(c2) == NFC(c3); c4 == NFC(c4) == NFC(c5) */
    for (int k = 0; k < 3; k++) {
      size_t m = nfc(c[k], n[k], out);
      cr_assert(same(out, m, c[1], n[1]), "NFC of column %d differs: %s", k + 1, line);
    }
    for (int k = 3; k < 5; k++) {
      size_t m = nfc(c[k], n[k], out);
      cr_assert(same(out, m, c[3], n[3]), "NFC of column %d differs: %s", k + 1, line);
    }
    lines++;
  }
  free(line);
  cr_assert_eq(pclose(f), 0, "bzcat failed (package bzip2, file from unicode-data)");
  cr_assert_gt(lines, 19000, "only %zu lines read", lines);
  for (uint32_t cp = 0; cp < 0x110000; cp++) {
    if (listed[cp] || (cp >= 0xD800 && cp <= 0xDFFF))
      continue;
    uint32_t out[MAX];
    size_t m = nfc(&cp, 1, out);
    cr_assert(m == 1 && out[0] == cp, "U+%04X is not its own NFC", cp);
  }
}
