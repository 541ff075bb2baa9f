/* lsp.c -- zonepuny --lsp: the server's life cycle, its settings, and each message answered */
#include "lsp.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "lsp_int.h"
#include "lsp_rpc.h"
#include "since.h"
#include "version.h"

/* ---- messages ---- */

/* A notification's trouble, told in the client's log (a notification has no response). */
static void log_error(zp_lsp_server *sv, const char *what)
{
  zp_rpc_notify(sv->out, "window/logMessage", json_pack("{s:i,s:s}", "type", 1, "message", what));
}

/* The workspace's folders: workspaceFolders, else rootUri, else rootPath (LSP 3.17). */
static void take_roots(zp_lsp_server *sv, json_t *params)
{
  json_t *folders = json_object_get(params, "workspaceFolders"), *f;
  size_t i;
  json_array_foreach(folders, i, f) {
    char *p = zp_lsp_uri_path(json_string_value(json_object_get(f, "uri")) ?
                       json_string_value(json_object_get(f, "uri")) : "");
    if (p)
      json_array_append_new(sv->roots, json_string(p));
    free(p);
  }
  const char *root = json_string_value(json_object_get(params, "rootUri"));
  char *p = json_array_size(sv->roots) == 0 && root ? zp_lsp_uri_path(root) : NULL;
  if (p)
    json_array_append_new(sv->roots, json_string(p));
  free(p);
  const char *rp = json_string_value(json_object_get(params, "rootPath"));
  if (json_array_size(sv->roots) == 0 && rp && rp[0] == '/')
    json_array_append_new(sv->roots, json_string(rp));
}

/* The settings (initializationOptions): "origin" as -z gives it, "namedConf" as --named-conf
 * names it; the named.conf's own diagnostics go to its URI. */
static void take_settings(zp_lsp_server *sv, json_t *params)
{
  json_t *opt = json_object_get(params, "initializationOptions");
  const char *origin = json_string_value(json_object_get(opt, "origin"));
  const char *conf = json_string_value(json_object_get(opt, "namedConf"));
  if (origin) {
    free(sv->origin);
    sv->cli.origin = sv->origin = strdup(origin);
  }
  if (!conf)
    return;
  zp_lsp_read_conf(sv, conf);
}

static json_t *capabilities(zp_lsp_server *sv, json_t *params)
{
  take_roots(sv, params);
  take_settings(sv, params);
  json_t *enc = json_object_get(json_object_get(json_object_get(params, "capabilities"),
                                                "general"), "positionEncodings");
  size_t i;
  json_t *e;
  json_array_foreach(enc, i, e)
    if (json_is_string(e) && strcmp(json_string_value(e), "utf-8") == 0)
      sv->utf8 = true;
  return json_pack("{s:{s:s,s:{s:b,s:i,s:{s:b}},s:b,s:{s:[s,s]},s:b},s:{s:s,s:s}}",
                   "capabilities", "positionEncoding", sv->utf8 ? "utf-8" : "utf-16",
                   "textDocumentSync", "openClose", 1, "change", 1, "save", "includeText", 0,
                   "hoverProvider", 1, "codeActionProvider", "codeActionKinds", "quickfix",
                   "refactor.rewrite", "documentSymbolProvider", 1, "serverInfo", "name",
                   "zonepuny", "version", ZP_VERSION);
}

/* (each did_ returns what went wrong, or NULL: a notification is not answered, and handle()
 * tells it in the client's log) */
static const char *did_open(zp_lsp_server *sv, json_t *td)
{
  const char *uri = json_string_value(json_object_get(td, "uri"));
  json_t *text = json_object_get(td, "text");
  if (!uri || !json_is_string(text))
    return "textDocument/didOpen: no textDocument.uri or .text";
  zp_lsp_doc *d = zp_lsp_doc_of(sv, uri);
  if (!d) {
    if (!zp_array_room(&sv->docs, sv->n, &sv->cap, sizeof *sv->docs, 8))
      return "out of memory";
    d = &sv->docs[sv->n];
    *d = (zp_lsp_doc){.uri = strdup(uri), .path = zp_lsp_uri_path(uri)};
    if (!d->uri) {
      zp_lsp_doc_free(d);
      return "out of memory";
    }
    sv->n++;
  }
  if (!zp_lsp_set_text(d, json_string_value(text), json_string_length(text)))
    return "out of memory";
  zp_lsp_place(sv, d);
  zp_lsp_check(sv, d);
  return NULL;
}

