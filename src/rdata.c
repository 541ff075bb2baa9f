/* rdata.c -- RDATA from presentation form to wire form: one strict parser per field kind, chosen
 * by the type table (rrtype.c). Nothing wraps, pads or guesses: a field is in range and well
 * formed, or it is an error at its place. */
#include "rdata.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rrtype.h"

typedef struct rd {
  const zp_rdata_in *in;
  const zp_label_conv *conv;   /* for the RDATA names of this type */
  size_t fi;                   /* the next field */
  bool quoted_ok;              /* the field being read is a character-string */
  uint8_t *out;
  size_t n;
  zp_rdata_error *err;
  char tb[ZP_RRTYPE_TEXT_MAX];
  const char *tname;           /* the type's mnemonic, for messages */
} rd;

ZP_PRINTF(4, 5) static bool fail(rd *r, size_t field, size_t offset, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err->msg, sizeof r->err->msg, fmt, ap);
  va_end(ap);
  r->err->field = field;
  r->err->offset = offset;
  return false;
}

static bool put(rd *r, const void *p, size_t n)
{
  if (n > ZP_RDATA_MAX - r->n)
    return fail(r, r->fi ? r->fi - 1 : 0, ZP_RDATA_FIELD, "%s RDATA longer than %d octets", r->tname,
                ZP_RDATA_MAX);
  memcpy(r->out + r->n, p, n);
  r->n += n;
  return true;
}

static bool put_u8(rd *r, uint32_t v)
{
  uint8_t b = (uint8_t)v;
  return put(r, &b, 1);
}

static bool put_u16(rd *r, uint32_t v)
{
  uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};
  return put(r, b, 2);
}

static bool put_u32(rd *r, uint32_t v)
{
  uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
  return put(r, b, 4);
}

/* The next field, or false (reported) when the record has no more. */
static bool next(rd *r, const zp_field **f)
{
  if (r->fi < r->in->nfields) {
    *f = &r->in->fields[r->fi++];
    /* as BIND and dnspython: quotes make a character-string, and nothing else */
    if ((*f)->quoted && !r->quoted_ok)
      return fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is quoted, but this %s RDATA field is "
                  "not a character-string", (int)(*f)->len, (*f)->text, r->tname);
    return true;
  }
  size_t need = 0;
  const uint8_t *k = zp_rrtype_kinds(r->in->type);
  for (; *k != ZP_K_END; k++)
    need += *k != ZP_K_OPT_STRING && *k != ZP_K_BITMAP0;
  return fail(r, r->in->nfields, 0, "%s RDATA needs at least %zu field%s, found %zu", r->tname,
              need, need == 1 ? "" : "s", r->in->nfields);
}

static bool digits(const zp_field *f, uint64_t max, uint64_t *v)
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

static bool integer(rd *r, unsigned bits)
{
  const zp_field *f;
  uint64_t max = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1, v;
  if (!next(r, &f))
    return false;
  if (!digits(f, max, &v))
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a number from 0 to %llu", (int)f->len, f->text,
                (unsigned long long)max);
  return bits == 8 ? put_u8(r, (uint32_t)v) : bits == 16 ? put_u16(r, (uint32_t)v)
                                                          : put_u32(r, (uint32_t)v);
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

static bool period(rd *r)
{
  const zp_field *f;
  uint32_t v;
  if (!next(r, &f))
    return false;
  if (!zp_period_parse(f->text, f->len, 0xFFFFFFFFu, &v))
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a number of seconds up to 4294967295 (units "
                "s m h d w allowed)", (int)f->len, f->text);
  return put_u32(r, v);
}

static bool address(rd *r, int af)
{
  const zp_field *f;
  char text[INET6_ADDRSTRLEN + 1];
  uint8_t a[16];
  if (!next(r, &f))
    return false;
  bool ok = f->len < sizeof text && !memchr(f->text, '\0', f->len);
  if (ok) {
    memcpy(text, f->text, f->len);
    text[f->len] = '\0';
    ok = inet_pton(af, text, a) == 1;
  }
  if (!ok)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "invalid %s address in %s RDATA: \"%.*s\"",
                af == AF_INET ? "IPv4" : "IPv6", r->tname, (int)f->len, f->text);
  return put(r, a, af == AF_INET ? 4 : 16);
}

