/* diag.h -- the one diagnostics sink: FILE:LINE:COL: error|warning: message, source line, caret */
#ifndef ZP_DIAG_H
#define ZP_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idna/status.h"

/* An open input file in the include chain. Owned by the parser; alive while its records are
 * being handed out. */
typedef struct zp_source {
  const char *path;               /* as reported; "-" for standard input */
  const char *data;               /* the text itself when it is read from memory, else NULL */
  size_t len;
  const struct zp_source *parent; /* the including file, NULL at the top */
  uint32_t line, col;             /* where the parent's $INCLUDE stands */
  unsigned long serial;           /* which file this is of all the process reads
                                     (zp_source_serial): another file may reuse one's memory */
  const int *fd;                  /* the descriptor the file is read through, or a copy of it:
                                     messages quote lines from it and never open the path
                                     again; NULL: no line is quoted */
} zp_source;

/* A number no source of this process had before (sources are read on several threads' behalf,
 * and zones one after another reuse memory): what tells a source from one that lived at its
 * address before. */
unsigned long zp_source_serial(void);

/* A copy of src's descriptor, to quote its lines from once the reader has closed its own: -1
 * when it has none, or none can be made. zp_source_release closes one (-1: nothing). */
int zp_source_keep(const zp_source *src);
void zp_source_release(int fd);

typedef struct zp_loc {
  const zp_source *src;  /* borrowed; NULL for problems that belong to no file */
  uint32_t line, col;    /* 1-based; col counts characters, not bytes */
  uint64_t line_off;     /* byte offset of the line's start in the file, to quote the line */
} zp_loc;

/* The location of byte offset off (at most len: past it, the token's end) in a token located at
 * tok whose text is text[0..len) (quoted: tok is its opening quote, which text does not hold). */
zp_loc zp_loc_at(const zp_loc *tok, bool quoted, const char *text, size_t len, size_t off);

/* ZP_NOTE: what the sink says of its own accord (the zones a file's repeated message is in),
 * neither counted nor stopped at. */
typedef enum zp_severity { ZP_WARNING, ZP_ERROR, ZP_NOTE } zp_severity;

/* How diagnostics are written: GCC's text (with the line quoted), JSON Lines (one object per
 * diagnostic), SARIF 2.1.0 (one log, its results streamed), GitHub Actions workflow commands. */
typedef enum zp_diag_format {
  ZP_FORMAT_GCC, ZP_FORMAT_JSON, ZP_FORMAT_SARIF, ZP_FORMAT_GITHUB
} zp_diag_format;

/* A kind of diagnostic, as SARIF lists the tool's rules: a message ending in "[-WNAME]" is
 * NAME's; others are ZP_RULE_READ's (located) or ZP_RULE_RUN's. */
typedef struct zp_diag_rule {
  const char *id, *help;
  bool error;            /* its default level */
  bool off;              /* off unless asked for (-W NAME) */
  const char *full;      /* in full, or NULL (SARIF's fullDescription) */
  const char *help_text, *help_md;   /* what to do of it, text and Markdown, or NULL (help) */
} zp_diag_rule;
#define ZP_RULE_READ "read"
#define ZP_RULE_RUN "run"

/* One diagnostic as a sink takes it (zp_diag's sink: a language server's). The columns of
 * loc's field, from 1 and past its end, in characters, bytes and UTF-16 code units (the
 * latter two 0 where the line cannot be read again). */
typedef struct zp_diag_item {
  const zp_loc *loc;     /* NULL: about the run; line 0: about loc's file as a whole */
  zp_severity sev;
  const char *check;     /* the rule: a check's -W name, ZP_RULE_READ or ZP_RULE_RUN */
  const char *msg;
  size_t msg_len;
  uint32_t end, bcol, bend, ucol, uend;
} zp_diag_item;

typedef struct zp_diag {
  FILE *out;
  void (*sink)(void *user, const zp_diag_item *item);  /* not NULL: takes every diagnostic in
                                                          place of out and format */
  void *sink_user;
  zp_diag_format format;
  bool color;            /* GCC's colours (ZP_FORMAT_GCC only) */
  unsigned max_errors;   /* stop after this many errors; 0 = no limit */
  bool werror;           /* -W error: warnings are reported and counted as errors */
  bool quiet;            /* warnings are counted but not printed */
  bool silent;           /* nothing is printed: the exit status says it all */
  bool show_source;      /* quote the line and put a caret under the column */
  bool byte_columns;     /* GCC's and GitHub's columns count bytes (--column-unit=byte), where
                            the line can be read again; else characters */
  unsigned errors, warnings;
  unsigned long told;    /* diagnostics written (SARIF separates its results by them) */
  bool once;             /* zp_diag_begin's: repeated messages are told once (held until end) */
  struct zp_diag_repeats *repeats;   /* messages in files that zones $INCLUDE, told once */
  /* the last block read to quote lines from a file being read (messages come in file order,
   * often many to a block) */
  const zp_source *quote_src;
  unsigned long quote_serial;
  uint64_t quote_off;
  size_t quote_len;
  char quote_block[8192];
} zp_diag;

/* Defaults: out, GCC's format, max_errors 50, source lines shown. */
void zp_diag_init(zp_diag *d, FILE *out);

/* A message located in a file that a zone $INCLUDEs, said again by another zone that includes
 * it (the same file, line, column and words), is told once: each zone after the first is
 * listed in a note at zp_diag_end, and the message counts once (toward --max-errors too). */

/* Opens the output of d's format (SARIF: the log up to its results, with the rules and the
 * tool's version); zp_diag_end closes it. Every diagnostic comes between the two. */
void zp_diag_begin(zp_diag *d, const zp_diag_rule *rules, size_t nrules, const char *version);
/* Tells the notes of repeated messages, closes the output and frees what d holds. */
void zp_diag_end(zp_diag *d);

/* Reports one problem. loc may be NULL ("zonepuny: error: ..."), or name a file without a
 * line (line 0: about the file as a whole, such as an error reading it; GCC's format then
 * writes "zonepuny: error: ..." too, its message naming the file). */
void zp_diag_report(zp_diag *d, const zp_loc *loc, zp_severity sev, const char *fmt, ...)
    ZP_PRINTF(4, 5);
/* The same with the arguments as a va_list, for the wrappers that add to a report. */
void zp_diag_vreport(zp_diag *d, const zp_loc *loc, zp_severity sev, const char *fmt, va_list ap)
    ZP_PRINTF(4, 0);

/* True once max_errors errors have been reported: callers stop reading. */
bool zp_diag_stop(const zp_diag *d);

#endif
