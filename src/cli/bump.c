/* bump.c -- --bump-serial: the serial a conversion writes over -o FILE, raised above FILE's by a
 * policy when the records differ from FILE's, FILE's own when they do not (so a second run
 * changes nothing) */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bump.h"
#include "diff/diff.h"
#include "record/soa_serial.h"

/* The zone at path into s, quietly (what is wrong in it is told by the conversion itself, or is
 * the old file's); false when it does not read. */
static bool hold(const zp_pipeline_options *po, const char *path, zp_sorter *s, zp_status *st)
{
  zp_pipeline_options o = *po;
  o.checks.off = true;
  o.hold = s;
  o.serial_at = NULL;
  o.serial_set = false;
  zp_diag quiet;
  zp_diag_init(&quiet, stderr);
  quiet.silent = true;
  quiet.max_errors = 1;
  zp_input in = {.path = path};
  *st = zp_pipeline_run(&in, &o, &quiet, NULL, NULL);
  return *st == ZP_OK && quiet.errors == 0;
}

bool zp_bump_serial(const zp_cli *cli, zp_pipeline_options *po, zp_diag *diag, const char *path)
{
  struct stat sb;
  po->serial_set = false;
  if (strcmp(path, "-") == 0 || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    zp_diag_report(diag, NULL, ZP_ERROR, "--bump-serial reads the zone twice: %s is no regular "
                   "file", strcmp(path, "-") == 0 ? "standard input" : path);
    return false;
  }
  if (stat(cli->output, &sb) != 0 || !S_ISREG(sb.st_mode))
    return true;   /* no file yet: the zone's own serial */
  zp_sorter was, now;
  zp_sort_init(&was, cli->sort_memory);
  zp_sort_init(&now, cli->sort_memory);
  zp_status st = ZP_OK;
  zp_diff_counts n = {0};
  zp_diff_options dopt = {.format = ZP_DIFF_COUNT};
  bool old_ok = hold(po, cli->output, &was, &st), ok = true;
  if (st == ZP_ENOMEM || st == ZP_ETMPFILE || st == ZP_ETMPLIMIT) {
    ok = zp_cli_ran(diag, st, cli->output, NULL);
  } else if (!old_ok) {
    zp_source src = {.path = cli->output};
    zp_loc loc = {.src = &src};
    zp_diag_report(diag, &loc, ZP_WARNING, "--bump-serial: %s does not read as a zone: the "
                   "serial is not compared with its, and %s's own is written", cli->output, path);
  } else if (hold(po, path, &now, &st) && (st = zp_diff_run(&was, &now, &dopt, NULL, NULL, &n)) ==
             ZP_OK && n.old_soa && n.new_soa) {
    /* the same records but for the serial: the file's serial stays */
    bool same = n.soa_alike && n.removed + n.added + n.ttl == n.soa;
    int64_t t = cli->checks.now ? cli->checks.now : (int64_t)time(NULL);
    uint32_t bumped = zp_serial_bump(n.old_serial, (zp_serial_policy)cli->bump, t);
    po->serial_set = true;
    po->serial = same ? n.old_serial
                      : zp_serial_order(bumped, n.new_serial) < 0 ? n.new_serial : bumped;
    if (cli->quiet || cli->silent)
      ;
    else if (same)
      fprintf(stderr, "zonepuny: serial %u kept: the records are %s's\n", po->serial,
              cli->output);
    else
      fprintf(stderr, "zonepuny: serial %u -> %u: the records differ from %s's\n", n.old_serial,
              po->serial, cli->output);
  } else if (st != ZP_OK) {
    ok = zp_cli_ran(diag, st, path, NULL);
  }
  zp_sort_free(&was);
  zp_sort_free(&now);
  return ok;
}