static bool name(rd *r)
{
  const zp_field *f;
  uint8_t wire[ZP_NAME_MAX];
  size_t len;
  zp_name_error nerr;
  if (!next(r, &f))
    return false;
  nerr.offset = 0;
  nerr.msg[0] = '\0';
  zp_status st = zp_name_parse(f->text, f->len, r->in->origin, r->conv, wire, &len, &nerr);
  if (st != ZP_OK)
    return fail(r, r->fi - 1, nerr.offset, "%s", nerr.msg[0] ? nerr.msg : zp_strerror(st));
  return put(r, wire, len);
}

/* A field's octets with RFC 1035 section 5.1 escapes resolved (the scanner has checked them:
 * \DDD is three digits up to 255): the first cap of them go to out; returns how many in all. */
static size_t unescape(const zp_field *f, uint8_t *out, size_t cap)
{
  size_t n = 0;
  for (size_t i = 0; i < f->len; i++, n++) {
    uint8_t c = (uint8_t)f->text[i];
    if (c == '\\' && i + 1 < f->len) {
      c = (uint8_t)f->text[++i];
      if (c >= '0' && c <= '9' && i + 2 < f->len) {
        c = (uint8_t)((c - '0') * 100 + (f->text[i + 1] - '0') * 10 + (f->text[i + 2] - '0'));
        i += 2;
      }
    }
    if (n < cap)
      out[n] = c;
  }
  return n;
}

/* One character-string: a length octet and at most 255 octets (RFC 1035 section 3.3). */
static bool string(rd *r, const zp_field *f)
{
  uint8_t s[255];
  size_t n = unescape(f, s, sizeof s);
  if (n > sizeof s)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "invalid character string in %s RDATA: \"%.*s\"", r->tname,
                (int)f->len, f->text);
  return put_u8(r, (uint32_t)n) && put(r, s, n);
}

/* Octets without a length, the rest of the RDATA (RFC 8659 CAA value); a URI target (RFC 7553
 * section 4.4) is quoted and not empty. */
static bool octets(rd *r, bool target)
{
  const zp_field *f;
  if (!next(r, &f))
    return false;
  if (target && (!f->quoted || f->len == 0))
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "a URI target is a quoted string, not empty (RFC "
                "7553 section 4.4)");
  size_t room = ZP_RDATA_MAX - r->n, n = unescape(f, r->out + r->n, room);
  if (n > room)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "%s RDATA longer than %d octets", r->tname, ZP_RDATA_MAX);
  r->n += n;
  return true;
}

static int hexval(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
    return (c | 0x20) - 'a' + 10;
  return -1;
}

/* Base16 in one field, or in every field to the end (rest): an even number of digits, at
 * least two; pieces may split an octet. */
static bool hex(rd *r, bool rest)
{
  const zp_field *f;
  int half = -1;
  size_t octets = 0;
  if (!next(r, &f))
    return false;
  for (;;) {
    for (size_t i = 0; i < f->len; i++) {
      int v = hexval(f->text[i]);
      if (v < 0)
        return fail(r, r->fi - 1, i, "invalid hex digit '%c' in %s RDATA", f->text[i],
                    r->tname);
      if (half < 0) {
        half = v;
        continue;
      }
      if (!put_u8(r, (uint32_t)(half << 4 | v)))
        return false;
      half = -1;
      octets++;
    }
    if (!rest || r->fi == r->in->nfields)
      break;
    if (!next(r, &f))
      return false;
  }
  if (half >= 0)
    return fail(r, r->fi - 1, f->len, "odd number of hex digits in %s RDATA", r->tname);
  if (octets == 0)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "no hex digits in %s RDATA", r->tname);
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

/* Base64 (RFC 4648 section 4) in every field to the end: groups of four characters, '=' only to
 * pad the last group, the bits it drops zero (section 3.5), at least one octet. */
static bool base64(rd *r)
{
  const zp_field *f;
  uint32_t acc = 0;
  unsigned have = 0, pad = 0;
  size_t octets = 0;
  if (!next(r, &f))
    return false;
  for (;;) {
    for (size_t i = 0; i < f->len; i++) {
      char c = f->text[i];
      if (pad > 0 && c != '=')
        return fail(r, r->fi - 1, i, "base64 in %s RDATA goes on after its padding", r->tname);
      if (c == '=' ? have < 2 : b64val(c) < 0)
        return fail(r, r->fi - 1, i, "invalid base64 character '%c' in %s RDATA", c, r->tname);
      if (c == '=')
        pad++;
      acc = acc << 6 | (c == '=' ? 0 : (uint32_t)b64val(c));
      if (++have < 4)
        continue;
      uint8_t g[3] = {(uint8_t)(acc >> 16), (uint8_t)(acc >> 8), (uint8_t)acc};
      if ((pad == 1 && g[2]) || (pad == 2 && (g[1] || g[2])))
        return fail(r, r->fi - 1, i, "base64 in %s RDATA is not canonical: bits after the last "
                    "octet are set (RFC 4648 section 3.5)", r->tname);
      if (!put(r, g, 3 - pad))
        return false;
      octets += 3 - pad;
      acc = 0;
      have = 0;
    }
    if (r->fi == r->in->nfields)
      break;
    if (!next(r, &f))
      return false;
  }
  if (have != 0)
    return fail(r, r->fi - 1, f->len, "base64 in %s RDATA does not end on a group of four "
                "characters (RFC 4648 section 4)", r->tname);
  if (octets == 0)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "no base64 data in %s RDATA", r->tname);
  return true;
}

