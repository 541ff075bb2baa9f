/* lsp.c -- zonepuny --lsp: the server's life cycle, its documents, and their diagnostics */
#include "lsp.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/walk.h"
#include "core/buf.h"
#include "core/diag.h"
#include "lsp_int.h"
#include "pipeline.h"
#include "lsp_rpc.h"
#include "version.h"

typedef struct server {
  const zp_cli *cli;
  FILE *out;
  json_t *roots;         /* the workspace folders' paths */
  json_t *published;     /* zone file checked: [the URIs its last check published for] */
  bool initialized, shut, exit;
  bool utf8;             /* positions count bytes (the client offered utf-8), else UTF-16 */
  zp_lsp_doc *docs;
  size_t n, cap;
} server;

/* ---- URIs (RFC 8089 file URIs; RFC 3986 percent-encoding) ---- */

static int hex(char c)
{
  return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

/* The path a file: URI names (its host empty or localhost), or NULL. */
static char *uri_path(const char *uri)
{
  const char *p;
  if (strncmp(uri, "file:///", 8) == 0)
    p = uri + 7;
  else if (strncmp(uri, "file://localhost/", 17) == 0)
    p = uri + 16;
  else
    return NULL;
  char *path = malloc(strlen(p) + 1), *o = path;
  for (; path && *p && *p != '?' && *p != '#'; p++) {
    if (*p == '%' && hex(p[1]) >= 0 && hex(p[2]) >= 0 && (hex(p[1]) | hex(p[2]))) {
      *o++ = (char)(hex(p[1]) << 4 | hex(p[2]));
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  if (path)
    *o = '\0';
  return path;
}

/* The file: URI of path (made absolute), as a JSON string. */
static json_t *path_uri(const char *path)
{
  char cwd[PATH_MAX] = "";
  if (path[0] != '/' && !getcwd(cwd, sizeof cwd - 1))
    cwd[0] = '\0';
  if (cwd[0] && cwd[strlen(cwd) - 1] != '/')
    strcat(cwd, "/");
  size_t n = strlen(cwd) + strlen(path);
  char *uri = malloc(3 * n + 8), *o = uri;
  if (!uri)
    return NULL;
  o += sprintf(o, "file://");
  for (int half = 0; half < 2; half++)
    for (const unsigned char *p = (const unsigned char *)(half ? path : cwd); *p; p++)
      if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          strchr("-._~/", *p))
        *o++ = (char)*p;
      else
        o += sprintf(o, "%%%02X", *p);
  *o = '\0';
  json_t *j = json_string(uri);
  free(uri);
  return j;
}

/* ---- positions ---- */

bool zp_lsp_offset(const char *text, size_t len, json_t *pos, bool utf8, size_t *off)
{
  json_t *jl = json_object_get(pos, "line"), *jc = json_object_get(pos, "character");
  if (!json_is_integer(jl) || !json_is_integer(jc) || json_integer_value(jl) < 0 ||
      json_integer_value(jc) < 0)
    return false;
  json_int_t line = json_integer_value(jl), ch = json_integer_value(jc);
  size_t i = 0;
  for (; line > 0 && i < len; i++)
    if (text[i] == '\n')
      line--;
  json_int_t units = 0;
  while (i < len && text[i] != '\n' && text[i] != '\r' && units < ch) {
    unsigned char b = (unsigned char)text[i];
    size_t n = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    units += utf8 ? (json_int_t)n : n == 4 ? 2 : 1;
    i += n;
  }
  *off = i < len ? i : len;
  return true;
}

/* ---- documents ---- */

static zp_lsp_doc *doc_of(server *sv, const char *uri)
{
  for (size_t i = 0; i < sv->n; i++)
    if (strcmp(sv->docs[i].uri, uri) == 0)
      return &sv->docs[i];
  return NULL;
}

/* The open document of the file at dev and ino, or NULL. */
static zp_lsp_doc *doc_at(server *sv, dev_t dev, ino_t ino)
{
  for (size_t i = 0; i < sv->n; i++)
    if (sv->docs[i].known && sv->docs[i].dev == dev && sv->docs[i].ino == ino)
      return &sv->docs[i];
  return NULL;
}

static zp_lsp_doc *doc_at_path(server *sv, const char *path)
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

static void doc_free(zp_lsp_doc *d)
{
  free(d->uri);
  free(d->path);
  free(d->text);
  free(d->via);
}

static bool set_text(zp_lsp_doc *d, const char *text, size_t len)
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
static char *tree_of(const server *sv, const char *path)
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
static void place(server *sv, zp_lsp_doc *d)
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
  zp_walk_options wo = {.include_root = sv->cli->include_root, .no_include = sv->cli->no_include};
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
  server *sv;
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
    uri = d ? json_string(d->uri) : path_uri(loc->src->path);
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
  if (list && msg)
    json_array_append_new(list, json_pack(
        "{s:{s:{s:i,s:i},s:{s:i,s:i}},s:i,s:s,s:s,s:o}", "range", "start", "line", (int)line,
        "character", (int)c0, "end", "line", (int)line, "character", (int)c1, "severity",
        it->sev == ZP_ERROR ? 1 : it->sev == ZP_WARNING ? 2 : 3, "code", it->check, "source",
        "zonepuny", "message", msg));
  else
    json_decref(msg);
  json_decref(uri);
}

static void publish(server *sv, const char *uri, json_t *list)
{
  zp_rpc_notify(sv->out, "textDocument/publishDiagnostics",
                json_pack("{s:s,s:O}", "uri", uri, "diagnostics", list));
}

/* The zone d is (or is a piece of) checked, its diagnostics published: for every file told
 * of, d always; the files told of by its last check and not now, emptied. */
static void check_doc(server *sv, zp_lsp_doc *d)
{
  const zp_cli *cli = sv->cli;
  zp_pipeline_options po;
  if (!zp_cli_pipeline_options(cli, &po))
    return;
  zp_lsp_doc *top = d->via ? doc_at_path(sv, d->via) : d;
  const char *path = d->via ? d->via : d->path ? d->path : d->uri;
  json_t *top_uri = top ? json_string(top->uri) : path_uri(path);
  if (!top_uri)
    return;
  lint l = {sv, json_string_value(top_uri), json_object()};
  zp_diag diag;
  zp_diag_init(&diag, NULL);
  diag.sink = sink;
  diag.sink_user = &l;
  diag.max_errors = cli->max_errors;
  diag.werror = cli->werror;
  zp_diag_begin(&diag, NULL, 0, ZP_VERSION);
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
  zp_input in = {.path = path};
  if (top) {
    in.data = top->text ? top->text : "";
    in.len = top->len;
  }
  zp_status st = zp_pipeline_run(&in, &po, &diag, NULL, NULL);
  zp_cli_ran(&diag, st, path, NULL);
  zp_diag_end(&diag);
  free(origin);
  if (!json_object_get(l.by_uri, d->uri))
    json_object_set_new(l.by_uri, d->uri, json_array());
  json_t *before = json_object_get(sv->published, path);
  size_t i;
  json_t *u;
  json_array_foreach(before, i, u)
    if (!json_object_get(l.by_uri, json_string_value(u)))
      publish(sv, json_string_value(u), json_array());
  const char *key;
  json_t *list, *now = json_array();
  json_object_foreach(l.by_uri, key, list) {
    publish(sv, key, list);
    json_array_append_new(now, json_string(key));
  }
  json_object_set_new(sv->published, path, now);
  json_decref(l.by_uri);
  json_decref(top_uri);
}

/* ---- messages ---- */

/* A notification's trouble, told in the client's log (a notification has no response). */
static void log_error(server *sv, const char *what)
{
  zp_rpc_notify(sv->out, "window/logMessage", json_pack("{s:i,s:s}", "type", 1, "message", what));
}

/* The workspace's folders: workspaceFolders, else rootUri, else rootPath (LSP 3.17). */
static void take_roots(server *sv, json_t *params)
{
  json_t *folders = json_object_get(params, "workspaceFolders"), *f;
  size_t i;
  json_array_foreach(folders, i, f) {
    char *p = uri_path(json_string_value(json_object_get(f, "uri")) ?
                       json_string_value(json_object_get(f, "uri")) : "");
    if (p)
      json_array_append_new(sv->roots, json_string(p));
    free(p);
  }
  const char *root = json_string_value(json_object_get(params, "rootUri"));
  char *p = json_array_size(sv->roots) == 0 && root ? uri_path(root) : NULL;
  if (p)
    json_array_append_new(sv->roots, json_string(p));
  free(p);
  const char *rp = json_string_value(json_object_get(params, "rootPath"));
  if (json_array_size(sv->roots) == 0 && rp && rp[0] == '/')
    json_array_append_new(sv->roots, json_string(rp));
}

static json_t *capabilities(server *sv, json_t *params)
{
  take_roots(sv, params);
  json_t *enc = json_object_get(json_object_get(json_object_get(params, "capabilities"),
                                                "general"), "positionEncodings");
  size_t i;
  json_t *e;
  json_array_foreach(enc, i, e)
    if (json_is_string(e) && strcmp(json_string_value(e), "utf-8") == 0)
      sv->utf8 = true;
  return json_pack("{s:{s:s,s:{s:b,s:i,s:{s:b}},s:b},s:{s:s,s:s}}", "capabilities",
                   "positionEncoding", sv->utf8 ? "utf-8" : "utf-16", "textDocumentSync",
                   "openClose", 1, "change", 1, "save", "includeText", 0, "hoverProvider", 1,
                   "serverInfo", "name", "zonepuny", "version", ZP_VERSION);
}

static void did_open(server *sv, json_t *td)
{
  const char *uri = json_string_value(json_object_get(td, "uri"));
  json_t *text = json_object_get(td, "text");
  if (!uri || !json_is_string(text))
    return log_error(sv, "textDocument/didOpen: no textDocument.uri or .text");
  zp_lsp_doc *d = doc_of(sv, uri);
  if (!d) {
    if (!zp_array_room(&sv->docs, sv->n, &sv->cap, sizeof *sv->docs, 8))
      return log_error(sv, "out of memory");
    d = &sv->docs[sv->n];
    *d = (zp_lsp_doc){.uri = strdup(uri), .path = uri_path(uri)};
    if (!d->uri)
      return doc_free(d), log_error(sv, "out of memory");
    sv->n++;
  }
  if (!set_text(d, json_string_value(text), json_string_length(text)))
    return log_error(sv, "out of memory");
  place(sv, d);
  check_doc(sv, d);
}

/* The changes, in order: each the whole text, or a range of the text replaced. */
static void did_change(server *sv, json_t *params)
{
  const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"),
                                                      "uri"));
  zp_lsp_doc *d = uri ? doc_of(sv, uri) : NULL;
  json_t *changes = json_object_get(params, "contentChanges");
  if (!d || !json_is_array(changes))
    return log_error(sv, "textDocument/didChange: not an open document, or no contentChanges");
  size_t i;
  json_t *c;
  json_array_foreach(changes, i, c) {
    json_t *text = json_object_get(c, "text"), *range = json_object_get(c, "range");
    size_t a = 0, b = d->len;
    if (!json_is_string(text) ||
        (range && (!zp_lsp_offset(d->text, d->len, json_object_get(range, "start"), sv->utf8, &a) ||
                   !zp_lsp_offset(d->text, d->len, json_object_get(range, "end"), sv->utf8, &b) ||
                   b < a)))
      return log_error(sv, "textDocument/didChange: a change without text, or a bad range");
    size_t n = json_string_length(text);
    char *t = malloc(d->len - (b - a) + n + 1);
    if (!t)
      return log_error(sv, "out of memory");
    memcpy(t, d->text, a);
    memcpy(t + a, json_string_value(text), n);
    memcpy(t + a + n, d->text + b, d->len - b);
    d->len = d->len - (b - a) + n;
    t[d->len] = '\0';
    free(d->text);
    d->text = t;
  }
  check_doc(sv, d);
}

