/* pipeline.h -- one call converts a zone: reader, label policy, writer */
#ifndef ZP_PIPELINE_H
#define ZP_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "check/check.h"
#include "core/diag.h"
#include "idna/status.h"
#include "record/sort.h"

/* Where the zone's first SOA record wrote its serial, for a message about it after the run:
 * its file (a copy of the path, the caller frees it; NULL while no SOA came) and place. */
typedef struct zp_serial_at {
  char *path;
  uint32_t line, col;
} zp_serial_at;

typedef struct zp_pipeline_options {
  const char *origin;       /* -z: initial origin as text, NULL for none */
  bool origin_initial;      /* origin is only the initial one (a file's name gave it): the
                               zone's name (for the checks) is its SOA's owner */
  const char *origin_from;  /* what gave origin, located at origin_loc (zp_zone_options) */
  const zp_loc *origin_loc;
  bool as_served;           /* the server reads the file itself: non-ASCII labels are errors */
  uint32_t default_ttl;     /* -t: TTL before any $TTL, when have_default_ttl */
  bool have_default_ttl;
  bool std3;                /* --std3 on ASCII labels */
  bool idna2008;            /* --idna=2008: IDNA2008 with UTS #46 mapping, else IDNA2003 */
  bool sort;                /* --sort */
  size_t sort_memory;       /* --sort-memory */
  bool unicode;             /* --unicode */
  bool no_include;          /* --no-include */
  const char *include_root; /* --include-root DIR, or NULL */
  const char *include_dir;  /* where relative $INCLUDE paths start (zp_zone_options), or NULL */
  const char *output;       /* -o FILE, or NULL: an $INCLUDE of it is refused */
  uint64_t max_generate;    /* --max-generate, as zp_zone_options has it */
  const char *(*overlay)(void *user, dev_t dev, ino_t ino, size_t *len);
  void *overlay_user;       /* the text an $INCLUDEd file is read as (zp_zone_options) */
  const uint8_t *generic;   /* --generic: a bit per type written in RFC 3597 form (as
                               zp_emit_options has it), zp_rrtype_generic_always's added;
                               NULL: zp_rrtype_generic_default */
  zp_check_options checks;  /* the whole-zone checks (zp_check_defaults) */
  zp_sorter *hold;          /* not NULL: every record is held there, in canonical order, and
                               none written (--diff, --since) */
  zp_serial_at *serial_at;  /* not NULL: filled in (--since) */
  bool serial_set;          /* the zone's first SOA record takes serial as its serial, checked
                               and written so (--bump-serial) */
  uint32_t serial;
} zp_pipeline_options;

/* True when name (as -z takes it) is a name under opt's label policy. */
bool zp_pipeline_name_ok(const zp_pipeline_options *opt, const char *name);
/* The same name in wire form, relative names taken from the root (ZP_NAME_MAX octets). */
bool zp_pipeline_name_wire(const zp_pipeline_options *opt, const char *name, uint8_t *wire);

/* A zone: the file at path ("-" is standard input) or, when data is not NULL, the text
 * data[0..len) named path in messages; when fd is not NULL, the file path names open at *fd,
 * read from its start through it and never opened by path (the caller has checked what it
 * is, and a path may lead elsewhere by the time it is opened again). */
typedef struct zp_input {
  const char *path;
  const char *data;
  size_t len;
  const int *fd;
} zp_input;

/* Reads the zone, puts every name through the label policy and every record through the
 * writer, which writes to out (NULL: the zone is only checked), and the whole-zone checks over
 * the converted zone once it is read. A zone --dnssec=auto finds signed only past its first
 * records is read a second time, where it can be (a regular file, or data), for the
 * verification alone. Problems in the zone go to diag and leave the status
 * ZP_OK; out may then hold part of the zone (the caller throws it away). *records (may be NULL) counts the records read. ZP_EIO when the
 * zone cannot be read, ZP_EWRITE when writing to out failed, ZP_ETMPFILE when the checks'
 * temporary file in $TMPDIR cannot be made or used (errno tells why, for all three),
 * ZP_ETMPLIMIT when temporary files (the checks', out's spool) reached their bound
 * (core/tmpfile.h, which counts the zone's octets read from zp_tmp_begin here on), ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_pipeline_run(const zp_input *in, const zp_pipeline_options *opt,
                                       zp_diag *diag, FILE *out, unsigned long *records);

#endif
