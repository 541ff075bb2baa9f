/* rrtype.c -- RR type and class mnemonics (IANA's DNS parameters registry; RFC 3597 for the
 * generic forms). The set is the one ldns knows, so that what the reader accepts the writer
 * can format; tests/test_rrtype.c proves the two agree on every number. */
#include "rrtype.h"

#include <stdio.h>

/* field kinds, short */
enum {
  K_END = ZP_K_END, K_NAME = ZP_K_NAME, K_INT8 = ZP_K_INT8, K_INT16 = ZP_K_INT16,
  K_INT32 = ZP_K_INT32, K_PERIOD = ZP_K_PERIOD, K_A = ZP_K_A, K_AAAA = ZP_K_AAAA,
  K_STRING = ZP_K_STRING, K_OPT_STRING = ZP_K_OPT_STRING, K_STRINGS = ZP_K_STRINGS,
  K_OCTETS = ZP_K_OCTETS, K_TARGET = ZP_K_TARGET, K_HEX = ZP_K_HEX, K_BASE64 = ZP_K_BASE64, K_ALG = ZP_K_ALG,
  K_TYPE = ZP_K_TYPE, K_TIME = ZP_K_TIME, K_BITMAP = ZP_K_BITMAP, K_BITMAP0 = ZP_K_BITMAP0, K_SALT = ZP_K_SALT,
  K_HASH = ZP_K_HASH, K_TAG = ZP_K_TAG, K_EUI48 = ZP_K_EUI48, K_EUI64 = ZP_K_EUI64,
  K_ILNP64 = ZP_K_ILNP64,
};

typedef struct mnemonic {
  uint16_t num;
  uint8_t len;
  bool lower;             /* its RDATA names are lowercased in canonical form */
  char name[11];
  const uint8_t *kinds;   /* its RDATA fields, ended by K_END; NULL: not parsed here */
} mnemonic;

#define M(num, name, kinds) {num, sizeof name - 1, false, name, kinds}
/* the types of RFC 4034 section 6.2, less NSEC (RFC 6840 section 5.1) */
#define L(num, name, kinds) {num, sizeof name - 1, true, name, kinds}

/* The fields of the types whose text zonepuny parses itself, from their RFCs (each list is
 * shared by the types named beside it). */
static const uint8_t k_a[] = {K_A, K_END};  /* A */
static const uint8_t k_ns[] = {K_NAME, K_END};  /* NS MD MF CNAME MB MG MR PTR DNAME NSAP-PTR */
static const uint8_t k_soa[] = {K_NAME, K_NAME, K_INT32, K_PERIOD, K_PERIOD, K_PERIOD, K_PERIOD,
                                K_END};  /* SOA */
static const uint8_t k_hinfo[] = {K_STRING, K_STRING, K_END};  /* HINFO */
static const uint8_t k_minfo[] = {K_NAME, K_NAME, K_END};  /* MINFO RP TALINK */
static const uint8_t k_mx[] = {K_INT16, K_NAME, K_END};  /* MX AFSDB RT KX LP */
static const uint8_t k_txt[] = {K_STRINGS, K_END};  /* TXT SPF */
static const uint8_t k_x25[] = {K_STRING, K_END};  /* X25 */
static const uint8_t k_isdn[] = {K_STRING, K_OPT_STRING, K_END};  /* ISDN */
static const uint8_t k_px[] = {K_INT16, K_NAME, K_NAME, K_END};  /* PX */
static const uint8_t k_aaaa[] = {K_AAAA, K_END};  /* AAAA */
static const uint8_t k_srv[] = {K_INT16, K_INT16, K_INT16, K_NAME, K_END};  /* SRV */
/* NAPTR */
static const uint8_t k_naptr[] = {K_INT16, K_INT16, K_STRING, K_STRING, K_STRING, K_NAME, K_END};
static const uint8_t k_ds[] = {K_INT16, K_ALG, K_INT8, K_HEX, K_END};  /* DS CDS DLV */
static const uint8_t k_sshfp[] = {K_INT8, K_INT8, K_HEX, K_END};  /* SSHFP */
static const uint8_t k_rrsig[] = {K_TYPE, K_ALG, K_INT8, K_INT32, K_TIME, K_TIME, K_INT16, K_NAME,
                                  K_BASE64, K_END};  /* RRSIG */