/* DNSSEC algorithm numbers and mnemonics (IANA's registry; RFC 4034 appendix A.1, RFC 8624). */
static const struct { uint8_t num; char name[20]; } algorithms[] = {
  {1, "RSAMD5"}, {2, "DH"}, {3, "DSA"}, {5, "RSASHA1"}, {6, "DSA-NSEC3-SHA1"},
  {7, "RSASHA1-NSEC3-SHA1"}, {8, "RSASHA256"}, {10, "RSASHA512"}, {12, "ECC-GOST"},
  {13, "ECDSAP256SHA256"}, {14, "ECDSAP384SHA384"}, {15, "ED25519"}, {16, "ED448"},
  {252, "INDIRECT"}, {253, "PRIVATEDNS"}, {254, "PRIVATEOID"},
};

static bool algorithm(rd *r)
{
  const zp_field *f;
  uint64_t v;
  if (!next(r, &f))
    return false;
  if (digits(f, 255, &v))
    return put_u8(r, (uint32_t)v);
  for (size_t i = 0; i < sizeof algorithms / sizeof *algorithms; i++)
    if (strlen(algorithms[i].name) == f->len && strncasecmp(algorithms[i].name, f->text, f->len) == 0)
      return put_u8(r, algorithms[i].num);
  return fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a DNSSEC algorithm: a number from 0 to 255 or "
              "a mnemonic such as RSASHA256", (int)f->len, f->text);
}

static bool type_covered(rd *r)
{
  const zp_field *f;
  uint16_t t;
  if (!next(r, &f))
    return false;
  if (!zp_rrtype_from_text(f->text, f->len, &t))
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "unknown type \"%.*s\"", (int)f->len, f->text);
  return put_u16(r, t);
}

static uint64_t month_days(uint64_t month, uint64_t year)
{
  static const uint8_t days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return days[month - 1] + (month == 2 && leap);
}

/* RFC 4034 section 3.2: YYYYMMDDHHmmSS in UTC, a real date and time, as seconds since 1970
 * modulo 2^32; or the seconds as a decimal number. */
static bool timestamp(rd *r)
{
  const zp_field *f;
  uint64_t v;
  if (!next(r, &f))
    return false;
  if (f->len != 14) {
    if (digits(f, 0xFFFFFFFFu, &v))
      return put_u32(r, (uint32_t)v);
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a time: YYYYMMDDHHmmSS or seconds up to "
                "4294967295 (RFC 4034 section 3.2)", (int)f->len, f->text);
  }
  uint64_t d[6] = {0};
  static const uint8_t width[6] = {4, 2, 2, 2, 2, 2};
  for (size_t i = 0, k = 0; i < 6; i++)
    for (uint8_t w = 0; w < width[i]; w++, k++) {
      if (f->text[k] < '0' || f->text[k] > '9')
        return fail(r, r->fi - 1, k, "\"%.*s\" is not a time: YYYYMMDDHHmmSS (RFC 4034 "
                    "section 3.2)", (int)f->len, f->text);
      d[i] = d[i] * 10 + (uint64_t)(f->text[k] - '0');
    }
  uint64_t y = d[0], mo = d[1], day = d[2];
  bool ok = y >= 1970 && mo >= 1 && mo <= 12 && day >= 1 && day <= month_days(mo, y) &&
            d[3] < 24 && d[4] < 60 && d[5] < 60;
  if (!ok)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a date and time from 1970 on (RFC 4034 "
                "section 3.2)", (int)f->len, f->text);
  uint64_t days = day - 1;
  for (uint64_t yy = 1970; yy < y; yy++)
    days += 337 + month_days(2, yy);
  for (uint64_t m = 1; m < mo; m++)
    days += month_days(m, y);
  uint64_t secs = days * 86400 + d[3] * 3600 + d[4] * 60 + d[5];
  return put_u32(r, (uint32_t)secs);
}

