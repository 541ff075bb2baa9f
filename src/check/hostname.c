/* hostname.c -- named's check-names: host names (RFC 952, RFC 1123 section 2.1) where BIND wants
 * them, in owners and in the RDATA names of the types that name hosts and mailboxes, with the
 * exceptions BIND makes (Active Directory, SPF, DNS-SD, SVCB aliases), and the hashed owner
 * NSEC3 needs (RFC 5155 section 3) */
#include <strings.h>

#include "check_int.h"

/* RFC 952 and RFC 1123 host names as BIND's check-names reads them: letters, digits and
 * hyphens, a letter or digit at both ends of each label; a leading "*" label where wildcard. */
static bool is_hostname(const uint8_t *w, bool wildcard)
{
  /* 1: a letter or digit, 2: a hyphen, 0: neither */
  static const uint8_t kind[256] = {
    ['-'] = 2,
    ['0'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['A'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['a'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  };
  if (wildcard && w[0] == 1 && w[1] == '*')
    w += 2;
  for (; *w; w += *w + 1) {
    bool ok = true;
    for (unsigned i = 1; i <= *w; i++)
      ok &= kind[w[i]] != 0;
    if (!ok || kind[w[1]] != 1 || kind[w[*w]] != 1)
      return false;
  }
  return true;
}

/* A mailbox (SOA RNAME, RP, MINFO): the first label is the local part, printable ASCII but
 * for the space (BIND's test: 0x21 to 0x7e), the rest a host name. */
static bool is_mailbox(const uint8_t *w)
{
  for (unsigned i = 1; i <= *w; i++)
    if (w[i] <= 0x20 || w[i] >= 0x7f)
      return false;
  return *w == 0 || is_hostname(w + *w + 1, false);
}

/* Whether the label at l is s, but for ASCII case. */
static bool label_is(const uint8_t *l, const char *s)
{
  size_t n = strlen(s);
  return *l == n && strncasecmp((const char *)l + 1, s, n) == 0;
}

/* Active Directory's global catalog, gc._msdcs.FOREST with FOREST a host name: BIND takes it
 * as the owner of A and AAAA records. */
static bool is_ad_gc(const uint8_t *owner)
{
  if (!label_is(owner, "gc"))
    return false;
  const uint8_t *l = owner + *owner + 1;
  return label_is(l, "_msdcs") && is_hostname(l + *l + 1, false);
}

/* The target of an SPF "exists" mechanism (RFC 7208 section 5.7 and appendix D.1): BIND takes
 * any owner of an A record with a label _spf, _spf_verify or _spf_rate before its last. */
static bool is_spf(const uint8_t *owner)
{
  size_t n = zp_ck_labels(owner);
  for (const uint8_t *l = owner; n > 1; l += *l + 1, n--)
    if (label_is(l, "_spf") || label_is(l, "_spf_verify") || label_is(l, "_spf_rate"))
      return true;
  return false;
}

/* A DNS-SD domain enumeration name (RFC 6763 section 11): b, db, r, dr or lb, then
 * _dns-sd._udp. Its PTR records name domains, not hosts. */
static bool is_dnssd(const uint8_t *owner)
{
  static const char *const first[] = {"b", "db", "r", "dr", "lb"};
  const uint8_t *l = owner + *owner + 1, *m = *l ? l + *l + 1 : l;
  if (!*owner || !label_is(l, "_dns-sd") || !label_is(m, "_udp"))
    return false;
  for (size_t i = 0; i < sizeof first / sizeof *first; i++)
    if (label_is(owner, first[i]))
      return true;
  return false;
}

static bool is_reverse(const uint8_t *owner)
{
  static const uint8_t *const zones[] = {
    (const uint8_t *)"\7in-addr\4arpa", (const uint8_t *)"\3ip6\4arpa",
    (const uint8_t *)"\3ip6\3int"};
  size_t n = zp_name_wire_len(owner);
  for (size_t z = 0; z < 3; z++) {
    size_t m = strlen((const char *)zones[z]) + 1;
    if (n >= m && strncasecmp((const char *)owner + n - m, (const char *)zones[z], m) == 0) {
      /* a whole label boundary: walk the labels to see that one starts there */
      for (const uint8_t *p = owner; *p; p += *p + 1)
        if (p == owner + n - m)
          return true;
    }
  }
  return false;
}

/* An NSEC3 owner's first label is a hash in base32hex without padding (RFC 4648 section 7,
 * RFC 5155 section 3): digits and A to V in either case, of a length that ends on whole octets
 * (not 1, 3 or 6 modulo 8), the bits past the last octet zero. */
static bool is_hashed(const uint8_t *owner)
{
  unsigned n = *owner, v = 0;
  static const unsigned spare[8] = {0, 8, 2, 8, 4, 1, 8, 3};   /* 8: no such length */
  if (spare[n % 8] == 8)
    return false;
  for (unsigned i = 1; i <= n; i++) {
    uint8_t ch = owner[i];
    if (ch >= '0' && ch <= '9')
      v = ch - '0';
    else if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'v')
      v = (ch | 0x20) - 'a' + 10u;
    else
      return false;
  }
  return n == 0 || (v & ((1u << spare[n % 8]) - 1)) == 0;
}

/* Whether the owner of a record of type ty in class cl is one BIND's check-names takes. */
static bool owner_ok(const uint8_t *owner, uint16_t cl, uint16_t ty)
{
  if (ty == ZP_TYPE_MX)
    return is_hostname(owner, true);
  if (ty == ZP_TYPE_A && cl == 3)   /* Chaosnet's A */
    return is_hostname(owner, true);
  if (cl != 1)
    return true;
  switch (ty) {
  case ZP_TYPE_A: return is_hostname(owner, true) || is_ad_gc(owner) || is_spf(owner);
  case ZP_TYPE_AAAA: return is_hostname(owner, true) || is_ad_gc(owner);
  case ZP_TYPE_A6: case ZP_TYPE_WKS: return is_hostname(owner, true);
  default: return true;
  }
}

/* The names of rec's RDATA that check-names holds to a rule: for each, its offset in the RDATA,
 * its field, and whether it is a host name (else a mailbox). Returns how many. */
typedef struct named_field {
  size_t at, field;
  bool host;
} named_field;

static size_t named_fields(const zp_record *r, named_field f[2])
{
  const uint8_t *d = r->rdata;
  bool in = r->rclass == ZP_CLASS_IN;
  switch (r->rtype) {
  case ZP_TYPE_NS: f[0] = (named_field){0, 0, true}; return 1;
  case ZP_TYPE_MX: case ZP_TYPE_AFSDB: case ZP_TYPE_RT: f[0] = (named_field){2, 1, true}; return 1;
  case ZP_TYPE_SRV: f[0] = (named_field){6, 3, true}; return in;
  case ZP_TYPE_SVCB: case ZP_TYPE_HTTPS:
    /* AliasMode (priority 0) names an alias, not a host (RFC 9460 section 2.4.2) */
    f[0] = (named_field){2, 1, true};
    return in && (d[0] | d[1]) != 0;
  case ZP_TYPE_PTR:
    if (!in || !is_reverse(r->owner) || is_dnssd(r->owner))
      return 0;
    f[0] = (named_field){0, 0, true};
    return 1;
  case ZP_TYPE_SOA:
    f[0] = (named_field){0, 0, true};
    f[1] = (named_field){zp_name_wire_len(d), 1, false};
    return 2;
  case ZP_TYPE_RP: f[0] = (named_field){0, 0, false}; return 1;
  case ZP_TYPE_DSYNC: f[0] = (named_field){5, 3, true}; return 1;
  case ZP_TYPE_A6:
    /* the prefix name, after the suffix: none at prefix length 0, and no suffix field before
     * it at 128 (RFC 2874 section 3.1.1) */
    f[0] = (named_field){1u + 16 - d[0] / 8u, d[0] == 128 ? 1 : 2, true};
    return in && d[0] != 0;
  case ZP_TYPE_MINFO:
    f[0] = (named_field){0, 0, false};
    f[1] = (named_field){zp_name_wire_len(d), 1, false};
    return 2;
  default:
    return 0;
  }
}

void zp_ck_check_names(zp_checker *c, const zp_record *r, const zp_ck_tuple *t)
{
  if (!zp_ck_on(c, ZP_CK_CHECK_NAMES))
    return;
  uint16_t ty = r->rtype;
  if (!owner_ok(r->owner, r->rclass, ty))
    zp_ck_report(c, ZP_CK_CHECK_NAMES, t, "the owner of this %s record, %s, is not a host name: "
                 "letters, digits and inner hyphens only (RFC 952, RFC 1123 section 2.1; named's "
                 "check-names)", zp_ck_type_text(ty), zp_ck_name_text(r->owner));
  if (ty == ZP_TYPE_NSEC3 && !is_hashed(r->owner))
    zp_ck_error(c, ZP_CK_CHECK_NAMES, t, "the owner of this NSEC3 record, %s, does not start "
                "with a hash: its first label must be base32hex without padding (RFC 5155 "
                "section 3, RFC 4648 section 7); named refuses it under check-names warn "
                "too", zp_ck_name_text(r->owner));
  /* BIND checks the names of RDATA it reads as text: not those written in RFC 3597 form */
  bool as_text = !(r->nfields > 0 && !r->fields[0].quoted && r->fields[0].len == 2 &&
                   memcmp(r->fields[0].text, "\\#", 2) == 0);
  named_field f[2];
  size_t n = r->rdata && !r->generic && as_text ? named_fields(r, f) : 0;
  for (size_t i = 0; i < n; i++) {
    const uint8_t *w = r->rdata + f[i].at;
    if (f[i].host ? is_hostname(w, false) : is_mailbox(w))
      continue;
    zp_ck_tuple at = zp_ck_at_field(r, t, f[i].field);
    zp_ck_report(c, ZP_CK_CHECK_NAMES, &at, "%s %s in %s RDATA is not a %s (RFC 952, RFC 1123 "
                 "section 2.1; named's check-names)", f[i].host ? "name" : "mailbox",
                 zp_ck_name_text(w), zp_ck_type_text(ty),
                 f[i].host ? "host name: letters, digits and inner hyphens only"
                           : "mailbox: printable ASCII but the space, then a host name");
  }
}
