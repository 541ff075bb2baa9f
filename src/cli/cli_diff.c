/* cli_diff.c -- --diff OLD NEW: each zone read through the pipeline into a sorter of its own
 * (no whole-zone checks: a diff reads, --check judges), then the two walked side by side */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff/diff.h"
#include "record/rrtype.h"
#include "walk.h"

/* Reads the zone at path into s; false when it cannot be (told to diag). A zone without -z
 * takes the origin its file's name gives, as --check does. */
static bool hold(const zp_cli *cli, zp_pipeline_options *po, zp_diag *diag, const char *path,
                 zp_sorter *s)
{
  char *by_name = cli->origin || strcmp(path, "-") == 0 ? NULL : zp_origin_from_name(path);
  zp_source name_src = {.path = path};
  zp_loc name_loc = {.src = &name_src};
  po->origin = cli->origin;
  po->origin_initial = false;
  po->origin_from = NULL;
  po->origin_loc = NULL;
  if (by_name && zp_pipeline_name_ok(po, by_name)) {
    po->origin = by_name;
    po->origin_initial = true;
    po->origin_from = "the origin its name gives,";
    po->origin_loc = &name_loc;
  }
  po->hold = s;
  zp_input in = {.path = path};
  bool ok = zp_cli_ran(diag, zp_pipeline_run(&in, po, diag, NULL, NULL), path, NULL);
  free(by_name);
  return ok;
}

/* What the zones differ in, on standard error, unless --quiet. */
static void summary(const zp_cli *cli, const zp_diff_counts *n)
{
  if (cli->quiet || cli->silent)
    return;
  if (!n->removed && !n->added && !n->ttl) {
    fputs("zonepuny: the zones hold the same records\n", stderr);
    return;
  }
  fprintf(stderr, "zonepuny: %lu record%s removed, %lu added, %lu with another TTL", n->removed,
          n->removed == 1 ? "" : "s", n->added, n->ttl);
  if (n->soa == n->removed + n->added && !n->ttl)
    fputs(": only the SOA", stderr);
  if (n->old_soa && n->new_soa && n->old_serial != n->new_serial)
    fprintf(stderr, " (serial %u -> %u)", n->old_serial, n->new_serial);
  else if (n->old_soa && n->new_soa && n->removed + n->added + n->ttl > 0)
    fprintf(stderr, " (serial %u unchanged)", n->new_serial);
  fputc('\n', stderr);
}

int zp_cli_diff(const zp_cli *cli, char **files)
{
  zp_pipeline_options po;
  if (!zp_cli_pipeline_options(cli, &po))
    return ZP_EXIT_USAGE;
  po.checks.off = true;
  zp_diag diag;
  zp_cli_diag_begin(&diag, cli);
  zp_sorter old, new;
  zp_sort_init(&old, cli->sort_memory);
  zp_sort_init(&new, cli->sort_memory);
  int rc = ZP_EXIT_USAGE;
  bool read = hold(cli, &po, &diag, files[0], &old) && hold(cli, &po, &diag, files[1], &new);
  zp_emitter *em = NULL;
  uint8_t generic[65536 / 8];
  zp_rrtype_generic_set(cli->generic, generic);
  zp_emit_options eo = {.unicode = cli->unicode, .idna2008 = cli->idna == 2008,
                        .generic = generic};
  zp_diff_options dopt = {.format = (zp_diff_format)cli->diff_format,
                          .ignore_dnssec = cli->diff_ignore_dnssec, .old_name = files[0],
                          .new_name = files[1]};
  zp_diff_counts counts;
  zp_status st;
  if (read && diag.errors == 0) {
    /* (the emitter only makes lines here: zp_diff_run writes them) */
    if ((st = zp_emit_new(&eo, NULL, &diag, &em)) == ZP_OK)
      st = zp_diff_run(&old, &new, &dopt, em, stdout, &counts);
    if (zp_cli_ran(&diag, st, NULL, NULL)) {
      summary(cli, &counts);
      rc = counts.removed || counts.added || counts.ttl ? ZP_EXIT_ERRORS : ZP_EXIT_OK;
    }
  }
  zp_emit_free(em);
  zp_sort_free(&old);
  zp_sort_free(&new);
  zp_diag_end(&diag);
  return rc;
}