/* The zone file d is checked as (its own, or the zone that includes it). */
static const char *top_path(const zp_lsp_doc *d)
{
  return d->via ? d->via : d->path ? d->path : d->uri;
}

/* Every open document's zone checked once: after a save, or a document gone. */
static void check_all(server *sv)
{
  for (size_t i = 0; i < sv->n; i++) {
    bool again = false;
    for (size_t k = 0; k < i && !again; k++)
      again = strcmp(top_path(&sv->docs[k]), top_path(&sv->docs[i])) == 0;
    if (!again)
      check_doc(sv, &sv->docs[i]);
  }
}

static void did_close(server *sv, const char *uri)
{
  zp_lsp_doc *d = uri ? doc_of(sv, uri) : NULL;
  if (!d)
    return log_error(sv, "textDocument/didClose: not an open document");
  /* its zone's diagnostics go with it; another document of that zone is checked again */
  json_t *told = json_object_get(sv->published, top_path(d));
  size_t i;
  json_t *u;
  json_array_foreach(told, i, u)
    publish(sv, json_string_value(u), json_array());
  json_object_del(sv->published, top_path(d));
  char *top = strdup(top_path(d));
  doc_free(d);
  *d = sv->docs[--sv->n];
  for (i = 0; top && i < sv->n; i++)
    if (strcmp(top_path(&sv->docs[i]), top) == 0) {
      check_doc(sv, &sv->docs[i]);
      break;
    }
  free(top);
}