/* The changes, in order: each the whole text, or a range of the text replaced. */
static const char *did_change(zp_lsp_server *sv, json_t *params)
{
  const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"),
                                                      "uri"));
  zp_lsp_doc *d = uri ? zp_lsp_doc_of(sv, uri) : NULL;
  json_t *changes = json_object_get(params, "contentChanges");
  if (!d || !json_is_array(changes))
    return "textDocument/didChange: not an open document, or no contentChanges";
  size_t i;
  json_t *c;
  json_array_foreach(changes, i, c) {
    json_t *text = json_object_get(c, "text"), *range = json_object_get(c, "range");
    size_t a = 0, b = d->len;
    if (!json_is_string(text) ||
        (range && (!zp_lsp_offset(d->text, d->len, json_object_get(range, "start"), sv->utf8, &a) ||
                   !zp_lsp_offset(d->text, d->len, json_object_get(range, "end"), sv->utf8, &b) ||
                   b < a)))
      return "textDocument/didChange: a change without text, or a bad range";
    size_t n = json_string_length(text);
    char *t = malloc(d->len - (b - a) + n + 1);
    if (!t)
      return "out of memory";
    memcpy(t, d->text, a);
    memcpy(t + a, json_string_value(text), n);
    memcpy(t + a + n, d->text + b, d->len - b);
    d->len = d->len - (b - a) + n;
    t[d->len] = '\0';
    free(d->text);
    d->text = t;
  }
  zp_lsp_check(sv, d);
  return NULL;
}

static const char *did_close(zp_lsp_server *sv, const char *uri)
{
  zp_lsp_doc *d = uri ? zp_lsp_doc_of(sv, uri) : NULL;
  if (!d)
    return "textDocument/didClose: not an open document";
  /* its zone's diagnostics go with it; another document of that zone is checked again */
  json_t *told = json_object_get(sv->published, zp_lsp_top(d));
  size_t i;
  json_t *u;
  json_array_foreach(told, i, u)
    zp_lsp_publish(sv, json_string_value(u), json_array());
  json_object_del(sv->published, zp_lsp_top(d));
  char *top = strdup(zp_lsp_top(d));
  zp_lsp_doc_free(d);
  *d = sv->docs[--sv->n];
  for (i = 0; top && i < sv->n; i++)
    if (strcmp(zp_lsp_top(&sv->docs[i]), top) == 0) {
      zp_lsp_check(sv, &sv->docs[i]);
      break;
    }
  free(top);
  return NULL;
}

/* (what includes what, and the files the open zones $INCLUDE, are on disk) */
static void did_save(zp_lsp_server *sv)
{
  for (size_t i = 0; i < sv->n; i++)
    zp_lsp_place(sv, &sv->docs[i]);
  zp_lsp_check_all(sv);
}

static json_t *hover(zp_lsp_server *sv, json_t *params, int *code)
{
  const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"),
                                                      "uri"));
  zp_lsp_doc *d = uri ? zp_lsp_doc_of(sv, uri) : NULL;
  size_t off;
  if (!d || !zp_lsp_offset(d->text, d->len, json_object_get(params, "position"), sv->utf8, &off)) {
    *code = ZP_RPC_INVALID_PARAMS;
    return NULL;
  }
  json_t *md = zp_lsp_hover(&sv->cli, d, off);
  return md ? json_pack("{s:o}", "contents", md) : json_null();
}

