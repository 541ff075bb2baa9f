/* hostname.c -- named's check-names: host names (RFC 952, RFC 1123 section 2.1) where BIND wants
 * them, in owners and in the RDATA names of the types that name hosts and mailboxes */
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

/* A mailbox (SOA RNAME, RP, MINFO): the first label is the local part, anything goes. */
static bool is_mailbox(const uint8_t *w)
{
  return *w == 0 || is_hostname(w + *w + 1, false);
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

/* The names of rec's RDATA that check-names holds to a rule: for each, its offset in the RDATA,
 * its field, and whether it is a host name (else a mailbox). Returns how many. */
typedef struct named_field {
  size_t at, field;
  bool host;
} named_field;

static size_t named_fields(const zp_record *r, named_field f[2])
{
  const uint8_t *d = r->rdata;
  switch (r->rtype) {
  case T_NS: f[0] = (named_field){0, 0, true}; return 1;
  case T_MX: case T_AFSDB: case T_RT: f[0] = (named_field){2, 1, true}; return 1;
  case T_SRV: f[0] = (named_field){6, 3, true}; return 1;
  case T_SVCB: case T_HTTPS: f[0] = (named_field){2, 1, true}; return 1;
  case T_PTR:
    if (!is_reverse(r->owner))
      return 0;
    f[0] = (named_field){0, 0, true};
    return 1;
  case T_SOA:
    f[0] = (named_field){0, 0, true};
    f[1] = (named_field){zp_name_wire_len(d), 1, false};
    return 2;
  case T_RP: f[0] = (named_field){0, 0, false}; return 1;
  case T_MINFO:
    f[0] = (named_field){0, 0, false};
    f[1] = (named_field){zp_name_wire_len(d), 1, false};
    return 2;
  default:
    return 0;
  }
}
void zp_ck_check_names(zp_checker *c, const zp_record *r, const tuple *t)
{
  if (!zp_ck_on(c, ZP_CK_CHECK_NAMES))
    return;
  uint16_t ty = r->rtype;
  if ((ty == T_A || ty == T_AAAA || ty == T_A6 || ty == T_MX || ty == T_WKS) &&
      !is_hostname(r->owner, true))
    zp_ck_report(c, ZP_CK_CHECK_NAMES, t, "the owner of this %s record, %s, is not a host name: "
                 "letters, digits and inner hyphens only (RFC 952, RFC 1123 section 2.1; named's "
                 "check-names)", zp_ck_type_text(ty), zp_ck_name_text(r->owner));
  named_field f[2];
  size_t n = r->rdata && !r->generic ? named_fields(r, f) : 0;
  for (size_t i = 0; i < n; i++) {
    const uint8_t *w = r->rdata + f[i].at;
    if (f[i].host ? is_hostname(w, false) : is_mailbox(w))
      continue;
    tuple at = zp_ck_at_field(r, t, f[i].field);
    zp_ck_report(c, ZP_CK_CHECK_NAMES, &at, "%s %s in %s RDATA is not a %s (RFC 952, RFC 1123 "
                 "section 2.1; named's check-names)", f[i].host ? "name" : "mailbox",
                 zp_ck_name_text(w), zp_ck_type_text(ty),
                 f[i].host ? "host name: letters, digits and inner hyphens only"
                           : "mailbox: a host name after its first label");
  }
}