static json_t *hover(server *sv, json_t *params, int *code)
{
  const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"),
                                                      "uri"));
  zp_lsp_doc *d = uri ? doc_of(sv, uri) : NULL;
  size_t off;
  if (!d || !zp_lsp_offset(d->text, d->len, json_object_get(params, "position"), sv->utf8, &off)) {
    *code = ZP_RPC_INVALID_PARAMS;
    return NULL;
  }
  json_t *md = zp_lsp_hover(sv->cli, d, off);
  return md ? json_pack("{s:o}", "contents", md) : json_null();
}

/* One message: a request (an id) is answered, a notification acted on. */
static void handle(server *sv, json_t *msg)
{
  json_t *id = json_object_get(msg, "id"), *params = json_object_get(msg, "params");
  const char *method = json_string_value(json_object_get(msg, "method"));
  bool request = id != NULL;
  if (id && !json_is_string(id) && !json_is_integer(id))
    return (void)zp_rpc_error(sv->out, NULL, ZP_RPC_INVALID_REQUEST, "an id is a number or a string");
  if (!json_is_object(msg) || !method) {
    /* (a response to a request of ours: the server sends none) */
    if (json_is_object(msg) && id && (json_object_get(msg, "result") || json_object_get(msg, "error")))
      return;
    return (void)zp_rpc_error(sv->out, id, ZP_RPC_INVALID_REQUEST, "not a request or notification");
  }
  if (strcmp(method, "exit") == 0) {
    sv->exit = true;
    return;
  }
  if (!sv->initialized && strcmp(method, "initialize") != 0) {
    if (request)
      zp_rpc_error(sv->out, id, ZP_RPC_SERVER_NOT_INITIALIZED, "initialize comes first");
    return;
  }
  if (sv->shut) {
    if (request)
      zp_rpc_error(sv->out, id, ZP_RPC_INVALID_REQUEST, "the server is shut down: exit follows");
    return;
  }
  if (request && strcmp(method, "initialize") == 0) {
    if (sv->initialized)
      return (void)zp_rpc_error(sv->out, id, ZP_RPC_INVALID_REQUEST, "initialized already");
    sv->initialized = true;
    zp_rpc_result(sv->out, id, capabilities(sv, params));
  } else if (request && strcmp(method, "shutdown") == 0) {
    sv->shut = true;
    zp_rpc_result(sv->out, id, NULL);
  } else if (request && strcmp(method, "textDocument/hover") == 0) {
    int code = 0;
    json_t *r = hover(sv, params, &code);
    if (code)
      zp_rpc_error(sv->out, id, code, "textDocument/hover: not an open document and a position");
    else
      zp_rpc_result(sv->out, id, r);
  } else if (request) {
    zp_rpc_error(sv->out, id, ZP_RPC_METHOD_NOT_FOUND, method);
  } else if (strcmp(method, "textDocument/didOpen") == 0) {
    did_open(sv, json_object_get(params, "textDocument"));
  } else if (strcmp(method, "textDocument/didChange") == 0) {
    did_change(sv, params);
  } else if (strcmp(method, "textDocument/didSave") == 0) {
    /* (what includes what, and the files the open zones $INCLUDE, are on disk) */
    for (size_t i = 0; i < sv->n; i++)
      place(sv, &sv->docs[i]);
    check_all(sv);
  } else if (strcmp(method, "textDocument/didClose") == 0) {
    did_close(sv, json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri")));
  }
}

int zp_lsp_serve(const zp_cli *cli)
{
  server sv = {.cli = cli, .out = stdout, .roots = json_array(), .published = json_object()};
  if (!sv.roots || !sv.published)
    return 1;
  for (;;) {
    json_t *msg;
    const char *why;
    zp_rpc_read r = zp_rpc_next(stdin, &msg, &why);
    if (r == ZP_RPC_END)
      break;
    if (r == ZP_RPC_UNREADABLE) {
      zp_rpc_error(sv.out, NULL, ZP_RPC_PARSE_ERROR, why);
      continue;
    }
    handle(&sv, msg);
    json_decref(msg);
    if (sv.exit)
      break;
  }
  for (size_t i = 0; i < sv.n; i++)
    doc_free(&sv.docs[i]);
  free(sv.docs);
  json_decref(sv.roots);
  json_decref(sv.published);
  return sv.exit && sv.shut ? 0 : 1;
}
