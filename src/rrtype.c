/* rrtype.c -- RR type and class mnemonics (IANA's DNS parameters registry; RFC 3597 for the
 * generic forms). The set is the one ldns knows, so that what the reader accepts the writer
 * can format; tests/test_rrtype.c proves the two agree on every number. */
#include "rrtype.h"

#include <stdio.h>

typedef struct mnemonic {
  uint16_t num;
  uint8_t len;
  bool lower;      /* its RDATA names are lowercased in canonical form */
  char name[11];
} mnemonic;

#define M(num, name) {num, sizeof name - 1, false, name}
/* the types of RFC 4034 section 6.2, less NSEC (RFC 6840 section 5.1) */
#define L(num, name) {num, sizeof name - 1, true, name}

/* The types that make up nearly every zone first, then the rest in number order: both lookups
 * scan the table, and the reader and the writer ask once a record. */
static const mnemonic types[] = {
  M(1, "A"), M(28, "AAAA"), L(2, "NS"), L(5, "CNAME"), L(15, "MX"), M(16, "TXT"), L(6, "SOA"),
  L(12, "PTR"), L(33, "SRV"), M(257, "CAA"), M(43, "DS"), L(46, "RRSIG"), M(48, "DNSKEY"),
  M(47, "NSEC"),
  L(3, "MD"), L(4, "MF"), L(7, "MB"), L(8, "MG"), L(9, "MR"), M(10, "NULL"), M(11, "WKS"),
  L(13, "HINFO"), L(14, "MINFO"), L(17, "RP"), L(18, "AFSDB"), M(19, "X25"), M(20, "ISDN"),
  L(21, "RT"), M(22, "NSAP"), M(23, "NSAP-PTR"), L(24, "SIG"), M(25, "KEY"), L(26, "PX"),
  M(27, "GPOS"), M(29, "LOC"), L(30, "NXT"), M(31, "EID"), M(32, "NIMLOC"), M(34, "ATMA"),
  L(35, "NAPTR"), L(36, "KX"), M(37, "CERT"), L(38, "A6"), L(39, "DNAME"), M(40, "SINK"),
  M(41, "OPT"), M(42, "APL"), M(44, "SSHFP"), M(45, "IPSECKEY"), M(49, "DHCID"), M(50, "NSEC3"),
  M(51, "NSEC3PARAM"), M(52, "TLSA"), M(53, "SMIMEA"), M(55, "HIP"), M(58, "TALINK"),
  M(59, "CDS"), M(60, "CDNSKEY"), M(61, "OPENPGPKEY"), M(62, "CSYNC"), M(63, "ZONEMD"),
  M(64, "SVCB"), M(65, "HTTPS"), M(99, "SPF"), M(104, "NID"), M(105, "L32"), M(106, "L64"),
  M(107, "LP"), M(108, "EUI48"), M(109, "EUI64"), M(249, "TKEY"), M(250, "TSIG"),
  M(251, "IXFR"), M(252, "AXFR"), M(253, "MAILB"), M(254, "MAILA"), M(255, "ANY"),
  M(256, "URI"), M(32769, "DLV"),
};

static const mnemonic classes[] = {
  M(1, "IN"), M(3, "CH"), M(4, "HS"), M(254, "NONE"), M(255, "ANY"),
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
