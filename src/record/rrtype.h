/* rrtype.h -- RR types and classes: one table of mnemonics and numbers, read by both sides */
#ifndef ZP_RRTYPE_H
#define ZP_RRTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X(ID, mnemonic, number, flags, field kinds): the one table of types, in the order rrtype.c
 * scans it (the types that make up nearly every zone first, then the rest in number order;
 * last, those BIND 9.18 reads and ldns 1.8 does not: read as BIND reads them, text or RFC 3597
 * form, and written in RFC 3597 form; UINFO, UID, GID and UNSPEC, which BIND reads in no other
 * form and whose octets it does not check, not checked either). The flags (LC, G, N, I) and
 * the lists of field kinds (k_...) are rrtype.c's; every other file takes the names ZP_TYPE_ID
 * from it. */
#define ZP_RRTYPES(X)                                                                             \
  X(A, "A", 1, I, k_a) X(AAAA, "AAAA", 28, I, k_aaaa) X(NS, "NS", 2, LC, k_ns)                    \
  X(CNAME, "CNAME", 5, LC, k_ns) X(MX, "MX", 15, LC, k_mx) X(TXT, "TXT", 16, 0, k_txt)            \
  X(SOA, "SOA", 6, LC, k_soa) X(PTR, "PTR", 12, LC, k_ns) X(SRV, "SRV", 33, LC|I, k_srv)          \
  X(CAA, "CAA", 257, 0, k_caa) X(DS, "DS", 43, 0, k_ds) X(RRSIG, "RRSIG", 46, LC, k_rrsig)        \
  X(DNSKEY, "DNSKEY", 48, 0, k_dnskey) X(NSEC, "NSEC", 47, 0, k_nsec)                             \
  X(MD, "MD", 3, LC|G, k_ns) X(MF, "MF", 4, LC|G, k_ns) X(MB, "MB", 7, LC|G, k_ns)                \
  X(MG, "MG", 8, LC|G, k_ns) X(MR, "MR", 9, LC|G, k_ns) X(NULL, "NULL", 10, G, NULL)              \
  X(WKS, "WKS", 11, G|I, k_wks) X(HINFO, "HINFO", 13, LC, k_hinfo)                                \
  X(MINFO, "MINFO", 14, LC, k_minfo) X(RP, "RP", 17, LC, k_minfo)                                 \
  X(AFSDB, "AFSDB", 18, LC, k_mx) X(X25, "X25", 19, G, k_x25) X(ISDN, "ISDN", 20, G, k_isdn)      \
  X(RT, "RT", 21, LC, k_mx) X(NSAP, "NSAP", 22, G|I, k_nsap)                                      \
  X(NSAP_PTR, "NSAP-PTR", 23, G|I, k_ns) X(SIG, "SIG", 24, LC|G, k_rrsig)                         \
  X(KEY, "KEY", 25, G, k_key) X(PX, "PX", 26, LC|G|I, k_px) X(GPOS, "GPOS", 27, G, k_gpos)        \
  X(LOC, "LOC", 29, 0, k_loc) X(NXT, "NXT", 30, LC|G, k_nxt) X(EID, "EID", 31, G|I, k_hex)        \
  X(NIMLOC, "NIMLOC", 32, G|I, k_hex) X(ATMA, "ATMA", 34, G|I, k_atma)                            \
  X(NAPTR, "NAPTR", 35, LC, k_naptr) X(KX, "KX", 36, LC|I, k_mx) X(CERT, "CERT", 37, 0, k_cert)   \
  X(A6, "A6", 38, LC|N|I, k_a6) X(DNAME, "DNAME", 39, LC, k_ns) X(SINK, "SINK", 40, N, k_sink)    \
  X(OPT, "OPT", 41, 0, NULL) X(APL, "APL", 42, I, k_apl) X(SSHFP, "SSHFP", 44, 0, k_sshfp)        \
  X(IPSECKEY, "IPSECKEY", 45, 0, k_ipseckey) X(DHCID, "DHCID", 49, I, k_dhcid)                    \
  X(NSEC3, "NSEC3", 50, 0, k_nsec3) X(NSEC3PARAM, "NSEC3PARAM", 51, 0, k_nsec3param)              \
  X(TLSA, "TLSA", 52, 0, k_tlsa) X(SMIMEA, "SMIMEA", 53, 0, k_tlsa) X(HIP, "HIP", 55, G, k_hip)   \
  X(TALINK, "TALINK", 58, G, k_minfo) X(CDS, "CDS", 59, 0, k_ds)                                  \
  X(CDNSKEY, "CDNSKEY", 60, 0, k_dnskey) X(OPENPGPKEY, "OPENPGPKEY", 61, 0, k_dhcid)              \
  X(CSYNC, "CSYNC", 62, 0, k_csync) X(ZONEMD, "ZONEMD", 63, 0, k_zonemd)                          \
  X(SVCB, "SVCB", 64, I, k_svcb) X(HTTPS, "HTTPS", 65, I, k_svcb) X(SPF, "SPF", 99, 0, k_txt)     \
  X(NID, "NID", 104, 0, k_l64) X(L32, "L32", 105, 0, k_l32) X(L64, "L64", 106, 0, k_l64)          \
  X(LP, "LP", 107, 0, k_mx) X(EUI48, "EUI48", 108, 0, k_eui48)                                    \
  X(EUI64, "EUI64", 109, 0, k_eui64) X(TKEY, "TKEY", 249, 0, NULL)                                \
  X(TSIG, "TSIG", 250, 0, NULL) X(IXFR, "IXFR", 251, 0, NULL) X(AXFR, "AXFR", 252, 0, NULL)       \
  X(MAILB, "MAILB", 253, 0, NULL) X(MAILA, "MAILA", 254, 0, NULL) X(ANY, "ANY", 255, 0, NULL)     \
  X(URI, "URI", 256, 0, k_uri) X(AMTRELAY, "AMTRELAY", 260, G, k_amtrelay)                        \
  X(DLV, "DLV", 32769, G, k_ds)                                                                   \
  X(NINFO, "NINFO", 56, N, k_txt) X(RKEY, "RKEY", 57, N, k_dnskey)                                \
  X(DSYNC, "DSYNC", 66, N, k_dsync) X(HHIT, "HHIT", 67, N, k_dhcid)                               \
  X(BRID, "BRID", 68, N, k_dhcid) X(UINFO, "UINFO", 100, 0, NULL) X(UID, "UID", 101, 0, NULL)     \
  X(GID, "GID", 102, 0, NULL) X(UNSPEC, "UNSPEC", 103, 0, NULL) X(AVC, "AVC", 258, N, k_txt)      \
  X(DOA, "DOA", 259, N, k_doa) X(RESINFO, "RESINFO", 261, N, k_txt)                               \
  X(WALLET, "WALLET", 262, N, k_txt) X(TA, "TA", 32768, N, k_ds)

