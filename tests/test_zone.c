/* test_zone.c -- the master-file reader: one case per syntax item, records and exact errors */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read/zone.h"

/* Each record as one line: owner TTL class type, then the fields as "|text|" (quoted ones as
 * "|"text"|"), written by hand in the tables below. */
typedef struct dump {
  char *text;
  size_t len;
  FILE *f;
} dump;

static void owner_text(const uint8_t *w, FILE *f)
{
  if (!*w)
    fputc('.', f);
  for (; *w; w += *w + 1)
    fprintf(f, "%.*s.", *w, (const char *)w + 1);
}

static zp_status record_cb(void *user, const zp_record *rec)
{
  dump *d = user;
  owner_text(rec->owner, d->f);
  fprintf(d->f, " %u %u %u%s", rec->ttl, rec->rclass, rec->rtype, rec->generic ? " generic" : "");
  for (size_t i = 0; i < rec->nfields; i++)
    fprintf(d->f, rec->fields[i].quoted ? " |\"%.*s\"|" : " |%.*s|", (int)rec->fields[i].len,
            rec->fields[i].text);
  fprintf(d->f, " @%u:%u\n", rec->loc.line, rec->loc.col);
  return ZP_OK;
}

static char dir[64];

static void write_file(const char *name, const char *text)
{
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fputs(text, f);
  fclose(f);
}

static void cleanup(void)
{
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (chdir("/") != 0 || (dir[0] && system(cmd) != 0))
    cr_log_warn("could not remove %s", dir);
}

/* Parses the zone at path, or text[0..len) from memory named "t.zone" when text is not NULL;
 * the records as record_cb dumps them go to *records, the diagnostics are returned (both
 * malloc'd). */
static char *parse(const char *path, const char *text, size_t len, char **records)
{
  dump d = {0};
  d.f = open_memstream(&d.text, &d.len);
  char *err;
  size_t elen;
  FILE *ef = open_memstream(&err, &elen);
  zp_diag diag;
  zp_diag_init(&diag, ef);
  diag.show_source = false;
  zp_zone_options opt = {0};
  if (text)
    cr_assert_eq(zp_zone_parse_mem("t.zone", text, len, &opt, &diag, record_cb, &d), ZP_OK);
  else
    cr_assert_eq(zp_zone_parse(path, &opt, &diag, record_cb, &d), ZP_OK);
  fclose(d.f);
  fclose(ef);
  *records = d.text;
  return err;
}

typedef struct zcase {
  const char *name, *text, *records, *errors;
} zcase;

