/* test_walk.c -- the origin a zone file's name gives (cli/walk.c); expected origins derived by
 * hand from the rule: a ".zone" or ".db" suffix, or a "db." prefix, off, and a dot added */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "cli/walk.h"

static const struct { const char *path, *origin; } cases[] = {
  {"example.com.zone", "example.com."},
  {"zones/example.com.zone", "example.com."},
  {"/srv/dns/example.com.db", "example.com."},
  {"db.example.com", "example.com."},
  {"sub/db.example.org", "example.org."},
  {"bäckerei.example.zone", "bäckerei.example."},   /* UTF-8: converted as any name is */
  {"example.com..zone", "example.com."},           /* the name written absolute */
  {"_tcp.example.zone", "_tcp.example."},
  {"root.zone", "root."},
  {"db.zone", "db."},                             /* the suffix goes first */
  {"example.com", NULL},                          /* no suffix, no prefix */
  {"example.zone.bak", NULL},
  {"db.", NULL},
  {".zone", NULL},
  {".db", NULL},
  {"a..b.zone", NULL},                            /* an empty label */
  {".hidden.zone", NULL},
  {"with space.zone", NULL},
  {"semi;colon.db", NULL},
  {"quote\".zone", NULL},
  {"dir.zone/", NULL},
};

Test(walk, origin_from_name)
{
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *o = zp_origin_from_name(cases[i].path);
    if (cases[i].origin)
      cr_expect(o && strcmp(o, cases[i].origin) == 0, "%s: got %s, want %s", cases[i].path,
                o ? o : "none", cases[i].origin);
    else
      cr_expect(o == NULL, "%s: got %s, want none", cases[i].path, o);
    free(o);
  }
}
