/* zone_int.h -- what the grammar (grammar/zone.{l,y}) and the zone modules (zone.c, include.c,
 * generate.c) share; not public. The modules call one way: include.c and generate.c use
 * zone.c, and zone.c uses neither, so the record rules stand alone. */
#ifndef ZP_ZONE_INT_H
#define ZP_ZONE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/buf.h"
#include "core/diag.h"
#include "rdata.h"
#include "zone.h"

/* Limits (doc/dialect.md, doc/limits.md); each one reached is an error at its location. */
enum {
  ZP_LINE_MAX = 3 << 18,        /* bytes in one physical line (768 KiB): more than the longest
                                   text of a record (a type list of every type, some 645,000
                                   bytes; 65,510 octets of TXT each written \DDD, 262,000), so
                                   that whatever any writer makes of a record is read back */
  ZP_RECORD_MAX = 1 << 20,      /* bytes of token text in one record, parentheses included */
  ZP_FIELDS_MAX = 1 << 17,      /* fields in one record: more than any record's text has (a
                                   type list or WKS ports of every value, 65,536, and the
                                   fields before them) */
  ZP_GENERATE_FIELDS_MAX = 4096,  /* fields of one $GENERATE right-hand side */
  ZP_INCLUDE_DEPTH_MAX = 16,    /* nested $INCLUDE files below the top one */
  ZP_INCLUDES_MAX = 10000,      /* $INCLUDE files opened in one zone: without it 16 levels of
                                   ten includes each read the last file 10^15 times */
};

/* A token's text in its file's record buffer: quotes removed, escapes as written. The buffer
 * may move while a record is read, so tokens hold offsets. */
typedef struct zp_tok {
  size_t off, len;
  bool quoted;
  bool joined;   /* no blank between it and the field before it */
  bool in_parens;   /* read while a parenthesis was open */
} zp_tok;

/* The first line of a record in the usual shape, scanned as one token (grammar/zone.l): an
 * owner; TTL and class, each optional, in either order; a type; up to ZP_LINE_FIELDS fields;
 * no quote, parenthesis, escape, comment or bad byte before the line's end (or before the
 * first such character, from where the record goes on in tokens of its own). A token a field
 * would cost the parser more than reading the record's RDATA costs. Each token is what the
 * scanner would have handed out for it alone. */
enum { ZP_LINE_FIELDS = 32 };
typedef struct zp_line {
  zp_tok owner, ttl;
  zp_loc owner_loc, ttl_loc, class_loc, type_loc;
  bool have_ttl, have_class;
  uint16_t rclass, rtype;
  size_t nfields;
  zp_tok field[ZP_LINE_FIELDS];
  zp_loc field_loc[ZP_LINE_FIELDS];
} zp_line;

/* The scope of the file being read: an $INCLUDE gives the including file its origin and owner
 * back afterwards, but not its $TTL, which BIND keeps from the included file. */
typedef struct zp_scope {
  uint8_t origin[ZP_NAME_MAX];
  bool have_origin;
  uint32_t ttl;          /* $TTL or -t */
  bool have_ttl;
  uint8_t owner[ZP_NAME_MAX];
  bool have_owner;
  uint8_t spelling[ZP_NAME_MAX];   /* zp_record.spelling of the owner */
  bool have_spelling;
  uint64_t owner_case;   /* zp_record.owner_case of the owner */
  uint8_t origin_cased[ZP_NAME_MAX];   /* the origin, its ASCII letters' case as written, when */
  bool origin_upper;                   /* it has a capital */
} zp_scope;

/* The whole parse: options, state, and the record being built. */
typedef struct zp_zone {
  const zp_zone_options *opt;
  zp_diag *diag;
  zp_record_fn cb;
  void *user;
  zp_status stop;        /* what the callback stopped with */
  zp_scope sc;
  uint32_t last_ttl;     /* the last TTL stated, for files without $TTL (RFC 1035 5.1) */
  bool have_last_ttl;
  int depth;
  unsigned long includes;  /* $INCLUDE files opened so far, against ZP_INCLUDES_MAX */
  uint64_t generated;    /* values of the $GENERATE ranges taken so far, against max_generate */
  /* the record being read: fields are tokens of the current file's buffer */
  zp_loc rec_loc;
  uint32_t ttl;
  bool have_ttl;
  uint16_t rclass, rtype;
  zp_loc class_loc;      /* of the class, when the record states one */
  bool class_stated;
  uint16_t zone_class;   /* the first record's: a zone holds one class (RFC 1035 section 5.2) */
  bool have_zone_class;
  size_t ntok, tok_cap;   /* the three arrays below hold tok_cap each, grown to ZP_FIELDS_MAX */
  zp_tok *tok;
  zp_loc *tok_loc;
  zp_field *fields;
  uint8_t rdata[ZP_RDATA_MAX];   /* the record's RDATA in wire form (rdata_text.c) */
  /* $GENERATE: range, and the owner template (the RHS comes with the end of the line) */
  long gen_start, gen_stop, gen_step;
  zp_tok gen_owner;
  zp_loc gen_owner_loc, gen_at;
  bool generating;       /* the record delivered is $GENERATE's */
  char *gen_buf;         /* substituted text of one generated record */
  /* bison's message for a syntax error, held until the line ends in case a rule explains it */
  bool pending;
  zp_loc pending_loc;
  char pending_msg[256];
  /* warnings about the first record or directive of a file, held until it reads (zone.c) */
  FILE *held;
  char *held_text;
  size_t held_len;
  unsigned held_warnings;
  /* the include root (include.c): a directory opened once, at the start; every $INCLUDE is
   * opened below it, never by a path from the outside */
  int root_fd;           /* -1: not opened (no include yet, or it could not be: root_errno) */
  int root_errno;
  char *root_name;       /* as given, or the zone file's directory: for messages */
  bool root_default;     /* not given: the zone file's directory */
  bool root_known;       /* root_real and root_abs below are set (first absolute $INCLUDE) */
  char *root_real;       /* its real path, and its path as given made absolute: an absolute */
  char *root_abs;        /* $INCLUDE path must start with one of them */
  char *top_real;        /* the top file's real directory when it is not below the root */
  bool walk;             /* openat2(2) missing or filtered: the O_NOFOLLOW walk instead */
} zp_zone;

