/* check.h -- whole-zone checks on the converted zone: what named refuses to load (errors) and
 * what it loads but serves otherwise than the file says (warnings), each check by name */
#ifndef ZP_CHECK_H
#define ZP_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "idna/status.h"
#include "record/record.h"
#include "registry.h"

/* The order named's loader reads the records in (check/load.c): as the file has them (the
 * written zone), as the file has them with each $GENERATE record alone (named reads the file
 * itself: --named-conf), or each RRset whole and each record once (--sort). */
enum { ZP_LOAD_WRITTEN, ZP_LOAD_SERVED, ZP_LOAD_SORTED };

/* --dnssec: verify signatures when the zone is signed (auto), always, or never */
enum { ZP_DNSSEC_AUTO, ZP_DNSSEC_ON, ZP_DNSSEC_OFF };

/* A name of --confusable-with: no name of the zone may look like it (UTS #39 skeletons). */
typedef struct zp_brand {
  uint8_t wire[ZP_NAME_MAX];
  const char *file;            /* where it was written, for messages */
  unsigned line;
} zp_brand;

typedef struct zp_check_options {
  uint8_t level[ZP_CK_COUNT];  /* zp_check_level of each check; zp_check_defaults sets them */
  bool off;                    /* no whole-zone checks at all (a fragment, --no-zone-checks) */
  size_t run_bytes;            /* memory the checks may hold (--check-memory), their parts
                                  shared out of it (check_int.h); 0: the default, 16 MiB */
  bool idna2008;               /* names were converted with IDNA2008 (for messages) */
  unsigned threads;            /* threads the checks may use (-j): from 2, records are taken in
                                  on a thread of their own beside the reader's; 0, 1: none */
  int dnssec;                  /* ZP_DNSSEC_* */
  bool dnssec_only;            /* with ZP_DNSSEC_ON: a second reading of a zone read once under
                                  auto (zp_check_dnssec_late), whose other messages that reading
                                  told: only the verification's are told */
  int64_t now;                 /* --time: signatures are judged as of this time (seconds since
                                  the epoch); 0: the time the checker is made */
  uint32_t sig_min_validity;   /* --sig-min-validity: seconds; a signature that expires sooner
                                  is warned */
  uint32_t max_key_tries;      /* --max-key-tries: apex DNSKEYs of an RRSIG's key tag and
                                  algorithm tried for it, and RRSIGs of one RRset verified, at
                                  most (KeyTrap, CVE-2023-50387); 0: the default, 8;
                                  UINT32_MAX: no bound */
  /* named's load limits (9.18.28 on): records in one RRset, RRsets at one name (each RRSIG
   * type covered its own); 0: no limit. Default 100 each, as named's. */
  uint32_t max_records_per_type, max_types_per_name;
  int load_order;              /* ZP_LOAD_* */
  const uint8_t *file_zone;    /* the zone the file's name gives (wire form), when it gave the
                                  initial origin; NULL: none */
  const char *file;            /* the zone's file as messages name it ("-": standard input),
                                  for what is said of a zone with no record; NULL: none */
  bool max_zone_ttl_set;       /* max-zone-ttl: a record with a longer TTL makes named refuse */
  uint32_t max_zone_ttl;       /* the zone */
  const zp_brand *brands;      /* --confusable-with (borrowed); nbrands of them */
  struct zp_reverse *reverse;  /* -W reverse: the run's collector (borrowed), or NULL */
  size_t nbrands;
} zp_check_options;

void zp_check_defaults(zp_check_options *o);
/* Applies one -W argument naming a check: "NAME" (on, at its default level unless it is
 * already an error), "no-NAME" (off), "error=NAME" (an error). false: no such check. */
bool zp_check_option(zp_check_options *o, const char *arg);

typedef struct zp_checker zp_checker;

/* zone: the zone's name in wire form (-z), or NULL: the owner of the first SOA record. */
ZP_NODISCARD zp_status zp_check_new(const zp_check_options *opt, const uint8_t *zone,
                                    zp_diag *diag, zp_checker **c);
/* Takes one record (after conversion) into the checks: those of the record alone (check-names,
 * a target written as an address) are reported at once. ZP_ENOMEM, ZP_ETMPFILE (the
 * temporary file), ZP_ETMPLIMIT (its bound), ZP_ECHECKMEM (the zone's wildcard names need
 * more than their share of run_bytes). */
ZP_NODISCARD zp_status zp_check_record(zp_checker *c, const zp_record *rec);
/* An SOA record of the zone was refused (its error told): what the checks would say of a zone
 * without one follows from it, and is not said. owner: the refused SOA's (wire form), the
 * zone's apex when no other SOA gave one, so that the apex's NS records are not taken for a
 * delegation; NULL: none known. */
void zp_check_soa_refused(zp_checker *c, const uint8_t *owner);
/* Runs the checks of the whole zone over everything recorded and reports to diag. The same
 * statuses. */
ZP_NODISCARD zp_status zp_check_finish(zp_checker *c);
/* After zp_check_finish: --dnssec=auto found the zone signed only after its first 256 records,
 * too late to verify it; a caller that can read the zone again does so with dnssec_only. */
bool zp_check_dnssec_late(const zp_checker *c);
void zp_check_free(zp_checker *c);

#endif
