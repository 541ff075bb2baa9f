/* format.h -- presentation format: names, RDATA fields, whole records, as ldns writes them where
 * ldns is right */
#ifndef ZP_FORMAT_H
#define ZP_FORMAT_H

#include <ldns/ldns.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "idna/status.h"
#include "idna/wire.h"

/* One record's line being written, and ldns's own text for what is formatted by ldns. */
typedef struct zp_format {
  zp_buf line;
  ldns_buffer *text;
  bool unicode;         /* --unicode: ACE labels shown through ToUnicode, for human review */
  bool idna2008;        /* ... IDNA2008's ToUnicode (--idna=2008), else IDNA2003's */
} zp_format;

/* False when out of memory; zp_format_free releases what init took, even then. */
bool zp_format_init(zp_format *fm, bool unicode, bool idna2008);
void zp_format_free(zp_format *fm);

/* Starts fm->line afresh with owner, TTL, class and type as ldns_rr2buffer_str writes them. */
bool zp_format_head(zp_format *fm, const uint8_t *owner, uint32_t ttl, uint16_t rclass,
                    uint16_t type);
/* The whole line of a record in RFC 3597 form, "TYPEnnn \\# len hex" (section 5), newline
 * included, into fm->line; false when out of memory. */
bool zp_format_generic(zp_format *fm, const uint8_t *owner, uint32_t ttl, uint16_t rclass,
                       uint16_t type, const uint8_t *rdata, size_t rdlen);
/* Appends one RDATA field in wire form d[0..n) of kind t, after a tab (the first field) or a
 * space. Only for the kinds formatted here (names, addresses, integers, times, strings, hex,
 * base64, CAA tags, WKS, ATMA, AMTRELAY, SVCB parameters): false for any other, or when out of
 * memory. */
bool zp_format_field(zp_format *fm, ldns_rdf_type t, const uint8_t *d, size_t n, bool first);
/* The whole line of rr, newline included, into fm->line (ZP_ENOMEM). */
zp_status zp_format_rr(zp_format *fm, const ldns_rr *rr);

#endif
