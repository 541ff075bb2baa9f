/* test_conf.c -- the named.conf reader: tokens, named's grammar, include, directory, views, the
 * zones, check options and load limits it hands out, and its errors at their exact places.
 *
 * What named-checkconf (BIND 9.18.49) does, case by case: the facts src/cli/conf_parse.c,
 * conf_value.c, conf_grammar.c and conf.c follow, found by running it (-z: it also loads the
 * zones, printing "zone NAME/IN: loaded serial N" for each). tests/cli/check_named_conf_zones.sh
 * asks it again; tests/cli/check_named_conf_grammar.py asks it of many broken confs.
 *
 * | case                             | named-checkconf                  | the reader              |
 * |----------------------------------|----------------------------------|-------------------------|
 * | #, //, C comment (not nested)    | comments                         | same                    |
 * | # or // glued to a word's end    | end the word; comments           | same                    |
 * | (primary#x)                      |                                  |                         |
 * | C comment glued to a word's end  | its last '/' read again, as a    | same                    |
 * | (primary and a slash-star)       | token: refused where it stands   |                         |
 * | '/' and '!' inside a word        | tokens of their own (10.0.0.0/8  | same                    |
 * |                                  | is three)                        |                         |
 * | comment or string not closed     | refused                          | refused at its start    |
 * | \" in a quoted string            | '"', the backslash dropped       | same                    |
 * | \\, \n, any other \X in a quoted | kept as written: "a\\b" is the   | same                    |
 * | string                           | file a\\b                        |                         |
 * | a newline in a quoted string     | part of it                       | same                    |
 * | keywords, values in any case     | taken                            | same                    |
 * | (TYPE MASTER)                    |                                  |                         |
 * | a keyword or value quoted (type  | refused                          | refused                 |
 * | "primary")                       |                                  |                         |
 * | file, directory, include         | refused                          | refused                 |
 * | unquoted                         |                                  |                         |
 * | zone and view names, in-view     | quoted or not                    | same                    |
 * | ';' alone, ';;', a block with no | refused                          | refused                 |
 * | name                             |                                  |                         |
 * | ';' missing between statements,  | refused                          | refused at the next     |
 * | before '}', after a block, at    |                                  | token, or after the     |
 * | the end                          |                                  | last                    |
 * | every clause's value             | typed by named's clause tables   | same (conf_int.h holds  |
 * |                                  | (namedconf.c): numbers, words,   | a copy of the tables)   |
 * |                                  | durations, lists, addresses...   |                         |
 * | a clause named does not know; no | refused; refused; warned, taken; | same; same; taken; same |
 * | longer knows; deprecated; not    | refused                          |                         |
 * | built (dnsrps-enable)            |                                  |                         |
 * | a clause given twice in a block  | refused, but those named takes   | same                    |
 * |                                  | more than once (zone, acl...)    |                         |
 * | the end of the file inside a     | refused                          | refused at the open '{' |
 * | block                            |                                  |                         |
 * | a '}' with no '{'                | refused                          | refused                 |
 * | include, relative                | to the working directory; once   | same                    |
 * |                                  | options' directory is read, to   |                         |
 * |                                  | it                               |                         |
 * | include in any block of clauses  | read there                       | same                    |
 * | (options, view, zone,            |                                  |                         |
 * | logging...)                      |                                  |                         |
 * | include in a list (acl, allow-   | a name like any other: the       | same                    |
 * | query)                           | string after it refused          |                         |
 * | an included file's tokens        | spliced in: a block opened in    | same                    |
 * |                                  | one file may close in another    |                         |
 * | include "inc/a*.conf"            | glob(3): matches read last       | same                    |
 * |                                  | first; none: "file not found"    |                         |
 * | include loop; include missing    | refused                          | refused at the include  |
 * | options { directory "rel"; }     | changes into it as it reads it:  | same, as joined paths   |
 * |                                  | later includes and every         |                         |
 * |                                  | relative zone file (before it    |                         |
 * |                                  | too) resolve there               |                         |
 * | directory missing or not a       | refused                          | refused                 |
 * | directory                        |                                  |                         |
 * | directory in view or zone;       | refused                          | refused                 |
 * | options twice                    |                                  |                         |
 * | type primary, master             | loaded                           | listed                  |
 * | type redirect                    | loaded but with primaries or     | same; other names       |
 * |                                  | masters; named '.' only          | refused                 |
 * | type hint                        | its file read as root hints      | listed: hint, every     |
 * |                                  | (origin ., no check-names, no    | check off but cname-    |
 * |                                  | SOA); its loader's errors (CNAME | and-other-data and      |
 * |                                  | and other data) refuse the conf; | singleton               |
 * |                                  | no "loaded" line                 |                         |
 * | secondary, slave, mirror, stub,  | not loaded, file not read        | not listed              |
 * | static-stub, forward,            |                                  |                         |
 * | delegation-only                  |                                  |                         |
 * | primary with database other than | not loaded                       | not listed              |
 * | rbt, or dlz                      |                                  |                         |
 * | in-view "v"                      | v's zone, not loaded again; v    | same                    |
 * |                                  | later or missing (names exact),  |                         |
 * |                                  | a clause but forward(ers) beside |                         |
 * |                                  | it: refused                      |                         |
 * | primary or hint with no file; no | refused                          | refused                 |
 * | type; unknown type               |                                  |                         |
 * | a zone twice in a view (ex, EX., | refused                          | refused                 |
 * | e\120)                           |                                  |                         |
 * | a zone in two views              | loaded in each                   | listed for each         |
 * | zones outside views beside       | refused                          | refused                 |
 * | views; a view twice              |                                  |                         |
 * | zone name "" or "a..b"           | refused                          | refused                 |
 * | class IN, in, CLASS1; another    | IN; refused                      | same                    |
 * | than the view's (default IN)     |                                  |                         |
 * | a CH or HS zone in a view of its | loaded, records of that class    | refused: class IN only  |
 * | class                            |                                  |                         |
 * | an option set in zone, view and  | the zone's, else the view's,     | same                    |
 * | options                          | else options'                    |                         |
 * | check-names L (zone); check-     | fail refuses, warn warns;        | level[check-names]:     |
 * | names primary|master L (view,    | primary and master both:         | error, warning, off;    |
 * | options)                         | refused; secondary, response:    | the caller's if none    |
 * |                                  | other zones                      |                         |
 * | check-mx fail                    | refuses an MX written as an      | refused: no check is    |
 * |                                  | address, or naming a host of the | that (address-target,   |
 * |                                  | zone with no address             | mx-target: more)        |
 * | check-mx-cname fail, check-srv-  | refuses an MX, SRV naming an     | refused (mx-target,     |
 * | cname fail                       | alias                            | srv-target: no address  |
 * |                                  |                                  | too)                    |
 * | check-dup-records fail           | refuses records DNSSEC tells     | refused: no such check  |
 * |                                  | apart and plain DNS holds equal  |                         |
 * | those four warn or ignore        | loads                            | ignored                 |
 * | check-integrity, -sibling,       | loads either way (warnings; apex | ignored, values checked |
 * | -wildcard yes|no; check-spf      | NS checks stay)                  |                         |
 * | warn|ignore                      |                                  |                         |
 * | masterfile-format raw; map       | a text file refused; map refused | refused                 |
 * | max-zone-ttl N (zone, view,      | a TTL above N refuses the zone;  | max_zone_ttl, for the   |
 * | options)                         | 0: none (unlimited: -z aborts,   | load-limit check; 0,    |
 * |                                  | an assertion; named: none)       | unlimited: none         |
 * | max-zone-ttl beside a dnssec-    | warned: named ignores it; -z     | warned; applied         |
 * | policy                           | applies it                       |                         |
 * | max-records-per-type, max-types- | not applied by -z; named refuses | applied (load-limit)    |
 * | per-name N (zone, view, options) | the zone past N (0: no limit;    |                         |
 * |                                  | 100 by default)                  |                         |
 * | a load limit in a zone whose     | refused (max-zone-ttl: primary   | same                    |
 * | type does not take it            | and redirect only; the others    |                         |
 * |                                  | not in hint, forward,            |                         |
 * |                                  | delegation-only)                 |                         |
 * | max-records, dnssec-policy's TTL | not applied by -z                | ignored                 |
 * | check-svcb, any other check-*    | unknown option: refused          | refused                 |
 * | other statements and options     | their grammar, then their        | their grammar only      |
 * |                                  | meaning checked                  |                         |
 * | writeable file twice, secondary  | refused                          | not checked             |
 * | without primaries, an undefined  |                                  |                         |
 * | acl or key, other options a zone |                                  |                         |
 * | type forbids                     |                                  |                         |
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/conf.h"
#include "cli/conf_int.h"

static char dir[64];

/* named's zone types, as its grammar lists them (namedconf.c, zonetype_enums) */
#define TYPES "primary, master, secondary, slave, mirror, delegation-only, forward, hint, " \
  "redirect, static-stub, stub"

