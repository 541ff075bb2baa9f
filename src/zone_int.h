/* zone_int.h -- what the grammar (grammar/zone.l, grammar/zone.y) and zone.c share; not public */
#ifndef ZP_ZONE_INT_H
#define ZP_ZONE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "diag.h"
#include "zone.h"

/* Limits (README "Zone dialect", "Limits"); each one reached is an error at its location. */
enum {
  ZP_LINE_MAX = 65535,          /* bytes in one physical line */
  ZP_RECORD_MAX = 1 << 20,      /* bytes of token text in one record, parentheses included */
  ZP_FIELDS_MAX = 4096,         /* fields in one record */
  ZP_INCLUDE_DEPTH_MAX = 16,    /* nested $INCLUDE files below the top one */
  ZP_INCLUDES_MAX = 10000,      /* $INCLUDE files opened in one zone: without it 16 levels of
                                   ten includes each read the last file 10^15 times */
  ZP_GENERATE_MAX = 1000000,    /* records made by one $GENERATE */
};

/* A token's text in its file's record buffer: quotes removed, escapes as written. The buffer
 * may move while a record is read, so tokens hold offsets. */
typedef struct zp_tok {
  size_t off, len;
  bool quoted;
} zp_tok;

typedef struct zp_zone zp_zone;   /* the whole parse: options, state, record being built */

/* One open file: yyextra of its scanner and the parse parameter of its parser. src comes first
 * so that a zp_source of the include chain leads back to its file (loop detection). */
typedef struct zp_zfile {
  zp_source src;
  dev_t dev;
  ino_t ino;
  zp_zone *z;
  FILE *in;
  void *scanner;
  /* where the scanner stands */
  uint32_t line;
  uint64_t off, line_off;
  uint32_t cont;             /* UTF-8 continuation bytes scanned on this line */
  int paren;                 /* open parentheses */
  zp_loc paren_loc;          /* of the outermost open one */
  int skip;                  /* fields to pass before classify starts */
  int classify;              /* fields still to look at as TTL, class or type on this line */
  int eof_stage;             /* 0 reading, 1 the last EOL sent, 2 done */
  bool line_open;            /* a token since the last EOL */
  bool pending_eol;          /* an EOL is owed after the error token just returned */
  /* what YY_INPUT has fed the scanner: it cuts lines longer than ZP_LINE_MAX */
  bool bom_done, cutting, read_error;
  size_t in_line_len;
  uint32_t in_line;
  struct { uint32_t line; uint64_t dropped; } cut[8];   /* lines cut short, not yet scanned */
  unsigned cut_head, cut_n;
  /* token text of the record being read */
  char *buf;
  size_t buf_len, buf_cap;
} zp_zfile;

/* Scanner (grammar/zone.l): a scanner over f->in with f as its extra data; false when out of
 * memory. The parser (grammar/zone.y) runs over it and returns bison's yyparse status. */
bool zp_lex_open(zp_zfile *f);
void zp_lex_close(zp_zfile *f);
/* After a syntax error: the scanner drops the rest of the record. */
void zp_lex_skip(zp_zfile *f);
/* When the scanner's line was cut at ZP_LINE_MAX: reports that and returns true. */
bool zp_lex_cut_line(zp_zfile *f);
int zp_parse(zp_zfile *f);
/* A zone for running the scanner alone (tests/test_lexer.c): it only reports lexical errors to
 * diag. NULL when out of memory; free() releases it. */
zp_zone *zp_zone_scan_only(zp_diag *diag);

/* Parser actions (zone.c): one call per grammar action. The bool ones return false after
 * reporting a problem, and the grammar then skips the rest of the record. */
/* The end of every line: false once the parse must stop (--max-errors, or the callback). */
bool zp_zone_line_end(zp_zfile *f);
bool zp_zone_owner(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
bool zp_zone_blank(zp_zfile *f, const zp_loc *loc);
bool zp_zone_ttl(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
void zp_zone_class(zp_zfile *f, uint16_t rclass);
void zp_zone_type(zp_zfile *f, uint16_t rtype, const zp_loc *loc);
bool zp_zone_field(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
void zp_zone_record_end(zp_zfile *f);
void zp_zone_unknown_type(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
void zp_zone_unknown_class(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
void zp_zone_no_type(zp_zfile *f, const zp_loc *loc);
void zp_zone_origin(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
void zp_zone_set_ttl(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
void zp_zone_include(zp_zfile *f, const zp_tok *file, const zp_loc *file_loc, const zp_tok *origin,
                     const zp_loc *origin_loc, const zp_loc *at);
bool zp_zone_generate(zp_zfile *f, const zp_tok *range, const zp_loc *range_loc,
                      const zp_tok *owner, const zp_loc *owner_loc, const zp_loc *at);
void zp_zone_generate_end(zp_zfile *f);
/* Advice that replaces bison's message for the syntax error just seen. */
void zp_zone_directive_usage(zp_zfile *f, const char *usage, const zp_loc *loc);
/* bison's own message for a syntax error no rule explains better */
void zp_zone_syntax(zp_zfile *f, const zp_loc *loc, const char *msg);

/* Scanner helpers in zone.c: the lexical problems are reported there too. */
ZP_PRINTF(3, 4) void zp_zone_error(zp_zfile *f, const zp_loc *loc, const char *fmt, ...);
/* Classifies a field in TTL/class/type position: 1 TTL-like (starts with a digit), 2 class,
 * 3 type (*num set), 0 neither. */
int zp_zone_classify(const char *text, size_t len, uint16_t *num);

#endif
