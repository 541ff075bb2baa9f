/* test_idna2008.c -- IDNA2008 at Unicode 15.0.0: the generated tables against RFC 5892's derived
 * property as Unicode publishes it (tests/data/idna/Idna2008-15.0.0.txt) */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idna2008_tables.h"

static const zp_u_table t8 = {zp_i8_stage1, zp_i8_stage2, zp_i8_recs, zp_i8_data};

#define DATA "tests/data/idna/"

/* RFC 5892 section 2.9 (Unassigned) leaves out the noncharacters, which are DISALLOWED. */
static bool noncharacter(uint32_t cp)
{
  return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

Test(idna2008, tables_agree_with_the_derived_property)
{
  FILE *f = fopen(DATA "Idna2008-15.0.0.txt", "r");
  cr_assert_not_null(f, "run from the repository's top");
  static char category[0x110000];   /* P, J, O, D, U */
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n')
      continue;
    char *end;
    uint32_t a = (uint32_t)strtoul(line, &end, 16), b = a;
    if (end[0] == '.' && end[1] == '.')
      b = (uint32_t)strtoul(end + 2, &end, 16);
    const char *v = strchr(line, ';') + 1;
    while (*v == ' ')
      v++;
    char c = strncmp(v, "PVALID", 6) == 0 ? 'P' : strncmp(v, "CONTEXTJ", 8) == 0 ? 'J'
           : strncmp(v, "CONTEXTO", 8) == 0 ? 'O' : strncmp(v, "DISALLOWED", 10) == 0 ? 'D'
           : strncmp(v, "UNASSIGNED", 10) == 0 ? 'U' : 0;
    cr_assert(c, "unknown category: %s", line);
    for (uint32_t cp = a; cp <= b; cp++)
      category[cp] = c;
  }
  fclose(f);
  size_t valid = 0;
  for (uint32_t cp = 0; cp < 0x110000; cp++) {
    unsigned fl = zp_u_rec_of(&t8, cp)->flags;
    char c = category[cp];
    cr_assert(c, "U+%04X missing from the file", cp);
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
