/* rdata_int.h -- what the RDATA readers share; not public. Three layers, each calling only the
 * ones below it:
 *   the dispatchers  rdata_text.c (text RDATA) and rdata_wire.c (RFC 3597 "\\#" RDATA): each a table
 *                    of one reader per field kind (record/rrtype.h's ZP_KINDS), walked along the
 *                    type's kinds; neither calls the other
 *   the kinds        rdata_dnssec.c, rdata_place.c, rdata_svcb.c, rdata_legacy.c: none calls
 *                    another
 *   the primitives   rdata_field.c: calls no other rdata file */
#ifndef ZP_RDATA_INT_H
#define ZP_RDATA_INT_H

#include "record/rrtype.h"
#include "rdata.h"

/* One record's RDATA being read: its fields, where the reader stands, the wire form so far. */
typedef struct zp_rd zp_rd;

/* How text RDATA takes a field kind: rdata_text.c's table holds one row for each. */
enum { ZP_RD_QUOTED = 1,     /* its fields may be quoted: character-strings, or values that
                                are (SVCB's) */
       ZP_RD_OPTIONAL = 2,   /* it may have no field at all */
};
typedef struct zp_rd_text_op {
  bool (*read)(zp_rd *r);
  uint8_t flags;
} zp_rd_text_op;

struct zp_rd {
  const zp_rdata_in *in;
  const zp_label_conv *conv;   /* for the RDATA names of this type */
  size_t fi;                   /* the next field */
  const uint8_t *kind;         /* the field kind being read (zp_rrtype_kinds); NULL in wire
                                  form */
  const zp_rd_text_op *ops;    /* rdata_text.c's table, indexed by kind */
  uint8_t *out;
  size_t n;
  size_t max;                  /* of out: the most RDATA named loads in one record of the type */
  zp_rdata_error *err;
  char tb[ZP_RRTYPE_TEXT_MAX];
  const char *tname;           /* the type's mnemonic, for messages */
};

/* ---- The primitives (rdata_field.c; zp_period_parse, in rdata.h, is there too) ---- */

/* Reports what is wrong at a field (an index, offset in its text or ZP_RDATA_FIELD); false. */
ZP_PRINTF(4, 5) bool zp_rd_fail(zp_rd *r, size_t field, size_t offset, const char *fmt, ...);
/* Appends octets to the wire form; false (reported) past r->max. */
bool zp_rd_put(zp_rd *r, const void *p, size_t n);
/* Reports RDATA longer than r->max at field fi (for a reader that fills out itself); false. */
bool zp_rd_too_long(zp_rd *r, size_t fi);
/* r->max for a record of the type: what named loads (ZP_RRSET_LOAD_MAX less the record's own
 * count). */
size_t zp_rd_max(uint16_t type);
bool zp_rd_put_u8(zp_rd *r, uint32_t v);
bool zp_rd_put_u16(zp_rd *r, uint32_t v);
bool zp_rd_put_u32(zp_rd *r, uint32_t v);
/* The next field, or false (reported) when the record has no more or it is quoted where no
 * character-string may be. */
bool zp_rd_next(zp_rd *r, const zp_field **f);
/* The next field as a plain decimal from 0 to max, into *v; else reported as not what (NULL:
 * "a number from 0 to max"). */
bool zp_rd_number(zp_rd *r, uint64_t max, uint64_t *v, const char *what);
/* A plain decimal from 0 to max (no sign, no blank). */
bool zp_rd_digits(const zp_field *f, uint64_t max, uint64_t *v);
/* A mnemonic of a numbered registry (DNSSEC algorithms, certificate types). */
typedef struct zp_rd_name {
  uint16_t num;
  char name[20];
} zp_rd_name;
/* A plain decimal up to max, or one of names[0..n) in any case. */
bool zp_rd_number_or_name(const zp_field *f, uint64_t max, const zp_rd_name *names, size_t n,
                          uint64_t *v);
/* Text with RFC 1035 section 5.1 escapes resolved (the scanner has checked them: \\DDD is three
 * digits up to 255): the first cap octets go to out; returns how many in all. */
size_t zp_rd_unescape(const char *text, size_t len, uint8_t *out, size_t cap);
/* Base64 (RFC 4648 section 4) fed a piece at a time, text[0..len) of field fi from offset at:
 * groups of four characters, '=' only to pad the last group, the bits it drops zero (section
 * 3.5); the end has a whole group and at least one octet. */
