/* rdata_field.c -- the RDATA field primitives every reader builds on: reporting, appending wire
 * octets, taking the next field, numbers, addresses, names, gateways, escapes, hex and base64;
 * and names in RFC 3597 octets. The dispatchers (rdata_text.c, rdata_wire.c) and the kinds
 * (rdata_dnssec.c, rdata_place.c, rdata_svcb.c, rdata_legacy.c) call down into this file; it
 * calls none of them. */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rdata_int.h"

/* The name of the field kind being read, or NULL. */
static const char *field_name(const zp_rd *r, char buf[ZP_RRTYPE_TEXT_MAX * 4])
{
  const uint8_t *k = zp_rrtype_kinds(r->in->type);
  if (!r->kind || !k || *r->kind == ZP_K_END)
    return NULL;
  return zp_rrtype_field_name(r->in->type, (size_t)(r->kind - k), buf);
}

bool zp_rd_fail(zp_rd *r, size_t field, size_t offset, const char *fmt, ...)
{
  char msg[sizeof r->err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* a field its RFC names is named first, where the message does not name the type already
   * (and with it the field): "MX preference: ..." */
  char nb[ZP_RRTYPE_TEXT_MAX * 4];
  const char *name = field < r->in->nfields ? field_name(r, nb) : NULL;
  size_t n = 0;
  if (name && !strstr(msg, r->tname)) {
    int k = snprintf(r->err->msg, sizeof msg, "%s %s: ", r->tname, name);
    n = k > 0 && (size_t)k < sizeof msg ? (size_t)k : 0;
  }
  size_t len = strnlen(msg, sizeof msg - 1 - n);
  memcpy(r->err->msg + n, msg, len);
  r->err->msg[n + len] = '\0';
  r->err->field = field;
  r->err->offset = offset;
  return false;
}

size_t zp_rd_max(uint16_t type)
{
  return ZP_RRSET_LOAD_MAX - zp_rdata_load_cost(type, 0);
}

bool zp_rd_too_long(zp_rd *r, size_t fi)
{
  return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "%s RDATA longer than %zu octets: " ZP_RRSET_LOAD_WHY,
                    r->tname, r->max);
}

bool zp_rd_put(zp_rd *r, const void *p, size_t n)
{
  if (n > r->max - r->n)
    return zp_rd_too_long(r, r->fi ? r->fi - 1 : 0);
  memcpy(r->out + r->n, p, n);
  r->n += n;
  return true;
}

bool zp_rd_put_u8(zp_rd *r, uint32_t v)
{
  uint8_t b = (uint8_t)v;
  return zp_rd_put(r, &b, 1);
}

bool zp_rd_put_u16(zp_rd *r, uint32_t v)
{
  uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};
  return zp_rd_put(r, b, 2);
}

bool zp_rd_put_u32(zp_rd *r, uint32_t v)
{
  uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
  return zp_rd_put(r, b, 4);
}

/* The next field, or false (reported) when the record has no more. */
bool zp_rd_next(zp_rd *r, const zp_field **f)
{
  if (r->fi < r->in->nfields) {
    *f = &r->in->fields[r->fi++];
    /* as BIND and dnspython: quotes make a character-string, and nothing else */
    if ((*f)->quoted && !(r->kind && (r->ops[*r->kind].flags & ZP_RD_QUOTED)))
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                        "\"%.*s\" is quoted, but this %s RDATA field is "
                        "not a character-string",
                        (int)(*f)->len, (*f)->text, r->tname);
    return true;
  }
  /* the fields read, the one missing, and one for each field kind still to come */
  size_t need = r->fi + 1;
  for (const uint8_t *k = r->kind + 1; *r->kind != ZP_K_END && *k != ZP_K_END; k++)
    need += !(r->ops[*k].flags & ZP_RD_OPTIONAL);
  char nb[ZP_RRTYPE_TEXT_MAX * 4];
  const char *name = field_name(r, nb);
  return zp_rd_fail(r, r->in->nfields, 0, "%s RDATA needs at least %zu field%s, found %zu%s%s%s",
                    r->tname, need, need == 1 ? "" : "s", r->in->nfields,
                    name ? ": the " : "", name ? name : "", name ? " is missing" : "");
}

