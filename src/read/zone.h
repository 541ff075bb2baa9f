/* zone.h -- RFC 1035 master-file front end: a stream of records with exact locations */
#ifndef ZP_ZONE_H
#define ZP_ZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/diag.h"
#include "idna/status.h"
#include "name.h"
#include "record/record.h"

/* Called once per record, in input order. ZP_OK continues; any other status stops the parse
 * and is returned by zp_zone_parse (for fatal problems such as a failed write). */
typedef zp_status (*zp_record_fn)(void *user, const zp_record *rec);

typedef struct zp_zone_options {
  const int *top_fd;        /* the top file open at *top_fd, read from its start (zp_input.fd);
                               NULL: opened by its path */
  const char *origin;       /* -z: initial origin as text, NULL for none */
  const char *origin_from;  /* what gave origin, as messages about it say ("zone" of a
                               named.conf...), located at origin_loc; NULL: -z gave it */
  const zp_loc *origin_loc;
  bool as_served;           /* the server reads the file itself (--named-conf): a non-ASCII
                               label is an error, not converted (zp_convert.as_served), and
                               the file shows no line until its first record reads */
  uint32_t default_ttl;     /* -t: TTL before any $TTL, when have_default_ttl */
  bool have_default_ttl;
  zp_label_conv conv;       /* label policy for every name the front end parses */
  zp_label_conv spelling;   /* the label policy of zp_record.spelling; fn NULL: none made */
  bool *mapped;             /* set by conv when a label is a spelling IDNA maps onto another
                               name's (zp_convert.mapped): cleared before each owner is read, and
                               only then is its spelling made; NULL: for every owner with a
                               non-ASCII octet */
  zp_label_conv conv_keep_case;  /* the same keeping ASCII case, for the RDATA names DNSSEC
                                    does not lowercase (RFC 6840 section 5.1) */
  bool label_warnings_fatal;  /* the label policies' warnings (a label IDNA2003 and IDNA2008
                                 convert apart) are errors: -W error=idna-divergence */
  bool no_include;          /* --no-include: every $INCLUDE is an error */
  const char *include_root; /* --include-root: an $INCLUDE must resolve inside it, or NULL */
  const char *include_dir;  /* an absolute directory where a relative $INCLUDE path starts, as
                               named's directory option is; NULL: the including file's */
  const char *output;       /* -o FILE, or NULL: an $INCLUDE of it is an error (it would be
                               replaced by the output) */
  bool *soa_refused;        /* set when an SOA record's RDATA is in error, or the initial
                               origin (so nothing is read); NULL: not asked */
  uint8_t *soa_refused_owner; /* ZP_NAME_MAX octets: the first such SOA's owner (wire form) is
                               copied there, when soa_refused is set by one; NULL: not asked */
  /* The text that stands for a file an $INCLUDE opens (an editor's unsaved copy of it), given
   * the file's device and inode: *len octets, or NULL to read the file itself. NULL: none. */
  const char *(*overlay)(void *user, dev_t dev, ino_t ino, size_t *len);
  void *overlay_user;
  uint64_t max_generate;    /* --max-generate: the values of every $GENERATE range of the zone,
                               all together, at most this many; 0: ZP_GENERATE_DEFAULT,
                               UINT64_MAX: no bound (named has none) */
} zp_zone_options;

/* The records $GENERATE may make in one zone unless told otherwise: a few lines must not
 * expand into hours of work and gigabytes of temporary files (doc/limits.md). */
#define ZP_GENERATE_DEFAULT 4000000u

/* TTL syntax of master files and -t: a decimal number, or numbers each followed by a unit s, m,
 * h, d or w in any case (BIND's "1h30m"); at most 2^31 - 1 (RFC 2181 section 8). */
bool zp_ttl_parse(const char *text, size_t len, uint32_t *ttl);

/* Reads the master file at path ("-" is standard input), following $INCLUDE and $GENERATE, and
 * hands every record to cb. Problems in the input are reported to diag and parsing goes on at
 * the next record until diag says stop; they do not change the return value. Returns ZP_EIO
 * when path cannot be read, or the status cb stopped with. Memory does not grow with the
 * size of the zone. */
ZP_NODISCARD zp_status zp_zone_parse(const char *path, const zp_zone_options *opt, zp_diag *diag,
                                     zp_record_fn cb, void *user);

/* The same over a zone held in memory, data[0..len), named name in messages (its lines are
 * quoted from data); an $INCLUDE in it is read from the file system, relative to name. */
ZP_NODISCARD zp_status zp_zone_parse_mem(const char *name, const char *data, size_t len,
                                         const zp_zone_options *opt, zp_diag *diag,
                                         zp_record_fn cb, void *user);

#endif
