/* rrtype.c -- RR type and class mnemonics (IANA's DNS parameters registry; RFC 3597 for the
 * generic forms). The set is the one BIND 9.18 reads (named-rrchecker -T, and the meta types):
 * the one ldns 1.8 knows, AMTRELAY (RFC 8777), and the types below that ldns 1.8, NSD 4.6 and
 * Knot 3.2 do not read as text (NINFO, RKEY, DSYNC, HHIT, BRID, AVC, DOA, RESINFO, WALLET, TA;
 * UINFO, UID, GID, UNSPEC), which zonepuny writes as TYPEnnn, the only name they read for them;
 * tests/test_rrtype.c proves the table and ldns agree on every other number. */
#include "rrtype.h"

#include <stdio.h>
#include <string.h>

typedef struct mnemonic {
  uint16_t num;
  uint8_t len;
  uint8_t flags;
  char name[11];
  const uint8_t *kinds;   /* its RDATA fields, ended by ZP_K_END; NULL: not parsed here */
} mnemonic;

enum {
  LC = 1,   /* its RDATA names are lowercased in canonical form: the types of RFC 4034 section
               6.2, less NSEC (RFC 6840 section 5.1) */
  G = 2,    /* written in RFC 3597 form by default: Knot 3.2 does not read its text form
               (tests/output/check_knot.sh) */
  N = 4,    /* never written as text, whatever --generic says: BIND 9.18 reads its text (as
               zonepuny does), ldns 1.8, NSD 4.6 and Knot 3.2 do not (A6 and SINK they read
               otherwise) */
  I = 8,    /* its RDATA is BIND's for class IN only (zp_rrtype_in_class) */
};

#define T(num, name, flags, kinds) {num, sizeof name - 1, flags, name, kinds}

/* The fields of the types whose text zonepuny parses itself, from their RFCs (each list is
 * shared by the types named beside it). */
static const uint8_t k_a[] = {ZP_K_A, ZP_K_END};  /* A */
/* NS MD MF CNAME MB MG MR PTR DNAME NSAP-PTR */
static const uint8_t k_ns[] = {ZP_K_NAME, ZP_K_END};
/* SOA */
static const uint8_t k_soa[] = {ZP_K_NAME, ZP_K_NAME, ZP_K_INT32, ZP_K_PERIOD, ZP_K_PERIOD,
                                ZP_K_PERIOD, ZP_K_PERIOD, ZP_K_END};
static const uint8_t k_hinfo[] = {ZP_K_STRING, ZP_K_STRING, ZP_K_END};  /* HINFO */
static const uint8_t k_minfo[] = {ZP_K_NAME, ZP_K_NAME, ZP_K_END};  /* MINFO RP TALINK */
static const uint8_t k_mx[] = {ZP_K_INT16, ZP_K_NAME, ZP_K_END};  /* MX AFSDB RT KX LP */
static const uint8_t k_txt[] = {ZP_K_STRINGS, ZP_K_END};  /* TXT SPF NINFO AVC RESINFO WALLET */
static const uint8_t k_x25[] = {ZP_K_STRING, ZP_K_END};  /* X25 */
static const uint8_t k_isdn[] = {ZP_K_STRING, ZP_K_OPT_STRING, ZP_K_END};  /* ISDN */
static const uint8_t k_px[] = {ZP_K_INT16, ZP_K_NAME, ZP_K_NAME, ZP_K_END};  /* PX */
static const uint8_t k_aaaa[] = {ZP_K_AAAA, ZP_K_END};  /* AAAA */
static const uint8_t k_srv[] = {ZP_K_INT16, ZP_K_INT16, ZP_K_INT16, ZP_K_NAME, ZP_K_END};  /* SRV */
/* NAPTR */
static const uint8_t k_naptr[] = {ZP_K_INT16, ZP_K_INT16, ZP_K_STRING, ZP_K_STRING, ZP_K_STRING,
                                  ZP_K_NAME, ZP_K_END};
