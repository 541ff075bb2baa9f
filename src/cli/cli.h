/* cli.h -- parsed command line, shared by the name and zone halves of the command */
#ifndef ZP_CLI_H
#define ZP_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "check/check.h"
#include "core/diag.h"
#include "pipeline.h"

typedef enum zp_mode {
  ZP_MODE_CONVERT, ZP_MODE_CHECK, ZP_MODE_TO_ASCII, ZP_MODE_TO_UNICODE, ZP_MODE_DIFF,
  ZP_MODE_LSP
} zp_mode;

/* Exit statuses: 0 clean, 1 the zone has errors, 2 usage or I/O error. */
enum { ZP_EXIT_OK = 0, ZP_EXIT_ERRORS = 1, ZP_EXIT_USAGE = 2 };

typedef struct zp_cli {
  zp_mode mode;
  const char *output;      /* -o FILE, NULL for stdout */
  bool any_owner;          /* --allow-owner-change: -o may give FILE this user's ownership */
  bool break_links;        /* --break-hard-links: -o may replace a FILE with other links */
  const char *origin;      /* -z NAME */
  bool no_origin_from_name; /* --no-origin-from-name: --check takes no origin from file names */
  const char *named_conf;   /* --named-conf FILE: --check the zones it loads */
  const char *ttl;         /* -t TTL, as written (the zone module parses TTL syntax) */
  int idna;                /* 2003 or 2008: the standard labels are converted with */
  bool std3, sort, unicode, werror, quiet, silent;
  size_t sort_memory;      /* --sort-memory N (0: the default) */
  zp_diag_format format;   /* --format */
  int color;               /* --color: 0 never, 1 always, -1 auto (a terminal, no NO_COLOR) */
  unsigned max_errors;
  uint64_t max_generate;   /* --max-generate N: as zp_zone_options has it (0: the default) */
  bool no_include;         /* --no-include: every $INCLUDE is an error */
  const char *include_root; /* --include-root DIR: $INCLUDE must resolve inside DIR, or NULL */
  const uint8_t *generic;  /* --generic: a bit per type written in RFC 3597 form, or NULL for
                              the default */
  zp_check_options checks; /* -W NAME, -W no-NAME, -W error=NAME, --check-names, --fragment */
  int diff_format;         /* --diff-format: zp_diff_format */
  const char *since;       /* --since REV: --check compares each zone with its version there */
  int bump;                /* --bump-serial: a zp_serial_policy, or -1 */
  bool diff_ignore_dnssec; /* --diff-ignore=dnssec */
  const char *confusable_with; /* --confusable-with FILE */
  const char *stdin_name;  /* --stdin-filename NAME: standard input is the file NAME (its name
                              in messages, its origin, its $INCLUDEs' directory) */
  bool byte_columns;       /* --column-unit=byte */
} zp_cli;

/* The diagnostics of a run, begun: a machine's format goes to stdout under --check, which
 * writes nothing else there; a conversion's stdout is the zone, a diff's the differences. */
void zp_cli_diag_begin(zp_diag *d, const zp_cli *cli);
/* The pipeline options of the command line; false (reported) when -t is not a TTL. */
bool zp_cli_pipeline_options(const zp_cli *cli, zp_pipeline_options *po);
/* Says what a failed run of the pipeline over path (writing to output, NULL: standard output)
 * means; false when it failed. */
bool zp_cli_ran(zp_diag *d, zp_status st, const char *path, const char *output);

/* Standard input, read whole into *text when cli holds it in memory (--stdin-filename, or
 * --column-unit=byte, whose columns are counted in lines read again): in then reads it as
 * cli->stdin_name (or "-"). False (told) when it cannot be read; *text (NULL when not held)
 * is the caller's to free. */
bool zp_cli_stdin(const zp_cli *cli, zp_diag *d, zp_input *in, char **text);

/* Reads --confusable-with's file into cli->checks.brands (reported: exit status 2). */
int zp_cli_brands(zp_cli *cli);

/* --to-ascii / --to-unicode over names[0..n), or standard input when n == 0. Exit status. */
int zp_cli_names(const zp_cli *cli, char **names, int n);
/* --diff: the records only one of the zones files[0] (old) and files[1] (new) holds. Exit
 * status: 0 the same records, 1 they differ, 2 trouble (a zone with an error, I/O), as
 * diff(1). */
int zp_cli_diff(const zp_cli *cli, char **files);
/* Convert one zone (n <= 1; none or "-" is stdin) or, with --check, validate n zones. */
int zp_cli_zone(const zp_cli *cli, char **files, int n);

#endif
