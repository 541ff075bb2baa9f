/* caa.c -- -W caa (off by default): CAA records as CAs read them (RFC 8659): the properties
 * IANA's registry holds, their values' syntax, the flags; a tag a CA does not know is ignored,
 * unless the issuer-critical flag makes every CA refuse to issue */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"

/* IANA's "Certification Authority Restriction Properties": RFC 8659 (issue, issuewild, iodef),
 * RFC 9495 (issuemail), the CA/Browser Forum's (contactemail, contactphone, issuevmc). */
static const char *const known[] = {"issue", "issuewild", "iodef", "contactemail",
                                    "contactphone", "issuemail", "issuevmc"};
enum { ISSUE, ISSUEWILD, IODEF, CONTACTEMAIL, CONTACTPHONE, ISSUEMAIL, ISSUEVMC, KNOWN };

static bool alnum(int c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* RFC 8659 section 4.2: issuer-domain-name *(";" *WSP parameter), the name optional (";" alone:
 * no CA may issue); label = (ALPHA / DIGIT) *( *("-") (ALPHA / DIGIT)); parameter = tag "="
 * value, tag = 1*(ALPHA / DIGIT), value = *(%x21-3A / %x3C-7E). NULL when v[0..n) is one; else
 * why not. */
static const char *issue_value(const uint8_t *v, size_t n)
{
  size_t i = 0;
  while (i < n && (v[i] == ' ' || v[i] == '\t'))
    i++;
  size_t start = i;
  bool label = false;
  for (; i < n && v[i] != ';' && v[i] != ' ' && v[i] != '\t'; i++) {
    if (v[i] == '.') {
      if (!label || v[i - 1] == '-')
        return "its issuer domain name has an empty label or one that ends in '-'";
      label = false;
    } else if (alnum(v[i])) {
      label = true;
    } else if (v[i] == ':' || v[i] == '/') {
      return "an issuer is a domain name (letsencrypt.org), not a URL";
    } else if (v[i] != '-' || !label) {
      return "its issuer domain name holds other than letters, digits, inner hyphens and dots";
    }
  }
  if (i > start && v[i - 1] == '-')
    return "its issuer domain name ends in '-'";
  if (i > start && !label)
    return "its issuer domain name ends in '.' (it is written without the root's dot)";
  while (i < n && (v[i] == ' ' || v[i] == '\t'))
    i++;
  while (i < n) {
    if (v[i++] != ';')
      return "a parameter does not follow a ';'";
    while (i < n && (v[i] == ' ' || v[i] == '\t'))
      i++;
    if (i == n)
      return NULL;   /* (a ';' at the end, as many write it) */
    size_t tag = i;
    while (i < n && alnum(v[i]))
      i++;
    if (i == tag || i == n || v[i] != '=')
      return "a parameter is not tag=value (letters and digits, then '=')";
    for (i++; i < n && v[i] > 0x20 && v[i] < 0x7F && v[i] != ';'; i++)
      ;
    while (i < n && (v[i] == ' ' || v[i] == '\t'))
      i++;
  }
  return NULL;
}

/* The registered tag one typing slip away from tag[0..n) ("isue", "isseu"), or NULL. */
static const char *nearest(const uint8_t *tag, size_t n)
{
  for (size_t k = 0; k < KNOWN; k++) {
    size_t m = strlen(known[k]), i = 0, j = 0, slips = 0;
    if (m + 1 < n || n + 1 < m)
      continue;
    while (i < n && j < m && slips < 2) {
      if ((tag[i] | 0x20) == known[k][j]) {
        i++, j++;
      } else if (n == m && i + 1 < n && (tag[i] | 0x20) == known[k][j + 1] &&
                 (tag[i + 1] | 0x20) == known[k][j]) {
        i += 2, j += 2, slips++;   /* (two letters swapped) */
      } else {
        slips++;
        if (n > m)
          i++;
        else if (m > n)
          j++;
        else
          i++, j++;
      }
    }
    if (slips + (n - i) + (m - j) == 1)
      return known[k];
  }
  return NULL;
}

void zp_ck_caa(zp_checker *c, const zp_record *r, const zp_ck_tuple *t)
{
  if (r->rtype != ZP_TYPE_CAA || !zp_ck_on(c, ZP_CK_CAA) || !r->rdata || r->rdlen < 2 ||
      2u + r->rdata[1] > r->rdlen)
    return;
  uint8_t flags = r->rdata[0];
  const uint8_t *tag = r->rdata + 2, *v = tag + r->rdata[1];
  size_t tn = r->rdata[1], vn = r->rdlen - 2u - tn, k;
  for (k = 0; k < KNOWN; k++)
    if (strlen(known[k]) == tn && strncasecmp((const char *)tag, known[k], tn) == 0)
      break;
  zp_ck_tuple at_flags = zp_ck_at_field(r, t, 0), at_tag = zp_ck_at_field(r, t, 1),
              at_value = zp_ck_at_field(r, t, 2);
  if (flags & 0x7F)
    zp_ck_report(c, ZP_CK_CAA, &at_flags, "CAA flags %u: only 128 (issuer critical) is defined, "
                 "the other bits are reserved and must be 0 (RFC 8659 section 4.1)", flags);
  if (k == KNOWN) {
    const char *near = nearest(tag, tn);
    char hint[48] = "";
    if (near)
      snprintf(hint, sizeof hint, "; did you mean \"%s\"?", near);
    if (flags & 0x80)
      zp_ck_report(c, ZP_CK_CAA, &at_tag, "CAA tag \"%.*s\" is no registered property, and flag "
                   "128 (issuer critical) makes every CA that does not know it refuse to issue "
                   "for %s (RFC 8659 section 4.1)%s", (int)tn, (const char *)tag,
                   zp_ck_name_text(r->owner), hint);
    else
      zp_ck_report(c, ZP_CK_CAA, &at_tag, "CAA tag \"%.*s\" is no registered property (issue, "
                   "issuewild, iodef, contactemail, contactphone, issuemail, issuevmc): CAs "
                   "ignore the record (RFC 8659 section 4.1)%s", (int)tn, (const char *)tag,
                   hint);
    return;
  }
  const char *why = NULL;
  if (k == ISSUE || k == ISSUEWILD || k == ISSUEMAIL || k == ISSUEVMC) {
    why = issue_value(v, vn);
  } else if (k == IODEF) {
    if (!(vn > 7 && strncasecmp((const char *)v, "mailto:", 7) == 0) &&
        !(vn > 7 && strncasecmp((const char *)v, "http://", 7) == 0) &&
        !(vn > 8 && strncasecmp((const char *)v, "https://", 8) == 0))
      why = "an iodef value is a mailto:, http: or https: URL (RFC 8659 section 4.4)";
  } else if (k == CONTACTEMAIL) {
    const uint8_t *at = memchr(v, '@', vn);
    if (!at || at == v || at == v + vn - 1 || memchr(at + 1, '@', vn - (size_t)(at - v) - 1))
      why = "a contactemail value is one email address";
  } else {   /* contactphone: a global number, "+" and digits, with separators */
    size_t digits = 0;
    for (size_t i = 0; i < vn && !why; i++)
      if (v[i] >= '0' && v[i] <= '9')
        digits++;
      else if (!(v[i] == '+' && i == 0) && !strchr(" -.()", v[i]))
        why = "a contactphone value is a phone number: '+', digits and separators";
    if (!why && (vn == 0 || v[0] != '+' || digits < 4))
      why = "a contactphone value is a global phone number, '+' and its digits";
  }
  if (why)
    zp_ck_report(c, ZP_CK_CAA, &at_value, "CAA %s value \"%.*s\": %s", known[k], (int)vn,
                 (const char *)v, why);
}
