/* format.c -- presentation format as ldns writes it, for the field kinds that make up nearly
 * every zone, and as BIND writes it where ldns 1.8 is wrong (SVCB parameters, times from 2^31,
 * WKS, ATMA, an empty CAA value) or silent (AMTRELAY); ldns formats the rest (the DNSSEC kinds,
 * LOC, APL ...). tests/test_emit.c holds each to its oracle. */
#include "format.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/b32hex.h"
#include "record/rrtype.h"
#include "idna/idna.h"
#include "record/wire_name.h"



static size_t put_uint(char *out, uint32_t v)
{
  char tmp[10];
  size_t n = 0, k = 0;
  do
    tmp[n++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  while (n > 0)
    out[k++] = tmp[--n];
  return k;
}

/* An IPv4 address in dotted decimal. */
static size_t put_ipv4(char *o, const uint8_t *a)
{
  size_t k = 0;
  for (size_t i = 0; i < 4; i++) {
    k += put_uint(o + k, a[i]);
    if (i < 3)
      o[k++] = '.';
  }
  return k;
}

/* An IPv6 address as RFC 5952 section 4 writes it (lower-case hex without leading zeros, the
 * longest run of two or more zero groups as "::", the first of equal runs), with the last 32
 * bits in dotted decimal where inet_ntop writes them so, as ldns does: after exactly 96 zero
 * bits, and after ::ffff:. tests/test_emit.c holds it to inet_ntop. */
static size_t put_ipv6(char *o, const uint8_t *a)
{
  static const char hex[] = "0123456789abcdef";
  unsigned w[8];
  int run = -1, runlen = 0;
  for (int i = 0; i < 8; i++)
    w[i] = (unsigned)a[2 * i] << 8 | a[2 * i + 1];
  for (int i = 0; i < 8;) {
    int j = i;
    while (j < 8 && w[j] == 0)
      j++;
    if (j - i > runlen && j - i >= 2) {
      run = i;
      runlen = j - i;
    }
    i = j > i ? j : i + 1;
  }
  size_t k = 0;
  if (run == 0 && (runlen == 6 || (runlen == 5 && w[5] == 0xFFFF))) {
    k = runlen == 5 ? 7 : 2;
    memcpy(o, "::ffff:", k);
    return k + put_ipv4(o + k, a + 12);
  }
  for (int i = 0; i < 8; i++) {
    if (i == run) {
      o[k++] = ':';
      o[k++] = ':';
      i += runlen - 1;
      continue;
    }
    if (i > 0 && i != run + runlen)
      o[k++] = ':';
    bool any = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      unsigned d = w[i] >> shift & 15;
      if (d || any || shift == 0) {
        o[k++] = hex[d];
        any = true;
      }
    }
  }
  return k;
}

static const char b64_digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* An SVCB or HTTPS value octet inside quotes, as BIND writes one: "\\X" for the quote and the
 * backslash, "\\DDD" for a blank and anything not printable ASCII. */
static size_t put_value_octet(char *o, uint8_t c)
{
  if (c == '"' || c == '\\') {
    o[0] = '\\';
    o[1] = (char)c;
    return 2;
  }
  if (c > 0x20 && c < 0x7F) {
    o[0] = (char)c;
    return 1;
  }
  o[0] = '\\';
  o[1] = (char)('0' + c / 100);
  o[2] = (char)('0' + c / 10 % 10);
  o[3] = (char)('0' + c % 10);
  return 4;
}

static size_t put_base64(char *o, const uint8_t *d, size_t n)
{
  size_t k = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) |
                 (i + 2 < n ? d[i + 2] : 0);
    o[k++] = b64_digits[v >> 18];
    o[k++] = b64_digits[v >> 12 & 63];
    o[k++] = i + 1 < n ? b64_digits[v >> 6 & 63] : '=';
    o[k++] = i + 2 < n ? b64_digits[v & 63] : '=';
  }
  return k;
}

