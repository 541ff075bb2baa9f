/* rrtype.h -- RR types and classes: one table of mnemonics and numbers, read by both sides */
#ifndef ZP_RRTYPE_H
#define ZP_RRTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
  ZP_TYPE_SOA = 6,           /* RFC 1035 section 3.2.2 */
  ZP_CLASS_IN = 1,
  ZP_RRTYPE_TEXT_MAX = 16,   /* room for any mnemonic, "TYPE65535" or "CLASS65535", and a NUL */
};

/* A type mnemonic in any case ("A", "aaaa") or RFC 3597's TYPEnnn (decimal, 0 to 65535) to its
 * number. False for anything else. */
bool zp_rrtype_from_text(const char *text, size_t len, uint16_t *type);
/* The same for classes: IN, CH, HS, NONE, ANY, or CLASSnnn. */
bool zp_rrclass_from_text(const char *text, size_t len, uint16_t *rclass);

/* Types and classes that only questions and transactions carry, never a zone (RFC 6895
 * sections 3.1 and 3.2): OPT and 128-255 (AXFR, ANY, TSIG ...), and the reserved type 0;
 * classes NONE and ANY. */
bool zp_rrtype_is_meta(uint16_t type);
bool zp_rrclass_is_meta(uint16_t rclass);

/* Whether the RDATA names of a type are lowercased in DNSSEC's canonical form: the types RFC 4034
 * section 6.2 lists, less NSEC (RFC 6840 section 5.1). Other RDATA names keep their case. */
bool zp_rrtype_lowercases(uint16_t type);

/* The mnemonic of a type, or TYPEnnn written into buf when it has none. Static storage or buf. */
const char *zp_rrtype_name(uint16_t type, char buf[ZP_RRTYPE_TEXT_MAX]);
/* The mnemonic of a class, or CLASSnnn written into buf. */
const char *zp_rrclass_name(uint16_t rclass, char buf[ZP_RRTYPE_TEXT_MAX]);

#endif
