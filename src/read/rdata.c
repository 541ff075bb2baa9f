/* rdata.c -- RDATA from presentation form to wire form: one strict parser per field kind, chosen
 * by the type table (rrtype.c); the DNSSEC kinds are in rdata_dnssec.c, addresses, prefixes and
 * places in rdata_place.c, SVCB in rdata_svcb.c, old types in rdata_legacy.c, RFC 3597 RDATA in
 * rdata_wire.c. Nothing wraps, pads or guesses: a field is in range and well formed, or it is an
 * error at its place. */
#include "rdata.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rdata_int.h"

bool zp_rd_fail(zp_rd *r, size_t field, size_t offset, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err->msg, sizeof r->err->msg, fmt, ap);
  va_end(ap);
  r->err->field = field;
  r->err->offset = offset;
  return false;
}

bool zp_rd_put(zp_rd *r, const void *p, size_t n)
{
  if (n > ZP_RDATA_MAX - r->n)
    return zp_rd_fail(r, r->fi ? r->fi - 1 : 0, ZP_RDATA_FIELD, "%s RDATA longer than %d octets",
                      r->tname, ZP_RDATA_MAX);
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
    if ((*f)->quoted && !r->quoted_ok)
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                        "\"%.*s\" is quoted, but this %s RDATA field is "
                        "not a character-string",
                        (int)(*f)->len, (*f)->text, r->tname);
    return true;
  }
  /* the fields read, the one missing, and one for each field kind still to come */
  size_t need = r->fi + 1;
  for (const uint8_t *k = r->kind + 1; *r->kind != ZP_K_END && *k != ZP_K_END; k++)
    need += *k != ZP_K_OPT_STRING && *k != ZP_K_BITMAP0 && *k != ZP_K_SVCPARAMS;
  return zp_rd_fail(r, r->in->nfields, 0, "%s RDATA needs at least %zu field%s, found %zu",
                    r->tname, need, need == 1 ? "" : "s", r->in->nfields);
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

static bool integer(zp_rd *r, unsigned bits)
{
  uint64_t max = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1, v;
  if (!zp_rd_number(r, max, &v, NULL))
    return false;
  return bits == 8 ? zp_rd_put_u8(r, (uint32_t)v) : bits == 16 ? zp_rd_put_u16(r, (uint32_t)v)
                                                          : zp_rd_put_u32(r, (uint32_t)v);
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

static bool period(zp_rd *r)
{
  const zp_field *f;
  uint32_t v;
  if (!zp_rd_next(r, &f))
    return false;
  if (!zp_period_parse(f->text, f->len, 0xFFFFFFFFu, &v))
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                      "\"%.*s\" is not a number of seconds up to 4294967295 (units "
                      "s m h d w allowed)",
                      (int)f->len, f->text);
  return zp_rd_put_u32(r, v);
}