/* DS CDS DLV TA */
static const uint8_t k_ds[] = {ZP_K_INT16, ZP_K_ALG, ZP_K_INT8, ZP_K_HEX, ZP_K_END};
static const uint8_t k_sshfp[] = {ZP_K_INT8, ZP_K_INT8, ZP_K_HEX, ZP_K_END};  /* SSHFP */
/* RRSIG */
static const uint8_t k_rrsig[] = {ZP_K_TYPE, ZP_K_ALG, ZP_K_INT8, ZP_K_INT32, ZP_K_TIME,
                                  ZP_K_TIME, ZP_K_INT16, ZP_K_NAME, ZP_K_BASE64, ZP_K_END};
static const uint8_t k_nsec[] = {ZP_K_NAME, ZP_K_BITMAP, ZP_K_END};  /* NSEC */
/* DNSKEY CDNSKEY RKEY */
static const uint8_t k_dnskey[] = {ZP_K_INT16, ZP_K_INT8, ZP_K_ALG, ZP_K_BASE64, ZP_K_END};
static const uint8_t k_dhcid[] = {ZP_K_BASE64, ZP_K_END};  /* DHCID OPENPGPKEY HHIT BRID */
/* NSEC3 */
static const uint8_t k_nsec3[] = {ZP_K_INT8, ZP_K_INT8, ZP_K_INT16, ZP_K_SALT, ZP_K_HASH,
                                  ZP_K_BITMAP0, ZP_K_END};
/* NSEC3PARAM */
static const uint8_t k_nsec3param[] = {ZP_K_INT8, ZP_K_INT8, ZP_K_INT16, ZP_K_SALT, ZP_K_END};
/* TLSA SMIMEA */
static const uint8_t k_tlsa[] = {ZP_K_INT8, ZP_K_INT8, ZP_K_INT8, ZP_K_HEX, ZP_K_END};
static const uint8_t k_csync[] = {ZP_K_INT32, ZP_K_INT16, ZP_K_BITMAP0, ZP_K_END};  /* CSYNC */
/* ZONEMD */
static const uint8_t k_zonemd[] = {ZP_K_INT32, ZP_K_INT8, ZP_K_INT8, ZP_K_HEX, ZP_K_END};
static const uint8_t k_l32[] = {ZP_K_INT16, ZP_K_A, ZP_K_END};  /* L32 */
static const uint8_t k_l64[] = {ZP_K_INT16, ZP_K_ILNP64, ZP_K_END};  /* L64 NID */
/* CERT */
static const uint8_t k_cert[] = {ZP_K_CERT_TYPE, ZP_K_INT16, ZP_K_ALG, ZP_K_BASE64, ZP_K_END};
static const uint8_t k_apl[] = {ZP_K_APL, ZP_K_END};  /* APL */
static const uint8_t k_loc[] = {ZP_K_LOC, ZP_K_END};  /* LOC */
/* IPSECKEY */
static const uint8_t k_ipseckey[] = {ZP_K_INT8, ZP_K_GATEWAY, ZP_K_BASE64, ZP_K_END};
static const uint8_t k_eui48[] = {ZP_K_EUI48, ZP_K_END};  /* EUI48 */
static const uint8_t k_eui64[] = {ZP_K_EUI64, ZP_K_END};  /* EUI64 */
static const uint8_t k_uri[] = {ZP_K_INT16, ZP_K_INT16, ZP_K_TARGET, ZP_K_END};  /* URI */
static const uint8_t k_caa[] = {ZP_K_INT8, ZP_K_TAG, ZP_K_OCTETS, ZP_K_END};  /* CAA */
static const uint8_t k_svcb[] = {ZP_K_INT16, ZP_K_NAME, ZP_K_SVCPARAMS, ZP_K_END};  /* SVCB HTTPS */
static const uint8_t k_key[] = {ZP_K_INT16, ZP_K_INT8, ZP_K_ALG, ZP_K_KEYDATA, ZP_K_END};  /* KEY */
static const uint8_t k_wks[] = {ZP_K_A, ZP_K_WKS, ZP_K_END};  /* WKS */
static const uint8_t k_nsap[] = {ZP_K_NSAP, ZP_K_END};  /* NSAP */
static const uint8_t k_hex[] = {ZP_K_HEX, ZP_K_END};  /* EID NIMLOC */
static const uint8_t k_atma[] = {ZP_K_ATMA, ZP_K_END};  /* ATMA */
static const uint8_t k_gpos[] = {ZP_K_GPOS, ZP_K_END};  /* GPOS */
static const uint8_t k_hip[] = {ZP_K_HIP, ZP_K_END};  /* HIP */
static const uint8_t k_amtrelay[] = {ZP_K_INT8, ZP_K_AMTRELAY, ZP_K_END};  /* AMTRELAY */
static const uint8_t k_nxt[] = {ZP_K_NAME, ZP_K_NXTBITMAP, ZP_K_END};  /* NXT */
static const uint8_t k_a6[] = {ZP_K_A6, ZP_K_END};  /* A6 */
/* SINK (draft-eastlake-kitchen-sink): meaning, coding, subcoding, data (may be empty) */
static const uint8_t k_sink[] = {ZP_K_INT8, ZP_K_INT8, ZP_K_INT8, ZP_K_BASE64_0, ZP_K_END};
/* The fields of the types BIND 9.18 reads that ldns 1.8 does not, as BIND reads them (the type
 * list of each is in the table below) */