static const zcase cases[] = {
  {"plain", "$ORIGIN ex.\n$TTL 60\nwww IN A 192.0.2.1\n",
   "www.ex. 60 1 1 |192.0.2.1| @3:1\n", ""},
  {"ttl and class either order, either omitted",
   "$ORIGIN ex.\n$TTL 60\na 30 IN A 1.2.3.4\nb IN 30 A 1.2.3.4\nc A 1.2.3.4\nd 1h30m A 1.2.3.4\n",
   "a.ex. 30 1 1 |1.2.3.4| @3:1\nb.ex. 30 1 1 |1.2.3.4| @4:1\nc.ex. 60 1 1 |1.2.3.4| @5:1\n"
   "d.ex. 5400 1 1 |1.2.3.4| @6:1\n", ""},
  /* a file holds one class (RFC 1035 section 5.2), the first record's; an omitted class is the
   * last one stated (section 5.1): CH (3) here */
  {"a zone of class CH", "$ORIGIN ex.\n$TTL 60\nc CH TXT x\nd TXT y\n",
   "c.ex. 60 3 16 |x| @3:1\nd.ex. 60 3 16 |y| @4:1\n", ""},
  {"another class than the first record's",
   "$ORIGIN ex.\n$TTL 60\na A 1.2.3.4\nb CH A 1.2.3.4\nc 30 A 1.2.3.4\n",
   "a.ex. 60 1 1 |1.2.3.4| @3:1\nc.ex. 30 1 1 |1.2.3.4| @5:1\n",
   "t.zone:4:3: error: class CH in a zone of class IN (its first record's): a zone holds one "
   "class (RFC 1035 section 5.2); BIND refuses the zone\n"},
  {"blank owner repeats the previous one",
   "$ORIGIN ex.\n$TTL 60\na A 1.2.3.4\n  TXT \"x y\"\n\tMX 10 b\n",
   "a.ex. 60 1 1 |1.2.3.4| @3:1\na.ex. 60 1 16 |\"x y\"| @4:1\na.ex. 60 1 15 |10| |b| @5:1\n", ""},
  {"parentheses, comments and CRLF",
   "$ORIGIN ex.\r\n$TTL 60\r\n@ SOA ns h ( 1 ; serial\r\n 2 3 ; more\r\n 4 5 )\r\n",
   "ex. 60 1 6 |ns| |h| |1| |2| |3| |4| |5| @3:1\n", ""},
  {"escapes stay as written, quotes go",
   "$ORIGIN ex.\n$TTL 60\na\\.b TXT \"q\\\"x\" \\# ;c\n",
   /* the dump prints label octets raw: "a.b" is one label */
   "a.b.ex. 60 1 16 |\"q\\\"x\"| |\\#| @3:1\n", ""},
  /* RFC 3597 RDATA of a type the reader parses (A) becomes that type's own record */
  {"generic RDATA and TYPEnnn",
   "$ORIGIN ex.\n$TTL 60\na TYPE65534 \\# 2 abcd\nb CLASS1 A \\# 4 01020304\n",
   "a.ex. 60 1 65534 generic |\\#| |2| |abcd| @3:1\nb.ex. 60 1 1 |\\#| |4| |01020304| @4:1\n",
   ""},
  {"UTF-8 byte-order mark", "\xEF\xBB\xBF$ORIGIN ex.\n$TTL 60\na A 1.2.3.4\n",
   "a.ex. 60 1 1 |1.2.3.4| @3:1\n", ""},
  /* \$ is copied as written, an escaped dollar for the RDATA parser (named-compilezone writes
   * a\$b.ex. for the CNAME target) */
  {"$GENERATE with modifiers",
   "$ORIGIN ex.\n$TTL 60\n$GENERATE 1-3/2 h${10,3,d} A 10.0.0.$\n$GENERATE 10-11 x${0,2,x} CNAME a\\$b\n",
   "h011.ex. 60 1 1 |10.0.0.1| @3:1\nh013.ex. 60 1 1 |10.0.0.3| @3:1\n"
   "x0a.ex. 60 1 5 |a\\$b| @4:1\nx0b.ex. 60 1 5 |a\\$b| @4:1\n", ""},
  /* The right-hand side is ONE token, read as RDATA text once substituted, quotes off: named-
   * compilezone -s full writes h1 TXT "v=spf1" "ip4:192.0.2.1" "-all" (three strings) and
   * m1 MX 10 mx1.ex.; "\"" in the quoted token is a quote ("a b" one string); \\$ is an escaped
   * backslash and then the value (TXT "\\1"); a ';' starts a comment (TXT "a"). */
  {"$GENERATE's right-hand side is one token of RDATA text",
   "$ORIGIN ex.\n$TTL 60\n$GENERATE 1-1 h$ TXT \"v=spf1 ip4:192.0.2.$ -all\"\n"
   "$GENERATE 1-1 m$ MX \"10 mx$\"\n$GENERATE 1-1 q$ TXT \"\\\"a b\\\" \\\\$ x ; c\"\n",
   "h1.ex. 60 1 16 |v=spf1| |ip4:192.0.2.1| |-all| @3:1\nm1.ex. 60 1 15 |10| |mx1| @4:1\n"
   "q1.ex. 60 1 16 |\"a b\"| |\\\\1| |x| @5:1\n", ""},
  /* named: "extra input text" (MX takes "10" alone, then "mx$" is one token too many) */
  {"$GENERATE with RDATA of two tokens", "$ORIGIN ex.\n$TTL 60\n$GENERATE 1-2 h$ MX 10 mx$\n", "",
   "t.zone:3:1: error: $GENERATE takes a range, an owner, an optional TTL and class, a type and "
   "one token of RDATA (quote it when it has blanks)\n"},
  /* named: "unbalanced parentheses" when the right-hand side is read inside them; parentheses
   * closed before it, or opened after it, are fine */
  {"$GENERATE's right-hand side inside parentheses",
   "$ORIGIN ex.\n$TTL 60\n$GENERATE 1-1 ( h$ A 1.2.3.$ )\n$GENERATE 1-1 g$ (A) 1.2.3.$ (\n)\n",
   "g1.ex. 60 1 1 |1.2.3.1| @4:1\n",
   "t.zone:3:22: error: $GENERATE's right-hand side is inside parentheses, which named refuses: "
   "close them before it\n"},
  /* named-compilezone puts the blank-owner A at o.ex., the owner before the directive */
  {"a blank owner after $GENERATE is the owner before it",
   "$ORIGIN ex.\n$TTL 60\no A 1.1.1.1\n$GENERATE 1-2 h$ A 1.2.3.$\n  A 9.9.9.9\n",
   "o.ex. 60 1 1 |1.1.1.1| @3:1\nh1.ex. 60 1 1 |1.2.3.1| @4:1\nh2.ex. 60 1 1 |1.2.3.2| @4:1\n"
   "o.ex. 60 1 1 |9.9.9.9| @5:1\n", ""},
  /* nibbles: the width counts characters, dots included (named-compilezone: ${0,3,n} of 1 is
   * "1.0", ${0,4,n} is "1.0." with its trailing dot, ${0,2,N} of 17 is "1.1"); negative values
   * in o, x, n are 32-bit (named: -1 is 37777777777, ffffffff, f.f.f.f.f.f.f.f) */
  {"$GENERATE nibbles and negative values",
   "$ORIGIN ex.\n$TTL 60\n$GENERATE 1-1 ${0,3,n}.a A 1.2.3.4\n$GENERATE 1-1 ${0,4,n}b A 1.2.3.4\n"
   "$GENERATE 17-17 ${0,2,N}.c A 1.2.3.4\n$GENERATE 0-0 o${-1,0,o}.x${-1,0,x}.${-1,0,n} A 1.2.3.4\n",
   "1.0.a.ex. 60 1 1 |1.2.3.4| @3:1\n1.0.b.ex. 60 1 1 |1.2.3.4| @4:1\n1.1.c.ex. 60 1 1 |1.2.3.4| @5:1\n"
   "o37777777777.xffffffff.f.f.f.f.f.f.f.f.ex. 60 1 1 |1.2.3.4| @6:1\n", ""},
  /* an offset holds for the plain $ after it in the same template, its width and base do not
   * (named-compilezone: owner a006b6c8d8.ex., TXT "1" "3" "3"; the owner's offsets do not reach
   * the RDATA) */
  {"a $GENERATE offset holds for the $ after it",
   "$ORIGIN ex.\n$TTL 60\n$GENERATE 1-1 a${5,3,x}b$c${7}d$ TXT \"$ ${2} $\"\n",
   "a006b6c8d8.ex. 60 1 16 |1| |3| |3| @3:1\n", ""},
  /* named: "out of range" for a value past 2^31-1 with its offset, "invalid range" for a STEP
   * of 2^32-1 */
  {"$GENERATE values stay below 2^31",
   "$ORIGIN ex.\n$TTL 60\n$GENERATE 1-1 h${2147483647} A 1.2.3.4\n$GENERATE 1-1/4294967295 g$ A 1.2.3.4\n",
   "", "t.zone:3:16: error: $GENERATE value 1 with its offset is past 2147483647 (named: \"out of "
   "range\")\nt.zone:4:11: error: bad $GENERATE range \"1-1/4294967295\": START-STOP[/STEP] with "
   "0 <= START <= STOP < 2^31, 1 <= STEP < 2^31\n"},
  /* 1-5 = -4, 2+5 = 7 in width 3, 7-2147483647 = -2147483640; named-compilezone 9.18 writes
   * the same owners for these lines */
  {"$GENERATE offsets with a sign",
   "$ORIGIN ex.\n$TTL 60\n$GENERATE 1-2 h${-5} A 1.2.3.$\n$GENERATE 2-2 g${+5,3} A 1.2.3.4\n"
   "$GENERATE 7-7 k${-2147483647,2,d} A 1.2.3.4\n",
   "h-4.ex. 60 1 1 |1.2.3.1| @3:1\nh-3.ex. 60 1 1 |1.2.3.2| @3:1\ng007.ex. 60 1 1 |1.2.3.4| @4:1\n"
   "k-2147483640.ex. 60 1 1 |1.2.3.4| @5:1\n", ""},
  {"$GENERATE range past LONG_MAX",
   "$ORIGIN ex.\n$TTL 60\n$GENERATE 0-9223372036854775808 h$ A 1.2.3.4\n", "", "t.zone:3:11: error: bad $GENERATE range \"0-9223372036854775808\": START-STOP[/STEP] with "
   "0 <= START <= STOP < 2^31, 1 <= STEP < 2^31\n"},
  {"$GENERATE negative step", "$ORIGIN ex.\n$TTL 60\n$GENERATE 1-10/-1 h$ A 1.2.3.4\n", "",
   "t.zone:3:11: error: bad $GENERATE range \"1-10/-1\": START-STOP[/STEP] with 0 <= START <= "
   "STOP < 2^31, 1 <= STEP < 2^31\n"},
  {"SOA MINIMUM as the default TTL, as BIND", "$ORIGIN ex.\n@ SOA ns h 1 2 3 4 300\na A 1.2.3.4\n",
   "ex. 300 1 6 |ns| |h| |1| |2| |3| |4| |300| @2:1\na.ex. 300 1 1 |1.2.3.4| @3:1\n",
   "t.zone:2:1: warning: no $TTL before the SOA: using its MINIMUM 300 as the default TTL, as "
   "BIND does\n"},
  /* errors: the record is skipped, the next one read */
  {"no previous owner", "$ORIGIN ex.\n$TTL 60\n A 1.2.3.4\nb A 1.2.3.4\n",
   "b.ex. 60 1 1 |1.2.3.4| @4:1\n",
   "t.zone:3:1: error: no previous owner for a record that starts with a blank\n"},
  {"unknown type", "$ORIGIN ex.\n$TTL 60\na IN FOO 1\nb A 1.2.3.4\n",
   "b.ex. 60 1 1 |1.2.3.4| @4:1\n", "t.zone:3:6: error: unknown type \"FOO\"\n"},
  {"TTL overflow", "$ORIGIN ex.\n$TTL 60\na 2147483648 A 1.2.3.4\n", "",
   "t.zone:3:3: error: bad TTL \"2147483648\": a number up to 2147483647, units s m h d w "
   "allowed\n"},
  {"unterminated quote", "$ORIGIN ex.\n$TTL 60\na TXT \"abc\nb A 1.2.3.4\n",
   "b.ex. 60 1 1 |1.2.3.4| @4:1\n", "t.zone:3:7: error: quoted string not closed on this line\n"},
  {"unbalanced parentheses", "$ORIGIN ex.\n$TTL 60\na TXT ( x\n", "",
   "t.zone:3:7: error: '(' not closed before the end of the file\n"},
  {"closing parenthesis alone", "$ORIGIN ex.\n$TTL 60\na TXT x )\nb A 1.2.3.4\n",
   "b.ex. 60 1 1 |1.2.3.4| @4:1\n", "t.zone:3:9: error: ')' without '('\n"},
  {"backslash at end of line", "$ORIGIN ex.\n$TTL 60\na TXT x\\\nb A 1.2.3.4\n",
   "b.ex. 60 1 1 |1.2.3.4| @4:1\n", "t.zone:3:8: error: backslash at the end of a line\n"},
  /* A backslash that ends a line also ends an owner, a directive or a quoted string (the scanner
   * matches these whole, so that flex never backs up, and gives the backslash back). Columns:
   * owner "ab" then the backslash at 3; "$ORIGIN" then the backslash at 8; "a TXT " is 6
   * characters, so the quote is at 7; in the last case the escape 256 is the error at 7 and the
   * rest of the line, quote and backslash included, is skipped. */
  {"backslash ends an owner", "$ORIGIN ex.\n$TTL 60\nab\\\nb A 1.2.3.4\n",
   "b.ex. 60 1 1 |1.2.3.4| @4:1\n", "t.zone:3:3: error: backslash at the end of a line\n"},
  {"backslash ends a directive", "$ORIGIN ex.\n$TTL 60\n$ORIGIN\\\nb A 1.2.3.4\n",
   "b.ex. 60 1 1 |1.2.3.4| @4:1\n", "t.zone:3:8: error: backslash at the end of a line\n"},
  {"backslash ends a quoted string", "$ORIGIN ex.\n$TTL 60\na TXT \"abc\\\nb A 1.2.3.4\n",
   "b.ex. 60 1 1 |1.2.3.4| @4:1\n", "t.zone:3:7: error: quoted string not closed on this line\n"},
  {"backslash ends a skipped quoted string",
   "$ORIGIN ex.\n$TTL 60\na TXT \\256 \"x\\\nb A 1.2.3.4\n", "b.ex. 60 1 1 |1.2.3.4| @4:1\n",
   "t.zone:3:7: error: escape \"\\256\" is above \\255\n"},
  /* a relative $ORIGIN is relative to the origin in force and "@" is that origin, as BIND and
   * as in $INCLUDE (named-compilezone gives a.sub.ex. and b.sub.ex.) */
  {"relative $ORIGIN", "$ORIGIN ex.\n$TTL 60\n$ORIGIN sub\na A 1.2.3.4\n$ORIGIN @\nb A 1.2.3.4\n",
   "a.sub.ex. 60 1 1 |1.2.3.4| @4:1\nb.sub.ex. 60 1 1 |1.2.3.4| @6:1\n", ""},
  {"relative $ORIGIN without an origin", "$ORIGIN ex\n", "",
   "t.zone:1:9: error: relative name \"ex\" needs an origin ($ORIGIN or -z)\n"},
  {"unknown directive", "$FOO bar\n", "", "t.zone:1:1: error: unknown directive \"$FOO\"\n"},
  {"no TTL at all", "$ORIGIN ex.\na A 1.2.3.4\n", "",
   "t.zone:2:1: error: no TTL for this record: give one, or $TTL or -t before it\n"},
  {"relative owner without origin", "$TTL 60\na A 1.2.3.4\n", "",
   "t.zone:2:1: error: relative name \"a\" needs an origin ($ORIGIN or -z)\n"},
  {"a huge $GENERATE is refused at once", "$ORIGIN ex.\n$TTL 60\n$GENERATE 1-4000000000 h$ A 1.2.3.4\n",
   "", "t.zone:3:11: error: bad $GENERATE range \"1-4000000000\": START-STOP[/STEP] with 0 <= "
   "START <= STOP < 2^31, 1 <= STEP < 2^31\n"},
  /* the owner's empty label is at col 3; the invalid byte after it is not reported: an error
   * ends its record */
  {"one error per record", "$ORIGIN ex.\n$TTL 60\na..b TXT \"\xff\"\nc A 1.2.3.4\n",
   "c.ex. 60 1 1 |1.2.3.4| @4:1\n", "t.zone:3:3: error: empty label in \"a..b\"\n"},
  /* the same errors where the line ends right after the bad token (the parser has read the end
   * of line already): the next record is not skipped with it */
  {"an error at the end of a line spares the next record",
   "$ORIGIN ex.\n$TTL 60\na..b\nc A 1.2.3.4\nd 9999999999\ne A 1.2.3.5\n$GENERATE 1-0 x\n"
   "f A 1.2.3.6\n",
   "c.ex. 60 1 1 |1.2.3.4| @4:1\ne.ex. 60 1 1 |1.2.3.5| @6:1\nf.ex. 60 1 1 |1.2.3.6| @8:1\n",
   "t.zone:3:3: error: empty label in \"a..b\"\n"
   "t.zone:5:3: error: bad TTL \"9999999999\": a number up to 2147483647, units s m h d w allowed\n"
   "t.zone:7:11: error: bad $GENERATE range \"1-0\": START-STOP[/STEP] with 0 <= START <= STOP < "
   "2^31, 1 <= STEP < 2^31\n"},
  {"NUL byte", "$ORIGIN ex.\n$TTL 60\na TXT x\0y\nb A 1.2.3.4\n", "b.ex. 60 1 1 |1.2.3.4| @4:1\n",
   "t.zone:3:8: error: NUL byte in the zone file\n"},
};

