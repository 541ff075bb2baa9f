/* cli_run.c -- what the zone commands share: their diagnostics begun, the pipeline options of
 * the command line, a failed run told */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/buf.h"
#include "core/tmpfile.h"
#include "read/zone.h"

#include "version.h"

void zp_cli_diag_begin(zp_diag *d, const zp_cli *cli)
{
  FILE *out = cli->mode == ZP_MODE_CHECK && cli->format != ZP_FORMAT_GCC ? stdout : stderr;
  /* messages are written in blocks, not a write per piece of each (a zone may draw thousands);
   * a terminal gets each line as it comes */
  setvbuf(out, NULL, isatty(fileno(out)) ? _IOLBF : _IOFBF, 1 << 14);
  zp_diag_init(d, out);
  d->format = cli->format;
  d->max_errors = cli->max_errors;
  d->werror = cli->werror;
  d->quiet = cli->quiet;
  d->silent = cli->silent;
  d->byte_columns = cli->byte_columns;
  const char *no_color = getenv("NO_COLOR");
  d->color = cli->format == ZP_FORMAT_GCC &&
             (cli->color == 1 ||
              (cli->color < 0 && isatty(fileno(out)) && !(no_color && *no_color)));
  zp_diag_rule rules[ZP_CK_COUNT + 2];
  for (size_t i = 0; i < ZP_CK_COUNT; i++) {
    const zp_check_doc *doc = zp_check_doc_of((zp_check_id)i);
    zp_check_level level = zp_check_default((zp_check_id)i);
    rules[i] = (zp_diag_rule){zp_check_name((zp_check_id)i), zp_check_what((zp_check_id)i),
                              level == ZP_LEVEL_ERROR, level == ZP_LEVEL_OFF,
                              doc ? doc->full : NULL, doc ? doc->help_text : NULL,
                              doc ? doc->help_md : NULL};
  }
  static const char read_what[] = "a record or directive that cannot be read or converted as "
                                  "written: syntax, RDATA, IDNA, $INCLUDE",
                    read_help[] = "The record or directive at this place cannot be read or "
                                  "converted as written (its syntax, an RDATA field, a label IDNA "
                                  "refuses, an $INCLUDE): an error, and nothing is written.",
                    run_what[] = "the run itself: a file that cannot be read or written, "
                                 "temporary space, memory",
                    run_help[] = "The run could not go on: a file it cannot read or write, "
                                 "temporary files in $TMPDIR it cannot make or past --tmp-limit, "
                                 "memory; exit status 2.";
  rules[ZP_CK_COUNT] =
      (zp_diag_rule){ZP_RULE_READ, read_what, true, false, read_what, read_help, NULL};
  rules[ZP_CK_COUNT + 1] =
      (zp_diag_rule){ZP_RULE_RUN, run_what, true, false, run_what, run_help, NULL};
  zp_diag_begin(d, rules, ZP_CK_COUNT + 2, ZP_VERSION);
}

bool zp_cli_pipeline_options(const zp_cli *cli, zp_pipeline_options *po)
{
  *po = (zp_pipeline_options){
    .origin = cli->origin,
    .std3 = cli->std3,
    .idna2008 = cli->idna == 2008,
    .sort = cli->sort,
    .sort_memory = cli->sort_memory,
    .unicode = cli->unicode,
    .no_include = cli->no_include,
    .include_root = cli->include_root,
    .output = cli->output,
    .max_generate = cli->max_generate,
    .generic = cli->generic,
    .checks = cli->checks,
  };
  po->checks.idna2008 = cli->idna == 2008;
  if (cli->ttl) {
    if (!zp_ttl_parse(cli->ttl, strlen(cli->ttl), &po->default_ttl)) {
      fprintf(stderr, "zonepuny: error: -t takes a TTL from 0 to 2147483647 (units s, m, h, d, w "
              "allowed), not '%s'\nTry 'zonepuny --help'.\n", cli->ttl);
      return false;
    }
    po->have_default_ttl = true;
  }
  return true;
}