/* DSYNC (draft-ietf-dnsop-generalized-notify): RRtype, scheme, port, target */
static const uint8_t k_dsync[] = {ZP_K_TYPE_NUM, ZP_K_SCHEME, ZP_K_INT16, ZP_K_NAME, ZP_K_END};
/* DOA (draft-durand-doa-over-dns): enterprise, type, location, media type, data (may be empty) */
static const uint8_t k_doa[] = {ZP_K_INT32, ZP_K_INT32, ZP_K_INT8, ZP_K_STRING, ZP_K_BASE64_DASH,
                                ZP_K_END};

/* The table in ZP_RRTYPES's order (rrtype.h): both lookups scan it, and the reader and the
 * writer ask once a record. */
#define ROW(id, name, num, flags, kinds) T(num, name, flags, kinds),
static const mnemonic types[] = {ZP_RRTYPES(ROW)};
#undef ROW

#define ROW(id, name, num) T(num, name, 0, NULL),
static const mnemonic classes[] = {ZP_RRCLASSES(ROW)};
#undef ROW

#undef T

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

/* The optimal string alignment distance of a[0..n) and b[0..m) (ASCII case aside): edits of one
 * character each, an adjacent transposition one edit ("CNMAE" is one from "CNAME"). */
static size_t distance(const char *a, size_t n, const char *b, size_t m)
{
  enum { MAX = 16 };
  size_t d[MAX + 1][MAX + 1];
  if (n > MAX || m > MAX)
    return SIZE_MAX;
  for (size_t i = 0; i <= n; i++)
    for (size_t j = 0; j <= m; j++) {
      if (i == 0 || j == 0) {
        d[i][j] = i + j;
        continue;
      }
      size_t cost = upper(a[i - 1]) != upper(b[j - 1]);
      size_t v = d[i - 1][j - 1] + cost;
      if (d[i - 1][j] + 1 < v)
        v = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < v)
        v = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && upper(a[i - 1]) == upper(b[j - 2]) &&
          upper(a[i - 2]) == upper(b[j - 1]) && d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  return d[n][m];
}

/* The mnemonic of table nearest to text, within one edit (two for words of five characters or
 * more), the lowest number on a tie; NULL if none is that near. */
static const char *nearest(const mnemonic *table, size_t n, const char *text, size_t len)
{
  const char *best = NULL;
  size_t best_d = len >= 5 ? 3 : 2;
  for (size_t i = 0; i < n; i++) {
    size_t d = distance(text, len, table[i].name, table[i].len);
    if (d < best_d) {
      best_d = d;
      best = table[i].name;
    }
  }
  return best;
}

const char *zp_rrtype_nearest(const char *text, size_t len)
{
  return nearest(types, sizeof types / sizeof *types, text, len);
}