/* One open file: the parse parameter of its parser. src comes first so that a zp_source of the
 * include chain leads back to its file (loop detection). */
/* What messages about a file show (doc/safety.md). A file that a zone names ($INCLUDE), or
 * that a symlink leads to, shows its text (its lines, and tokens in messages) only once it
 * reads as a zone: its first record or directive read without an error. Until then messages
 * wait (warnings) or give the location alone (an error, which also ends the file). The top
 * file as the operator named it, text in memory and standard input are shown at once (0, so a
 * file made with calloc shows everything). */
enum { ZP_SHOW_ALL, ZP_SHOW_UNDECIDED, ZP_SHOW_NONE };

typedef struct zp_zfile {
  zp_source src;
  dev_t dev;
  ino_t ino;
  int show;                  /* ZP_SHOW_* */
  char *dir;                 /* its directory below the include root, as walked ("" the root
                                itself), for $INCLUDEs relative to it; NULL when outside it */
  zp_zone *z;
  FILE *in;
  int fd;                    /* fileno(in) for src.fd, when in is a file that can be re-read */
  void *scanner;
  zp_buf buf;                /* token text of the record being read (zp_tok offsets) */
} zp_zfile;

/* Scanner (grammar/zone.l): a scanner over f->in; false when out of memory. */
bool zp_lex_open(zp_zfile *f);
void zp_lex_close(zp_zfile *f);
/* After a syntax error: the scanner drops the rest of the record. */
void zp_lex_skip(zp_zfile *f);
/* When the scanner's line was cut at ZP_LINE_MAX: reports that and returns true. */
bool zp_lex_cut_line(zp_zfile *f);
/* Whether reading f->in failed (the scanner then saw an early end of file). */
bool zp_lex_read_error(zp_zfile *f);
/* The byte offset in the file of the token just scanned. */
uint64_t zp_lex_token_offset(zp_zfile *f);
/* The parser (grammar/zone.y) over f's scanner: bison's yyparse status. */
int zp_parse(zp_zfile *f);
/* A zone for running the scanner alone (tests/test_lexer.c): it only reports lexical errors to
 * diag. NULL when out of memory; free() releases it. */
zp_zone *zp_zone_scan_only(zp_diag *diag);

/* Parser actions (zone.c, include.c, generate.c): one call per grammar action. The bool ones
 * return false after reporting a problem, and the grammar then skips the rest of the record. */