static void setup(void)
{
  strcpy(dir, "/tmp/test_conf.XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
  cr_assert_eq(chdir(dir), 0);
}

static void teardown(void)
{
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (chdir("/") != 0 || system(cmd) != 0)
    cr_log_warn("could not remove %s", dir);
}

TestSuite(conf, .init = setup, .fini = teardown);

static void put(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  fputs(text, f);
  fclose(f);
}

/* Reads path with check-names at level; *out gets one line per zone (the directory option
 * when there is one, view name file level kind, the zone statement's line:col and its file
 * string's), the return the diagnostics (no source lines). Both caller-freed. */
static char *read_at(const char *path, zp_check_level level, char **out)
{
  static const char *const levels[] = {"ignore", "warn", "fail"};
  char *err, *zones;
  size_t elen, zlen;
  FILE *ef = open_memstream(&err, &elen), *zf = open_memstream(&zones, &zlen);
  zp_diag diag;
  zp_diag_init(&diag, ef);
  diag.show_source = false;
  zp_check_options checks;
  zp_check_defaults(&checks);
  checks.level[ZP_CK_CHECK_NAMES] = (uint8_t)level;
  zp_conf *conf;
  cr_assert_eq(zp_conf_read(path, &checks, &diag, &conf), ZP_OK);
  cr_assert_eq(conf == NULL, diag.errors > 0, "a conf with errors, or none without");
  for (size_t i = 0; conf && i < zp_conf_count(conf); i++) {
    const zp_conf_zone *z = zp_conf_zone_at(conf, i);
    cr_assert(!z->checks.off);
    /* hints: named's loader refuses a CNAME beside other data, two CNAMEs; nothing else */
    for (size_t k = 0; z->hint && k < ZP_CK_COUNT; k++)
      cr_assert_eq(z->checks.level[k] != ZP_LEVEL_OFF,
                   k == ZP_CK_CNAME_OTHER || k == ZP_CK_SINGLETON, "hint: check %zu", k);
    if (strcmp(z->dir, ".") != 0)
      fprintf(zf, "dir %s: ", z->dir);
    fprintf(zf, "%s %s %s %s %s %u:%u %u:%u\n", z->view ? z->view : "-", z->name, z->file,
            levels[z->checks.level[ZP_CK_CHECK_NAMES]], z->hint ? "hint" : "zone", z->loc.line,
            z->loc.col, z->file_loc.line, z->file_loc.col);
  }
  zp_conf_free(conf);
  zp_diag_end(&diag);   /* (frees what the sink holds: the messages of included files) */
  fclose(ef);
  fclose(zf);
  *out = zones;
  return err;
}

typedef struct conf_case {
  const char *conf;   /* t.conf */
  const char *want;   /* the zones (read_at's lines) or the diagnostics */
} conf_case;

static void run_cases(const conf_case *cases, size_t n, bool errors)
{
  for (size_t i = 0; i < n; i++) {
    char *zones;
    put("t.conf", cases[i].conf);
    char *err = read_at("t.conf", ZP_LEVEL_ERROR, &zones);
    cr_expect_str_eq(errors ? err : zones, cases[i].want, "case %zu:\n%sgot:\n%s", i,
                     cases[i].conf, errors ? err : zones);
    if (!errors)
      cr_expect_str_eq(err, "", "case %zu:\n%sgot:\n%s", i, cases[i].conf, err);
    free(err);
    free(zones);
  }
}

/* Syntax, each error at its place; reading stops at the first. */
Test(conf, syntax_errors)
{
  static const conf_case cases[] = {
    {"zone \"ex\" { type primary; file \"a\";\n",
     "t.conf:1:11: error: '{' not closed: the file ends before its '}'\n"},
    {"zone \"a\" { type primary; file \"a\"; }\nzone \"b\" { };\n",
     "t.conf:2:1: error: missing ';' before 'zone'\n"},
    {"zone \"a\" {\n\ttype primary file \"a\"; };\n",
     "t.conf:2:15: error: missing ';' before 'file'\n"},
    {"zone \"a\" { type primary; file \"a\" };\n",
     "t.conf:1:35: error: missing ';' before '}'\n"},
    {"zone \"a\" { type primary; file \"a\"; }  ",
     "t.conf:1:37: error: missing ';' at the end of the file\n"},
    {"options { allow-query { any; } notify yes; };\n",
     "t.conf:1:32: error: missing ';' before 'notify'\n"},
    {"acl a { { 192.0.2.1; } \"x\"; };\n", "t.conf:1:24: error: missing ';' before '\"x\"'\n"},
    {"zone \"a\" { type primary; file \"a\n\nb; };\n",
     "t.conf:1:31: error: string not closed: the file ends before its closing '\"'\n"},
    {"zone \"a\" { type primary; file \"a\"; };\n\n  /* no end\n*\n",
     "t.conf:3:3: error: comment '/*' not closed: the file ends before its '*/'\n"},
    /* named's lexer pushes back one octet too few after a comment glued to a word: the
     * comment's last '/' is read again, as a token (col 28) */
    {"zone \"a\" { type primary/*x*/; file \"a\"; };\n",
     "t.conf:1:28: error: missing ';' before '/' (named reads the last '/' of a comment glued "
     "to a word as a token: put a blank before the comment)\n"},
    {"\n  ;\n", "t.conf:2:3: error: ';' with no statement before it\n"},
    {"zone \"a\" { type primary;; };\n", "t.conf:1:25: error: ';' with no clause before it\n"},
    {"options { };\n};\n", "t.conf:2:1: error: '}' with no '{' before it to close\n"},
    {"{ };\n", "t.conf:1:1: error: expected a statement, not '{'\n"},
    {"options { \"directory\" \"/\"; };\n",
     "t.conf:1:11: error: a clause's name is a word, not a quoted string\n"},
    {"include t2.conf;\n", "t.conf:1:9: error: include takes a quoted file name, not 't2.conf'\n"},
    {"include \"t.conf\" \"x\";\n", "t.conf:1:18: error: missing ';' before '\"x\"'\n"},
    /* in a list, include is a name like any other (an acl's) */
    {"acl a { include \"t.conf\"; };\n", "t.conf:1:17: error: missing ';' before '\"t.conf\"'\n"},
    {"include \"none.conf\";\n",
     "t.conf:1:9: error: include: cannot read none.conf: No such file or directory\n"},
    {"options { directory \"none\"; };\n",
     "t.conf:1:21: error: directory none: No such file or directory\n"},
    {"options { directory \"t.conf\"; };\n",
     "t.conf:1:21: error: directory t.conf: Not a directory\n"},
    {"options { directory; };\n", "t.conf:1:20: error: expected a quoted string, not ';'\n"},
    /* columns count characters: a tab one, ü one */
    {"zone \"b\xc3\xbc\x63her\" {\ttype primary; file \"a\" };\n",
     "t.conf:1:40: error: missing ';' before '}'\n"},
  };
  run_cases(cases, sizeof cases / sizeof *cases, true);
}

/* What named-checkconf's parser refuses (each case's verdict asked of named-checkconf 9.18.49,
 * which names the same line): a clause's missing ';' before the next clause (a one-word option
 * followed by zone or include, the block's '}'), unknown and misspelt names, an option named no
 * longer knows or this build lacks, a clause given twice, values not of their clause's type. */
Test(conf, grammar_errors)
{
  static const conf_case cases[] = {
    {"options { recursion no\nzone \"a\" { type primary; file \"a\"; }; };\n",
     "t.conf:2:1: error: missing ';' before 'zone'\n"},
    {"options { recursion no\ninclude \"t.conf\"; };\n",
     "t.conf:2:1: error: missing ';' before 'include'\n"},
    {"options { recursion no }\nzone \"a\" { type primary; file \"a\"; };\n",
     "t.conf:1:24: error: missing ';' before '}'\n"},
    {"options { recursion no; }\nzone \"a\" { type primary; file \"a\"; };\n",
     "t.conf:2:1: error: missing ';' before 'zone'\n"},
    {"view v { recursion no\n  zone \"a\" { type primary; file \"a\"; }; };\n",
     "t.conf:2:3: error: missing ';' before 'zone'\n"},
    {"foo bar;\nzone \"a\" { type primary; file \"a\"; };\n",
     "t.conf:1:1: error: unknown statement 'foo'\n"},
    {"zonee \"a\" { type primary; file \"a\"; };\n",
     "t.conf:1:1: error: unknown statement 'zonee'\n"},
    {"zone \"a\" { type primary; fiel \"a\"; };\n", "t.conf:1:26: error: unknown option 'fiel'\n"},
    {"options { deallocate-on-exit yes; };\n",
     "t.conf:1:11: error: option 'deallocate-on-exit' no longer exists\n"},
    {"options { dnsrps-enable no; };\n", "t.conf:1:11: error: option 'dnsrps-enable' was not "
     "enabled at compile time (BIND 9.18 as Debian builds it)\n"},
    {"options { recursion no; recursion yes; };\n",
     "t.conf:1:25: error: 'recursion' redefined (first at t.conf:1:11)\n"},
    {"options { notify-delay 4294967296; };\n",
     "t.conf:1:24: error: '4294967296' is out of range (at most 4294967295)\n"},
    {"options { max-zone-ttl 1x; };\n",
     "t.conf:1:24: error: expected a duration (such as 1h or P1D), not '1x'\n"},
    {"zone \"a\" { type primary; file \"a\"; max-records-per-type -1; };\n",
     "t.conf:1:57: error: expected a number, not '-1'\n"},
    {"zone \"a\" { type primary; file \"a\"; max-types-per-name 1h; };\n",
     "t.conf:1:55: error: expected a number, not '1h'\n"},
  };
  run_cases(cases, sizeof cases / sizeof *cases, true);
}

Test(conf, nul_and_depth)
{
  char *zones;
  FILE *f = fopen("t.conf", "w");
  fwrite("acl a { x\0y; };\n", 1, 16, f);
  fclose(f);
  char *err = read_at("t.conf", ZP_LEVEL_ERROR, &zones);
  cr_expect_str_eq(err, "t.conf:1:10: error: a NUL octet, which no named.conf holds\n");
  free(err);
  free(zones);
  /* a parser that recursed without bound would be a crash for a conf of braces */
  f = fopen("t.conf", "w");
  fputs("acl a ", f);
  for (int i = 0; i < 70; i++)
    fputs("{ ", f);
  fclose(f);
  err = read_at("t.conf", ZP_LEVEL_ERROR, &zones);
  cr_expect_str_eq(err, "t.conf:1:135: error: blocks nested deeper than 64\n");
  free(err);
  free(zones);
}

/* What the reader does not take, or cannot check as named does. */
Test(conf, meaning_errors)
{
  static const conf_case cases[] = {
    {"zon \"a\" { };\n", "t.conf:1:1: error: unknown statement 'zon'\n"},
    {"acl a;\n", "t.conf:1:6: error: expected '{', not ';'\n"},
    {"options { }; options { };\n",
     "t.conf:1:14: error: 'options' redefined (first at t.conf:1:1)\n"},
    {"zone \"a\" { file \"a\"; };\n", "t.conf:1:1: error: zone 'a' has no type\n"},
    {"zone \"a\" { type primary; };\n", "t.conf:1:1: error: zone 'a' (type primary) has no file\n"},
    {"zone \"a\" { type primry; file \"a\"; };\n",
     "t.conf:1:17: error: expected one of " TYPES ", not 'primry'\n"},
    {"zone \"a\" { type \"primary\"; file \"a\"; };\n",
     "t.conf:1:17: error: expected one of " TYPES ", not '\"primary\"'\n"},
    {"zone \"a\" { type primary; file a; };\n",
     "t.conf:1:31: error: expected a quoted string, not 'a'\n"},
    {"zone \"a\" { type primary; file \"a\"; file \"b\"; };\n",
     "t.conf:1:36: error: 'file' redefined (first at t.conf:1:26)\n"},
    {"zone \"a\" { type primary; file \"a\"; };\nzone \"A.\" { type primary; file \"a\"; };\n",
     "t.conf:2:1: error: zone 'A.' redefined (first at t.conf:1:1)\n"},
    {"zone \"a..b\" { type primary; file \"a\"; };\n",
     "t.conf:1:6: error: zone 'a..b' is not a valid name: empty label in \"a..b\"\n"},
    {"zone \"a\" HX { type primary; file \"a\"; };\n",
     "t.conf:1:10: error: zone 'a': invalid class 'HX'\n"},
    {"zone \"a\" in x { };\n", "t.conf:1:13: error: expected '{', not 'x'\n"},
    {"zone \"a\" CHAOS { type primary; file \"a\"; };\n",
     "t.conf:1:10: error: zone 'a' is of class CH, named's default view of class IN\n"},
    {"view v CH { zone \"a\" { type primary; file \"a\"; }; };\n",
     "t.conf:1:13: error: zone 'a' is of class CH: zonepuny checks zones of class IN only\n"},
    {"view v { }; view v { };\n", "t.conf:1:13: error: view 'v' redefined (first at t.conf:1:1)\n"},
    {"view v { };\nzone \"a\" { type primary; file \"a\"; };\n",
     "t.conf:2:1: error: a zone outside every view, and the conf has views: named wants every "
     "zone in one\n"},
    {"view w { zone \"a\" { in-view v; }; };\n"
     "view v { zone \"a\" { type primary; file \"a\"; }; };\n",
     "t.conf:1:10: error: zone 'a': in-view 'v' names no view before this one that has the zone\n"},
    {"view v { zone \"a\" { type primary; file \"a\"; }; };\n"
     "view w { zone \"a\" { in-view v; notify no; }; };\n",
     "t.conf:2:32: error: zone 'a' is in-view: named takes no 'notify' beside it (forward and "
     "forwarders only)\n"},
    {"zone \"a\" { type redirect; file \"a\"; };\n",
     "t.conf:1:6: error: a redirect zone is named '.', not 'a'\n"},
    {"zone \"a\" { type primary; file \"a\"; directory \"/\"; };\n",
     "t.conf:1:36: error: unknown option 'directory'\n"},
    {"zone \"a\" { type primary; file \"a\"; check-svcb no; };\n",
     "t.conf:1:36: error: unknown option 'check-svcb'\n"},
    {"options { check-names primary warn; check-names master fail; };\n",
     "t.conf:1:37: error: 'check-names' given twice for primary zones (master is primary) "
     "(first at t.conf:1:11)\n"},
    {"options { check-names warn; };\n",
     "t.conf:1:23: error: expected one of primary, master, secondary, slave, response, not "
     "'warn'\n"},
    {"zone \"a\" { type primary; file \"a\"; check-names primary fail; };\n",
     "t.conf:1:48: error: expected one of fail, warn, ignore, not 'primary'\n"},
    {"zone \"a\" { type primary; file \"a\"; check-integrity on; };\n",
     "t.conf:1:52: error: expected a boolean (yes or no), not 'on'\n"},
    {"zone \"a\" { type primary; file \"a\"; check-spf fail; };\n",
     "t.conf:1:46: error: expected one of warn, ignore, not 'fail'\n"},
    /* what named then refuses, no check of zonepuny singles out: told once, at the clause */
    {"options { check-mx-cname fail; };\nzone \"a\" { type primary; file \"a\"; };\n"
     "zone \"b\" { type primary; file \"b\"; };\n",
     "t.conf:1:11: error: 'check-mx-cname fail' is not supported: named then refuses a zone for "
     "an MX record naming an alias, which no check of zonepuny singles out\n"},
    {"view v { masterfile-format raw; zone \"a\" { type primary; file \"a\"; }; };\n",
     "t.conf:1:10: error: 'masterfile-format raw' is not supported: named then reads zone "
     "files in their binary form, zonepuny the text form only\n"},
    /* named-checkconf refuses a load limit in a zone whose type does not take it */
    {"zone \"a\" { type secondary; primaries { 192.0.2.1; }; max-zone-ttl 1d; };\n",
     "t.conf:1:54: error: option 'max-zone-ttl' is not allowed in 'secondary' zone 'a'\n"},
    {"zone \"a\" { type slave; masters { 192.0.2.1; }; max-zone-ttl unlimited; };\n",
     "t.conf:1:48: error: option 'max-zone-ttl' is not allowed in 'slave' zone 'a'\n"},
    {"zone \".\" { type hint; file \"h\"; max-records-per-type 5; };\n",
     "t.conf:1:33: error: option 'max-records-per-type' is not allowed in 'hint' zone '.'\n"},
    {"zone \"a\" { type forward; max-types-per-name 5; };\n",
     "t.conf:1:26: error: option 'max-types-per-name' is not allowed in 'forward' zone 'a'\n"},
  };
  run_cases(cases, sizeof cases / sizeof *cases, true);
}

/* Conf and zones as named-checkconf -z takes them. */
Test(conf, zones)
{
  static const conf_case cases[] = {
    /* comments of each kind, anywhere a blank may stand, and glued to a word's end */
    {"# a\n// b\n/* c\n { */ zone /**/\"a\" { type primary#;\n; file \"a.db\"// x\n; };",
     "- a a.db fail zone 4:7 5:8\n"},
    /* keywords in any case; classes IN and CLASS1; a name unquoted */
    {"ZONE a IN { TYPE MASTER; FILE \"a\"; };\nzone b CLASS1 { type primary; file \"b\"; };\n",
     "- a a fail zone 1:1 1:31\n- b b fail zone 2:1 2:36\n"},
    /* escapes: \" loses its backslash, others are kept as written */
    {"zone a { type primary; file \"q\\\"t\"; };\nzone b { type primary; file \"b\\\\s\\n\"; };\n",
     "- a q\"t fail zone 1:1 1:29\n- b b\\\\s\\n fail zone 2:1 2:29\n"},
    /* what -z does not load; what it does */
    {"zone s { type secondary; primaries { 192.0.2.1; }; file \"s\"; };\n"
     "zone f { type forward; forwarders { 192.0.2.1; }; };\n"
     "zone d { type primary; file \"d\"; database \"_builtin empty\"; };\n"
     "zone z { type primary; file \"z\"; dlz \"x\"; };\n"
     "zone r { type primary; file \"r\"; database \"rbt\"; };\n"
     "zone . { type redirect; file \"rd\"; };\n"
     "zone \"hint\" { type hint; file \"h\"; };\n",
     "- r r fail zone 5:1 5:29\n- . rd fail zone 6:1 6:30\n- hint h ignore hint 7:1 7:31\n"},
    /* a redirect zone with primaries is a secondary */
    {"zone . { type redirect; file \"rd\"; masters { 192.0.2.1; }; };\n", ""},
    /* check-names: the zone's, else the view's, else options' (primary or master); the
     * caller's when none says */
    {"options { check-names master ignore; check-names secondary fail; };\n"
     "view v { check-names primary warn; zone a { type primary; file \"a\"; };\n"
     "  zone b { type primary; file \"b\"; check-names FAIL; }; };\n"
     "view w { zone a { type primary; file \"wa\"; }; zone b { in-view v; }; };\n",
     "v a a warn zone 2:36 2:64\nv b b fail zone 3:3 3:31\nw a wa ignore zone 4:10 4:38\n"},
    /* blocks that go on: controls' inet, response-policy, a catalog zone */
    {"controls { inet 127.0.0.1 allow { localhost; } keys { \"k\"; } read-only yes; };\n"
     "options { response-policy { zone \"rpz\"; } break-dnssec yes;\n"
     "  catalog-zones { zone \"c\" default-primaries { 192.0.2.1; } in-memory yes; }; };\n"
     "zone rpz { type primary; file \"rpz\"; };\n",
     "- rpz rpz fail zone 4:1 4:31\n"},
    /* options that leave the verdict alone, and a refused value no loaded zone takes */
    {"options { check-mx warn; check-integrity no; check-sibling 0; check-wildcard yes;\n"
     "  check-spf ignore; masterfile-format text; max-zone-ttl unlimited;\n"
     "  check-dup-records fail; max-records 5; };\n"
     "zone a { type primary; file \"a\"; check-dup-records warn; };\n",
     "- a a fail zone 4:1 4:29\n"},
  };
  run_cases(cases, sizeof cases / sizeof *cases, false);
}

Test(conf, callers_level_stands)
{
  char *zones;
  put("t.conf", "zone a { type primary; file \"a\"; };\n");
  char *err = read_at("t.conf", ZP_LEVEL_WARNING, &zones);
  cr_expect_str_eq(zones, "- a a warn zone 1:1 1:29\n");
  cr_expect_str_eq(err, "");
  free(err);
  free(zones);
}

/* Each zone's load limits, as read_at's zones but "view name records types ttl" (ttl "-": no
 * max-zone-ttl). */
static char *limits_of(const char *conf, const zp_check_options *caller, char **err)
{
  char *out, *e;
  size_t olen, elen;
  FILE *of = open_memstream(&out, &olen), *ef = open_memstream(&e, &elen);
  zp_diag diag;
  zp_diag_init(&diag, ef);
  diag.show_source = false;
  zp_conf *c;
  put("t.conf", conf);
  cr_assert_eq(zp_conf_read("t.conf", caller, &diag, &c), ZP_OK);
  for (size_t i = 0; c && i < zp_conf_count(c); i++) {
    const zp_conf_zone *z = zp_conf_zone_at(c, i);
    fprintf(of, "%s %s %u %u ", z->view ? z->view : "-", z->name, z->checks.max_records_per_type,
            z->checks.max_types_per_name);
    if (z->checks.max_zone_ttl_set)
      fprintf(of, "%u\n", z->checks.max_zone_ttl);
    else
      fprintf(of, "-\n");
  }
  zp_conf_free(c);
  zp_diag_end(&diag);
  fclose(of);
  fclose(ef);
  *err = e;
  return out;
}

/* max-records-per-type, max-types-per-name, max-zone-ttl: named takes each from the zone's
 * clause, else the view's, else options' (named_config_get over the maps; named-checkconf -z's
 * get_maps for max-zone-ttl), else its default (config.c: 100, 100, no max-zone-ttl). Numbers
 * are read as named's lexer reads them with C's forms (0x10 = 16, 010 = 8); durations as
 * isccfg_duration_toseconds counts them (a month 31 days, a year 365, capped at 2^32-1); 0 and
 * unlimited set no maximum TTL (dns_zone_setmaxttl checks none for 0, and named reads
 * unlimited as no duration). named-checkconf (9.18.49) takes this conf as it stands. */
Test(conf, limits)
{
  zp_check_options caller;
  zp_check_defaults(&caller);
  char *err, *got = limits_of(
    "options { max-records-per-type 50; max-types-per-name 20; max-zone-ttl 1d; };\n"
    "view \"v\" {\n"
    "  max-records-per-type 0;\n"
    "  max-zone-ttl 1h;\n"
    "  zone \"a\" { type primary; file \"a\"; };\n"
    "  zone \"b\" { type primary; file \"b\"; max-types-per-name 0x10; max-zone-ttl unlimited; };\n"
    "  zone \"c\" { type master; file \"c\"; max-records-per-type 010; max-zone-ttl P1DT2H; };\n"
    "};\n"
    "view \"w\" {\n"
    "  zone \"a\" { type primary; file \"wa\"; max-zone-ttl 0; };\n"
    "  zone \"d\" { type primary; file \"d\"; max-zone-ttl P1M; };\n"
    "  zone \"e\" { type primary; file \"e\"; max-zone-ttl PT1M;\n"
    "    max-types-per-name 4294967295; };\n"
    "  zone \"f\" { type primary; file \"f\"; max-zone-ttl P200Y; };\n"
    "  zone \"g\" { type primary; file \"g\"; max-zone-ttl 1w2d3h4m5s; };\n"
    "  zone \".\" { type redirect; file \"r\"; max-zone-ttl P2W; };\n"
    "  zone \"s\" { type secondary; primaries { 192.0.2.1; }; max-records-per-type 3; };\n"
    "};\n", &caller, &err);
  cr_expect_str_eq(err, "");
  cr_expect_str_eq(got,
                   /* view 0, options 20, view 1h */
                   "v a 0 20 3600\n"
                   /* view 0; 0x10; unlimited: none */
                   "v b 0 16 -\n"
                   /* 010 (octal); options 20; 86400 + 2 * 3600 */
                   "v c 8 20 93600\n"
                   /* options 50 and 20; 0: none (not options' 1d) */
                   "w a 50 20 -\n"
                   /* a month: 31 * 86400 */
                   "w d 50 20 2678400\n"
                   /* PT1M: a minute (M after T) */
                   "w e 50 4294967295 60\n"
                   /* 200 * 365 * 86400 = 6307200000, capped */
                   "w f 50 20 4294967295\n"
                   /* 7 * 86400 + 2 * 86400 + 3 * 3600 + 4 * 60 + 5 */
                   "w g 50 20 788645\n"
                   /* 2 * 7 * 86400; (s: a secondary, not loaded) */
                   "w . 50 20 1209600\n");
  free(got);
  free(err);
  /* where the conf says nothing, the caller's values stand (named's defaults unless changed) */
  caller.max_records_per_type = 7;
  caller.max_types_per_name = 0;
  caller.max_zone_ttl_set = true;
  caller.max_zone_ttl = 600;
  got = limits_of("zone \"a\" { type primary; file \"a\"; };\n"
                  "zone \"b\" { type primary; file \"b\"; max-zone-ttl unlimited; };\n", &caller,
                  &err);
  cr_expect_str_eq(got, "- a 7 0 600\n- b 7 0 -\n");
  cr_expect_str_eq(err, "");
  free(got);
  free(err);
}

/* named-checkconf warns that named ignores max-zone-ttl beside a dnssec-policy (other than
 * none; the innermost of each), and named-checkconf -z still refuses a zone with a TTL above
 * it: so does zonepuny, after the same warning. */
Test(conf, limits_and_dnssec_policy)
{
  zp_check_options caller;
  zp_check_defaults(&caller);
  char *err, *got = limits_of(
    "options { max-zone-ttl 1h; dnssec-policy default; };\n"
    "zone \"a\" { type primary; file \"a\"; inline-signing yes; };\n"
    "zone \"b\" { type primary; file \"b\"; dnssec-policy none; };\n", &caller, &err);
  cr_expect_str_eq(got, "- a 100 100 3600\n- b 100 100 3600\n");
  cr_expect_str_eq(err, "t.conf:1:11: warning: zone 'a': option 'max-zone-ttl' is ignored when "
                        "used together with 'dnssec-policy' (named-checkconf says so; "
                        "named-checkconf -z applies it all the same, and so does zonepuny)\n");
  free(got);
  free(err);
}

/* include: relative to the working directory, then to the directory option once read; a glob
 * read last first; inside a zone; a block that closes in another file. */
Test(conf, include_and_directory)
{
  cr_assert_eq(mkdir("etc", 0755), 0);
  cr_assert_eq(mkdir("zones", 0755), 0);
  cr_assert_eq(mkdir("zones/inc", 0755), 0);
  put("etc/named.conf", "include \"etc/first.conf\";\n"
                        "options { directory \"zones\"; include \"../etc/opt.conf\"; };\n"
                        "include \"inc/*.conf\";\n"
                        "zone b { include \"inc/body\"; };\n"
                        "include \"inc/open\"; file \"c\"; };\n");
  put("etc/first.conf", "zone a { type primary; file \"a\"; };\n");
  put("etc/opt.conf", "check-names primary ignore;\n");
  put("zones/inc/1.conf", "zone g1 { type primary; file \"/abs/g1\"; };\n");
  put("zones/inc/2.conf", "zone g2 { type primary; file \"g2\"; };\n");
  put("zones/inc/body", "type primary; file \"b\";\n");
  put("zones/inc/open", "zone c {\n  type primary;\n");
  char *zones, *err = read_at("etc/named.conf", ZP_LEVEL_ERROR, &zones);
  cr_expect_str_eq(err, "");
  cr_expect_str_eq(zones, "dir zones: - a zones/a ignore zone 1:1 1:29\n"
                          "dir zones: - g2 zones/g2 ignore zone 1:1 1:30\n"
                          "dir zones: - g1 /abs/g1 ignore zone 1:1 1:30\n"
                          "dir zones: - b zones/b ignore zone 4:1 1:20\n"
                          "dir zones: - c zones/c ignore zone 1:1 5:26\n");
  free(err);
  free(zones);
}

/* An error in an included file says where it was included from; a loop is found. */
Test(conf, include_errors)
{
  put("t.conf", "options { };\ninclude \"u.conf\";\n");
  put("u.conf", "zone a { type primary; file \"a\"; }\n");
  char *zones, *err = read_at("t.conf", ZP_LEVEL_ERROR, &zones);
  /* the tokens go on in t.conf, where the file ends: the statement began in u.conf */
  cr_expect_str_eq(err, "u.conf:1:35: error: missing ';' at the end of the file\n"
                        "  included from t.conf:2\n");
  free(err);
  free(zones);
  put("u.conf", "zone a { type primry; file \"a\"; };\n");
  err = read_at("t.conf", ZP_LEVEL_ERROR, &zones);
  cr_expect_str_eq(err, "u.conf:1:15: error: expected one of " TYPES ", not 'primry'\n"
                        "  included from t.conf:2\n");
  free(err);
  free(zones);
  put("u.conf", "\ninclude \"t.conf\";\n");
  err = read_at("t.conf", ZP_LEVEL_ERROR, &zones);
  cr_expect_str_eq(err, "u.conf:2:9: error: include t.conf: that file is being read already "
                        "(an include loop)\n  included from t.conf:2\n");
  free(err);
  free(zones);
}

/* The statements themselves: values, their kinds, text and places. */
Test(conf, tree)
{
  put("t.conf", "key \"k\" {\n  secret \"a\\\"b\"; # c\n};\nacl x { !192.0.2.0/24; { y; }; };\n");
  conf_tree t;
  zp_diag diag;
  zp_diag_init(&diag, stderr);
  cr_assert_eq(zp_conf_parse("t.conf", &diag, &t), ZP_OK);
  const conf_stmt *key = t.top, *acl = key->next;
  cr_assert_not_null(acl);
  cr_expect_null(acl->next);
  const conf_val *v = key->vals;
  cr_expect(v->kind == CONF_WORD && strcmp(v->text, "key") == 0);
  v = v->next;
  cr_expect(v->kind == CONF_STRING && strcmp(v->text, "k") == 0 && v->loc.col == 5);
  v = v->next;
  cr_expect(v->kind == CONF_BLOCK && v->loc.line == 1 && v->loc.col == 9 && !v->next);
  const conf_stmt *secret = v->body;
  cr_expect_str_eq(secret->vals->next->text, "a\"b");
  cr_expect(secret->vals->loc.line == 2 && secret->vals->loc.col == 3 && !secret->next);
  cr_expect(secret->end.line == 2 && secret->end.col == 16);
  cr_expect(key->end.line == 3 && key->end.col == 2);
  /* named's lexer makes '!' and '/' tokens of their own: the element is 4 values, at 9, 10,
   * 19, 20 */
  const conf_stmt *e = acl->vals->next->next->body;
  static const char *const parts[] = {"!", "192.0.2.0", "/", "24"};
  static const uint32_t cols[] = {9, 10, 19, 20};
  v = e->vals;
  for (size_t i = 0; i < 4; i++, v = v->next) {
    cr_assert_not_null(v);
    cr_expect(v->kind == CONF_WORD && strcmp(v->text, parts[i]) == 0 && v->loc.col == cols[i],
              "part %zu: %s at %u", i, v->text, v->loc.col);
  }
  cr_expect_null(v);
  cr_expect(e->end.line == 4 && e->end.col == 22);
  cr_expect(e->next->vals->kind == CONF_BLOCK && e->next->vals->body &&
            strcmp(e->next->vals->body->vals->text, "y") == 0);
  zp_conf_tree_free(&t);
  zp_diag_end(&diag);
}

/* The conf itself unreadable is no located error, but ZP_EIO. */
Test(conf, unreadable)
{
  zp_diag diag;
  zp_diag_init(&diag, stderr);
  zp_check_options checks;
  zp_check_defaults(&checks);
  zp_conf *conf = (zp_conf *)&checks;
  cr_expect_eq(zp_conf_read("none.conf", &checks, &diag, &conf), ZP_EIO);
  cr_expect_null(conf);
  cr_expect_eq(diag.errors, 0);
}