/* SVCB and HTTPS parameters d[0..n) (wire form the reader checked) in the presentation form of
 * RFC 9460 appendix A that BIND 9.18 writes, which BIND, NSD 4.6, Knot 3.2, dnspython and
 * zonepuny all read back as the same octets: keys by the names they all know (zp_svckey_name),
 * alpn as a quoted list with ',' and '\\' escaped twice (appendix A.1), ech in base64, other
 * values quoted. ldns 1.8 writes alpn unescaped, which BIND reads as other ids. */
static bool put_svcparams(zp_buf *line, const uint8_t *d, size_t n)
{
  for (size_t i = 0; i + 4 <= n;) {
    uint16_t key = (uint16_t)(d[i] << 8 | d[i + 1]);
    size_t len = (size_t)(d[i + 2] << 8 | d[i + 3]);
    const uint8_t *v = d + i + 4;
    char kb[ZP_RRTYPE_TEXT_MAX];
    const char *name = zp_svckey_name(key, kb);
    size_t nl = strlen(name);
    if (len > n - i - 4 || !zp_buf_reserve(line, 24 + nl + 8 * len))
      return false;
    char *o = line->p + line->len;
    size_t k = 0;
    if (i > 0)
      o[k++] = ' ';
    memcpy(o + k, name, nl);
    k += nl;
    if (len > 0)
      o[k++] = '=';
    switch (key) {
    case ZP_SVC_MANDATORY:
      for (size_t j = 0; j + 1 < len; j += 2) {
        const char *m = zp_svckey_name((uint16_t)(v[j] << 8 | v[j + 1]), kb);
        if (j > 0)
          o[k++] = ',';
        memcpy(o + k, m, strlen(m));
        k += strlen(m);
      }
      break;
    case ZP_SVC_PORT:
      k += put_uint(o + k, len == 2 ? (uint32_t)(v[0] << 8 | v[1]) : 0);
      break;
    case ZP_SVC_IPV4HINT:
    case ZP_SVC_IPV6HINT: {
      size_t a = key == ZP_SVC_IPV4HINT ? 4 : 16;
      for (size_t j = 0; j + a <= len; j += a) {
        if (j > 0)
          o[k++] = ',';
        k += a == 4 ? put_ipv4(o + k, v + j) : put_ipv6(o + k, v + j);
      }
      break;
    }
    case ZP_SVC_ECH:
      k += put_base64(o + k, v, len);
      break;
    case ZP_SVC_ALPN:
      o[k++] = '"';
      for (size_t j = 0; j < len; j += 1u + v[j]) {
        if (j > 0)
          o[k++] = ',';
        for (size_t m = 1; m <= v[j] && j + m < len; m++) {
          if (v[j + m] == ',' || v[j + m] == '\\') {   /* the list's escape, then the string's */
            o[k++] = '\\';
            o[k++] = '\\';
          }
          k += put_value_octet(o + k, v[j + m]);
        }
      }
      o[k++] = '"';
      break;
    default:
      if (len == 0)
        break;
      o[k++] = '"';
      for (size_t j = 0; j < len; j++)
        k += put_value_octet(o + k, v[j]);
      o[k++] = '"';
      break;
    }
    line->len += k;
    i += 4 + len;
  }
  return true;
}

/* The types of a bitmap's n octets, the first octet's high bit type base, by the names every
 * reader takes in a type list, separated by blanks (none before the first while *first). */
static bool put_types(zp_format *fm, const uint8_t *d, size_t n, size_t base, bool *first)
{
  for (size_t i = 0; i < n; i++)
    for (unsigned b = 0; b < 8; b++) {
      if (!(d[i] & (0x80 >> b)))
        continue;
      char tb[ZP_RRTYPE_TEXT_MAX];
      const char *name = zp_rrtype_list_name((uint16_t)(base + i * 8 + b), tb);
      if (!(*first || zp_buf_put(&fm->line, " ", 1)) || !zp_buf_put(&fm->line, name, strlen(name)))
        return false;
      *first = false;
    }
  return true;
}

