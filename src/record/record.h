/* record.h -- a record as every stage holds it: read from text, in wire form, with where it was
 * written; and the limits every stage holds a record to */
#ifndef ZP_RECORD_H
#define ZP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "rrtype.h"
#include "wire_name.h"

enum { ZP_RDATA_MAX = 65535 };   /* octets of RDATA: its length is 16 bits (RFC 1035 3.2.1) */

/* What named loads of an RRset: its records' RDATA, with 2 octets more for each one (its
 * length; 3 for an RRSIG), at most the 65512 octets a DNS message of 65535 holds past its
 * header (12), the root owner (1) and one record's type, class, TTL and RDLENGTH (10): BIND's
 * DNS_RDATA_MAXLENGTH, held when it loads a zone ("ran out of space"). So one record's RDATA is
 * at most 65510 octets (an RRSIG's 65509); the reader holds each record to that, the whole-zone
 * checks each RRset (-Wrrset-size). */
enum { ZP_RRSET_LOAD_MAX = 65512 };
/* The octets a record of the type counts for in that sum: rdlen, and 2 (3 for an RRSIG). */
static inline size_t zp_rdata_load_cost(uint16_t type, size_t rdlen)
{
  return rdlen + (type == ZP_TYPE_RRSIG ? 3u : 2u);
}
/* The words that say why, after "... octets" in a message. */
#define ZP_RRSET_LOAD_WHY                                                                      \
  "named loads no RRset over 65512 octets of RDATA and 2-octet lengths (3 for an RRSIG), what " \
  "a DNS message of 65535 octets holds past its header, the root owner and a record's type, "  \
  "class, TTL and length"

/* One RDATA token as written: quotes removed, escapes not yet resolved (the consumer knows
 * whether the field is a name or text). Borrowed: valid during the callback only. */
typedef struct zp_field {
  const char *text;
  size_t len;
  bool quoted;
  bool joined;   /* written right after the field before it, with no blank between: the
                    quoted value of an SVCB parameter, key="value" (RFC 9460 section 2.1) */
  zp_loc loc;
} zp_field;

typedef struct zp_record {
  zp_loc loc;               /* of the record's first token (owner, or first field if blank) */
  const uint8_t *owner;     /* wire form, labels through the zone options' label policy */
  const uint8_t *spelling;  /* the owner as written, in wire form, where a label of it is not
                               the same name before and after IDNA (straße, BÜCHER, fullwidth
                               letters): such labels raw, escapes resolved, the others as
                               converted; NULL when the owner is its converted name but for
                               ASCII case */
  const uint8_t *origin;    /* wire form: the origin in force, to complete relative RDATA names */
  bool relative;            /* a name of the RDATA was written relative, completed with origin
                               ("@" too): a check that finds its target wanting says so, for a
                               name of several labels, as a final dot likely forgotten */
  uint32_t ttl;
  uint16_t rclass, rtype;
  bool generic;             /* RDATA in RFC 3597 form: fields are "\#", length, hex... */
  bool generated;           /* made by $GENERATE */
  uint64_t owner_case;      /* the owner's ASCII capitals as written, origin included: a hash
                               of its name keeping case, 0 when it has none (named's loader
                               tells owners apart by case; zonepuny's owners are lowercased) */
  const uint8_t *rdata;     /* RDATA in wire form (rdata_text.c): for a type zonepuny parses, every
                               field checked and names through the label policy; for RFC 3597
                               form (generic), the octets as written. NULL for the other types:
                               the fields are then the writer's to read */
  size_t rdlen;
  size_t nfields;
  const zp_field *fields;
} zp_record;

#endif