#define ZP_TYPE_ENUM(id, name, num, flags, kinds) ZP_TYPE_##id = num,
enum { ZP_RRTYPES(ZP_TYPE_ENUM) };
#undef ZP_TYPE_ENUM

/* X(ID, mnemonic, number): the classes (RFC 1035 section 3.2.4, RFC 2136 section 1.3 for NONE) */
#define ZP_RRCLASSES(X) X(IN, "IN", 1) X(CH, "CH", 3) X(HS, "HS", 4) X(NONE, "NONE", 254) \
  X(ANY, "ANY", 255)
#define ZP_CLASS_ENUM(id, name, num) ZP_CLASS_##id = num,
enum { ZP_RRCLASSES(ZP_CLASS_ENUM) };
#undef ZP_CLASS_ENUM

enum { ZP_RRTYPE_TEXT_MAX = 16 };   /* room for any mnemonic, "TYPE65535" or "CLASS65535", and a
                                       NUL */

/* The kinds of RDATA field. Each layer that handles RDATA keeps one table of its operations on
 * them (the reader: text and RFC 3597 wire form; the writer: field length and form), built from
 * this list by name, so that a kind without one of its layer's operations does not compile. */
#define ZP_KINDS(X) \
  X(NAME)           /* a domain name, RFC 1035 section 3.3 */ \
  X(INT8) X(INT16) X(INT32) /* unsigned decimal, in range */ \
  X(PERIOD)         /* 32 bits in TTL syntax, units allowed (SOA timers) */ \
  X(A)              /* IPv4 address, RFC 1035 section 3.4.1 */ \
  X(AAAA)           /* IPv6 address, RFC 3596 */ \
  X(STRING)         /* one character-string, RFC 1035 section 3.3 */ \
  X(OPT_STRING)     /* the same, or nothing (ISDN's subaddress) */ \
  X(STRINGS)        /* one or more character-strings, to the end */ \
  X(OCTETS)         /* one field as octets without a length (RFC 8659 CAA value) */ \
  X(TARGET)         /* the same, quoted and not empty (RFC 7553 URI target, as BIND and \
                       dnspython read it) */ \
  X(HEX)            /* base16 to the end, blanks allowed between pieces, even length */ \
  X(BASE64)         /* base64 to the end, RFC 4648 section 4, blanks allowed between pieces */ \
  X(BASE64_0)       /* the same, or nothing at all (SINK's data, as BIND reads it) */ \
  X(BASE64_DASH)    /* the same, or "-" for no octets (DOA's data, as BIND reads it) */ \
  X(ALG)            /* a DNSSEC algorithm: number or mnemonic, 8 bits */ \
  X(TYPE)           /* a type: mnemonic or TYPEnnn, 16 bits */ \
  X(TYPE_NUM)       /* the same, or a decimal number (DSYNC's RRtype, as BIND reads it) */ \
  X(SCHEME)         /* DSYNC's scheme: NOTIFY or a number, 8 bits (as BIND reads it) */ \
  X(TIME)           /* RFC 4034 section 3.2: YYYYMMDDHHmmSS or seconds, 32 bits */ \
  X(BITMAP)         /* RFC 4034 section 4.1.2 type bitmap, to the end, at least one type */ \
  X(BITMAP0)        /* the same, which may be empty (NSEC3 and CSYNC, as BIND reads them) */ \
  X(SALT)           /* RFC 5155 section 3.3: length octet, hex or "-" */ \
  X(HASH)           /* RFC 5155 section 3.3: length octet, base32hex without padding */ \
  X(TAG)            /* RFC 8659 section 4.1: length octet, letters and digits */ \
  X(EUI48) X(EUI64) /* RFC 7043: hex pairs with '-' */ \
  X(ILNP64)         /* RFC 6742: four groups of hex with ':' */ \
  X(CERT_TYPE)      /* RFC 4398 section 2.1: number or mnemonic (PKIX, PGP, URI ...), 16 bits */ \
  X(APL)            /* RFC 3123 address prefixes, to the end, none or more */ \
  X(LOC)            /* RFC 1876 section 3: latitude, longitude, altitude, size, precisions */ \
  X(GATEWAY)        /* RFC 4025 section 2: gateway type, algorithm, and the gateway its type \
                       says (none ".", IPv4, IPv6 or a domain name) */ \
  X(SVCPARAMS)      /* RFC 9460 section 2.1: SVCB and HTTPS parameters, to the end */ \
  X(KEYDATA)        /* RFC 2535 section 3.1: KEY's key in base64, none when its flags say so */ \
  X(WKS)            /* RFC 1035 section 3.4.2: protocol and services, to the end */ \
  X(NSAP)           /* RFC 1706 section 5: "0x" and hex, '.' between digits */ \
  X(ATMA)           /* ATM address: "+" and E.164 digits, or an AESA in hex */ \
  X(GPOS)           /* RFC 1712 section 3: latitude, longitude, altitude as strings */ \
  X(HIP)            /* RFC 8005 section 4: algorithm, HIT, key, rendezvous servers */ \
  X(AMTRELAY)       /* RFC 8777 section 4.2: D bit, relay type, relay */ \
  X(NXTBITMAP)      /* RFC 2535 section 5.2: NXT's type bitmap, types 1 to 127, to the end */ \
  X(A6)             /* RFC 2874 section 3.1: prefix length, address suffix, prefix name */