/* RFC 4034 section 4.1.2: the types of every field to the end, in windows of 256; at least one
 * unless empty is allowed. */
static bool bitmap(rd *r, bool empty)
{
  if (!empty && r->fi == r->in->nfields) {
    const zp_field *f;
    return next(r, &f);   /* reports the missing field */
  }
  uint8_t bits[256][32];
  uint8_t used[256] = {0};   /* octets used in each window */
  while (r->fi < r->in->nfields) {
    const zp_field *f;
    uint16_t t;
    if (!next(r, &f))
      return false;
    if (!zp_rrtype_from_text(f->text, f->len, &t))
      return fail(r, r->fi - 1, ZP_RDATA_FIELD, "unknown type \"%.*s\" in the type bitmap", (int)f->len,
                  f->text);
    uint8_t w = (uint8_t)(t >> 8), o = (uint8_t)((t & 0xFF) >> 3);
    if (used[w] == 0)
      memset(bits[w], 0, sizeof bits[w]);
    if (used[w] < o + 1)
      used[w] = (uint8_t)(o + 1);
    bits[w][o] |= (uint8_t)(0x80 >> (t & 7));
  }
  for (unsigned w = 0; w < 256; w++)
    if (used[w] && !(put_u8(r, w) && put_u8(r, used[w]) && put(r, bits[w], used[w])))
      return false;
  return true;
}

/* RFC 5155 section 3.3: the salt as hex, "-" for none; a length octet first. */
static bool salt(rd *r)
{
  const zp_field *f;
  if (r->fi < r->in->nfields && r->in->fields[r->fi].len == 1 &&
      r->in->fields[r->fi].text[0] == '-') {
    r->fi++;
    return put_u8(r, 0);
  }
  size_t at = r->n;
  if (!put_u8(r, 0) || !hex(r, false))
    return false;
  f = &r->in->fields[r->fi - 1];
  if (r->n - at - 1 > 255)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "salt \"%.*s\" is longer than 255 octets", (int)f->len, f->text);
  r->out[at] = (uint8_t)(r->n - at - 1);
  return true;
}

static int b32hexval(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  c |= 0x20;
  return c >= 'a' && c <= 'v' ? c - 'a' + 10 : -1;
}

/* RFC 5155 section 3.3: the next hashed owner in base32hex (RFC 4648 section 7) without padding;
 * a length octet first. */
static bool hash(rd *r)
{
  const zp_field *f;
  if (!next(r, &f))
    return false;
  size_t at = r->n;
  uint32_t acc = 0;
  unsigned bits = 0;
  if (!put_u8(r, 0))
    return false;
  for (size_t i = 0; i < f->len; i++) {
    int v = b32hexval(f->text[i]);
    if (v < 0)
      return fail(r, r->fi - 1, i, "invalid base32hex digit '%c' in %s RDATA (RFC 4648 section "
                  "7, no padding)", f->text[i], r->tname);
    acc = acc << 5 | (uint32_t)v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      if (!put_u8(r, acc >> bits))
        return false;
      acc &= (1u << bits) - 1;
    }
  }
  size_t len = r->n - at - 1;
  /* what is left over must be the zero bits of a whole last digit */
  if (len == 0 || bits >= 5 || acc != 0)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a hash in base32hex (RFC 4648 section 7)",
                (int)f->len, f->text);
  if (len > 255)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "hash \"%.*s\" is longer than 255 octets", (int)f->len, f->text);
  r->out[at] = (uint8_t)len;
  return true;
}

/* RFC 8659 section 4.1: a length octet, then letters and digits, at least one. */
static bool tag(rd *r)
{
  const zp_field *f;
  if (!next(r, &f))
    return false;
  bool ok = f->len >= 1 && f->len <= 255;
  for (size_t i = 0; ok && i < f->len; i++) {
    char c = f->text[i];
    ok = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  }
  if (!ok)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "invalid CAA tag \"%.*s\": letters and digits only (RFC 8659 "
                "section 4.1)", (int)f->len, f->text);
  return put_u8(r, (uint32_t)f->len) && put(r, f->text, f->len);
}

/* RFC 7043: octets as hex pairs joined by '-'. */
static bool eui(rd *r, size_t octets)
{
  const zp_field *f;
  uint8_t a[8];
  if (!next(r, &f))
    return false;
  bool ok = f->len == octets * 3 - 1;
  for (size_t i = 0; ok && i < octets; i++) {
    int hi = hexval(f->text[3 * i]), lo = hexval(f->text[3 * i + 1]);
    ok = hi >= 0 && lo >= 0 && (i + 1 == octets || f->text[3 * i + 2] == '-');
    a[i] = (uint8_t)(hi << 4 | lo);
  }
  if (!ok)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "invalid EUI-%zu address in %s RDATA: \"%.*s\" (RFC 7043)",
                octets * 8, r->tname, (int)f->len, f->text);
  return put(r, a, octets);
}

