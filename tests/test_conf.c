/* test_conf.c -- the named.conf reader: tokens, blocks, include, directory, views, the zones
 * and check options it hands out, and its errors at their exact places.
 *
 * What named-checkconf (BIND 9.18.49) does, case by case: the facts src/cli/conf_parse.c and
 * src/cli/conf.c follow, found by running it (-z: it also loads the zones, printing "zone
 * NAME/IN: loaded serial N" for each). tests/cli/check_named_conf_zones.sh asks it again.
 *
 * | case                             | named-checkconf                  | the reader              |
 * |----------------------------------|----------------------------------|-------------------------|
 * | #, //, C comment (not nested)    | comments                         | same                    |
 * | # or // glued to a word's end    | end the word; comments           | same                    |
 * | (primary#x)                      |                                  |                         |
 * | C comment glued to a word's end  | refused: that '/' is a token     | refused                 |
 * | (primary and a slash-star)       |                                  |                         |
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
 * | values after a block             | refused, but controls' inet and  | same                    |
 * |                                  | unix, response-policy, a         |                         |
 * |                                  | catalog-zones zone               |                         |
 * | the end of the file inside a     | refused                          | refused at the open '{' |
 * | block                            |                                  |                         |
 * | a '}' with no '{'                | refused                          | refused                 |
 * | include, relative                | to the working directory; once   | same                    |
 * |                                  | options' directory is read, to   |                         |
 * |                                  | it                               |                         |
 * | include in options, view, zone   | read there                       | same                    |
 * | include in a list (acl, allow-   | refused                          | refused (in other       |
 * | query)                           |                                  | blocks too)             |
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
 * | max-zone-ttl N                   | a TTL above N refuses the zone   | refused but 0,          |
 * |                                  | (unlimited: -z aborts, an        | unlimited               |
 * |                                  | assertion)                       |                         |
 * | max-records, max-records-per-    | not applied by -z                | ignored                 |
 * | type, max-types-per-name,        |                                  |                         |
 * | dnssec-policy's TTL              |                                  |                         |
 * | check-svcb, any other check-*    | unknown option: refused          | refused                 |
 * | other statements and options     | each checked                     | structure only          |
 * | writeable file twice, secondary  | refused                          | not checked             |
 * | without primaries, options a     |                                  |                         |
 * | zone type forbids                |                                  |                         |
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
    {"zone \"a\" { type primary/*x*/; file \"a\"; };\n",
     "t.conf:1:24: error: '/*' right after 'primary': named reads this '/' as a token, not as "
     "a comment's start; put a blank before the comment\n"},
    {"\n  ;\n", "t.conf:2:3: error: ';' with no statement before it\n"},
    {"zone \"a\" { type primary;; };\n", "t.conf:1:25: error: ';' with no statement before it\n"},
    {"options { };\n};\n", "t.conf:2:1: error: '}' with no '{' before it to close\n"},
    {"{ };\n", "t.conf:1:1: error: a block with no statement's name before it\n"},
    {"options { \"directory\" \"/\"; };\n",
     "t.conf:1:11: error: a statement's name is a word, not a quoted string\n"},
    {"include t2.conf;\n", "t.conf:1:9: error: include takes a quoted file name, not 't2.conf'\n"},
    {"include \"t.conf\" \"x\";\n", "t.conf:1:18: error: missing ';' before '\"x\"'\n"},
    {"acl a { include \"t.conf\"; };\n", "t.conf:1:9: error: include inside this block: "
     "zonepuny reads include at the top level and in options, view and zone only\n"},
    {"include \"none.conf\";\n",
     "t.conf:1:9: error: include: cannot read none.conf: No such file or directory\n"},
    {"options { directory \"none\"; };\n",
     "t.conf:1:21: error: directory none: No such file or directory\n"},
    {"options { directory \"t.conf\"; };\n",
     "t.conf:1:21: error: directory t.conf: Not a directory\n"},
    {"options { directory; };\n", "t.conf:1:20: error: directory takes one quoted path\n"},
    /* columns count characters: a tab one, ü one */
    {"zone \"b\xc3\xbc\x63her\" {\ttype primary; file \"a\" };\n",
     "t.conf:1:40: error: missing ';' before '}'\n"},
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
    {"acl a;\n", "t.conf:1:6: error: 'acl' takes a block { ... } before ';'\n"},
    {"options { }; options { };\n",
     "t.conf:1:14: error: 'options' redefined (first at t.conf:1:1)\n"},
    {"zone \"a\" { file \"a\"; };\n", "t.conf:1:1: error: zone 'a' has no type\n"},
    {"zone \"a\" { type primary; };\n", "t.conf:1:1: error: zone 'a' (type primary) has no file\n"},
    {"zone \"a\" { type primry; file \"a\"; };\n",
     "t.conf:1:17: error: 'primry' is not a value of 'type'\n"},
    {"zone \"a\" { type \"primary\"; file \"a\"; };\n",
     "t.conf:1:17: error: 'type' takes a word (unquoted), not \"primary\"\n"},
    {"zone \"a\" { type primary; file a; };\n",
     "t.conf:1:31: error: 'file' takes a quoted string, not the word 'a'\n"},
    {"zone \"a\" { type primary; file \"a\"; file \"b\"; };\n",
     "t.conf:1:36: error: 'file' redefined (first at t.conf:1:26)\n"},
    {"zone \"a\" { type primary; file \"a\"; };\nzone \"A.\" { type primary; file \"a\"; };\n",
     "t.conf:2:1: error: zone 'A.' redefined (first at t.conf:1:1)\n"},
    {"zone \"a..b\" { type primary; file \"a\"; };\n",
     "t.conf:1:6: error: zone 'a..b' is not a valid name: empty label in \"a..b\"\n"},
    {"zone \"a\" HX { type primary; file \"a\"; };\n",
     "t.conf:1:10: error: zone 'a': invalid class 'HX'\n"},
    {"zone \"a\" in x { };\n", "t.conf:1:13: error: expected '{' before 'x'\n"},
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
     "t.conf:1:36: error: directory is an option of the options block only\n"},
    {"zone \"a\" { type primary; file \"a\"; check-svcb no; };\n",
     "t.conf:1:36: error: unknown option 'check-svcb': BIND 9.18 has no such check\n"},
    {"options { check-names primary warn; check-names master fail; };\n",
     "t.conf:1:37: error: 'check-names' given twice for primary zones (master is primary) "
     "(first at t.conf:1:11)\n"},
    {"options { check-names warn; };\n",
     "t.conf:1:23: error: 'check-names warn': the kind of zone comes first (primary, secondary "
     "or response)\n"},
    {"zone \"a\" { type primary; file \"a\"; check-names primary fail; };\n",
     "t.conf:1:56: error: missing ';' before 'fail'\n"},
    {"zone \"a\" { type primary; file \"a\"; check-integrity on; };\n",
     "t.conf:1:52: error: 'on' is not a value of 'check-integrity'\n"},
    {"zone \"a\" { type primary; file \"a\"; check-spf fail; };\n",
     "t.conf:1:46: error: 'fail' is not a value of 'check-spf'\n"},
    /* what named then refuses, no check of zonepuny singles out: told once, at the clause */
    {"options { check-mx-cname fail; };\nzone \"a\" { type primary; file \"a\"; };\n"
     "zone \"b\" { type primary; file \"b\"; };\n",
     "t.conf:1:11: error: 'check-mx-cname fail' is not supported: named then refuses a zone for "
     "an MX record naming an alias, which no check of zonepuny singles out\n"},
    {"view v { masterfile-format raw; zone \"a\" { type primary; file \"a\"; }; };\n",
     "t.conf:1:10: error: 'masterfile-format raw' is not supported: named then reads zone "
     "files in their binary form, zonepuny the text form only\n"},
    {"zone \"a\" { type primary; file \"a\"; max-zone-ttl 1d; };\n",
     "t.conf:1:36: error: 'max-zone-ttl 1d' is not supported: named then refuses a zone for a "
     "record whose TTL is above it, which zonepuny does not check\n"},
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
  cr_expect_str_eq(err, "u.conf:1:15: error: 'primry' is not a value of 'type'\n"
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
  const conf_stmt *e = acl->vals->next->next->body;
  cr_expect_str_eq(e->vals->text, "!192.0.2.0/24");
  cr_expect(e->next->vals->kind == CONF_BLOCK && e->next->vals->body &&
            strcmp(e->next->vals->body->vals->text, "y") == 0);
  zp_conf_tree_free(&t);
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