/* The checks' runs and a zone held back from a pipe wait in $TMPDIR: one that cannot be
 * used is said as such, not as a zone or an output that cannot be read or written. */
static void tmpdir_error(zp_diag *d)
{
  const char *env = getenv("TMPDIR");
  zp_diag_report(d, NULL, ZP_ERROR, "%s%s%s: cannot make or use a temporary file there: %s",
                 env && *env ? "TMPDIR=" : "", zp_tmpdir(), env && *env ? "" : " (TMPDIR unset)",
                 strerror(errno));
}

/* An error about the file at path as a whole. */
static void file_error(zp_diag *d, const char *path, const char *what)
{
  int e = errno;
  zp_source src = {.path = path};
  zp_loc loc = {.src = &src};
  zp_diag_report(d, &loc, ZP_ERROR, "%s %s: %s", what, path, strerror(e));
}

/* An error writing the output: -o FILE, or standard output. */
static void write_error(zp_diag *d, const char *output)
{
  if (output)
    file_error(d, output, "writing");
  else
    zp_diag_report(d, NULL, ZP_ERROR, "writing standard output: %s", strerror(errno));
}

/* Temporary files reached their bound (--tmp-limit): said with the bound and where it is. */
static void tmp_limit_error(zp_diag *d)
{
  const char *env = getenv("TMPDIR");
  char how[96] = "";
  if (zp_tmp_default())
    snprintf(how, sizeof how, ": by default %u times the bytes of the zone read, at least %" PRIu64
             "G", ZP_TMP_FACTOR, ZP_TMP_FLOOR >> 30);
  zp_diag_report(d, NULL, ZP_ERROR, "temporary files in %s%s%s reached %" PRIu64 " bytes, their "
                 "limit (--tmp-limit%s)", env && *env ? "TMPDIR=" : "", zp_tmpdir(),
                 env && *env ? "" : " (TMPDIR unset)", zp_tmp_limit(), how);
}

bool zp_cli_ran(zp_diag *d, zp_status st, const char *path, const char *output)
{
  if (st == ZP_ETMPFILE)
    tmpdir_error(d);
  else if (st == ZP_ETMPLIMIT)
    tmp_limit_error(d);
  else if (st == ZP_EWRITE)
    write_error(d, output);
  else if (st == ZP_EIO)
    file_error(d, path, "cannot read");
  else if (st == ZP_ENOMEM)
    zp_diag_report(d, NULL, ZP_ERROR, "out of memory");
  else if (st == ZP_ECHECKMEM) {
    zp_source src = {.path = path};
    zp_loc loc = {.src = &src};
    zp_diag_report(d, &loc, ZP_ERROR, "%s: the zone's wildcard names need more than their 3/16 "
                   "of --check-memory: raise it", path);
  }
  return st == ZP_OK;
}

bool zp_cli_stdin(const zp_cli *cli, zp_diag *d, zp_input *in, char **text)
{
  *in = (zp_input){.path = "-"};
  *text = NULL;
  if (!cli->stdin_name && !cli->byte_columns)
    return true;
  zp_buf b = {0};
  for (;;) {
    if (!zp_buf_reserve(&b, 1 << 16)) {
      zp_buf_free(&b);
      return zp_cli_ran(d, ZP_ENOMEM, NULL, NULL);
    }
    size_t got = fread(b.p + b.len, 1, b.cap - b.len, stdin);
    b.len += got;
    if (got == 0)
      break;
  }
  const char *name = cli->stdin_name ? cli->stdin_name : "-";
  if (ferror(stdin)) {
    zp_buf_free(&b);
    return zp_cli_ran(d, ZP_EIO, name, NULL);
  }
  *in = (zp_input){.path = name, .data = b.p, .len = b.len};
  *text = b.p;
  return true;
}