/* RFC 6742 section 2.3: four groups of one to four hex digits joined by ':'. */
static bool ilnp64(rd *r)
{
  const zp_field *f;
  uint8_t a[8];
  if (!next(r, &f))
    return false;
  size_t i = 0, g = 0;
  bool ok = true;
  for (; ok && g < 4; g++) {
    uint32_t v = 0;
    size_t start = i;
    while (i < f->len && i - start < 5 && hexval(f->text[i]) >= 0)
      v = v << 4 | (uint32_t)hexval(f->text[i++]);
    ok = i > start && i - start <= 4 && (g == 3 ? i == f->len : i < f->len && f->text[i++] == ':');
    a[2 * g] = (uint8_t)(v >> 8);
    a[2 * g + 1] = (uint8_t)v;
  }
  if (!ok)
    return fail(r, r->fi - 1, ZP_RDATA_FIELD, "invalid locator in %s RDATA: \"%.*s\" (RFC 6742)", r->tname,
                (int)f->len, f->text);
  return put(r, a, 8);
}

/* RFC 4398 section 2.1 certificate types. */
static bool cert_type(rd *r)
{
  static const struct { uint16_t num; char name[8]; } types[] = {
    {1, "PKIX"}, {2, "SPKI"}, {3, "PGP"}, {4, "IPKIX"}, {5, "ISPKI"}, {6, "IPGP"},
    {7, "ACPKIX"}, {8, "IACPKIX"}, {253, "URI"}, {254, "OID"},
  };
  const zp_field *f;
  uint64_t v;
  if (!next(r, &f))
    return false;
  if (digits(f, 65535, &v))
    return put_u16(r, (uint32_t)v);
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    if (strlen(types[i].name) == f->len && strncasecmp(types[i].name, f->text, f->len) == 0)
      return put_u16(r, types[i].num);
  return fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a certificate type: a number from 0 "
              "to 65535 or PKIX, SPKI, PGP, IPKIX, ISPKI, IPGP, ACPKIX, IACPKIX, URI, OID (RFC "
              "4398 section 2.1)", (int)f->len, f->text);
}

/* RFC 3123 section 5: [!]afi:address/prefix, afi 1 (IPv4, prefix to 32) or 2 (IPv6, to 128);
 * the address's trailing zero octets are left out of the wire form (section 4). */
static bool apl(rd *r)
{
  while (r->fi < r->in->nfields) {
    const zp_field *f;
    if (!next(r, &f))
      return false;
    char text[INET6_ADDRSTRLEN + 1];
    uint8_t a[16];
    size_t i = f->len > 0 && f->text[0] == '!';
    bool neg = i == 1;
    int af = 0;
    if (i + 2 <= f->len && f->text[i + 1] == ':')
      af = f->text[i] == '1' ? AF_INET : f->text[i] == '2' ? AF_INET6 : 0;
    const char *slash = memchr(f->text, '/', f->len);
    size_t alen = slash ? (size_t)(slash - f->text) - i - 2 : 0;
    zp_field pf = {slash ? slash + 1 : "", slash ? f->len - (size_t)(slash + 1 - f->text) : 0,
                   false, f->loc};
    uint64_t prefix;
    bool ok = af && slash && alen < sizeof text &&
              digits(&pf, af == AF_INET ? 32 : 128, &prefix);
    if (ok) {
      memcpy(text, f->text + i + 2, alen);
      text[alen] = '\0';
      ok = inet_pton(af, text, a) == 1;
    }
    if (!ok)
      return fail(r, r->fi - 1, ZP_RDATA_FIELD, "invalid address prefix in APL RDATA: \"%.*s\" "
                  "([!]1:IPv4/0-32 or [!]2:IPv6/0-128, RFC 3123 section 5)", (int)f->len, f->text);
    size_t n = af == AF_INET ? 4 : 16;
    while (n > 0 && a[n - 1] == 0)
      n--;
    if (!put_u16(r, af == AF_INET ? 1 : 2) || !put_u8(r, (uint32_t)prefix) ||
        !put_u8(r, (uint32_t)(neg << 7 | n)) || !put(r, a, n))
      return false;
  }
  return true;
}

