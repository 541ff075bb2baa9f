/* ucd.h -- the tests' reader of Unicode's data files ("XXXX[..YYYY] ; value # comment" lines)
 * and of RFC 5892's derived property (tests/data/idna/Idna2008-15.0.0.txt) */
#ifndef ZP_TEST_UCD_H
#define ZP_TEST_UCD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void zp_ucd_fn(uint32_t lo, uint32_t hi, const char *value, void *user);

/* Calls fn with each range of the file at path and its value (blanks before it skipped);
 * false when the file cannot be read. */
static inline bool zp_ucd_read(const char *path, zp_ucd_fn *fn, void *user)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return false;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    const char *v = strchr(line, ';');
    if (line[0] == '#' || !v)
      continue;
    char *end;
    uint32_t lo = (uint32_t)strtoul(line, &end, 16), hi = lo;
    if (end[0] == '.' && end[1] == '.')
      hi = (uint32_t)strtoul(end + 2, &end, 16);
    for (v++; *v == ' '; v++)
      ;
    fn(lo, hi, v, user);
  }
  fclose(f);
  return true;
}

static inline void zp_rfc5892_set(uint32_t lo, uint32_t hi, const char *v, void *user)
{
  char c = strncmp(v, "PVALID", 6) == 0 ? 'P' : strncmp(v, "CONTEXTJ", 8) == 0 ? 'J'
         : strncmp(v, "CONTEXTO", 8) == 0 ? 'O' : strncmp(v, "DISALLOWED", 10) == 0 ? 'D'
         : strncmp(v, "UNASSIGNED", 10) == 0 ? 'U' : '?';
  for (uint32_t cp = lo; cp <= hi && cp < 0x110000; cp++)
    ((char *)user)[cp] = c;
}

/* RFC 5892's category of each code point (P, J, O, D, U; '?' for a value it does not name),
 * read once from Unicode's file; NULL when it cannot be read (run from the repository's top). */
static inline const char *zp_rfc5892_categories(void)
{
  static char category[0x110000];
  if (!category[0] && !zp_ucd_read("tests/data/idna/Idna2008-15.0.0.txt", zp_rfc5892_set,
                                   category))
    return NULL;
  return category;
}

#endif