bool zp_rd_digits(const zp_field *f, uint64_t max, uint64_t *v)
{
  if (f->len == 0 || f->len > 20)
    return false;
  uint64_t x = 0;
  for (size_t i = 0; i < f->len; i++) {
    if (f->text[i] < '0' || f->text[i] > '9')
      return false;
    x = x * 10 + (uint64_t)(f->text[i] - '0');
    if (x > max)
      return false;
  }
  *v = x;
  return true;
}

bool zp_rd_number_or_name(const zp_field *f, uint64_t max, const zp_rd_name *names, size_t n,
                          uint64_t *v)
{
  if (zp_rd_digits(f, max, v))
    return true;
  for (size_t i = 0; i < n; i++) {
    if (strlen(names[i].name) == f->len && strncasecmp(names[i].name, f->text, f->len) == 0) {
      *v = names[i].num;
      return true;
    }
  }
  return false;
}

int zp_rd_hexval(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
    return (c | 0x20) - 'a' + 10;
  return -1;
}

bool zp_rd_number(zp_rd *r, uint64_t max, uint64_t *v, const char *what)
{
  const zp_field *f;
  if (!zp_rd_next(r, &f))
    return false;
  if (zp_rd_digits(f, max, v))
    return true;
  if (what)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not %s", (int)f->len, f->text,
                      what);
  return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a number from 0 to %llu",
                    (int)f->len, f->text, (unsigned long long)max);
}

bool zp_period_parse(const char *text, size_t len, uint32_t max, uint32_t *value)
{
  uint64_t total = 0, v = 0;
  bool have_digits = false, units = false;
  for (size_t i = 0; i < len; i++) {
    char ch = text[i];
    if (ch >= '0' && ch <= '9') {
      v = v * 10 + (uint64_t)(ch - '0');
      have_digits = true;
      if (v > max)
        return false;
      continue;
    }
    uint64_t mult;
    switch (ch | 0x20) {
    case 's': mult = 1; break;
    case 'm': mult = 60; break;
    case 'h': mult = 3600; break;
    case 'd': mult = 86400; break;
    case 'w': mult = 604800; break;
    default: return false;
    }
    if (!have_digits)
      return false;
    total += v * mult;
    v = 0;
    have_digits = false;
    units = true;
    if (total > max)
      return false;
  }
  if (have_digits)
    total += v;
  else if (!units)
    return false;
  if (total > max)
    return false;
  *value = (uint32_t)total;
  return true;
}

/* An IPv4 address in the dotted-decimal form inet_pton(3) takes (RFC 1123 section 2.1's four
 * decimal octets, no leading zero, none above 255), read here because most records of a zone
 * are A records and inet_pton copies and scans the text again. */
static bool ipv4_text(const char *s, size_t len, uint8_t out[4])
{
  size_t i = 0;
  for (int k = 0; k < 4; k++) {
    if (k > 0 && (i == len || s[i++] != '.'))
      return false;
    size_t at = i;
    unsigned v = 0;
    while (i < len && i - at < 3 && s[i] >= '0' && s[i] <= '9')
      v = v * 10 + (unsigned)(s[i++] - '0');
    if (i == at || v > 255 || (s[at] == '0' && i - at > 1))
      return false;
    out[k] = (uint8_t)v;
  }
  return i == len;
}

bool zp_rd_address(zp_rd *r, int af)
{
  const zp_field *f;
  char text[INET6_ADDRSTRLEN + 1];
  uint8_t a[16];
  if (!zp_rd_next(r, &f))
    return false;
  bool ok = af == AF_INET ? ipv4_text(f->text, f->len, a)
                          : f->len < sizeof text && !memchr(f->text, '\0', f->len);
  if (ok && af != AF_INET) {
    memcpy(text, f->text, f->len);
    text[f->len] = '\0';
    ok = inet_pton(af, text, a) == 1;
  }
  if (!ok)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "invalid %s address in %s RDATA: \"%.*s\"",
                af == AF_INET ? "IPv4" : "IPv6", r->tname, (int)f->len, f->text);
  return zp_rd_put(r, a, af == AF_INET ? 4 : 16);
}

/* A label policy's warning about the name in the field just read (zp_name_error.warn). */
static void name_warning(void *user, size_t offset, const char *msg)
{
  const zp_rd *r = user;
  r->in->warn(r->in->user, r->fi - 1, offset, msg);
}

