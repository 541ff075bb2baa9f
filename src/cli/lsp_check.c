/* lsp_check.c -- the language server's documents and their diagnostics: each document checked
 * as --check checks a file of its name (a piece of a zone through the zone that includes it,
 * the open documents read as edited), the diagnostics told per file */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/conf.h"
#include "cli/since.h"
#include "cli/walk.h"
#include "core/buf.h"
#include "core/diag.h"
#include "lsp_int.h"
#include "lsp_rpc.h"
#include "pipeline.h"
#include "version.h"

/* ---- documents ---- */

zp_lsp_doc *zp_lsp_doc_of(zp_lsp_server *sv, const char *uri)
{
  for (size_t i = 0; i < sv->n; i++)
    if (strcmp(sv->docs[i].uri, uri) == 0)
      return &sv->docs[i];
  return NULL;
}

/* The open document of the file at dev and ino, or NULL. */
static zp_lsp_doc *doc_at(zp_lsp_server *sv, dev_t dev, ino_t ino)
{
  for (size_t i = 0; i < sv->n; i++)
    if (sv->docs[i].known && sv->docs[i].dev == dev && sv->docs[i].ino == ino)
      return &sv->docs[i];
  return NULL;
}

static zp_lsp_doc *doc_at_path(zp_lsp_server *sv, const char *path)
{
  struct stat sb;
  return path && stat(path, &sb) == 0 ? doc_at(sv, sb.st_dev, sb.st_ino) : NULL;
}

/* An $INCLUDEd file that is open is read as the editor holds it. */
static const char *overlay(void *user, dev_t dev, ino_t ino, size_t *len)
{
  zp_lsp_doc *d = doc_at(user, dev, ino);
  *len = d ? d->len : 0;
  return d ? (d->text ? d->text : "") : NULL;
}

void zp_lsp_doc_free(zp_lsp_doc *d)
{
  free(d->uri);
  free(d->path);
  free(d->text);
  free(d->via);
}

bool zp_lsp_set_text(zp_lsp_doc *d, const char *text, size_t len)
{
  char *t = malloc(len + 1);
  if (!t)
    return false;
  memcpy(t, text, len);
  t[len] = '\0';
  free(d->text);
  d->text = t;
  d->len = len;
  return true;
}

/* The workspace folder d stands in (the deepest), else d's own directory: where the zones that
 * may $INCLUDE it are looked for. */
static char *tree_of(const zp_lsp_server *sv, const char *path)
{
  size_t best = 0;
  const char *root = NULL;
  size_t i;
  json_t *r;
  json_array_foreach(sv->roots, i, r) {
    const char *p = json_string_value(r);
    size_t n = strlen(p);
    if (n > best && strncmp(path, p, n) == 0 && (path[n] == '/' || p[n - 1] == '/'))
      best = n, root = p;
  }
  if (root)
    return strdup(root);
  const char *slash = strrchr(path, '/');
  return slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
}

/* What d is: its file's identity, and whether a zone of its tree $INCLUDEs it (d->via), as
 * --check of the tree and the file would find it. Asked when it opens and whenever a file is
 * saved: what includes what is on disk. */
void zp_lsp_place(zp_lsp_server *sv, zp_lsp_doc *d)
{
  struct stat sb;
  d->known = d->path && stat(d->path, &sb) == 0;
  if (d->known)
    d->dev = sb.st_dev, d->ino = sb.st_ino;
  free(d->via);
  d->via = NULL;
  char *tree = d->known ? tree_of(sv, d->path) : NULL;
  if (!tree)
    return;
  char *args[] = {tree, d->path};
  zp_diag quiet;
  zp_diag_init(&quiet, NULL);
  quiet.silent = true;
  zp_walk w;
  zp_walk_options wo = {.include_root = sv->cli.include_root, .no_include = sv->cli.no_include};
  if (zp_walk_args(args, 2, &wo, &quiet, &w) == ZP_OK) {
    for (size_t i = 0; i < w.n && !d->via; i++) {
      struct stat fb;
      if (w.files[i].fragment && stat(w.files[i].path, &fb) == 0 && fb.st_dev == d->dev &&
          fb.st_ino == d->ino)
        d->via = realpath(w.files[w.files[i].via].path, NULL);
    }
  }
  zp_walk_free(&w);
  free(tree);
}

/* ---- diagnostics: a zone checked as --check checks a file, told per file ---- */