typedef struct zp_b64 {
  uint32_t acc;
  unsigned have, pad;
  size_t octets;
} zp_b64;
bool zp_rd_b64_feed(zp_rd *r, zp_b64 *s, const char *text, size_t len, size_t fi, size_t at);
bool zp_rd_b64_end(zp_rd *r, const zp_b64 *s, size_t fi, size_t at);
/* A hex digit's value, or -1. */
int zp_rd_hexval(char c);
/* A domain name through the type's label policy; an IPv4 (AF_INET) or IPv6 address; base64 in
 * every field to the end. */
bool zp_rd_dname(zp_rd *r);
bool zp_rd_address(zp_rd *r, int af);
bool zp_rd_base64(zp_rd *r);
/* The same, or no octets at all: no field left when none is NULL, else the one field none. */
bool zp_rd_base64_or_none(zp_rd *r, const char *none);
/* The gateway or relay a type number says (RFC 4025 section 3.1, RFC 8777 section 4.3): 0
 * none, written "." (none: the message when it is not), 1 IPv4, 2 IPv6, 3 a domain name. */
bool zp_rd_gateway(zp_rd *r, unsigned type, const char *none);
/* Hex digits of f->text[from..), two to an octet, an odd one carried in *half into the next
 * piece; '.' between them skipped when dots. */
bool zp_rd_hex_feed(zp_rd *r, const zp_field *f, size_t from, bool dots, int *half,
                    size_t *octets);
/* Base16 in the next field, or in every field to the end (rest): an even number of digits. */
bool zp_rd_hex(zp_rd *r, bool rest);
/* RFC 3597 RDATA that is not the type's: reported at "\\#", with why when there is more to say. */
bool zp_rd_invalid(zp_rd *r, const char *why);
/* A name in wire form at in[*pos..end), uncompressed (RFC 3597 section 4), each label through
 * the label policy. */
bool zp_rd_wire_name(zp_rd *r, const uint8_t *in, size_t end, size_t *pos);
/* The k octets at in[*pos..end) as they are, or reported when fewer are left. */
bool zp_rd_wire_copy(zp_rd *r, const uint8_t *in, size_t end, size_t *pos, size_t k);

/* ---- The kinds (called by the dispatchers only) ---- */

/* The DNSSEC field kinds (rdata_dnssec.c). */
bool zp_rd_algorithm(zp_rd *r);
/* A type's mnemonic or TYPEnnn; or, when number, a decimal number too (DSYNC's RRtype). */
bool zp_rd_type(zp_rd *r, bool number);
bool zp_rd_time(zp_rd *r);
bool zp_rd_bitmap(zp_rd *r, bool empty);
bool zp_rd_salt(zp_rd *r);
bool zp_rd_hash(zp_rd *r);
/* Addresses, prefixes and places (rdata_place.c). */
bool zp_rd_eui(zp_rd *r, size_t octets);
bool zp_rd_ilnp64(zp_rd *r);
bool zp_rd_apl(zp_rd *r);
bool zp_rd_loc(zp_rd *r);
bool zp_rd_ipseckey_gateway(zp_rd *r);
/* SVCB and HTTPS parameters (rdata_svcb.c): written, to the end of the record; or in wire form,
 * in[*pos..end), problems reported at field fi. */
bool zp_rd_svcparams(zp_rd *r);
bool zp_rd_svcparams_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos, size_t fi);
/* The kinds of old and rare types (rdata_legacy.c), A6 among them: written, or in wire form
 * in[*pos..end). */
bool zp_rd_keydata(zp_rd *r);
bool zp_rd_wks(zp_rd *r);
bool zp_rd_nsap(zp_rd *r);
bool zp_rd_atma(zp_rd *r);
bool zp_rd_gpos(zp_rd *r);
bool zp_rd_hip(zp_rd *r);
bool zp_rd_amtrelay(zp_rd *r);
bool zp_rd_nxt_bitmap(zp_rd *r);
bool zp_rd_a6(zp_rd *r);
bool zp_rd_keydata_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos);
bool zp_rd_wks_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos);
bool zp_rd_nsap_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos);
bool zp_rd_atma_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos);
bool zp_rd_gpos_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos);
bool zp_rd_hip_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos);
bool zp_rd_amtrelay_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos);
bool zp_rd_nxt_bitmap_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos);
bool zp_rd_a6_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos);

/* ---- The rules across fields (rdata_dnssec.c; called by the dispatchers only) ---- */

/* What a type's RFC says across fields (digest lengths, NAPTR's regexp, X25's digits), once the
 * RDATA is read: problems reported at the field they are in, or at field hexf of RFC 3597 RDATA
 * (SIZE_MAX: the RDATA was text). */
bool zp_rd_rules(zp_rd *r, size_t hexf);

#endif