static bool field(rd *r, uint8_t kind)
{
  const zp_field *f;
  r->quoted_ok = kind == ZP_K_STRING || kind == ZP_K_OPT_STRING || kind == ZP_K_STRINGS ||
                 kind == ZP_K_OCTETS || kind == ZP_K_TARGET;
  switch (kind) {
  case ZP_K_NAME: return name(r);
  case ZP_K_INT8: return integer(r, 8);
  case ZP_K_INT16: return integer(r, 16);
  case ZP_K_INT32: return integer(r, 32);
  case ZP_K_PERIOD: return period(r);
  case ZP_K_A: return address(r, AF_INET);
  case ZP_K_AAAA: return address(r, AF_INET6);
  case ZP_K_STRING: return next(r, &f) && string(r, f);
  case ZP_K_OPT_STRING:
    /* an empty one is no subaddress at all, as BIND and dnspython read it */
    if (r->fi == r->in->nfields)
      return true;
    return next(r, &f) && (f->len == 0 || string(r, f));
  case ZP_K_STRINGS:
    if (!next(r, &f) || !string(r, f))
      return false;
    while (r->fi < r->in->nfields)
      if (!string(r, &r->in->fields[r->fi++]))
        return false;
    return true;
  case ZP_K_OCTETS: return octets(r, false);
  case ZP_K_TARGET: return octets(r, true);
  case ZP_K_HEX: return hex(r, true);
  case ZP_K_BASE64: return base64(r);
  case ZP_K_ALG: return algorithm(r);
  case ZP_K_TYPE: return type_covered(r);
  case ZP_K_TIME: return timestamp(r);
  case ZP_K_BITMAP: return bitmap(r, false);
  case ZP_K_BITMAP0: return bitmap(r, true);
  case ZP_K_SALT: return salt(r);
  case ZP_K_HASH: return hash(r);
  case ZP_K_TAG: return tag(r);
  case ZP_K_EUI48: return eui(r, 6);
  case ZP_K_EUI64: return eui(r, 8);
  case ZP_K_ILNP64: return ilnp64(r);
  case ZP_K_CERT_TYPE: return cert_type(r);
  case ZP_K_APL: return apl(r);
  default: return fail(r, r->fi, 0, "internal error: field kind %u", kind);
  }
}

/* Digest lengths fixed by the digest type: DS (RFC 4034 5.1.4, RFC 4509, RFC 5933, RFC 6605) and
 * ZONEMD (RFC 8976 section 2.2.3), whose digest is also at least 12 octets (2.2.4). */
static bool digest(rd *r, size_t type_at, size_t digest_at, size_t field, bool zonemd)
{
  static const struct { uint8_t type; uint8_t len; char name[16]; } ds[] = {
    {1, 20, "SHA-1"}, {2, 32, "SHA-256"}, {3, 32, "GOST R 34.11-94"}, {4, 48, "SHA-384"},
  }, zm[] = {
    {1, 48, "SHA-384"}, {2, 64, "SHA-512"},
  };
  size_t len = r->n - digest_at, n = zonemd ? 2 : 4;
  uint8_t type = r->out[type_at];
  if (zonemd && len < 12)
    return fail(r, field, ZP_RDATA_FIELD, "ZONEMD digest of %zu octets: at least 12 (RFC 8976 "
                "section 2.2.4)", len);
  for (size_t i = 0; i < n; i++) {
    unsigned want = zonemd ? zm[i].len : ds[i].len;
    if ((zonemd ? zm[i].type : ds[i].type) == type && len != want)
      return fail(r, field, ZP_RDATA_FIELD, "%s digest of %zu octets, but %s digests have %u",
                  r->tname, len, zonemd ? zm[i].name : ds[i].name, want);
  }
  return true;
}

/* What a type's RFC says across fields; field: where a digest's problem is reported. */
static bool rules(rd *r, size_t field)
{
  switch (r->in->type) {
  case 43: case 59: case 32769:   /* DS, CDS, DLV */
    return digest(r, 3, 4, field, false);
  case 63:                        /* ZONEMD */
    return digest(r, 5, 6, field, true);
  default:
    return true;
  }
}

bool zp_rdata_strict(uint16_t type)
{
  return zp_rrtype_kinds(type) != NULL;
}