bool zp_rd_address(zp_rd *r, int af)
{
  const zp_field *f;
  char text[INET6_ADDRSTRLEN + 1];
  uint8_t a[16];
  if (!zp_rd_next(r, &f))
    return false;
  bool ok = f->len < sizeof text && !memchr(f->text, '\0', f->len);
  if (ok) {
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
  zp_status st = zp_name_parse(f->text, f->len, r->in->origin, r->conv, wire, &len, &nerr);
  if (st != ZP_OK)
    return zp_rd_fail(r, r->fi - 1, nerr.offset, "%s", nerr.msg[0] ? nerr.msg : zp_strerror(st));
  return zp_rd_put(r, wire, len);
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

/* One character-string: a length octet and at most 255 octets (RFC 1035 section 3.3). */
static bool string(zp_rd *r, const zp_field *f)
{
  uint8_t s[255];
  size_t n = zp_rd_unescape(f->text, f->len, s, sizeof s);
  if (n > sizeof s)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                      "character-string of %zu octets in %s RDATA: longer than 255 octets (RFC "
                      "1035 section 3.3)", n, r->tname);
  return zp_rd_put_u8(r, (uint32_t)n) && zp_rd_put(r, s, n);
}

/* Octets without a length, the rest of the RDATA (RFC 8659 CAA value); a URI target (RFC 7553
 * section 4.4) is quoted and not empty. */
static bool octets(zp_rd *r, bool target)
{
  const zp_field *f;
  if (!zp_rd_next(r, &f))
    return false;
  if (target && (!f->quoted || f->len == 0))
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                      "a URI target is a quoted string, not empty (RFC "
                      "7553 section 4.4)");
  size_t room = ZP_RDATA_MAX - r->n, n = zp_rd_unescape(f->text, f->len, r->out + r->n, room);
  if (n > room)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "%s RDATA longer than %d octets", r->tname,
                      ZP_RDATA_MAX);
  r->n += n;
  return true;
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
  const zp_field *f;
  zp_b64 s = {0};
  do {
    if (!zp_rd_next(r, &f) || !zp_rd_b64_feed(r, &s, f->text, f->len, r->fi - 1, 0))
      return false;
  } while (r->fi < r->in->nfields);
  return zp_rd_b64_end(r, &s, r->fi - 1, f->len);
}

/* RFC 8659 section 4.1: a length octet, then letters and digits, at least one. */
static bool tag(zp_rd *r)
{
  const zp_field *f;
  if (!zp_rd_next(r, &f))
    return false;
  bool ok = f->len >= 1 && f->len <= 255;
  for (size_t i = 0; ok && i < f->len; i++) {
    char c = f->text[i];
    ok = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  }
  if (!ok)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                      "invalid CAA tag \"%.*s\": letters and digits only (RFC 8659 "
                      "section 4.1)",
                      (int)f->len, f->text);
  return zp_rd_put_u8(r, (uint32_t)f->len) && zp_rd_put(r, f->text, f->len);
}

/* RFC 4398 section 2.1 certificate types. */
static bool cert_type(zp_rd *r)
{
  static const zp_rd_name types[] = {
    {1, "PKIX"}, {2, "SPKI"}, {3, "PGP"}, {4, "IPKIX"}, {5, "ISPKI"}, {6, "IPGP"},
    {7, "ACPKIX"}, {8, "IACPKIX"}, {253, "URI"}, {254, "OID"},
  };
  const zp_field *f;
  uint64_t v;
  if (!zp_rd_next(r, &f))
    return false;
  if (zp_rd_number_or_name(f, 65535, types, sizeof types / sizeof *types, &v))
    return zp_rd_put_u16(r, (uint32_t)v);
  return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                    "\"%.*s\" is not a certificate type: a number from 0 to 65535 or PKIX, "
                    "SPKI, PGP, IPKIX, ISPKI, IPGP, ACPKIX, IACPKIX, URI, OID (RFC 4398 section "
                    "2.1)",
                    (int)f->len, f->text);
}

