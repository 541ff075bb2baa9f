/* conf_int.h -- between the halves of the named.conf reader: conf_parse.c turns the text, its
 * includes spliced in, into statements; conf.c gives them their meaning */
#ifndef ZP_CONF_INT_H
#define ZP_CONF_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "idna/status.h"

typedef struct conf_stmt conf_stmt;

typedef enum conf_kind { CONF_WORD, CONF_STRING, CONF_BLOCK } conf_kind;

/* One value of a statement: a word, a quoted string (its escapes undone as named undoes them:
 * only \" loses its backslash), or a block of statements. */
typedef struct conf_val {
  conf_kind kind;
  const char *text;        /* NUL-terminated; "{" for a block */
  zp_loc loc;              /* its first character (a string's opening quote) */
  conf_stmt *body;         /* a block's statements (NULL: none) */
  struct conf_val *next;
} conf_val;

/* name value... [{ statements }] ; -- the name a word wherever named reads clauses */
struct conf_stmt {
  conf_val *vals;          /* at least one */
  zp_loc end;              /* its ';' */
  bool told;               /* conf.c has reported that the clause is not supported */
  conf_stmt *next;
};

typedef struct conf_chunk conf_chunk;

typedef struct conf_tree {
  conf_stmt *top;
  const char *dir;         /* the directory option ("": none), relative to the working
                              directory: named-checkconf changes into it as it reads it */
  conf_chunk *chunks;      /* where everything above lives, the files' text too */
} conf_tree;

/* Reads the conf at path, with what it includes, into t (zeroed first; zp_conf_tree_free it in
 * any case). ZP_ZONE_SYNTAX: an error was reported to diag (reading stops at the first);
 * ZP_EIO (errno) when path cannot be read, ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_conf_parse(const char *path, zp_diag *diag, conf_tree *t);
void zp_conf_tree_free(conf_tree *t);
/* n octets that live as long as t; NULL when out of memory. */
void *zp_conf_alloc(conf_tree *t, size_t n);
/* path as named resolves it against dir ("" or an absolute path: path itself); NULL when out of
 * memory. */
char *zp_conf_join(conf_tree *t, const char *dir, const char *path);

#endif
