/* registry.h -- the named checks: their ids, -W names, default levels and what each finds;
 * named from any folder (the label policy tags its divergence warning with its name) */
#ifndef ZP_CHECK_REGISTRY_H
#define ZP_CHECK_REGISTRY_H

#include <stddef.h>

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
  X(ZP_CK_MIXED_SCRIPT, "mixed-script", ZP_LEVEL_WARNING,                                     \
    "a label of more scripts than UTS #39 allows, once a label")                               \
  X(ZP_CK_CONFUSABLE, "confusable", ZP_LEVEL_WARNING,                                         \
    "two names alike to the eye (UTS #39 skeletons), one not ASCII")                           \
  X(ZP_CK_OUT_OF_ZONE, "out-of-zone", ZP_LEVEL_WARNING, "data outside the zone")               \
  X(ZP_CK_OCCLUDED, "occluded", ZP_LEVEL_WARNING, "data at or below a delegation, never served") \
  X(ZP_CK_BELOW_DNAME, "below-dname", ZP_LEVEL_WARNING, "data below a DNAME, not served")      \
  X(ZP_CK_DS_PLACEMENT, "ds-placement", ZP_LEVEL_WARNING, "a DS record that is no delegation's") \
  X(ZP_CK_DNAME_NS, "dname-and-ns", ZP_LEVEL_WARNING, "DNAME beside NS below the apex")        \
  X(ZP_CK_TTL, "ttl-mismatch", ZP_LEVEL_WARNING, "one RRset with two TTLs (RFC 2181 5.2)")     \
  X(ZP_CK_DUPLICATE, "duplicate", ZP_LEVEL_WARNING, "the same record twice, both lines named") \
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
  X(ZP_CK_CAA, "caa", ZP_LEVEL_OFF, "CAA records as CAs read them (RFC 8659)")               \
  X(ZP_CK_MAIL, "mail", ZP_LEVEL_OFF, "SPF, DMARC and DKIM records as receivers read them")   \
  X(ZP_CK_REVERSE, "reverse", ZP_LEVEL_OFF,                                                   \
    "across a run's zones: an address without its PTR, a PTR without its address")            \
  X(ZP_CK_SERIAL_DATE, "serial-date", ZP_LEVEL_WARNING,                                        \
    "a YYYYMMDDnn serial dated ahead, or at nn 99")                                             \
  X(ZP_CK_SERIAL_SINCE, "serial-since", ZP_LEVEL_ERROR,                                        \
    "--since: records changed, the serial not raised")                                          \
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

/* What doc/checks.md says of a check (registry_help.c, generated from it): what it finds, as
 * text; with what BIND, Knot and NSD do, as text and as Markdown. */
typedef struct zp_check_doc {
  const char *name, *full, *help_text, *help_md;
} zp_check_doc;
extern const zp_check_doc zp_check_docs[];
extern const size_t zp_check_docs_n;
/* The check's, or NULL. */
const zp_check_doc *zp_check_doc_of(zp_check_id id);

/* A check's name, default level and one line on what it finds (for --help). */
const char *zp_check_name(zp_check_id id);
zp_check_level zp_check_default(zp_check_id id);
const char *zp_check_what(zp_check_id id);

#endif