/* The end of every line: false once the parse must stop (--max-errors, or the callback). */
bool zp_zone_line_end(zp_zfile *f);
bool zp_zone_owner(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
bool zp_zone_blank(zp_zfile *f, const zp_loc *loc);
bool zp_zone_ttl(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
void zp_zone_class(zp_zfile *f, uint16_t rclass, const zp_loc *loc);
/* The type ends the record's TTL and class: false (reported) for a query or meta type or
 * class, which no zone holds. */
bool zp_zone_type(zp_zfile *f, uint16_t rtype, const zp_loc *loc);
bool zp_zone_field(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
/* A record's first line read whole: the calls the rules make for its tokens one by one
 * (owner, TTL, class, type, fields), stopping at the first that fails. */
bool zp_zone_line(zp_zfile *f, const zp_line *l);
/* Room for n fields (n at most ZP_FIELDS_MAX) in z's arrays; false when out of memory. */
bool zp_zone_fields_room(zp_zone *z, size_t n);
void zp_zone_record_end(zp_zfile *f);
void zp_zone_unknown_type(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
void zp_zone_unknown_class(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
void zp_zone_no_type(zp_zfile *f, const zp_loc *loc);
void zp_zone_set_ttl(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
void zp_zone_include(zp_zfile *f, const zp_tok *file, const zp_loc *file_loc, const zp_tok *origin,
                     const zp_loc *origin_loc, const zp_loc *at);
bool zp_zone_generate(zp_zfile *f, const zp_tok *range, const zp_loc *range_loc,
                      const zp_tok *owner, const zp_loc *owner_loc, const zp_loc *at);
/* The RHS token (its end of line read): the directive's records, one per value. */
void zp_zone_generate_end(zp_zfile *f, const zp_tok *rhs, const zp_loc *rhs_loc);
/* f's first record or directive has read without an error: f is a zone, and what was held of
 * it is shown. */
void zp_zone_reads(zp_zfile *f);
/* Advice that replaces bison's message for the syntax error just seen. */
void zp_zone_directive_usage(zp_zfile *f, const char *usage, const zp_loc *loc);
/* bison's own message for a syntax error no rule explains better */
void zp_zone_syntax(zp_zfile *f, const zp_loc *loc, const char *msg);

/* A record's first line text[0..len) (text[len] a NUL), at loc, read into *l with its tokens'
 * offsets counted from text: the bytes it takes, the fields up to ZP_LINE_FIELDS (and not a last
 * field that an escape after text goes on with, escape_next), with *end the end of its last
 * field and *cont the UTF-8 continuation bytes in it. 0 when the line has another shape (then
 * l->owner.len is its first field's length): the scanner's own rules read it (line.c). */
size_t zp_line_read(const char *text, size_t len, bool escape_next, const zp_loc *loc,
                    zp_line *l, size_t *end, size_t *cont);
/* The line read has been copied to buf, at offset off of the record's buffer: each token's end
 * made a NUL, its offset counted from the buffer's start. */
void zp_line_place(zp_line *l, char *buf, size_t off);

/* Classifies a field in TTL/class/type position: 1 TTL-like (starts with a digit), 2 class,
 * 3 type (*num set), 0 neither. After a class (class_seen), a word that names both a class and
 * a type (ANY) is the type. */
int zp_zone_classify(const char *text, size_t len, bool class_seen, uint16_t *num);

/* Between the zone modules and the scanner. */
/* Reports an error in the zone (a held syntax error first). */
ZP_PRINTF(3, 4) void zp_zone_report(zp_zone *z, const zp_loc *loc, const char *fmt, ...);
/* A held syntax error is reported (before any later message, and at the end of a file). */
void zp_zone_flush(zp_zone *z);
/* A warning at loc (an error under -W error, or when fatal): in a file not yet read as a zone
 * it waits, and goes with the file if that does not read. */
ZP_PRINTF(4, 5) void zp_zone_warn(zp_zone *z, const zp_loc *loc, bool fatal, const char *fmt,
                                  ...);
/* The warnings held of a file not yet read as a zone are dropped. */
void zp_zone_drop_held(zp_zone *z);
/* The file a location is in: every location the reader reports is in a file it has open,
 * whose zp_source leads its zp_zfile. */
static inline zp_zfile *zp_zone_file_at(const zp_loc *loc)
{
  return loc && loc->src ? (zp_zfile *)loc->src : NULL;
}
/* The text of a token of f's current record. */
const char *zp_zone_text(const zp_zfile *f, const zp_tok *t);
/* A name token (loc: the token's place) to wire form through the label policy, relative to
 * origin (NULL: none); reports and returns false when it is not a name. */
bool zp_zone_name(zp_zone *z, const char *text, size_t len, bool quoted, const zp_loc *loc,
                  const uint8_t *origin, uint8_t *out);
/* The owner in scope from now on: text as zp_zone_name reads it, and its spelling (zp_record).
 * False (reported) when it is not a name. */
bool zp_zone_set_owner(zp_zone *z, const char *text, size_t len, bool quoted, const zp_loc *loc);
/* The origin of $ORIGIN and of $INCLUDE's second argument: a name relative to the origin in
 * force ("@" is that origin), as BIND reads both. False (reported) when it is not a name. */
bool zp_zone_origin(zp_zfile *f, const zp_tok *t, const zp_loc *loc);
/* The origin in force, NULL when there is none. */
const uint8_t *zp_zone_origin_of(const zp_zone *z);
/* A record starts at loc: its TTL, class, type and fields are forgotten. */
void zp_zone_record_begin(zp_zone *z, const zp_loc *loc);
/* Hands z's record, fields already in z->fields, to the callback. */
void zp_zone_deliver(zp_zone *z);
/* A zone in *out, its scope holding -t and -z, for include.c to read files into. ZP_ENOMEM;
 * ZP_OK with *out NULL when -z is not a name, which is reported: no file is read against it. */
zp_status zp_zone_open(const zp_zone_options *opt, zp_diag *diag, zp_record_fn cb, void *user,
                       zp_zone **out);
/* Frees z (NULL: nothing) and the $GENERATE buffer it holds. */
void zp_zone_close(zp_zone *z);

#endif
