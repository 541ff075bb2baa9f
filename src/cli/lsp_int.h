/* lsp_int.h -- what the language server's modules (lsp*.c) share: documents, positions */
#ifndef ZP_LSP_INT_H
#define ZP_LSP_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli.h"
#include "conf.h"

/* An open document: the text the editor holds, which is what is checked */
typedef struct zp_lsp_doc {
  char *uri, *path;    /* path: the file the URI names (file: URIs), or NULL */
  char *text;
  size_t len;
  dev_t dev;           /* the file's identity, when known (an $INCLUDE of it reads text) */
  ino_t ino;
  bool known;
  char *via;           /* a piece of a zone ($INCLUDEd): the zone file checked for it, found
                          among the workspace's zones; NULL: a zone itself */
} zp_lsp_doc;

/* The server: its options, its client's, and the open documents */
typedef struct zp_lsp_server {
  zp_cli cli;            /* the command line's options, and the client's settings over them */
  zp_conf *conf;         /* the settings' named.conf: each zone of a file it loads checked as
                            named loads it; NULL: none */
  struct zp_since *since; /* --since REV: each zone's records held to its version there */
  FILE *out;
  json_t *roots;         /* the workspace folders' paths */
  char *origin;          /* the settings' origin (cli.origin then points here) */
  json_t *published;     /* zone file checked: [the URIs its last check published for] */
  json_t *checks_doc;    /* the file: URI of doc/checks.md, where each check is explained, or
                            NULL when it is not found */
  bool initialized, shut, exit;
  bool utf8;             /* positions count bytes (the client offered utf-8), else UTF-16 */
  zp_lsp_doc *docs;
  size_t n, cap;
} zp_lsp_server;

/* (lsp_check.c) The open document of uri, or NULL; its text replaced (false: no memory); its
 * memory freed. */
zp_lsp_doc *zp_lsp_doc_of(zp_lsp_server *sv, const char *uri);
bool zp_lsp_set_text(zp_lsp_doc *d, const char *text, size_t len);
void zp_lsp_doc_free(zp_lsp_doc *d);
/* What d is: its file's identity, and the zone of the workspace that $INCLUDEs it (d->via).
 * Asked when it opens and when a file is saved: what includes what is on disk. */
void zp_lsp_place(zp_lsp_server *sv, zp_lsp_doc *d);
/* The zone file d is checked as: its own, or the zone that includes it. */
const char *zp_lsp_top(const zp_lsp_doc *d);
/* d's zone checked and its diagnostics published, for every file told of; every open
 * document's zone checked once. */
void zp_lsp_check(zp_lsp_server *sv, zp_lsp_doc *d);
void zp_lsp_check_all(zp_lsp_server *sv);
/* textDocument/publishDiagnostics for uri: list, which is taken. */
void zp_lsp_publish(zp_lsp_server *sv, const char *uri, json_t *list);
/* The settings' named.conf read into sv->conf, its own diagnostics published on its URI. */
void zp_lsp_read_conf(zp_lsp_server *sv, const char *conf);

/* The path a file: URI names (its host empty or localhost), or NULL; the caller frees it. */
char *zp_lsp_uri_path(const char *uri);
/* The file: URI of path (made absolute), as a JSON string. */
json_t *zp_lsp_path_uri(const char *path);

/* The LSP Position of byte offset off in text (UTF-16 code units, or bytes when utf8), and
 * the Range of text[a..b). */
json_t *zp_lsp_position(const char *text, size_t off, bool utf8);
json_t *zp_lsp_range(const char *text, size_t a, size_t b, bool utf8);

/* The byte offset in text[0..len) of LSP position pos (line, and character in UTF-16 code
 * units, or bytes when utf8): false when pos is not an object of two numbers. A position past
 * a line's end is its end (LSP's rule). */
bool zp_lsp_offset(const char *text, size_t len, json_t *pos, bool utf8, size_t *off);

/* The hover over the document at byte offset off: a MarkupContent object (Markdown), or NULL
 * when there is nothing to say there. */
json_t *zp_lsp_hover(const zp_cli *cli, const zp_lsp_doc *doc, size_t off);


/* textDocument/codeAction's answer for doc: the quick fixes of the context's diagnostics (a
 * trailing dot, a TXT string split, an ACE label made canonical) and the SOA serial raised on
 * its record; NULL when params have no range. */
json_t *zp_lsp_actions(const zp_lsp_doc *doc, json_t *params, bool utf8);

/* textDocument/documentSymbol's answer: a DocumentSymbol for each owner name as written, over
 * its records, their types as its detail. */
json_t *zp_lsp_symbols(const zp_lsp_doc *doc, bool utf8);

#endif