/* One message: a request (an id) is answered, a notification acted on. */
static void handle(zp_lsp_server *sv, json_t *msg)
{
  json_t *id = json_object_get(msg, "id"), *params = json_object_get(msg, "params");
  const char *method = json_string_value(json_object_get(msg, "method"));
  bool request = id != NULL;
  if (id && !json_is_string(id) && !json_is_integer(id))
    {
      zp_rpc_error(sv->out, NULL, ZP_RPC_INVALID_REQUEST, "an id is a number or a string");
      return;
    }
  if (!json_is_object(msg) || !method) {
    /* (a response to a request of ours: the server sends none) */
    if (json_is_object(msg) && id && (json_object_get(msg, "result") || json_object_get(msg, "error")))
      return;
    {
      zp_rpc_error(sv->out, id, ZP_RPC_INVALID_REQUEST, "not a request or notification");
      return;
    }
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
      {
        zp_rpc_error(sv->out, id, ZP_RPC_INVALID_REQUEST, "initialized already");
        return;
      }
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
  } else if (request && (strcmp(method, "textDocument/codeAction") == 0 ||
                         strcmp(method, "textDocument/documentSymbol") == 0)) {
    const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"),
                                                        "uri"));
    zp_lsp_doc *d = uri ? zp_lsp_doc_of(sv, uri) : NULL;
    bool actions = strcmp(method, "textDocument/codeAction") == 0;
    json_t *r = !d ? NULL : actions ? zp_lsp_actions(d, params, sv->utf8)
                                    : zp_lsp_symbols(d, sv->utf8);
    if (r)
      zp_rpc_result(sv->out, id, r);
    else
      zp_rpc_error(sv->out, id, ZP_RPC_INVALID_PARAMS, "not an open document and a range");
  } else if (request) {
    zp_rpc_error(sv->out, id, ZP_RPC_METHOD_NOT_FOUND, method);
  } else {
    const char *why = NULL;
    if (strcmp(method, "textDocument/didOpen") == 0)
      why = did_open(sv, json_object_get(params, "textDocument"));
    else if (strcmp(method, "textDocument/didChange") == 0)
      why = did_change(sv, params);
    else if (strcmp(method, "textDocument/didSave") == 0)
      did_save(sv);
    else if (strcmp(method, "textDocument/didClose") == 0)
      why = did_close(sv, json_string_value(json_object_get(json_object_get(params,
                                                                             "textDocument"),
                                                            "uri")));
    if (why)
      log_error(sv, why);
  }
}

/* doc/checks.md as installed (PREFIX/share/doc/zonepuny, beside PREFIX/bin) or in the source
 * tree the binary was built in (build/), as a file: URI; NULL when neither is there. */
static json_t *checks_doc(void)
{
  char exe[PATH_MAX], path[PATH_MAX + 64];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return NULL;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash)
    return NULL;
  *slash = '\0';
  static const char *const at[] = {"/../share/doc/zonepuny/checks.md", "/../doc/checks.md"};
  for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
    snprintf(path, sizeof path, "%s%s", exe, at[i]);
    char *real = realpath(path, NULL);
    json_t *uri = real ? zp_lsp_path_uri(real) : NULL;
    free(real);
    if (uri)
      return uri;
  }
  return NULL;
}

int zp_lsp_serve(const zp_cli *cli)
{
  zp_lsp_server sv = {.cli = *cli, .out = stdout, .roots = json_array(), .published = json_object()};
  if (!sv.roots || !sv.published)
    return 1;
  sv.checks_doc = checks_doc();
  if (cli->since && cli->checks.level[ZP_CK_SERIAL_SINCE] != ZP_LEVEL_OFF &&
      zp_since_new(cli->since, &sv.since) != ZP_OK)
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
    zp_lsp_doc_free(&sv.docs[i]);
  free(sv.docs);
  json_decref(sv.roots);
  json_decref(sv.published);
  json_decref(sv.checks_doc);
  zp_conf_free(sv.conf);
  zp_since_free(sv.since);
  free(sv.origin);
  return sv.exit && sv.shut ? 0 : 1;
}