/* One RDATA field the way ldns_rdf2buffer_str writes it; the types listed are the ones the
 * differential test (tests/test_emit.c) proves identical, the rest are ldns's own output. */
enum { PUT_NOMEM, PUT_DONE, PUT_NOT_MINE };

static int put_field(zp_format *fm, ldns_rdf_type t, const uint8_t *d, size_t n)
{
  switch (t) {
  case LDNS_RDF_TYPE_DNAME:
    if (!zp_buf_reserve(&fm->line, ZP_NAME_UNICODE_MAX))
      return PUT_NOMEM;
    fm->line.len += fm->unicode ? zp_name_text_unicode(fm->line.p + fm->line.len, d, fm->idna2008)
                                    : zp_name_text(fm->line.p + fm->line.len, d);
    return PUT_DONE;
  case LDNS_RDF_TYPE_A:
    if (n != 4 || !zp_buf_reserve(&fm->line, 16))
      break;
    fm->line.len += put_ipv4(fm->line.p + fm->line.len, d);
    return PUT_DONE;
  case LDNS_RDF_TYPE_AAAA:
    if (n != 16 || !zp_buf_reserve(&fm->line, INET6_ADDRSTRLEN))
      break;
    fm->line.len += put_ipv6(fm->line.p + fm->line.len, d);
    return PUT_DONE;
  case LDNS_RDF_TYPE_INT8:
  case LDNS_RDF_TYPE_ALG:
    if (n != 1 || !zp_buf_reserve(&fm->line, 3))
      break;
    fm->line.len += put_uint(fm->line.p + fm->line.len, d[0]);
    return PUT_DONE;
  case LDNS_RDF_TYPE_INT16:
    if (n != 2 || !zp_buf_reserve(&fm->line, 5))
      break;
    fm->line.len += put_uint(fm->line.p + fm->line.len, (uint32_t)d[0] << 8 | d[1]);
    return PUT_DONE;
  case LDNS_RDF_TYPE_INT32:
  case LDNS_RDF_TYPE_PERIOD:
    if (n != 4 || !zp_buf_reserve(&fm->line, 10))
      break;
    fm->line.len += put_uint(fm->line.p + fm->line.len, (uint32_t)d[0] << 24 |
                             (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3]);
    return PUT_DONE;
  case LDNS_RDF_TYPE_STR:
  case LDNS_RDF_TYPE_LONG_STR: {
    /* a character-string after its length octet; CAA's value and URI's target without one */
    size_t skip = t == LDNS_RDF_TYPE_STR;
    if ((skip && (n < 1 || d[0] != n - 1)) || !zp_buf_reserve(&fm->line, 2 + 4 * n))
      break;
    char *o = fm->line.p + fm->line.len;
    size_t k = 0;
    o[k++] = '"';
    for (size_t i = skip; i < n; i++) {
      uint8_t c = d[i];
      if (c == '"' || c == '\\') {
        o[k++] = '\\';
        o[k++] = (char)c;
      } else if ((c >= 0x20 && c < 0x7F) || c == '\t') {
        /* ldns leaves a tab as it is inside quotes */
        o[k++] = (char)c;
      } else {
        o[k++] = '\\';
        o[k++] = (char)('0' + c / 100);
        o[k++] = (char)('0' + c / 10 % 10);
        o[k++] = (char)('0' + c % 10);
      }
    }
    o[k++] = '"';
    fm->line.len += k;
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_TAG:
    /* CAA's tag: letters and digits after a length octet (the reader checked them) */
    if (n < 1 || d[0] != n - 1 || !zp_buf_put(&fm->line, d + 1, n - 1))
      break;
    return PUT_DONE;
  case LDNS_RDF_TYPE_NSEC3_SALT:
    /* RFC 5155 section 3.3: "-" for no salt, else hex; ldns 1.8 writes "- " */
    if (n < 1 || d[0] != n - 1)
      break;
    if (n == 1)
      return zp_buf_put(&fm->line, "-", 1) ? PUT_DONE : PUT_NOMEM;
    return put_field(fm, LDNS_RDF_TYPE_HEX, d + 1, n - 1);
  case LDNS_RDF_TYPE_HEX: {
    if (n == 0 || !zp_buf_reserve(&fm->line, 2 * n))
      break;
    static const char hex[] = "0123456789abcdef";
    char *o = fm->line.p + fm->line.len;
    for (size_t i = 0; i < n; i++) {
      o[2 * i] = hex[d[i] >> 4];
      o[2 * i + 1] = hex[d[i] & 15];
    }
    fm->line.len += 2 * n;
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_NSEC3_NEXT_OWNER: {
    /* RFC 5155 section 3.3: base32hex without padding, as BIND writes it and as zonepuny reads
     * it back; ldns pads a hash whose length is not a multiple of 5 octets with '=' */
    if (n < 2 || d[0] != n - 1 || !zp_buf_reserve(&fm->line, (n - 1) * 8 / 5 + 1))
      break;
    fm->line.len += zp_b32hex(fm->line.p + fm->line.len, d + 1, n - 1);
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_B64: {
    if (n == 0 || !zp_buf_reserve(&fm->line, (n + 2) / 3 * 4))
      break;
    fm->line.len += put_base64(fm->line.p + fm->line.len, d, n);
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_AMTRELAY: {
    /* RFC 8777 section 4.2: D bit, type, relay ("." for none); ldns 1.8 has no AMTRELAY */
    if (n < 1 || !zp_buf_reserve(&fm->line, 8 + ZP_NAME_UNICODE_MAX))
      break;
    char *o = fm->line.p + fm->line.len;
    size_t k = 0, type = d[0] & 0x7F;
    o[k++] = (char)('0' + (d[0] >> 7));
    o[k++] = ' ';
    k += put_uint(o + k, (uint32_t)type);
    o[k++] = ' ';
    if (type == 0 && n == 1) {
      o[k++] = '.';
    } else if ((type == 1 && n == 5) || (type == 2 && n == 17)) {
      k += type == 1 ? put_ipv4(o + k, d + 1) : put_ipv6(o + k, d + 1);
    } else if (type == 3) {
      k += fm->unicode ? zp_name_text_unicode(o + k, d + 1, fm->idna2008)
                       : zp_name_text(o + k, d + 1);
    } else {
      break;
    }
    fm->line.len += k;
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_ATMA: {
    /* an AESA in hex (format 0) or "+" and E.164 digits (format 1), as BIND writes them; ldns
     * 1.8 writes the format octet too, as part of the hex */
    if (n < 2 || d[0] > 1 || !zp_buf_reserve(&fm->line, 2 * n))
      break;
    char *o = fm->line.p + fm->line.len;
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    if (d[0] == 1) {
      o[k++] = '+';
      memcpy(o + k, d + 1, n - 1);
      k += n - 1;
    } else {
      for (size_t i = 1; i < n; i++) {
        o[k++] = hex[d[i] >> 4];
        o[k++] = hex[d[i] & 15];
      }
    }
    fm->line.len += k;
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_TIME: {
    /* RFC 4034 section 3.2: the date v seconds after 1970, to 2106; ldns 1.8 writes v from 2^31
     * on as a date before 1970, which zonepuny and dnspython do not read */
    struct tm tm;
    time_t v = (time_t)((uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3]);
    if (n != 4 || !gmtime_r(&v, &tm) || !zp_buf_reserve(&fm->line, 32))
      break;
    fm->line.len += strftime(fm->line.p + fm->line.len, 32, "%Y%m%d%H%M%S", &tm);
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_WKS: {
    /* RFC 1035 section 3.4.2: the protocol and the ports of its bitmap, by number: ldns 1.8
     * writes ports by the service names of this machine's /etc/services, for any protocol,
     * which BIND then reads as other ports */
    if (n < 1 || !zp_buf_reserve(&fm->line, 4 + 6 * 8 * (n - 1)))
      break;
    char *o = fm->line.p + fm->line.len;
    size_t k = put_uint(o, d[0]);
    for (size_t i = 1; i < n; i++)
      for (unsigned b = 0; b < 8; b++)
        if (d[i] & (0x80 >> b)) {
          o[k++] = ' ';
          k += put_uint(o + k, (uint32_t)((i - 1) * 8 + b));
        }
    fm->line.len += k;
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_SVCPARAMS:
    return put_svcparams(&fm->line, d, n) ? PUT_DONE : PUT_NOMEM;
  case LDNS_RDF_TYPE_TYPE: {
    char b[ZP_RRTYPE_TEXT_MAX];
    if (n != 2)
      break;
    const char *name = zp_rrtype_list_name((uint16_t)(d[0] << 8 | d[1]), b);
    return zp_buf_put(&fm->line, name, strlen(name)) ? PUT_DONE : PUT_NOMEM;
  }
  case LDNS_RDF_TYPE_BITMAP: {
    /* RFC 4034 section 4.1.2's windows (the reader checked their form) */
    bool first = true;
    for (size_t i = 0; i + 2 <= n && i + 2 + d[i + 1] <= n; i += 2 + d[i + 1])
      if (!put_types(fm, d + i + 2, d[i + 1], (size_t)d[i] * 256, &first))
        return PUT_NOMEM;
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_UNKNOWN:
    /* NXT's type bitmap (RFC 2535 section 5.2; ldns's field type for it, which ldns writes as
     * "\\# len hex", text no reader takes for NXT), as BIND reads it (bit 0, another format, the
     * reader refuses) */
    return put_types(fm, d, n, 0, &(bool){true}) ? PUT_DONE : PUT_NOMEM;
  default:
    break;
  }
  return PUT_NOT_MINE;
}

static bool put_rdf(zp_format *fm, const ldns_rdf *r)
{
  int done = put_field(fm, ldns_rdf_get_type(r), ldns_rdf_data(r), ldns_rdf_size(r));
  if (done != PUT_NOT_MINE)
    return done == PUT_DONE;
  ldns_buffer_clear(fm->text);
  return ldns_rdf2buffer_str(fm->text, r) == LDNS_STATUS_OK && zp_buf_put(&fm->line, ldns_buffer_begin(fm->text), ldns_buffer_position(fm->text));
}

static bool head(zp_format *fm, const uint8_t *owner, uint32_t ttl, uint16_t rclass,
                 const char *ttext)
{
  char cb[ZP_RRTYPE_TEXT_MAX];
  const char *ctext = zp_rrclass_name(rclass, cb);
  size_t clen = strlen(ctext), tlen = strlen(ttext);
  fm->line.len = 0;
  if (!zp_buf_reserve(&fm->line, ZP_NAME_UNICODE_MAX + 16 + clen + tlen))
    return false;
  char *o = fm->line.p;
  size_t k = fm->unicode ? zp_name_text_unicode(o, owner, fm->idna2008) : zp_name_text(o, owner);
  o[k++] = '\t';
  k += put_uint(o + k, ttl);
  o[k++] = '\t';
  memcpy(o + k, ctext, clen);
  k += clen;
  o[k++] = '\t';
  memcpy(o + k, ttext, tlen);
  fm->line.len = k + tlen;
  return true;
}

/* Owner, TTL, class and type as ldns_rr2buffer_str writes them, each followed by a tab but the
 * type; the mnemonics are the type table's, which tests/test_rrtype.c proves are ldns's. */
bool zp_format_head(zp_format *fm, const uint8_t *owner, uint32_t ttl, uint16_t rclass,
                    uint16_t type)
{
  char tb[ZP_RRTYPE_TEXT_MAX];
  return head(fm, owner, ttl, rclass, zp_rrtype_name(type, tb));
}

bool zp_format_generic(zp_format *fm, const uint8_t *owner, uint32_t ttl, uint16_t rclass,
                       uint16_t type, const uint8_t *rdata, size_t rdlen)
{
  char tb[ZP_RRTYPE_TEXT_MAX], len[24];
  snprintf(tb, sizeof tb, "TYPE%u", (unsigned)type);
  int n = snprintf(len, sizeof len, "\t\\# %zu", rdlen);
  return head(fm, owner, ttl, rclass, tb) && zp_buf_put(&fm->line, len, (size_t)n) &&
         (rdlen == 0 || (zp_buf_put(&fm->line, " ", 1) &&
                         put_field(fm, LDNS_RDF_TYPE_HEX, rdata, rdlen) == PUT_DONE)) &&
         zp_buf_put(&fm->line, "\n", 1);
}

/* ldns_rr2buffer_str's layout (owner, TTL, class, type, fields separated by one space) with
 * the common field types formatted here: ldns prints a name one character at a time through
 * printf, which made it 90% of the run time. DNSKEY keeps ldns's key-id comment (not under
 * --unicode, which is for reading, not for loading). */
zp_status zp_format_rr(zp_format *fm, const ldns_rr *rr)
{
  uint16_t type = (uint16_t)ldns_rr_get_type(rr);
  size_t count = ldns_rr_rd_count(rr);
  if (!zp_format_head(fm, ldns_rdf_data(ldns_rr_owner(rr)), ldns_rr_ttl(rr),
                      (uint16_t)ldns_rr_get_class(rr), type))
    return ZP_ENOMEM;
  if (type == LDNS_RR_TYPE_DNSKEY && !fm->unicode) {
    /* ldns's fields and comment follow the fourth tab; its owner text has none (a tab in a
     * name is \009), and the owner is ours, escaped as format_name does */
    ldns_buffer_clear(fm->text);
    if (ldns_rr2buffer_str_fmt(fm->text, ldns_output_format_default, rr) != LDNS_STATUS_OK)
      return ZP_ENOMEM;
    const char *t = (const char *)ldns_buffer_begin(fm->text);
    size_t len = ldns_buffer_position(fm->text), i = 0;
    for (int tabs = 0; i < len && tabs < 4; i++)
      tabs += t[i] == '\t';
    return zp_buf_put(&fm->line, t + i - 1, len - (i - 1)) ? ZP_OK : ZP_ENOMEM;
  }
  if (count == 0 && !zp_buf_put(&fm->line, "\t\\# 0", 5))
    return ZP_ENOMEM;
  for (size_t i = 0; i < count; i++)
    if (!zp_buf_put(&fm->line, i == 0 ? "\t" : " ", 1) || !put_rdf(fm, ldns_rr_rdf(rr, i)))
      return ZP_ENOMEM;
  return zp_buf_put(&fm->line, "\n", 1) ? ZP_OK : ZP_ENOMEM;
}


bool zp_format_field(zp_format *fm, ldns_rdf_type t, const uint8_t *d, size_t n, bool first)
{
  return zp_buf_put(&fm->line, first ? "\t" : " ", 1) && put_field(fm, t, d, n) == PUT_DONE;
}

bool zp_format_init(zp_format *fm, bool unicode, bool idna2008)
{
  *fm = (zp_format){.unicode = unicode, .idna2008 = idna2008, .text = ldns_buffer_new(512)};
  return fm->text != NULL;
}

void zp_format_free(zp_format *fm)
{
  if (fm->text)
    ldns_buffer_free(fm->text);
  zp_buf_free(&fm->line);
}