static bool field(zp_rd *r, uint8_t kind)
{
  const zp_field *f;
  r->quoted_ok = kind == ZP_K_STRING || kind == ZP_K_OPT_STRING || kind == ZP_K_STRINGS ||
                 kind == ZP_K_OCTETS || kind == ZP_K_TARGET || kind == ZP_K_GPOS;
  switch (kind) {
  case ZP_K_NAME: return zp_rd_dname(r);
  case ZP_K_INT8: return integer(r, 8);
  case ZP_K_INT16: return integer(r, 16);
  case ZP_K_INT32: return integer(r, 32);
  case ZP_K_PERIOD: return period(r);
  case ZP_K_A: return zp_rd_address(r, AF_INET);
  case ZP_K_AAAA: return zp_rd_address(r, AF_INET6);
  case ZP_K_STRING: return zp_rd_next(r, &f) && string(r, f);
  case ZP_K_OPT_STRING:
    /* an empty one is no subaddress at all, as BIND and dnspython read it */
    if (r->fi == r->in->nfields)
      return true;
    return zp_rd_next(r, &f) && (f->len == 0 || string(r, f));
  case ZP_K_STRINGS:
    if (!zp_rd_next(r, &f) || !string(r, f))
      return false;
    while (r->fi < r->in->nfields)
      if (!string(r, &r->in->fields[r->fi++]))
        return false;
    return true;
  case ZP_K_OCTETS: return octets(r, false);
  case ZP_K_TARGET: return octets(r, true);
  case ZP_K_HEX: return zp_rd_hex(r, true);
  case ZP_K_BASE64: return zp_rd_base64(r);
  case ZP_K_ALG: return zp_rd_algorithm(r);
  case ZP_K_TYPE: return zp_rd_type(r);
  case ZP_K_TIME: return zp_rd_time(r);
  case ZP_K_BITMAP: return zp_rd_bitmap(r, false);
  case ZP_K_BITMAP0: return zp_rd_bitmap(r, true);
  case ZP_K_SALT: return zp_rd_salt(r);
  case ZP_K_HASH: return zp_rd_hash(r);
  case ZP_K_TAG: return tag(r);
  case ZP_K_EUI48: return zp_rd_eui(r, 6);
  case ZP_K_EUI64: return zp_rd_eui(r, 8);
  case ZP_K_ILNP64: return zp_rd_ilnp64(r);
  case ZP_K_CERT_TYPE: return cert_type(r);
  case ZP_K_APL: return zp_rd_apl(r);
  case ZP_K_LOC: return zp_rd_loc(r);
  case ZP_K_GATEWAY: return zp_rd_ipseckey_gateway(r);
  case ZP_K_SVCPARAMS: return zp_rd_svcparams(r);
  case ZP_K_KEYDATA: case ZP_K_WKS: case ZP_K_NSAP: case ZP_K_ATMA: case ZP_K_GPOS: case ZP_K_HIP:
  case ZP_K_AMTRELAY:
    return zp_rd_legacy(r, kind);
  default: return zp_rd_fail(r, r->fi, 0, "internal error: field kind %u", kind);
  }
}

zp_status zp_rdata_parse(const zp_rdata_in *in, uint8_t *out, size_t *len, zp_rdata_error *err)
{
  zp_rd r = {.in = in, .out = out, .err = err};
  r.conv = zp_rrtype_lowercases(in->type) ? in->lower : in->keep;
  r.tname = zp_rrtype_name(in->type, r.tb);
  const uint8_t *k = zp_rrtype_kinds(in->type);
  if (!zp_rrtype_reads_text(in->type))
    return zp_rd_fail(&r, 0, 0, "%s has no strict parser", r.tname), ZP_EINVAL;
  for (r.kind = k; *r.kind != ZP_K_END; r.kind++)
    if (!field(&r, *r.kind))
      return ZP_ZONE_SYNTAX;
  if (r.fi == in->nfields && !zp_rd_rules(&r, SIZE_MAX))
    return ZP_ZONE_SYNTAX;
  if (r.fi < in->nfields) {
    const zp_field *f = &in->fields[r.fi];
    zp_rd_fail(&r, r.fi, ZP_RDATA_FIELD, "unexpected \"%.*s\" after the last %s RDATA field",
               (int)f->len, f->text, r.tname);
    return ZP_ZONE_SYNTAX;
  }
  *len = r.n;
  return ZP_OK;
}

zp_loc zp_rdata_error_loc(const zp_rdata_error *err, const zp_record *rec)
{
  if (err->field >= rec->nfields)
    return rec->loc;
  const zp_field *f = &rec->fields[err->field];
  if (err->offset == ZP_RDATA_FIELD)
    return f->loc;
  return zp_loc_at(&f->loc, f->quoted, f->text, f->len, err->offset);
}