bool zp_rd_dname(zp_rd *r)
{
  const zp_field *f;
  uint8_t wire[ZP_NAME_MAX];
  size_t len;
  zp_name_error nerr;
  if (!zp_rd_next(r, &f))
    return false;
  nerr.offset = 0;
  nerr.msg[0] = '\0';
  nerr.warn = r->in->warn ? name_warning : NULL;
  nerr.user = r;
  bool relative;
  zp_status st = zp_name_parse_rel(f->text, f->len, r->in->origin, r->conv, wire, &len,
                                   &relative, &nerr);
  if (st != ZP_OK)
    return zp_rd_fail(r, r->fi - 1, nerr.offset, "%s", nerr.msg[0] ? nerr.msg : zp_strerror(st));
  if (relative && r->in->relative)
    *r->in->relative = true;
  return zp_rd_put(r, wire, len);
}

bool zp_rd_gateway(zp_rd *r, unsigned type, const char *none)
{
  const zp_field *f;
  switch (type) {
  case 0:
    if (!zp_rd_next(r, &f))
      return false;
    if (f->len != 1 || f->text[0] != '.')
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\": %s", (int)f->len, f->text,
                        none);
    return true;
  case 1: return zp_rd_address(r, AF_INET);
  case 2: return zp_rd_address(r, AF_INET6);
  default: return zp_rd_dname(r);
  }
}

size_t zp_rd_unescape(const char *text, size_t len, uint8_t *out, size_t cap)
{
  size_t n = 0;
  for (size_t i = 0; i < len; i++, n++) {
    uint8_t c = (uint8_t)text[i];
    if (c == '\\' && i + 1 < len) {
      c = (uint8_t)text[++i];
      if (c >= '0' && c <= '9' && i + 2 < len) {
        c = (uint8_t)((c - '0') * 100 + (text[i + 1] - '0') * 10 + (text[i + 2] - '0'));
        i += 2;
      }
    }
    if (n < cap)
      out[n] = c;
  }
  return n;
}

bool zp_rd_hex_feed(zp_rd *r, const zp_field *f, size_t from, bool dots, int *half,
                    size_t *octets)
{
  for (size_t i = from; i < f->len; i++) {
    if (dots && f->text[i] == '.')
      continue;
    int v = zp_rd_hexval(f->text[i]);
    if (v < 0)
      return zp_rd_fail(r, r->fi - 1, i, "invalid hex digit '%c' in %s RDATA", f->text[i],
                        r->tname);
    if (*half < 0) {
      *half = v;
      continue;
    }
    if (!zp_rd_put_u8(r, (uint32_t)(*half << 4 | v)))
      return false;
    *half = -1;
    ++*octets;
  }
  return true;
}

/* Base16 in one field, or in every field to the end (rest): an even number of digits, at
 * least two; pieces may split an octet. */
bool zp_rd_hex(zp_rd *r, bool rest)
{
  const zp_field *f;
  int half = -1;
  size_t octets = 0;
  if (!zp_rd_next(r, &f))
    return false;
  for (;;) {
    if (!zp_rd_hex_feed(r, f, 0, false, &half, &octets))
      return false;
    if (!rest || r->fi == r->in->nfields)
      break;
    if (!zp_rd_next(r, &f))
      return false;
  }
  if (half >= 0)
    return zp_rd_fail(r, r->fi - 1, f->len, "odd number of hex digits in %s RDATA", r->tname);
  if (octets == 0)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "no hex digits in %s RDATA", r->tname);
  return true;
}

static int b64val(char c)
{
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  return c == '+' ? 62 : c == '/' ? 63 : -1;
}

bool zp_rd_b64_feed(zp_rd *r, zp_b64 *s, const char *text, size_t len, size_t fi, size_t at)
{
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (s->pad > 0 && c != '=')
      return zp_rd_fail(r, fi, at + i, "base64 in %s RDATA goes on after its padding",
                        r->tname);
    if (c == '=' ? s->have < 2 : b64val(c) < 0)
      return zp_rd_fail(r, fi, at + i, "invalid base64 character '%c' in %s RDATA", c,
                        r->tname);
    if (c == '=')
      s->pad++;
    s->acc = s->acc << 6 | (c == '=' ? 0 : (uint32_t)b64val(c));
    if (++s->have < 4)
      continue;
    uint8_t g[3] = {(uint8_t)(s->acc >> 16), (uint8_t)(s->acc >> 8), (uint8_t)s->acc};
    if ((s->pad == 1 && g[2]) || (s->pad == 2 && (g[1] || g[2])))
      return zp_rd_fail(r, fi, at + i,
                        "base64 in %s RDATA is not canonical: bits after the last "
                        "octet are set (RFC 4648 section 3.5)",
                        r->tname);
    if (!zp_rd_put(r, g, 3 - s->pad))
      return false;
    s->octets += 3 - s->pad;
    s->acc = 0;
    s->have = 0;
  }
  return true;
}

