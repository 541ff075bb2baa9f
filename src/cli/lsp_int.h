/* lsp_int.h -- what the language server's modules (lsp*.c) share: documents, positions */
#ifndef ZP_LSP_INT_H
#define ZP_LSP_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cli.h"

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

/* The byte offset in text[0..len) of LSP position pos (line, and character in UTF-16 code
 * units, or bytes when utf8): false when pos is not an object of two numbers. A position past
 * a line's end is its end (LSP's rule). */
bool zp_lsp_offset(const char *text, size_t len, json_t *pos, bool utf8, size_t *off);

/* The hover over the document at byte offset off: a MarkupContent object (Markdown), or NULL
 * when there is nothing to say there. */
json_t *zp_lsp_hover(const zp_cli *cli, const zp_lsp_doc *doc, size_t off);


#endif