typedef enum zp_kind {
  ZP_K_END,   /* the end of a type's list */
#define ZP_KIND_ENUM(id) ZP_K_##id,
  ZP_KINDS(ZP_KIND_ENUM)
#undef ZP_KIND_ENUM
  ZP_K_COUNT
} zp_kind;

/* The kinds of a type's RDATA fields, in order, ended by ZP_K_END; NULL for a type zonepuny
 * does not check. */
const uint8_t *zp_rrtype_kinds(uint16_t type);
/* The name its RFC gives field i (by zp_rrtype_kinds) of the type, for messages ("exchange"),
 * into buf; NULL where none is kept. */
const char *zp_rrtype_field_name(uint16_t type, size_t i, char buf[ZP_RRTYPE_TEXT_MAX * 4]);
/* Whether the type's fields (zp_rrtype_kinds) are its RDATA in class rclass. BIND defines some
 * types for class IN only (RFC 3596's AAAA, RFC 2782's SRV, RFC 9460's SVCB and HTTPS, WKS, APL,
 * DHCID ...: its in_1 types), and reads them in another class only in RFC 3597 form, as types it
 * does not know; A is IN's and HS's (RFC 1035 section 3.4.1), and a Chaosnet address in CH. */
bool zp_rrtype_in_other_class(uint16_t type, uint16_t rclass);
static inline bool zp_rrtype_in_class(uint16_t type, uint16_t rclass)
{
  return rclass == ZP_CLASS_IN || zp_rrtype_in_other_class(type, rclass);   /* (every record) */
}
/* Whether zonepuny reads the type's text: every type whose fields it knows (zp_rrtype_kinds).
 * The others (NULL, UINFO, UID, GID, UNSPEC, types outside the table) are read in RFC 3597 form
 * only, and written as they came. */
bool zp_rrtype_reads_text(uint16_t type);

/* A type mnemonic in any case ("A", "aaaa") or RFC 3597's TYPEnnn (decimal, 0 to 65535) to its
 * number. False for anything else. */
