/* cli_zone.c -- the zone half of the command: convert one zone, or --check many */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bump.h"
#include "check/reverse.h"
#include "cli.h"
#include "conf.h"
#include "core/diag.h"
#include "pipeline.h"
#include "read/zone.h"
#include "since.h"
#include "write/output.h"

#include "walk.h"

/* -o naming the zone being read would replace it: refused rather than guessed at. */
static bool same_file(const char *a, const char *b)
{
  struct stat sa, sb;
  return strcmp(a, "-") != 0 && strcmp(b, "-") != 0 && stat(a, &sa) == 0 &&
         stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The run of a conversion whose diagnostics have begun: the exit status. */
static int convert_run(const zp_cli *cli, const zp_pipeline_options *po, zp_diag *diag,
                       const zp_input *in)
{
  zp_output *out = NULL;
  char why[ZP_OUTPUT_WHY];
  unsigned flags = (cli->any_owner ? ZP_OUTPUT_ANY_OWNER : 0) |
                   (cli->break_links ? ZP_OUTPUT_BREAK_LINKS : 0);
  zp_status ost = zp_output_open(cli->output, flags, &out, why, sizeof why);
  if (ost != ZP_OK) {
    if (ost != ZP_ETMPFILE && ost != ZP_ENOMEM)
      zp_diag_report(diag, NULL, ZP_ERROR, "%s", why);
    else
      zp_cli_ran(diag, ost, NULL, NULL);
    return ZP_EXIT_USAGE;
  }
  zp_status st = zp_pipeline_run(in, po, diag, zp_output_file(out), NULL);
  if (!zp_cli_ran(diag, st, in->path, cli->output)) {
    zp_output_abort(out);
    return ZP_EXIT_USAGE;
  }
  if (diag->errors > 0) {
    zp_output_abort(out);
    return ZP_EXIT_ERRORS;
  }
  if (zp_output_commit(out) != ZP_OK)
    return zp_cli_ran(diag, ZP_EWRITE, in->path, cli->output), ZP_EXIT_USAGE;
  return ZP_EXIT_OK;
}

static int convert(const zp_cli *cli, const char *path)
{
  zp_pipeline_options po;
  zp_diag diag;
  if (!zp_cli_pipeline_options(cli, &po))
    return ZP_EXIT_USAGE;
  if (cli->output && same_file(cli->output, path)) {
    fprintf(stderr, "zonepuny: error: -o %s is the zone being read; write the output elsewhere\n",
            cli->output);
    return ZP_EXIT_USAGE;
  }
  zp_cli_diag_begin(&diag, cli);
  zp_input in = {.path = path};
  char *text = NULL;
  int rc = ZP_EXIT_USAGE;
  if ((strcmp(path, "-") != 0 || zp_cli_stdin(cli, &diag, &in, &text)) &&
      (cli->bump < 0 || zp_bump_serial(cli, &po, &diag, path)))
    rc = convert_run(cli, &po, &diag, &in);
  zp_diag_end(&diag);
  free(text);
  return rc;
}


/* The summary of a --check run, on stderr whatever the format (stdout may be a log): n
 * things checked, said by what ("files", "zones of named.conf"). */
static void summary(const zp_cli *cli, const zp_diag *diag, size_t n, const char *what,
                    size_t fragments, unsigned long records)
{
  if (cli->silent)
    return;
  char through[96] = "";
  if (fragments)
    snprintf(through, sizeof through, " (and %zu file%s they include, read through them)",
             fragments, fragments == 1 ? "" : "s");
  fprintf(stderr, "zonepuny: %zu %s%s, %lu record%s, %u error%s, %u warning%s\n", n, what,
          through, records, records == 1 ? "" : "s", diag->errors, diag->errors == 1 ? "" : "s",
          diag->warnings, diag->warnings == 1 ? "" : "s");
}

/* A file named-checkconf -z cannot read is a zone it does not load: the zone's error. */
static void cannot_read(zp_diag *diag, const zp_conf_zone *z, int err)
{
  zp_diag_report(diag, &z->file_loc, ZP_ERROR, "zone %s%s%s: cannot read %s: %s", z->name,
                 z->view ? " in view " : "", z->view ? z->view : "", z->file, strerror(err));
}

/* -W reverse's collector for the run (NULL: off, or it could not be made, which is told). */
static zp_reverse *reverse_begin(const zp_cli *cli, zp_diag *diag)
{
  zp_reverse *r = NULL;
  if (cli->checks.off || cli->checks.level[ZP_CK_REVERSE] == ZP_LEVEL_OFF)
    return NULL;
  zp_status st = zp_reverse_new(cli->checks.run_bytes ? cli->checks.run_bytes : (size_t)16 << 20, &r);
  if (st != ZP_OK)
    zp_cli_ran(diag, st, NULL, NULL);
  return r;
}

/* The run's addresses and PTRs held to each other, told; false on trouble (told). */
static bool reverse_end(const zp_cli *cli, zp_reverse *r, zp_diag *diag)
{
  if (!r)
    return true;
  zp_status st = zp_reverse_end(r, diag, cli->checks.level[ZP_CK_REVERSE] == ZP_LEVEL_ERROR);
  zp_reverse_free(r);
  return zp_cli_ran(diag, st, NULL, NULL);
}

/* --named-conf: the zones named-checkconf -z would load, each with its name as origin and zone
 * name and the check options the conf gives it; a relative $INCLUDE starts at the directory
 * option, as named has it, and is fenced only by --include-root (named fences nothing). */
static int check_conf(const zp_cli *cli, zp_pipeline_options *po, zp_diag *diag)
{
  zp_conf *conf = NULL;
  zp_status st = zp_conf_read(cli->named_conf, &cli->checks, diag, &conf);
  /* (errno 0: zp_conf_read said why itself) */
  bool io_error = (st == ZP_EIO && errno == 0) || !zp_cli_ran(diag, st, cli->named_conf, NULL);
  unsigned long records = 0;
  size_t n = conf ? zp_conf_count(conf) : 0, i;
  po->include_root = cli->include_root ? cli->include_root : "/";
  zp_reverse *rev = reverse_begin(cli, diag);
  for (i = 0; i < n && !zp_diag_stop(diag); i++) {
    const zp_conf_zone *z = zp_conf_zone_at(conf, i);
    unsigned long count = 0;
    /* Only a regular file is read: the conf's author names the file, and /dev/zero would be
     * read for ever, a FIFO with no writer waited on for ever (named-checkconf -z does both).
     * The zone's error, as a file that cannot be read is: named does not load it. The file is
     * opened once (not waiting for a FIFO's writer), judged by its descriptor, and read
     * through it: a path swapped for a FIFO meanwhile is not opened again. */
    struct stat sb;
    int fd = open(z->file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0 || fstat(fd, &sb) != 0) {
      cannot_read(diag, z, errno);
      if (fd >= 0)
        close(fd);
      continue;
    }
    const char *kind = zp_conf_not_regular(&sb);
    if (kind) {
      zp_diag_report(diag, &z->file_loc, ZP_ERROR, "zone %s%s%s: %s is %s, " ZP_CONF_NOT_REGULAR,
                     z->name, z->view ? " in view " : "", z->view ? z->view : "", z->file, kind);
      close(fd);
      continue;
    }
    zp_input in = {.path = z->file, .fd = &fd};
    char *dir = realpath(z->dir, NULL);
    po->origin = z->hint ? "." : z->name;
    po->origin_from = "zone";
    po->origin_loc = &z->loc;
    po->as_served = true;
    po->include_dir = dir ? dir : z->dir;
    po->checks = z->checks;
    po->checks.idna2008 = cli->idna == 2008;
    po->checks.reverse = rev;
    st = zp_pipeline_run(&in, po, diag, NULL, &count);
    int err = errno;
    close(fd);
    free(dir);
    records += count;
    if (st == ZP_EIO && err != ENOMEM) {
      cannot_read(diag, z, err);
    } else if (!zp_cli_ran(diag, st, z->file, NULL)) {
      io_error = true;
      if (st == ZP_ENOMEM)
        break;
    }
  }
  if (!reverse_end(cli, rev, diag))
    io_error = true;
  zp_diag_end(diag);
  /* a run that stopped short (--max-errors, memory) says how short: it exits 1 or 2 then */
  char what[96 + PATH_MAX];
  if (i < n)
    snprintf(what, sizeof what, "zone%s of the %zu %s loads, stopped before the others",
             i == 1 ? "" : "s", n, cli->named_conf);
  else
    snprintf(what, sizeof what, "zone%s of %s", i == 1 ? "" : "s", cli->named_conf);
  summary(cli, diag, i, what, 0, records);
  zp_conf_free(conf);
  if (io_error)
    return ZP_EXIT_USAGE;
  return diag->errors > 0 ? ZP_EXIT_ERRORS : ZP_EXIT_OK;
}

static int check(const zp_cli *cli, char **args, int n)
{
#ifdef M_TRIM_THRESHOLD
  /* zone after zone, glibc would hand the freed heap back and fault it in again each time: a
   * third of the time of a tree of small zones (memory held is never above one zone's peak) */
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
  zp_pipeline_options po;
  zp_diag diag;
  bool io_error = false;
  unsigned long records = 0;
  if (!zp_cli_pipeline_options(cli, &po))
    return ZP_EXIT_USAGE;
  zp_cli_diag_begin(&diag, cli);
  if (cli->named_conf)
    return check_conf(cli, &po, &diag);
  zp_since *since = NULL;
  if (cli->since && cli->checks.level[ZP_CK_SERIAL_SINCE] != ZP_LEVEL_OFF &&
      zp_since_new(cli->since, &since) != ZP_OK) {
    zp_diag_report(&diag, NULL, ZP_ERROR, "out of memory");
    zp_diag_end(&diag);
    return ZP_EXIT_USAGE;
  }
  zp_walk w;
  /* (a piece of a zone takes its origin from the zone that includes it, not from its name) */
  bool by_name = !cli->origin && !cli->no_origin_from_name && !cli->checks.off;
  zp_walk_options wo = {.by_name = by_name, .include_root = cli->include_root,
                       .no_include = cli->no_include, .stdin_name = cli->stdin_name};
  zp_status st = zp_walk_args(args, n, &wo, &diag, &w);
  /* a directory unread, or with no zone, is an I/O error: a gate that checked nothing passed */
  io_error = diag.errors > 0 || !zp_cli_ran(&diag, st, NULL, NULL);
  size_t zones = 0;
  zp_reverse *rev = reverse_begin(cli, &diag);
  po.checks.reverse = rev;
  for (size_t i = 0; st == ZP_OK && i < w.n && !zp_diag_stop(&diag); i++) {
    const zp_zone_file *f = &w.files[i];
    if (f->fragment || f->again || f->binary)
      continue;
    zp_input in = {.path = f->path};
    char *text = NULL;
    if (strcmp(f->path, "-") == 0 && !zp_cli_stdin(cli, &diag, &in, &text)) {
      io_error = true;
      continue;
    }
    unsigned long count = 0;
    po.include_root = cli->include_root ? cli->include_root : f->tree;
    /* a file name that gives no name gives no origin: the zone may well set its own */
    zp_source name_src = {.path = in.path};
    zp_loc name_loc = {.src = &name_src};
    if (f->origin && zp_pipeline_name_ok(&po, f->origin)) {
      po.origin = f->origin;
      po.origin_initial = true;
      po.origin_from = "the origin its name gives,";
      po.origin_loc = &name_loc;
    } else {
      po.origin = cli->origin;
      po.origin_initial = false;
      po.origin_from = NULL;
      po.origin_loc = NULL;
    }
    /* --since: the zone's records held as they are checked, for the comparison after */
    zp_sorter now;
    zp_serial_at at = {0};
    zp_sort_init(&now, cli->sort_memory);
    po.hold = since ? &now : NULL;
    po.serial_at = since ? &at : NULL;
    unsigned errors = diag.errors;
    st = zp_pipeline_run(&in, &po, &diag, NULL, &count);
    records += count;
    zones++;
    if (!zp_cli_ran(&diag, st, in.path, NULL)) {
      io_error = true;
      if (st != ZP_ENOMEM)   /* (the next zone may well be read) */
        st = ZP_OK;
    } else if (since && diag.errors == errors && !zp_diag_stop(&diag) &&
               !zp_since_judge(since, cli, &po, &diag, in.path, &now, &at)) {
      io_error = true;
    }
    free(text);
    zp_sort_free(&now);
    free(at.path);
  }
  zp_since_free(since);
  if (!reverse_end(cli, rev, &diag))
    io_error = true;
  zp_diag_end(&diag);
  summary(cli, &diag, zones, zones == 1 ? "file" : "files", w.fragments, records);
  zp_walk_free(&w);
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