zp_status zp_rdata_parse(const zp_rdata_in *in, uint8_t *out, size_t *len, zp_rdata_error *err)
{
  rd r = {.in = in, .out = out, .err = err};
  r.conv = zp_rrtype_lowercases(in->type) ? in->lower : in->keep;
  r.tname = zp_rrtype_name(in->type, r.tb);
  const uint8_t *k = zp_rrtype_kinds(in->type);
  if (!k)
    return fail(&r, 0, 0, "%s has no strict parser", r.tname), ZP_EINVAL;
  for (; *k != ZP_K_END; k++)
    if (!field(&r, *k))
      return ZP_ZONE_SYNTAX;
  if (r.fi == in->nfields && !rules(&r, 3))
    return ZP_ZONE_SYNTAX;
  if (r.fi < in->nfields) {
    const zp_field *f = &in->fields[r.fi];
    fail(&r, r.fi, ZP_RDATA_FIELD, "unexpected \"%.*s\" after the last %s RDATA field", (int)f->len, f->text,
         r.tname);
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

/* ---- RFC 3597 RDATA of a type parsed here: its octets checked field by field ---- */

static bool invalid(rd *r)
{
  return fail(r, 0, ZP_RDATA_FIELD, "generic RDATA is not valid %s RDATA", r->tname);
}

/* A name in wire form, uncompressed (RFC 3597 section 4), each label through the label policy;
 * reported at the first hex field. */
static bool wire_name(rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  uint8_t name[ZP_NAME_MAX];
  size_t n = 0, p = *pos, hexf = r->in->nfields > 2 ? 2 : 0;
  for (;;) {
    if (p >= end || in[p] > ZP_LABEL_MAX || p + 1 + in[p] > end || p - *pos + 1 > ZP_NAME_MAX)
      return invalid(r);
    size_t raw = in[p];
    if (raw == 0)
      break;
    uint8_t label[ZP_LABEL_MAX + 1];
    size_t len = sizeof label;
    char msg[512] = "";
    zp_status st = ZP_OK;
    if (r->conv->fn) {
      st = r->conv->fn(r->conv->ctx, in + p + 1, raw, label, &len, msg, sizeof msg);
    } else {
      memcpy(label, in + p + 1, raw);
      len = raw;
    }
    if (st != ZP_OK)
      return fail(r, hexf, ZP_RDATA_FIELD, "%s", msg[0] ? msg : zp_strerror(st));
    if (n + 1 + len + 1 > ZP_NAME_MAX)
      return fail(r, hexf, ZP_RDATA_FIELD, "name in generic RDATA is longer than 255 octets "
                  "after conversion");
    name[n++] = (uint8_t)len;
    memcpy(name + n, label, len);
    n += len;
    p += 1 + raw;
  }
  name[n++] = 0;
  *pos = p + 1;
  return put(r, name, n);
}

/* RFC 4034 section 4.1.2: windows in increasing order, 1 to 32 octets each, no zero octet at
 * the end of one. */
static bool wire_bitmap(rd *r, const uint8_t *in, size_t end, size_t *pos, bool empty)
{
  size_t p = *pos;
  int last = -1;
  if (!empty && p == end)
    return invalid(r);
  while (p < end) {
    if (end - p < 3 || in[p] <= last || in[p + 1] < 1 || in[p + 1] > 32 ||
        p + 2 + in[p + 1] > end || in[p + 1 + in[p + 1]] == 0)
      return invalid(r);
    last = in[p];
    p += 2u + in[p + 1];
  }
  if (!put(r, in + *pos, p - *pos))
    return false;
  *pos = p;
  return true;
}

static bool wire_field(rd *r, uint8_t kind, const uint8_t *in, size_t end, size_t *pos)
{
  size_t p = *pos, k;
  switch (kind) {
  case ZP_K_NAME: return wire_name(r, in, end, pos);
  case ZP_K_INT8: case ZP_K_ALG: k = 1; break;
  case ZP_K_INT16: case ZP_K_TYPE: case ZP_K_CERT_TYPE: k = 2; break;
  case ZP_K_APL:
    /* items: family 1 or 2, a prefix in its range, an address part no longer than the address
     * and without trailing zero octets */
    for (k = 0; p + k < end; k += 4u + (in[p + k + 3] & 0x7F)) {
      const uint8_t *it = in + p + k;
      unsigned fam = (unsigned)it[0] << 8 | it[1], alen = it[3] & 0x7F;
      if (end - p - k < 4 || (fam != 1 && fam != 2) || it[2] > (fam == 1 ? 32 : 128) ||
          alen > (fam == 1 ? 4 : 16) || alen > end - p - k - 4 || (alen && it[3 + alen] == 0))
        return invalid(r);
    }
    break;
  case ZP_K_AAAA: k = 16; break;
  case ZP_K_EUI48: k = 6; break;
  case ZP_K_EUI64: case ZP_K_ILNP64: k = 8; break;
  case ZP_K_OPT_STRING:
    if (p == end)
      return true;
    /* fall through */
  case ZP_K_STRING: case ZP_K_SALT:
    k = p < end ? 1u + in[p] : 1;
    break;
  case ZP_K_HASH:
    if (p < end && in[p] == 0)
      return invalid(r);
    k = p < end ? 1u + in[p] : 1;
    break;
  case ZP_K_TAG:
    k = p < end ? 1u + in[p] : 1;
    if (p >= end || in[p] == 0 || k > end - p)
      return invalid(r);
    for (size_t i = 1; i < k; i++)
      if (!((in[p + i] >= '0' && in[p + i] <= '9') || ((in[p + i] | 0x20) >= 'a' &&
                                                       (in[p + i] | 0x20) <= 'z')))
        return invalid(r);
    break;
  case ZP_K_STRINGS:
    if (p == end)
      return invalid(r);
    while (*pos < end)
      if (!wire_field(r, ZP_K_STRING, in, end, pos))
        return false;
    return true;
  case ZP_K_OCTETS: k = end - p; break;
  case ZP_K_TARGET: case ZP_K_HEX: case ZP_K_BASE64:
    if (p == end)
      return invalid(r);
    k = end - p;
    break;
  case ZP_K_BITMAP: return wire_bitmap(r, in, end, pos, false);
  case ZP_K_BITMAP0: return wire_bitmap(r, in, end, pos, true);
  default: k = 4; break;   /* INT32, PERIOD, TIME, A */
  }
  if (k > end - p)
    return invalid(r);
  *pos = p + k;
  return put(r, in + p, k);
}

zp_status zp_rdata_generic(const zp_rdata_in *in, uint8_t *out, size_t *len, zp_rdata_error *err)
{
  uint8_t raw[ZP_RDATA_MAX];
  rd r = {.in = in, .out = raw, .err = err};
  if (in->nfields < 2)
    return fail(&r, in->nfields, 0, "generic RDATA needs a length after \\#"), ZP_ZONE_SYNTAX;
  uint64_t want;
  if (!digits(&in->fields[1], ZP_RDATA_MAX, &want))
    return fail(&r, 1, ZP_RDATA_FIELD, "generic RDATA length \"%.*s\" is not a number from 0 to "
                "65535", (int)in->fields[1].len, in->fields[1].text), ZP_ZONE_SYNTAX;
  int half = -1;
  for (size_t fi = 2; fi < in->nfields; fi++) {
    const zp_field *f = &in->fields[fi];
    for (size_t i = 0; i < f->len; i++) {
      int v = hexval(f->text[i]);
      if (v < 0)
        return fail(&r, fi, i, "invalid hex digit '%c' in generic RDATA", f->text[i]),
               ZP_ZONE_SYNTAX;
      if (half < 0) {
        half = v;
        continue;
      }
      if (r.n == want)
        return fail(&r, fi, i - 1, "generic RDATA is longer than its length %llu",
                    (unsigned long long)want), ZP_ZONE_SYNTAX;
      raw[r.n++] = (uint8_t)(half << 4 | v);
      half = -1;
    }
  }
  size_t end = in->nfields > 2 ? in->nfields - 1 : 1;
  if (half >= 0)
    return fail(&r, end, ZP_RDATA_FIELD, "generic RDATA has an odd number of hex digits"),
           ZP_ZONE_SYNTAX;
  if (r.n != want)
    return fail(&r, end, ZP_RDATA_FIELD, "generic RDATA holds %zu octets, its length says %llu",
                r.n, (unsigned long long)want), ZP_ZONE_SYNTAX;
  const uint8_t *k = zp_rrtype_kinds(in->type);
  if (!k) {
    memcpy(out, raw, r.n);
    *len = r.n;
    return ZP_OK;
  }
  /* a type parsed here: its octets are checked as its text would be, names converted */
  size_t pos = 0, rawlen = r.n;
  r.out = out;
  r.n = 0;
  r.conv = zp_rrtype_lowercases(in->type) ? in->lower : in->keep;
  r.tname = zp_rrtype_name(in->type, r.tb);
  for (; *k != ZP_K_END; k++)
    if (!wire_field(&r, *k, raw, rawlen, &pos))
      return ZP_ZONE_SYNTAX;
  if (pos != rawlen)
    return invalid(&r), ZP_ZONE_SYNTAX;
  if (!rules(&r, in->nfields > 2 ? 2 : 0))
    return ZP_ZONE_SYNTAX;
  *len = r.n;
  return ZP_OK;
}
