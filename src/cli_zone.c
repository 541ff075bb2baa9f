/* cli_zone.c -- the zone half of the command: convert one zone, or --check many */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "convert.h"
#include "diag.h"
#include "emit.h"
#include "output.h"
#include "zone.h"

/* What --check counts for its summary line, around the emitter that validates RDATA. */
typedef struct counter {
  zp_emitter *em;
  unsigned long records;
} counter;

static zp_status count_record(void *user, const zp_record *rec)
{
  counter *c = user;
  c->records++;
  return zp_emit_record(c->em, rec);
}

static void init_diag(zp_diag *d, const zp_cli *cli)
{
  zp_diag_init(d, stderr);
  d->max_errors = cli->max_errors;
  d->werror = cli->werror;
  d->quiet = cli->quiet;
}

/* The zone options of the command line; the label policy is conv's. */
static bool init_zone_options(const zp_cli *cli, zp_convert *conv, zp_zone_options *zo)
{
  memset(zo, 0, sizeof *zo);
  conv->std3 = cli->std3;
  zo->origin = cli->origin;
  zo->no_include = cli->no_include;
  zo->include_root = cli->include_root;
  zo->output = cli->output;
  zo->conv = zp_convert_policy(conv);
  if (cli->ttl) {
    if (!zp_ttl_parse(cli->ttl, strlen(cli->ttl), &zo->default_ttl)) {
      fprintf(stderr, "zonepuny: error: -t takes a TTL from 0 to 2147483647 (units s, m, h, d, w "
              "allowed), not '%s'\nTry 'zonepuny --help'.\n", cli->ttl);
      return false;
    }
    zo->have_default_ttl = true;
  }
  return true;
}

/* -o naming the zone being read would replace it: refused rather than guessed at. */
static bool same_file(const char *a, const char *b)
{
  struct stat sa, sb;
  return strcmp(a, "-") != 0 && strcmp(b, "-") != 0 && stat(a, &sa) == 0 &&
         stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int convert(const zp_cli *cli, const char *path)
{
  zp_convert conv;
  zp_zone_options zo;
  zp_diag diag;
  zp_output *out = NULL;
  zp_emitter *em = NULL;
  int rc = ZP_EXIT_USAGE;
  if (!init_zone_options(cli, &conv, &zo))
    return ZP_EXIT_USAGE;
  init_diag(&diag, cli);
  if (cli->output && same_file(cli->output, path)) {
    fprintf(stderr, "zonepuny: error: -o %s is the zone being read; write the output elsewhere\n",
            cli->output);
    return ZP_EXIT_USAGE;
  }
  if (zp_output_open(cli->output, &out) != ZP_OK) {
    fprintf(stderr, "zonepuny: error: cannot write %s: %s\n", cli->output, strerror(errno));
    return ZP_EXIT_USAGE;
  }
  zp_emit_options eo = {.conv = zo.conv, .sort = cli->sort, .unicode = cli->unicode};
  zp_status st = zp_emit_new(&eo, zp_output_file(out), &diag, &em);
  if (st != ZP_OK)
    goto out;
  st = zp_zone_parse(path, &zo, &diag, zp_emit_record, em);
  /* finish reports any write that failed, which also stops the parse with ZP_EIO */
  zp_status fin = zp_emit_finish(em);
  if (fin != ZP_OK) {
    fprintf(stderr, "zonepuny: error: writing %s: %s\n", cli->output ? cli->output : "output",
            strerror(errno));
    goto out;
  }
  if (st == ZP_EIO)
    fprintf(stderr, "zonepuny: error: cannot read %s: %s\n", path, strerror(errno));
  if (st != ZP_OK)
    goto out;
  if (diag.errors > 0) {
    rc = ZP_EXIT_ERRORS;
    goto out;
  }
  st = zp_output_commit(out);
  out = NULL;
  if (st != ZP_OK) {
    fprintf(stderr, "zonepuny: error: writing %s: %s\n", cli->output ? cli->output : "output",
            strerror(errno));
    goto out;
  }
  rc = ZP_EXIT_OK;
out:
  if (st == ZP_ENOMEM)
    fputs("zonepuny: error: out of memory\n", stderr);
  zp_emit_free(em);
  zp_output_abort(out);
  return rc;
}

static int check(const zp_cli *cli, char **files, int n)
{
  zp_convert conv;
  zp_zone_options zo;
  zp_diag diag;
  bool io_error = false;
  unsigned long records = 0;
  if (!init_zone_options(cli, &conv, &zo))
    return ZP_EXIT_USAGE;
  init_diag(&diag, cli);
  zp_emit_options eo = {.conv = zo.conv};
  for (int i = 0; i < n && !zp_diag_stop(&diag); i++) {
    counter c = {0};
    zp_status st = zp_emit_new(&eo, NULL, &diag, &c.em);
    if (st == ZP_OK)
      st = zp_zone_parse(files[i], &zo, &diag, count_record, &c);
    zp_emit_free(c.em);
    records += c.records;
    if (st == ZP_ENOMEM) {
      fputs("zonepuny: error: out of memory\n", stderr);
      return ZP_EXIT_USAGE;
    }
    if (st == ZP_EIO)
      fprintf(stderr, "zonepuny: error: cannot read %s: %s\n", files[i], strerror(errno));
    io_error |= st != ZP_OK;
  }
  fprintf(stderr, "zonepuny: %d file%s, %lu record%s, %u error%s, %u warning%s\n", n,
          n == 1 ? "" : "s", records, records == 1 ? "" : "s", diag.errors,
          diag.errors == 1 ? "" : "s", diag.warnings, diag.warnings == 1 ? "" : "s");
  if (io_error)
    return ZP_EXIT_USAGE;
  return diag.errors > 0 ? ZP_EXIT_ERRORS : ZP_EXIT_OK;
}

int zp_cli_zone(const zp_cli *cli, char **files, int n)
{
  if (cli->mode == ZP_MODE_CHECK)
    return check(cli, files, n);
  return convert(cli, n == 0 ? "-" : files[0]);
}