Test(zone, syntax_items_and_their_errors)
{
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *out, *err;
    /* the NUL case needs its length: every text here ends at its last newline */
    const char *t = cases[i].text;
    size_t len = strlen(t);
    if (strcmp(cases[i].name, "NUL byte") == 0)
      len = strlen(t) + 1 + strlen(t + strlen(t) + 1);
    err = parse(NULL, t, len, &out);
    cr_expect_str_eq(out, cases[i].records, "%s: records\n%s", cases[i].name, out);
    cr_expect_str_eq(err, cases[i].errors, "%s: errors\n%s", cases[i].name, err);
    free(out);
    free(err);
  }
}

Test(zone, include_is_relative_scoped_and_loops_are_caught, .fini = cleanup)
{
  strcpy(dir, "/tmp/zp-zone-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  char sub[128];
  snprintf(sub, sizeof sub, "%s/sub", dir);
  cr_assert_eq(mkdir(sub, 0755), 0);
  write_file("sub/inner.zone", "$TTL 30\n@ A 10.0.0.1\nx A 10.0.0.2\n$INCLUDE inner.zone\n");
  write_file("t.zone", "$ORIGIN ex.\n$TTL 60\na A 1.2.3.4\n$INCLUDE sub/inner.zone in.ex.\n"
                       "  A 1.2.3.5\nb A 1.2.3.6\n$INCLUDE missing.zone\n");
  cr_assert_eq(chdir(dir), 0);
  char *records, *err = parse("t.zone", NULL, 0, &records);
  /* after the include: origin and owner of t.zone again, and the $TTL of inner.zone still in
   * force (named-checkzone -D gives a.ex. and b.ex. 30 after such an include) */
  cr_expect_str_eq(records, "a.ex. 60 1 1 |1.2.3.4| @3:1\nin.ex. 30 1 1 |10.0.0.1| @2:1\n"
                           "x.in.ex. 30 1 1 |10.0.0.2| @3:1\na.ex. 30 1 1 |1.2.3.5| @5:1\n"
                           "b.ex. 30 1 1 |1.2.3.6| @6:1\n");
  cr_expect_str_eq(err, "sub/inner.zone:4:1: error: $INCLUDE loop: \"sub/inner.zone\" is already being read\n"
                        "  included from t.zone:4\n"
                        "t.zone:7:10: error: $INCLUDE \"missing.zone\": not found below the "
                        "include root \".\", the zone file's directory (--include-root DIR "
                        "moves it)\n");
  free(records);
  free(err);
}

/* Each limit of doc/limits.md, reached by a zone generated here (nothing big is committed). */
Test(zone, limits_are_errors, .timeout = 60)
{
  static const char head[] = "$ORIGIN ex.\n$TTL 60\n";
  size_t cap = (2u << 20) + 1000;
  char *z = malloc(cap), *records, *err;
  /* a 1 MB line */
  size_t n = (size_t)sprintf(z, "%sa TXT ", head);
  memset(z + n, 'x', 1 << 20);
  n += 1 << 20;
  n += (size_t)sprintf(z + n, "\nb A 1.2.3.4\n");
  err = parse(NULL, z, n, &records);
  cr_expect_str_eq(err, "t.zone:3:1: error: line longer than 786432 bytes\n");
  cr_expect_str_eq(records, "b.ex. 60 1 1 |1.2.3.4| @4:1\n");
  free(err);
  free(records);
  /* 131073 fields: lines 3 to 1314 (a newline after every 100th), b on line 1315 */
  n = (size_t)sprintf(z, "%sa TXT (", head);
  for (int i = 0; i < 131100; i++)
    n += (size_t)sprintf(z + n, i % 100 == 99 ? " x\n" : " x");
  n += (size_t)sprintf(z + n, " )\nb A 1.2.3.4\n");
  err = parse(NULL, z, n, &records);
  cr_expect_not_null(strstr(err, "error: more than 131072 fields in one record\n"), "%s", err);
  cr_expect_str_eq(records, "b.ex. 60 1 1 |1.2.3.4| @1315:1\n");
  free(err);
  free(records);
  /* a record over 1 MiB across lines */
  n = (size_t)sprintf(z, "%sa TXT (\n", head);
  for (int i = 0; i < 40; i++) {
    memset(z + n, 'y', 30000);
    n += 30000;
    z[n++] = '\n';
  }
  n += (size_t)sprintf(z + n, ")\nb A 1.2.3.4\n");
  err = parse(NULL, z, n, &records);
  cr_expect_not_null(strstr(err, "error: record longer than 1048576 bytes\n"), "%s", err);
  cr_expect_str_eq(records, "b.ex. 60 1 1 |1.2.3.4| @45:1\n");
  free(err);
  free(records);
  free(z);
}

Test(zone, include_depth_is_limited, .fini = cleanup)
{
  strcpy(dir, "/tmp/zp-zone-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  for (int i = 0; i < 20; i++) {
    char name[32], text[64];
    snprintf(name, sizeof name, "z%d.zone", i);
    snprintf(text, sizeof text, "$INCLUDE z%d.zone\n", i + 1);
    write_file(name, text);
  }
  write_file("t.zone", "$ORIGIN ex.\n$TTL 60\n$INCLUDE z0.zone\nb A 1.2.3.4\n");
  cr_assert_eq(chdir(dir), 0);
  char *records, *err = parse("t.zone", NULL, 0, &records);
  cr_expect_not_null(strstr(err, "z15.zone:1:1: error: $INCLUDE nested deeper than 16 files\n"),
                     "%s", err);
  cr_expect_str_eq(records, "b.ex. 60 1 1 |1.2.3.4| @4:1\n");
  free(records);
  free(err);
}
