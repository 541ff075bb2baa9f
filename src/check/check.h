/* check.h -- whole-zone checks on the converted zone: what named refuses to load (errors) and
 * what it loads but serves otherwise than the file says (warnings), each check by name */
#ifndef ZP_CHECK_H
#define ZP_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "idna/status.h"
#include "read/zone.h"

/* X(id, name, default level, what it finds) -- doc/checks.md says each in full */
#define ZP_CHECKS(X)                                                                           \
  X(ZP_CK_APEX_SOA, "apex-soa", ZP_LEVEL_ERROR, "one SOA record, at the apex")                 \
  X(ZP_CK_ZONE_NAME, "zone-name", ZP_LEVEL_ERROR,                                             \
    "a file named after a zone (example.com.zone) holding another's SOA")                      \
  X(ZP_CK_APEX_NS, "apex-ns", ZP_LEVEL_ERROR,                                                  \
    "NS at the apex, in-zone servers with addresses")     \
  X(ZP_CK_CNAME_OTHER, "cname-and-other-data", ZP_LEVEL_ERROR,                                 \
    "a CNAME beside other data (DNSSEC's exempt)")                                     \
  X(ZP_CK_SINGLETON, "singleton", ZP_LEVEL_ERROR, "two CNAMEs, DNAMEs or SOAs at a name") \
  X(ZP_CK_RRSET_SIZE, "rrset-size", ZP_LEVEL_ERROR,                                            \
    "an RRset larger than a DNS message holds")                                                \
  X(ZP_CK_LOAD_LIMIT, "load-limit", ZP_LEVEL_ERROR,                                           \
    "past named's max-records-per-type, max-types-per-name, max-zone-ttl")                     \
  X(ZP_CK_DS_APEX, "ds-at-apex", ZP_LEVEL_ERROR, "a DS record at the apex")                   \
  X(ZP_CK_CDS, "cds", ZP_LEVEL_ERROR, "CDS or CDNSKEY at the apex that its DNSKEYs do not back") \
  X(ZP_CK_WILDCARD_NS, "wildcard-ns", ZP_LEVEL_ERROR, "NS records at a wildcard name")         \
  X(ZP_CK_CHECK_NAMES, "check-names", ZP_LEVEL_ERROR,                                          \
    "host names where named's check-names wants them")                                         \
  X(ZP_CK_COLLISION, "idna-collision", ZP_LEVEL_WARNING,                                       \
    "two spellings in the file, one name after IDNA")                                          \
  X(ZP_CK_IDNA_DIVERGENCE, "idna-divergence", ZP_LEVEL_WARNING,                                \
    "a label IDNA2003 and IDNA2008 convert apart, once a label")                               \
  X(ZP_CK_OUT_OF_ZONE, "out-of-zone", ZP_LEVEL_WARNING, "data outside the zone")               \
  X(ZP_CK_OCCLUDED, "occluded", ZP_LEVEL_WARNING, "data at or below a delegation, never served") \
  X(ZP_CK_BELOW_DNAME, "below-dname", ZP_LEVEL_WARNING, "data below a DNAME, not served")      \
  X(ZP_CK_DS_PLACEMENT, "ds-placement", ZP_LEVEL_WARNING, "a DS record that is no delegation's") \
  X(ZP_CK_DNAME_NS, "dname-and-ns", ZP_LEVEL_WARNING, "DNAME beside NS below the apex")        \
  X(ZP_CK_TTL, "ttl-mismatch", ZP_LEVEL_WARNING, "one RRset with two TTLs (RFC 2181 5.2)")     \
  X(ZP_CK_GLUE, "glue", ZP_LEVEL_WARNING, "an in-zone server inside a delegation, no glue")  \
  X(ZP_CK_NS_TARGET, "ns-target", ZP_LEVEL_WARNING,                                            \
    "a delegation's server: an alias, or no address")                                \
  X(ZP_CK_MX_TARGET, "mx-target", ZP_LEVEL_WARNING, "an MX target: an alias, or no address") \
  X(ZP_CK_SRV_TARGET, "srv-target", ZP_LEVEL_WARNING, "an SRV target: an alias, or no address") \
  X(ZP_CK_ADDRESS_TARGET, "address-target", ZP_LEVEL_WARNING,                                  \
    "an NS, MX or SRV target written as IPv4")                                      \
  X(ZP_CK_NULL_MX, "null-mx", ZP_LEVEL_WARNING, "a null MX beside other MX (RFC 7505)")        \
  X(ZP_CK_CNAME_LOOP, "cname-loop", ZP_LEVEL_WARNING, "a CNAME chain that loops in the zone") \
  X(ZP_CK_CNAME_TARGET, "cname-target", ZP_LEVEL_WARNING,                                      \
    "a CNAME to an in-zone name that does not exist")                                          \
  X(ZP_CK_RRSIG_BOGUS, "rrsig-bogus", ZP_LEVEL_ERROR,                                          \
    "an RRSIG whose signature does not verify")                                                \
  X(ZP_CK_RRSIG_VALIDITY, "rrsig-validity", ZP_LEVEL_ERROR, "an RRSIG expired or not yet valid") \
  X(ZP_CK_RRSIG_EXPIRING, "rrsig-expiring", ZP_LEVEL_WARNING,                                  \
    "an RRSIG that expires within --sig-min-validity")                                         \
  X(ZP_CK_RRSET_UNSIGNED, "rrset-unsigned", ZP_LEVEL_ERROR,                                    \
    "an RRset no valid RRSIG of an apex DNSKEY algorithm covers")                              \
  X(ZP_CK_DNSKEY_SEP, "dnskey-sep", ZP_LEVEL_ERROR, "a DNSKEY RRset no SEP key signs")         \
  X(ZP_CK_NSEC_CHAIN, "nsec-chain", ZP_LEVEL_ERROR,                                            \
    "an NSEC or NSEC3 chain with a gap, a name it misses")                                     \
  X(ZP_CK_NSEC_BITMAP, "nsec-bitmap", ZP_LEVEL_ERROR,                                          \
    "an NSEC or NSEC3 bitmap not the types at its name")                                       \
  X(ZP_CK_NSEC3_ITERATIONS, "nsec3-iterations", ZP_LEVEL_WARNING,                              \
    "NSEC3 iterations above 0 (RFC 9276)")                                                     \
  X(ZP_CK_ZONEMD, "zonemd", ZP_LEVEL_ERROR, "a ZONEMD digest not the zone's (RFC 8976)")       \
  X(ZP_CK_DNSSEC_ALGORITHM, "dnssec-algorithm", ZP_LEVEL_WARNING,                              \
    "an algorithm RFC 8624 retires, or one not verified")                                     \
  X(ZP_CK_DNSSEC_UNVERIFIED, "dnssec-unverified", ZP_LEVEL_WARNING,                            \
    "a signed zone --dnssec=auto found too late to verify")