const char *zp_rrclass_nearest(const char *text, size_t len)
{
  return nearest(classes, sizeof classes / sizeof *classes, text, len);
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

static const mnemonic *find(uint16_t type)
{
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    if (types[i].num == type)
      return &types[i];
  return NULL;
}

const char *zp_rrtype_name(uint16_t type, char buf[ZP_RRTYPE_TEXT_MAX])
{
  return name_of(types, sizeof types / sizeof *types, type, "TYPE", buf);
}

const char *zp_rrtype_list_name(uint16_t type, char buf[ZP_RRTYPE_TEXT_MAX])
{
  const mnemonic *m = find(type);
  if (m && m->kinds && !(m->flags & (G | N)))
    return m->name;
  snprintf(buf, ZP_RRTYPE_TEXT_MAX, "TYPE%u", (unsigned)type);
  return buf;
}

const char *zp_rrclass_name(uint16_t rclass, char buf[ZP_RRTYPE_TEXT_MAX])
{
  return name_of(classes, sizeof classes / sizeof *classes, rclass, "CLASS", buf);
}

bool zp_rrtype_is_meta(uint16_t type)
{
  return type == 0 || type == ZP_TYPE_OPT || (type >= 128 && type <= 255);
}

bool zp_rrclass_is_meta(uint16_t rclass)
{
  return rclass == ZP_CLASS_NONE || rclass == ZP_CLASS_ANY;
}

bool zp_rrtype_in_other_class(uint16_t type, uint16_t rclass)
{
  const mnemonic *m = find(type);
  return !m || !(m->flags & I) || (type == ZP_TYPE_A && rclass == ZP_CLASS_HS);
}

bool zp_rrtype_lowercases(uint16_t type)
{
  const mnemonic *m = find(type);
  return m && (m->flags & LC);
}

bool zp_rrtype_reads_text(uint16_t type)
{
  const mnemonic *m = find(type);
  return m && m->kinds;
}

/* The names of the fields of the types written by hand most, one per field kind, as their RFCs
 * name them: RFC 1035 sections 3.3.9 and 3.3.13, RFC 2782, RFC 3403, RFC 4034 sections 2.1 and
 * 5.1, RFC 4255, RFC 6698, RFC 8659. */
static const struct {
  uint16_t type;
  const char *names;
} field_names[] = {
  {ZP_TYPE_SOA, "MNAME RNAME SERIAL REFRESH RETRY EXPIRE MINIMUM"},
  {ZP_TYPE_MX, "preference exchange"},
  {ZP_TYPE_SRV, "priority weight port target"},
  {ZP_TYPE_NAPTR, "order preference flags services regexp replacement"},
  {ZP_TYPE_DS, "key-tag algorithm digest-type digest"},
  {ZP_TYPE_SSHFP, "algorithm fp-type fingerprint"},
  {ZP_TYPE_DNSKEY, "flags protocol algorithm public-key"},
  {ZP_TYPE_TLSA, "usage selector matching-type certificate-association-data"},
  {ZP_TYPE_CAA, "flags tag value"},
};

const char *zp_rrtype_field_name(uint16_t type, size_t i, char buf[ZP_RRTYPE_TEXT_MAX * 4])
{
  for (size_t k = 0; k < sizeof field_names / sizeof *field_names; k++) {
    if (field_names[k].type != type)
      continue;
    const char *p = field_names[k].names;
    for (; i > 0 && p; i--)
      p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
    if (!p)
      return NULL;
    size_t n = strcspn(p, " ");
    snprintf(buf, ZP_RRTYPE_TEXT_MAX * 4, "%.*s", (int)n, p);
    return buf;
  }
  return NULL;
}

const uint8_t *zp_rrtype_kinds(uint16_t type)
{
  const mnemonic *m = find(type);
  return m ? m->kinds : NULL;
}

static void add_flagged(uint8_t set[65536 / 8], uint8_t flags)
{
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    if (types[i].flags & flags)
      set[types[i].num >> 3] |= (uint8_t)(0x80 >> (types[i].num & 7));
}

void zp_rrtype_generic_default(uint8_t set[65536 / 8])
{
  memset(set, 0, 65536 / 8);
  add_flagged(set, G | N);
}

void zp_rrtype_generic_always(uint8_t set[65536 / 8])
{
  add_flagged(set, N);
}

static const char *const svc_keys[] = {
  "mandatory", "alpn", "no-default-alpn", "port", "ipv4hint", "ech", "ipv6hint", "dohpath",
  "ohttp", "tls-supported-groups", "docpath", "pvd",
};

bool zp_svckey_from_text(const char *text, size_t len, uint16_t *key)
{
  for (size_t i = 0; i < sizeof svc_keys / sizeof *svc_keys; i++) {
    if (strlen(svc_keys[i]) == len && memcmp(svc_keys[i], text, len) == 0) {
      *key = (uint16_t)i;
      return true;
    }
  }
  if (len < 4 || len > 8 || memcmp(text, "key", 3) != 0 || (text[3] == '0' && len > 4))
    return false;
  uint32_t v = 0;
  for (size_t i = 3; i < len; i++) {
    if (text[i] < '0' || text[i] > '9')
      return false;
    v = v * 10 + (uint32_t)(text[i] - '0');
  }
  if (v > 0xFFFF)
    return false;
  *key = (uint16_t)v;
  return true;
}

const char *zp_svckey_name(uint16_t key, char buf[ZP_RRTYPE_TEXT_MAX])
{
  if (key <= ZP_SVC_IPV6HINT)
    return svc_keys[key];
  snprintf(buf, ZP_RRTYPE_TEXT_MAX, "key%u", (unsigned)key);
  return buf;
}

void zp_rrtype_generic_set(const uint8_t *given, uint8_t set[65536 / 8])
{
  if (given)
    memcpy(set, given, 65536 / 8);
  else
    zp_rrtype_generic_default(set);
  zp_rrtype_generic_always(set);
}

const char *zp_rrtype_spec(uint16_t type)
{
  /* IANA's "Resource Record (RR) TYPEs" registry, its Reference column: the RFC that defines
   * the type, or where there is none the document or person it cites */
  switch (type) {
  case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9: case 10: case 11:
  case 12: case 13: case 14: case 15: case 16: case 252: case 253: case 254: case 255:
    return "RFC 1035";
  case 17: case 18: case 19: case 20: case 21: return "RFC 1183";
  case 22: case 23: return "RFC 1706";
  case 24: case 25: return "RFC 2535 (RFC 4034 section 1)";
  case 26: return "RFC 2163";
  case 27: return "RFC 1712";
  case 28: return "RFC 3596";
  case 29: return "RFC 1876";
  case 30: return "RFC 2535 (obsoleted by RFC 3755)";
  case 31: case 32: return "no RFC: Michael Patton's draft, as IANA cites it";
  case 33: return "RFC 2782";
  case 34: return "no RFC: the ATM Forum's ATM Name System specification";
  case 35: return "RFC 3403";
  case 36: return "RFC 2230";
  case 37: return "RFC 4398";
  case 38: return "RFC 2874 (historic: RFC 6563)";
  case 39: return "RFC 6672";
  case 40: return "no RFC: Donald Eastlake's draft, as IANA cites it";
  case 41: return "RFC 6891";
  case 42: return "RFC 3123";
  case 43: case 46: case 47: case 48: return "RFC 4034";
  case 44: return "RFC 4255";
  case 45: return "RFC 4025";
  case 49: return "RFC 4701";
  case 50: case 51: return "RFC 5155";
  case 52: return "RFC 6698";
  case 53: return "RFC 8162";
  case 55: return "RFC 8005";
  case 56: case 57: return "no RFC: Jim Reid's registration, as IANA cites it";
  case 58: return "no RFC: Wouter Wijngaards's registration, as IANA cites it";
  case 59: case 60: return "RFC 7344";
  case 61: return "RFC 7929";
  case 62: return "RFC 7477";
  case 63: return "RFC 8976";
  case 64: case 65: return "RFC 9460";
  case 66: return "draft-ietf-dnsop-generalized-notify";
  case 67: case 68: return "draft-ietf-drip-registries";
  case 99: return "RFC 7208";
  case 100: case 101: case 102: case 103: return "no RFC: reserved by IANA";
  case 104: case 105: case 106: case 107: return "RFC 6742";
  case 108: case 109: return "RFC 7043";
  case 249: return "RFC 2930";
  case 250: return "RFC 8945";
  case 251: return "RFC 1995";
  case 256: return "RFC 7553";
  case 257: return "RFC 8659";
  case 258: return "no RFC: Wolfgang Riedel's registration, as IANA cites it";
  case 259: return "no RFC: draft-durand-doa-over-dns";
  case 260: return "RFC 8777";
  case 261: return "RFC 9606";
  case 262: return "no RFC: Paul Hoffman's registration, as IANA cites it";
  case 32768: return "no RFC: \"Deploying DNSSEC Without a Signed Root\", as IANA cites it";
  case 32769: return "RFC 4431 (historic: RFC 8749)";
  default: return NULL;
  }
}