static const uint8_t k_nsec[] = {K_NAME, K_BITMAP, K_END};  /* NSEC */
static const uint8_t k_dnskey[] = {K_INT16, K_INT8, K_ALG, K_BASE64, K_END};  /* DNSKEY CDNSKEY */
static const uint8_t k_dhcid[] = {K_BASE64, K_END};  /* DHCID OPENPGPKEY */
/* NSEC3 */
static const uint8_t k_nsec3[] = {K_INT8, K_INT8, K_INT16, K_SALT, K_HASH, K_BITMAP0, K_END};
static const uint8_t k_nsec3param[] = {K_INT8, K_INT8, K_INT16, K_SALT, K_END};  /* NSEC3PARAM */
static const uint8_t k_tlsa[] = {K_INT8, K_INT8, K_INT8, K_HEX, K_END};  /* TLSA SMIMEA */
static const uint8_t k_csync[] = {K_INT32, K_INT16, K_BITMAP0, K_END};  /* CSYNC */
static const uint8_t k_zonemd[] = {K_INT32, K_INT8, K_INT8, K_HEX, K_END};  /* ZONEMD */
static const uint8_t k_l32[] = {K_INT16, K_A, K_END};  /* L32 */
static const uint8_t k_l64[] = {K_INT16, K_ILNP64, K_END};  /* L64 NID */
static const uint8_t k_eui48[] = {K_EUI48, K_END};  /* EUI48 */
static const uint8_t k_eui64[] = {K_EUI64, K_END};  /* EUI64 */
static const uint8_t k_uri[] = {K_INT16, K_INT16, K_TARGET, K_END};  /* URI */
static const uint8_t k_caa[] = {K_INT8, K_TAG, K_OCTETS, K_END};  /* CAA */

/* The types that make up nearly every zone first, then the rest in number order: both lookups
 * scan the table, and the reader and the writer ask once a record. */
static const mnemonic types[] = {
  M(1, "A", k_a), M(28, "AAAA", k_aaaa), L(2, "NS", k_ns), L(5, "CNAME", k_ns), L(15, "MX", k_mx),
  M(16, "TXT", k_txt), L(6, "SOA", k_soa), L(12, "PTR", k_ns), L(33, "SRV", k_srv),
  M(257, "CAA", k_caa), M(43, "DS", k_ds), L(46, "RRSIG", k_rrsig), M(48, "DNSKEY", k_dnskey),
  M(47, "NSEC", k_nsec),
  L(3, "MD", k_ns), L(4, "MF", k_ns), L(7, "MB", k_ns), L(8, "MG", k_ns), L(9, "MR", k_ns),
  M(10, "NULL", NULL), M(11, "WKS", NULL), L(13, "HINFO", k_hinfo), L(14, "MINFO", k_minfo),
  L(17, "RP", k_minfo), L(18, "AFSDB", k_mx), M(19, "X25", k_x25), M(20, "ISDN", k_isdn),
  L(21, "RT", k_mx), M(22, "NSAP", NULL), M(23, "NSAP-PTR", k_ns), L(24, "SIG", NULL),
  M(25, "KEY", NULL), L(26, "PX", k_px), M(27, "GPOS", NULL), M(29, "LOC", NULL),
  L(30, "NXT", NULL), M(31, "EID", NULL), M(32, "NIMLOC", NULL), M(34, "ATMA", NULL),
  L(35, "NAPTR", k_naptr), L(36, "KX", k_mx), M(37, "CERT", NULL), L(38, "A6", NULL),
  L(39, "DNAME", k_ns), M(40, "SINK", NULL), M(41, "OPT", NULL), M(42, "APL", NULL),
  M(44, "SSHFP", k_sshfp), M(45, "IPSECKEY", NULL), M(49, "DHCID", k_dhcid),
  M(50, "NSEC3", k_nsec3), M(51, "NSEC3PARAM", k_nsec3param), M(52, "TLSA", k_tlsa),
  M(53, "SMIMEA", k_tlsa), M(55, "HIP", NULL), M(58, "TALINK", k_minfo), M(59, "CDS", k_ds),
  M(60, "CDNSKEY", k_dnskey), M(61, "OPENPGPKEY", k_dhcid), M(62, "CSYNC", k_csync),
  M(63, "ZONEMD", k_zonemd), M(64, "SVCB", NULL), M(65, "HTTPS", NULL), M(99, "SPF", k_txt),
  M(104, "NID", k_l64), M(105, "L32", k_l32), M(106, "L64", k_l64), M(107, "LP", k_mx),
  M(108, "EUI48", k_eui48), M(109, "EUI64", k_eui64), M(249, "TKEY", NULL), M(250, "TSIG", NULL),
  M(251, "IXFR", NULL), M(252, "AXFR", NULL), M(253, "MAILB", NULL), M(254, "MAILA", NULL),
  M(255, "ANY", NULL), M(256, "URI", k_uri), M(32769, "DLV", k_ds),
};

