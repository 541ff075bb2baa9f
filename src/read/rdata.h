/* rdata.h -- the RDATA family (rdata_*.c): RDATA from presentation form, or RFC 3597 form, to
 * checked wire form, one strict reader per field kind */
#ifndef ZP_RDATA_H
#define ZP_RDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idna/status.h"
#include "name.h"
#include "zone.h"
#include "record/record.h"

/* What is wrong, and where: the field's index (nfields: the record as a whole, e.g. a field
 * missing) and a byte offset in its text, or ZP_RDATA_FIELD for the field as a whole. */
#define ZP_RDATA_FIELD SIZE_MAX
typedef struct zp_rdata_error {
  size_t field;
  size_t offset;
  char msg[4096];
} zp_rdata_error;

typedef struct zp_rdata_in {
  uint16_t type;
  const zp_field *fields;   /* the RDATA tokens as written (escapes not resolved) */
  size_t nfields;
  const uint8_t *origin;    /* for relative names; NULL: none */
  /* the label policy of RDATA names: the types whose names DNSSEC's canonical form lowercases
   * (zp_rrtype_lowercases) get lower, the others keep */
  const zp_label_conv *lower, *keep;
  /* NULL, or told each warning of the label policy about an RDATA name: where (a field and an
   * offset in it, as zp_rdata_error has them) and the message */
  void (*warn)(void *user, size_t field, size_t offset, const char *msg);
  void *user;
  bool opaque;   /* the type has no format in the record's class (zp_rrtype_in_class): its
                    RFC 3597 octets are taken as they are, as an unknown type's */
  bool *relative;   /* NULL, or set when a name of the RDATA was written relative (completed
                       with origin, RFC 1035 section 5.1); left as it is otherwise */
} zp_rdata_in;

/* Parses the RDATA of in->type (a type zp_rrtype_reads_text takes), field by field as
 * zp_rrtype_kinds lists them, into out[0..ZP_RDATA_MAX); *len is its length. ZP_OK, or a
 * status with *err filled. */
ZP_NODISCARD zp_status zp_rdata_parse(const zp_rdata_in *in, uint8_t *out, size_t *len,
                                      zp_rdata_error *err);

/* Whether the RDATA fields are in RFC 3597 form: "\\#" unquoted, first. In TXT, "\\#" alone or
 * before anything but a length (a decimal number up to 4294967295, unquoted) is the text "#",
 * as BIND reads it (so "TXT \\#" and "TXT \\# abc" are text, "TXT \\# 1 00" is not). */
bool zp_rdata_generic_form(uint16_t type, const zp_field *fields, size_t nfields);
static inline bool zp_rdata_is_generic(uint16_t type, const zp_field *fields, size_t nfields)
{
  /* (asked of every record: the first test inline) */
  return nfields > 0 && fields[0].len == 2 && fields[0].text[0] == '\\' &&
         zp_rdata_generic_form(type, fields, nfields);
}

/* RFC 3597 section 5 generic RDATA, "\\#" (fields[0]), its length and hex in any number of
 * fields, into out[0..ZP_RDATA_MAX). For a type zonepuny checks (zp_rrtype_kinds) the octets
 * are checked field by field as its text would be (uncompressed names, section 4) and its names
 * go through the label policy: the result is that type's wire form like zp_rdata_parse's. Other
 * types' octets are taken as they are. */
ZP_NODISCARD zp_status zp_rdata_generic(const zp_rdata_in *in, uint8_t *out, size_t *len,
                                        zp_rdata_error *err);

/* Where err is, for a message: inside the field it names, or at the record. */
zp_loc zp_rdata_error_loc(const zp_rdata_error *err, const zp_record *rec);

/* RFC 4034 section 3.2's date and time, YYYYMMDDHHmmSS in UTC, a real one (no 31 April), as
 * seconds since 1970 in *secs. False when text[0..len) is none; *bad is then the offset of the
 * first octet that is no digit, or len when the digits make no date. */
bool zp_rdata_date(const char *text, size_t len, int64_t *secs, size_t *bad);

/* TTL syntax (RFC 2308 $TTL, BIND's units): a decimal number, or numbers each followed by a unit
 * s, m, h, d or w in any case ("1h30m"), at most max. */
bool zp_period_parse(const char *text, size_t len, uint32_t max, uint32_t *value);

#endif