typedef struct lint {
  zp_lsp_server *sv;
  const char *top_uri;
  json_t *by_uri;   /* uri: [Diagnostic] */
} lint;

static void sink(void *user, const zp_diag_item *it)
{
  lint *l = user;
  const zp_loc *loc = it->loc;
  json_t *uri;
  if (!loc || !loc->src->parent) {
    uri = json_string(l->top_uri);
  } else {
    zp_lsp_doc *d = doc_at_path(l->sv, loc->src->path);
    uri = d ? json_string(d->uri) : zp_lsp_path_uri(loc->src->path);
  }
  uint32_t line = 0, c0 = 0, c1 = 0;
  if (loc && loc->line > 0) {
    uint32_t s = l->sv->utf8 ? it->bcol : it->ucol, e = l->sv->utf8 ? it->bend : it->uend;
    if (!s || !e)   /* (a line that cannot be read again: characters, as counted) */
      s = loc->col, e = it->end ? it->end : loc->col;
    line = loc->line - 1;
    c0 = s - 1;
    c1 = (e > s ? e : s) - 1;
  }
  const char *key = uri ? json_string_value(uri) : NULL;
  json_t *list = key ? json_object_get(l->by_uri, key) : NULL;
  if (key && !list)
    json_object_set_new(l->by_uri, key, list = json_array());
  json_t *msg = zp_lsp_string(it->msg, it->msg_len);
  json_t *dg = list && msg ? json_pack(
      "{s:{s:{s:i,s:i},s:{s:i,s:i}},s:i,s:s,s:s,s:o}", "range", "start", "line", (int)line,
      "character", (int)c0, "end", "line", (int)line, "character", (int)c1, "severity",
      it->sev == ZP_ERROR ? 1 : it->sev == ZP_WARNING ? 2 : 3, "code", it->check, "source",
      "zonepuny", "message", msg) : (json_decref(msg), NULL);
  /* (a whole-zone check's explanation: what it finds, what BIND, Knot and NSD do) */
  if (dg && l->sv->checks_doc && strcmp(it->check, ZP_RULE_READ) != 0 &&
      strcmp(it->check, ZP_RULE_RUN) != 0)
    json_object_set_new(dg, "codeDescription", json_pack("{s:O}", "href", l->sv->checks_doc));
  if (dg)
    json_array_append_new(list, dg);
  json_decref(uri);
}

void zp_lsp_publish(zp_lsp_server *sv, const char *uri, json_t *list)
{
  zp_rpc_notify(sv->out, "textDocument/publishDiagnostics",
                json_pack("{s:s,s:o}", "uri", uri, "diagnostics", list));
}

/* A check's diagnostics begun: told to l, by the file they are about (top_uri: the file
 * checked's own), with the command line's limits. */
static void lint_begin(lint *l, zp_diag *diag, zp_lsp_server *sv, const char *top_uri)
{
  *l = (lint){sv, top_uri, json_object()};
  zp_diag_init(diag, NULL);
  diag->sink = sink;
  diag->sink_user = l;
  diag->max_errors = sv->cli.max_errors;
  diag->werror = sv->cli.werror;
  zp_diag_begin(diag, NULL, 0, ZP_VERSION);
}

/* The zone of the settings' named.conf whose file is path (its first, in named's order), or
 * NULL. */