static const mnemonic classes[] = {
  M(1, "IN", NULL), M(3, "CH", NULL), M(4, "HS", NULL), M(254, "NONE", NULL), M(255, "ANY", NULL),
};

#undef M
#undef L

static char upper(char c)
{
  return c >= 'a' && c <= 'z' ? (char)(c - 32) : c;
}

static bool same(const mnemonic *m, const char *text, size_t len)
{
  if (m->len != len || m->name[0] != upper(text[0]))
    return false;
  for (size_t i = 1; i < len; i++)
    if (upper(text[i]) != m->name[i])
      return false;
  return true;
}

/* prefix ("TYPE", "CLASS") in any case, then decimal digits for a value from min to 65535 */
static bool generic(const char *text, size_t len, const char *prefix, size_t plen, uint32_t min,
                    uint16_t *num)
{
  if (len <= plen)
    return false;
  for (size_t i = 0; i < plen; i++)
    if (upper(text[i]) != prefix[i])
      return false;
  uint32_t v = 0;
  for (size_t i = plen; i < len; i++) {
    if (text[i] < '0' || text[i] > '9')
      return false;
    v = v * 10 + (uint32_t)(text[i] - '0');
    if (v > 0xFFFF)
      return false;
  }
  if (v < min)
    return false;
  *num = (uint16_t)v;
  return true;
}

static bool lookup(const mnemonic *table, size_t n, const char *text, size_t len, uint16_t *num)
{
  for (size_t i = 0; i < n; i++) {
    if (same(&table[i], text, len)) {
      *num = table[i].num;
      return true;
    }
  }
  return false;
}

bool zp_rrtype_from_text(const char *text, size_t len, uint16_t *type)
{
  return lookup(types, sizeof types / sizeof *types, text, len, type) ||
         generic(text, len, "TYPE", 4, 0, type);
}

bool zp_rrclass_from_text(const char *text, size_t len, uint16_t *rclass)
{
  return lookup(classes, sizeof classes / sizeof *classes, text, len, rclass) ||
         generic(text, len, "CLASS", 5, 1, rclass);
}

static const char *name_of(const mnemonic *table, size_t n, uint16_t num, const char *prefix,
                           char *buf)
{
  for (size_t i = 0; i < n; i++)
    if (table[i].num == num)
      return table[i].name;
  snprintf(buf, ZP_RRTYPE_TEXT_MAX, "%s%u", prefix, (unsigned)num);
  return buf;
}

const char *zp_rrtype_name(uint16_t type, char buf[ZP_RRTYPE_TEXT_MAX])
{
  return name_of(types, sizeof types / sizeof *types, type, "TYPE", buf);
}

const char *zp_rrclass_name(uint16_t rclass, char buf[ZP_RRTYPE_TEXT_MAX])
{
  return name_of(classes, sizeof classes / sizeof *classes, rclass, "CLASS", buf);
}

bool zp_rrtype_is_meta(uint16_t type)
{
  return type == 0 || type == 41 || (type >= 128 && type <= 255);
}

bool zp_rrclass_is_meta(uint16_t rclass)
{
  return rclass == 254 || rclass == 255;
}

bool zp_rrtype_lowercases(uint16_t type)
{
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    if (types[i].num == type)
      return types[i].lower;
  return false;
}

const uint8_t *zp_rrtype_kinds(uint16_t type)
{
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    if (types[i].num == type)
      return types[i].kinds;
  return NULL;
}
