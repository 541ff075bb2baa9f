/* brands.c -- --confusable-with FILE: the names no name of the zone may look like (UTS #39
 * skeletons), one a line, '#' starting a comment; converted as the zone's names are */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* (held for the whole run, and reachable at its end) */
static zp_brand *brands;

int zp_cli_brands(zp_cli *cli)
{
  zp_pipeline_options po;
  if (!zp_cli_pipeline_options(cli, &po))
    return ZP_EXIT_USAGE;
  FILE *f = fopen(cli->confusable_with, "r");
  if (!f) {
    fprintf(stderr, "zonepuny: error: --confusable-with %s: %s\n", cli->confusable_with,
            strerror(errno));
    return ZP_EXIT_USAGE;
  }
  size_t n = 0, cap = 0;
  unsigned line = 0;
  char text[4096];
  int rc = ZP_EXIT_OK;
  while (rc == ZP_EXIT_OK && fgets(text, sizeof text, f)) {
    line++;
    text[strcspn(text, "#\r\n")] = '\0';
    char *s = text + strspn(text, " \t"), *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
      *--end = '\0';
    if (!*s)
      continue;
    if (n == cap) {
      zp_brand *b = realloc(brands, (cap = cap ? 2 * cap : 16) * sizeof *b);
      if (!b) {
        fprintf(stderr, "zonepuny: error: --confusable-with %s: out of memory\n",
                cli->confusable_with);
        rc = ZP_EXIT_USAGE;
        break;
      }
      brands = b;
    }
    if (!zp_pipeline_name_wire(&po, s, brands[n].wire)) {
      fprintf(stderr, "%s:%u: error: '%s' is no name (--confusable-with takes a name a line)\n",
              cli->confusable_with, line, s);
      rc = ZP_EXIT_USAGE;
      break;
    }
    brands[n].file = cli->confusable_with;
    brands[n++].line = line;
  }
  if (rc == ZP_EXIT_OK && ferror(f)) {
    fprintf(stderr, "zonepuny: error: --confusable-with %s: %s\n", cli->confusable_with,
            strerror(errno));
    rc = ZP_EXIT_USAGE;
  }
  fclose(f);
  cli->checks.brands = brands;
  cli->checks.nbrands = rc == ZP_EXIT_OK ? n : 0;
  return rc;
}