static const zp_conf_zone *conf_zone(zp_lsp_server *sv, const char *path)
{
  struct stat a, b;
  if (!sv->conf || stat(path, &a) != 0)
    return NULL;
  for (size_t i = 0; i < zp_conf_count(sv->conf); i++) {
    const zp_conf_zone *z = zp_conf_zone_at(sv->conf, i);
    if (stat(z->file, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
      return z;
  }
  return NULL;
}

/* The zone d is (or is a piece of) checked, its diagnostics published: for every file told
 * of, d always; the files told of by its last check and not now, emptied. */
void zp_lsp_check(zp_lsp_server *sv, zp_lsp_doc *d)
{
  const zp_cli *cli = &sv->cli;
  zp_pipeline_options po;
  if (!zp_cli_pipeline_options(cli, &po))
    return;
  zp_lsp_doc *top = d->via ? doc_at_path(sv, d->via) : d;
  const char *path = zp_lsp_top(d);
  json_t *top_uri = top ? json_string(top->uri) : zp_lsp_path_uri(path);
  if (!top_uri)
    return;
  lint l;
  zp_diag diag;
  lint_begin(&l, &diag, sv, json_string_value(top_uri));
  char *origin = NULL;
  zp_source name_src = {.path = path};
  zp_loc name_loc = {.src = &name_src};
  /* (as --check: the origin a file's name gives, unless -z gives one) */
  if (!cli->origin && !cli->no_origin_from_name && !cli->checks.off && (top != d || d->path) &&
      (origin = zp_origin_from_name(path)) && zp_pipeline_name_ok(&po, origin)) {
    po.origin = origin;
    po.origin_initial = true;
    po.origin_from = "the origin its name gives,";
    po.origin_loc = &name_loc;
  }
  po.overlay = overlay;
  po.overlay_user = sv;
  const zp_conf_zone *z = conf_zone(sv, path);
  char *dir = z ? realpath(z->dir, NULL) : NULL;
  if (z) {   /* (as --named-conf: the zone's name, options and directory; the file served) */
    po.origin = z->hint ? "." : z->name;
    po.origin_initial = false;
    po.origin_from = "zone";
    po.origin_loc = &z->loc;
    po.as_served = true;
    po.include_dir = dir ? dir : z->dir;
    po.include_root = cli->include_root ? cli->include_root : "/";
    po.checks = z->checks;
    po.checks.idna2008 = cli->idna == 2008;
  }
  /* --since: the zone's records held as they are checked, for the comparison after */
  zp_sorter now;
  zp_serial_at at = {0};
  bool since = sv->since && cli->checks.level[ZP_CK_SERIAL_SINCE] != ZP_LEVEL_OFF && !z;
  if (since) {
    zp_sort_init(&now, cli->sort_memory);
    po.hold = &now;
    po.serial_at = &at;
  }
  zp_input in = {.path = path};
  if (top) {
    in.data = top->text ? top->text : "";
    in.len = top->len;
  }
  zp_status st = zp_pipeline_run(&in, &po, &diag, NULL, NULL);
  if (zp_cli_ran(&diag, st, path, NULL) && since && diag.errors == 0 && !zp_diag_stop(&diag))
    zp_since_judge(sv->since, cli, &po, &diag, path, &now, &at);
  if (since) {
    zp_sort_free(&now);
    free(at.path);
  }
  zp_diag_end(&diag);
  free(origin);
  free(dir);
  if (!json_object_get(l.by_uri, d->uri))
    json_object_set_new(l.by_uri, d->uri, json_array());
  json_t *before = json_object_get(sv->published, path);
  size_t i;
  json_t *u;
  json_array_foreach(before, i, u)
    if (!json_object_get(l.by_uri, json_string_value(u)))
      zp_lsp_publish(sv, json_string_value(u), json_array());
  const char *key;
  json_t *list, *told = json_array();
  json_object_foreach(l.by_uri, key, list) {
    zp_lsp_publish(sv, key, json_incref(list));
    json_array_append_new(told, json_string(key));
  }
  json_object_set_new(sv->published, path, told);
  json_decref(l.by_uri);
  json_decref(top_uri);
}

/* The zone file d is checked as (its own, or the zone that includes it). */
const char *zp_lsp_top(const zp_lsp_doc *d)
{
  return d->via ? d->via : d->path ? d->path : d->uri;
}

/* Every open document's zone checked once: after a save, or a document gone. */
void zp_lsp_check_all(zp_lsp_server *sv)
{
  for (size_t i = 0; i < sv->n; i++) {
    bool again = false;
    for (size_t k = 0; k < i && !again; k++)
      again = strcmp(zp_lsp_top(&sv->docs[k]), zp_lsp_top(&sv->docs[i])) == 0;
    if (!again)
      zp_lsp_check(sv, &sv->docs[i]);
  }
}

void zp_lsp_read_conf(zp_lsp_server *sv, const char *conf)
{
  json_t *uri = zp_lsp_path_uri(conf);
  if (!uri)
    return;
  lint l;
  zp_diag diag;
  lint_begin(&l, &diag, sv, json_string_value(uri));
  zp_status st = zp_conf_read(conf, &sv->cli.checks, &diag, &sv->conf);
  if (st == ZP_EIO && errno)
    zp_cli_ran(&diag, st, conf, NULL);
  zp_diag_end(&diag);
  const char *key;
  json_t *list;
  json_object_foreach(l.by_uri, key, list)
    zp_lsp_publish(sv, key, json_incref(list));
  json_decref(l.by_uri);
  json_decref(uri);
}