typedef enum zp_check_level { ZP_LEVEL_OFF, ZP_LEVEL_WARNING, ZP_LEVEL_ERROR } zp_check_level;

#define ZP_CHECK_ID(id, name, level, what) id,
typedef enum zp_check_id { ZP_CHECKS(ZP_CHECK_ID) ZP_CK_COUNT } zp_check_id;
#undef ZP_CHECK_ID

/* The order named's loader reads the records in (check/load.c): as the file has them (the
 * written zone), as the file has them with each $GENERATE record alone (named reads the file
 * itself: --named-conf), or each RRset whole and each record once (--sort). */
enum { ZP_LOAD_WRITTEN, ZP_LOAD_SERVED, ZP_LOAD_SORTED };

/* --dnssec: verify signatures when the zone is signed (auto), always, or never */
enum { ZP_DNSSEC_AUTO, ZP_DNSSEC_ON, ZP_DNSSEC_OFF };

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
} zp_check_options;

void zp_check_defaults(zp_check_options *o);
/* Applies one -W argument naming a check: "NAME" (on, at its default level unless it is
 * already an error), "no-NAME" (off), "error=NAME" (an error). false: no such check. */
bool zp_check_option(zp_check_options *o, const char *arg);
/* A check's name, default level and one line on what it finds (for --help). */
const char *zp_check_name(zp_check_id id);
zp_check_level zp_check_default(zp_check_id id);
const char *zp_check_what(zp_check_id id);

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