bool zp_rrtype_from_text(const char *text, size_t len, uint16_t *type);
/* The same for classes: IN, CH, HS, NONE, ANY, or CLASSnnn. */
bool zp_rrclass_from_text(const char *text, size_t len, uint16_t *rclass);

/* For a word that is no type (class): the mnemonic one or two typing slips away from it, to
 * suggest ("CNMAE": CNAME), or NULL. */
const char *zp_rrtype_nearest(const char *text, size_t len);
const char *zp_rrclass_nearest(const char *text, size_t len);

/* Types and classes that only questions and transactions carry, never a zone (RFC 6895
 * sections 3.1 and 3.2): OPT and 128-255 (AXFR, ANY, TSIG ...), and the reserved type 0;
 * classes NONE and ANY. */
bool zp_rrtype_is_meta(uint16_t type);
bool zp_rrclass_is_meta(uint16_t rclass);

/* Whether the RDATA names of a type are lowercased in DNSSEC's canonical form: the types RFC 4034
 * section 6.2 lists, less NSEC (RFC 6840 section 5.1). Other RDATA names keep their case. */
bool zp_rrtype_lowercases(uint16_t type);

/* The types written in RFC 3597 form ("TYPEnnn \\# len hex") unless the user says otherwise,
 * a bit per type (the high bit of octet 0 is type 0): the types whose text form Knot 3.2 does
 * not read (MD, PX, NULL, WKS, HIP ...), and those of zp_rrtype_generic_always. */
void zp_rrtype_generic_default(uint8_t set[65536 / 8]);
/* Adds to set the types written in RFC 3597 form whatever the user says: those whose text BIND
 * 9.18 reads and ldns 1.8, NSD 4.6 and Knot 3.2 do not (NINFO, RKEY, DSYNC ... TA), or read
 * otherwise (A6, SINK). */
void zp_rrtype_generic_always(uint8_t set[65536 / 8]);
/* The types a run writes in RFC 3597 form: given (--generic; NULL: zp_rrtype_generic_default),
 * and zp_rrtype_generic_always's. */
void zp_rrtype_generic_set(const uint8_t *given, uint8_t set[65536 / 8]);

/* SVCB and HTTPS parameter keys, as the IANA registry "DNS SVCB Service Parameter Keys" lists
 * them: RFC 9460 section 14.3.2, RFC 9461 (dohpath), RFC 9540 (ohttp),
 * draft-ietf-tls-key-share-prediction (tls-supported-groups), RFC 9953 (docpath),
 * draft-ietf-intarea-proxy-config (pvd). Key 12, "oots" in NSD 4.15, is in no registry
 * (draft-johani-dnsop-svcb-oots asks for one): zonepuny reads it as key12, octets. */
enum {
  ZP_SVC_MANDATORY, ZP_SVC_ALPN, ZP_SVC_NO_DEFAULT_ALPN, ZP_SVC_PORT, ZP_SVC_IPV4HINT,
  ZP_SVC_ECH, ZP_SVC_IPV6HINT, ZP_SVC_DOHPATH, ZP_SVC_OHTTP, ZP_SVC_TLS_GROUPS, ZP_SVC_DOCPATH,
  ZP_SVC_PVD,
};
/* A key's registered name or keyNNNNN (decimal, no leading zero) to its number; false for
 * anything else, upper case included (RFC 9460 section 2.1). */
bool zp_svckey_from_text(const char *text, size_t len, uint16_t *key);
/* The key as every server reads it back: its name up to ipv6hint (BIND 9.18, NSD 4.6 and
 * Knot 3.2 know no later name), keyNNNNN written into buf for the rest. */
const char *zp_svckey_name(uint16_t key, char buf[ZP_RRTYPE_TEXT_MAX]);

/* The document that defines type, as IANA's registry of RR types cites it ("RFC 3596"), or
 * NULL for a type zonepuny does not know. */
const char *zp_rrtype_spec(uint16_t type);
/* The mnemonic of a type, or TYPEnnn written into buf when it has none. Static storage or buf. */
const char *zp_rrtype_name(uint16_t type, char buf[ZP_RRTYPE_TEXT_MAX]);
/* The name a type goes by inside RDATA (RRSIG's type covered; the NSEC, NSEC3, CSYNC and NXT
 * type lists): its mnemonic where its own records are written as text by default, TYPEnnn
 * written into buf for the rest, which Knot 3.2 does not read there by name (WKS, SIG, HIP,
 * NULL, the meta types ...). Every reader takes TYPEnnn (RFC 3597 section 5). */
const char *zp_rrtype_list_name(uint16_t type, char buf[ZP_RRTYPE_TEXT_MAX]);
/* The mnemonic of a class, or CLASSnnn written into buf. */
const char *zp_rrclass_name(uint16_t rclass, char buf[ZP_RRTYPE_TEXT_MAX]);

#endif
