/* test_parser.c -- the grammar front end: scanner and parser cases, records and exact errors */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/zone.h"

/* Records as "owner ttl class type |field|... @line:col", fields' columns as "[col]"; every
 * expected string below is written by hand from the input text. */
static zp_status dump(void *user, const zp_record *rec)
{
  FILE *f = user;
  const uint8_t *w = rec->owner;
  for (; *w; w += *w + 1)
    fprintf(f, "%.*s.", *w, (const char *)w + 1);
  fprintf(f, " %u %u %u", rec->ttl, rec->rclass, rec->rtype);
  for (size_t i = 0; i < rec->nfields; i++)
    fprintf(f, " |%.*s|[%u]", (int)rec->fields[i].len, rec->fields[i].text, rec->fields[i].loc.col);
  fprintf(f, " @%u:%u\n", rec->loc.line, rec->loc.col);
  return ZP_OK;
}

typedef struct pcase {
  const char *name, *text, *records, *errors;
} pcase;

static const pcase cases[] = {
  {"blank owner inside parentheses is not an owner", "$ORIGIN ex.\n$TTL 9\na TXT ( x\n  y )\n",
   "a.ex. 9 1 16 |x|[9] |y|[3] @3:1\n", ""},
  {"last stated TTL without $TTL, as BIND", "$ORIGIN ex.\na 5 A 1.2.3.4\nb A 1.2.3.4\n",
   "a.ex. 5 1 1 |1.2.3.4|[7] @2:1\nb.ex. 5 1 1 |1.2.3.4|[5] @3:1\n", ""},
  {"$$ is a literal dollar in $GENERATE", "$ORIGIN ex.\n$TTL 9\n$GENERATE 1-1 h$ TXT a$$b\n",
   "h1.ex. 9 1 16 |a$b|[22] @3:1\n", ""},
  {"class names are not types after the type", "$ORIGIN ex.\n$TTL 9\na TXT IN A\n",
   "a.ex. 9 1 16 |IN|[7] |A|[10] @3:1\n", ""},
  {"unknown class when a type follows", "$ORIGIN ex.\n$TTL 9\na XX A 1.2.3.4\nb A 1.2.3.4\n",
   "b.ex. 9 1 1 |1.2.3.4|[5] @4:1\n", "t.zone:3:3: error: unknown class \"XX\"\n"},
  {"quoted owner", "$ORIGIN ex.\n$TTL 9\n\"a\" A 1.2.3.4\n", "",
   "t.zone:3:1: error: an owner name cannot be quoted\n"},
  {"two TTLs", "$ORIGIN ex.\n$TTL 9\na 1 2 A 1.2.3.4\n", "",
   "t.zone:3:5: error: unexpected TTL, expecting field or class or type or end of line\n"},
  {"$ORIGIN with two names", "$ORIGIN a. b.\n", "",
   "t.zone:1:1: error: $ORIGIN takes one absolute name\n"},
  {"one error per record, recovery at the next", "$ORIGIN ex.\n$TTL 9\na TXT \\300 \x01\nb A 1.2.3.4\n",
   "b.ex. 9 1 1 |1.2.3.4|[5] @4:1\n", "t.zone:3:7: error: escape \"\\300\" is above \\255\n"},
};

Test(parser, records_and_errors)
{
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *out, *err;
    size_t olen, elen;
    FILE *of = open_memstream(&out, &olen), *ef = open_memstream(&err, &elen);
    zp_diag diag;
    zp_diag_init(&diag, ef);
    diag.show_source = false;
    zp_zone_options opt = {0};
    cr_assert_eq(zp_zone_parse_mem("t.zone", cases[i].text, strlen(cases[i].text), &opt, &diag,
                                   dump, of), ZP_OK);
    fclose(of);
    fclose(ef);
    cr_expect_str_eq(out, cases[i].records, "%s: records\n%s", cases[i].name, out);
    cr_expect_str_eq(err, cases[i].errors, "%s: errors\n%s", cases[i].name, err);
    free(out);
    free(err);
  }
}