bool zp_rd_b64_end(zp_rd *r, const zp_b64 *s, size_t fi, size_t at)
{
  if (s->have != 0)
    return zp_rd_fail(r, fi, at, "base64 in %s RDATA does not end on a group of four "
                      "characters (RFC 4648 section 4)", r->tname);
  if (s->octets == 0)
    return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "no base64 data in %s RDATA", r->tname);
  return true;
}

/* Base64 in every field to the end: blanks may split it anywhere. */
bool zp_rd_base64(zp_rd *r)
{
  const zp_field *f = NULL;
  zp_b64 s = {0};
  do {
    if (!zp_rd_next(r, &f) || !zp_rd_b64_feed(r, &s, f->text, f->len, r->fi - 1, 0))
      return false;
  } while (r->fi < r->in->nfields);
  return zp_rd_b64_end(r, &s, r->fi - 1, f->len);
}

bool zp_rd_base64_or_none(zp_rd *r, const char *none)
{
  if (!none && r->fi == r->in->nfields)
    return true;
  const zp_field *f = r->fi < r->in->nfields ? &r->in->fields[r->fi] : NULL;
  if (none && f && !f->quoted && f->len == strlen(none) && memcmp(f->text, none, f->len) == 0) {
    r->fi++;
    return true;
  }
  return zp_rd_base64(r);
}

bool zp_rd_invalid(zp_rd *r, const char *why)
{
  return zp_rd_fail(r, 0, ZP_RDATA_FIELD, "generic RDATA is not valid %s RDATA%s%s", r->tname,
                    why ? ": " : "", why ? why : "");
}

/* A name in wire form, uncompressed (RFC 3597 section 4), each label through the label policy;
 * reported at the first hex field. */
bool zp_rd_wire_name(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  uint8_t name[ZP_NAME_MAX];
  size_t n = 0, p = *pos, hexf = r->in->nfields > 2 ? 2 : 0;
  for (;;) {
    if (p >= end || in[p] > ZP_LABEL_MAX || p + 1 + in[p] > end || p - *pos + 1 > ZP_NAME_MAX)
      return zp_rd_invalid(r, NULL);
    size_t raw = in[p];
    if (raw == 0)
      break;
    uint8_t label[ZP_LABEL_MAX + 1];
    size_t len = sizeof label;
    char msg[512] = "";
    size_t at = 0;   /* (a place in the hex, not shown: the field is) */
    zp_status st = ZP_OK;
    if (r->conv->fn) {
      st = r->conv->fn(r->conv->ctx, in + p + 1, raw, label, &len, msg, sizeof msg, &at);
    } else {
      memcpy(label, in + p + 1, raw);
      len = raw;
    }
    if (st != ZP_OK)
      return zp_rd_fail(r, hexf, ZP_RDATA_FIELD, "%s", msg[0] ? msg : zp_strerror(st));
    if (msg[0] && r->in->warn)
      r->in->warn(r->in->user, hexf, ZP_RDATA_FIELD, msg);
    if (n + 1 + len + 1 > ZP_NAME_MAX)
      return zp_rd_fail(r, hexf, ZP_RDATA_FIELD, "name in generic RDATA is longer than 255 octets "
                  "after conversion");
    name[n++] = (uint8_t)len;
    memcpy(name + n, label, len);
    n += len;
    p += 1 + raw;
  }
  name[n++] = 0;
  *pos = p + 1;
  return zp_rd_put(r, name, n);
}

bool zp_rd_wire_copy(zp_rd *r, const uint8_t *in, size_t end, size_t *pos, size_t k)
{
  if (k > end - *pos)
    return zp_rd_invalid(r, NULL);
  *pos += k;
  return zp_rd_put(r, in + *pos - k, k);
}
