/* rdata_place.c -- the field kinds of addresses, prefixes and places: EUI-48/64 (RFC 7043),
 * ILNP locators (RFC 6742), APL prefixes (RFC 3123), LOC (RFC 1876), IPSECKEY gateways (RFC
 * 4025; the gateway itself, which AMTRELAY's relay shares, is in rdata_field.c). */
#include <arpa/inet.h>
#include <string.h>

#include "rdata_int.h"

/* RFC 7043: octets as hex pairs joined by '-'. */
bool zp_rd_eui(zp_rd *r, size_t octets)
{
  const zp_field *f;
  uint8_t a[8];
  if (!zp_rd_next(r, &f))
    return false;
  bool ok = f->len == octets * 3 - 1;
  for (size_t i = 0; ok && i < octets; i++) {
    int hi = zp_rd_hexval(f->text[3 * i]), lo = zp_rd_hexval(f->text[3 * i + 1]);
    ok = hi >= 0 && lo >= 0 && (i + 1 == octets || f->text[3 * i + 2] == '-');
    /* (not shifted unless valid: -1 << 4 is undefined; found by fuzz_zone) */
    if (ok)
      a[i] = (uint8_t)(hi << 4 | lo);
  }
  if (!ok)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                      "invalid EUI-%zu address in %s RDATA: \"%.*s\" (RFC 7043)", octets * 8,
                      r->tname, (int)f->len, f->text);
  return zp_rd_put(r, a, octets);
}

/* RFC 6742 section 2.3: four groups of one to four hex digits joined by ':'. */
bool zp_rd_ilnp64(zp_rd *r)
{
  const zp_field *f;
  uint8_t a[8];
  if (!zp_rd_next(r, &f))
    return false;
  size_t i = 0, g = 0;
  bool ok = true;
  for (; ok && g < 4; g++) {
    uint32_t v = 0;
    size_t start = i;
    while (i < f->len && i - start < 5 && zp_rd_hexval(f->text[i]) >= 0)
      v = v << 4 | (uint32_t)zp_rd_hexval(f->text[i++]);
    ok = i > start && i - start <= 4 && (g == 3 ? i == f->len : i < f->len && f->text[i++] == ':');
    a[2 * g] = (uint8_t)(v >> 8);
    a[2 * g + 1] = (uint8_t)v;
  }
  if (!ok)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                      "invalid locator in %s RDATA: \"%.*s\" (RFC 6742)", r->tname, (int)f->len,
                      f->text);
  return zp_rd_put(r, a, 8);
}

/* RFC 3123 section 5: [!]afi:address/prefix, afi 1 (IPv4, prefix to 32) or 2 (IPv6, to 128);
 * the address's trailing zero octets are left out of the wire form (section 4). */
bool zp_rd_apl(zp_rd *r)
{
  while (r->fi < r->in->nfields) {
    const zp_field *f;
    if (!zp_rd_next(r, &f))
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
                   false, false, f->loc};
    uint64_t prefix;
    bool ok = af && slash && alen < sizeof text &&
              zp_rd_digits(&pf, af == AF_INET ? 32 : 128, &prefix);
    if (ok) {
      memcpy(text, f->text + i + 2, alen);
      text[alen] = '\0';
      ok = inet_pton(af, text, a) == 1;
    }
    if (!ok)
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                        "invalid address prefix in APL RDATA: \"%.*s\" "
                        "([!]1:IPv4/0-32 or [!]2:IPv6/0-128, RFC 3123 section 5)",
                        (int)f->len, f->text);
    size_t n = af == AF_INET ? 4 : 16;
    while (n > 0 && a[n - 1] == 0)
      n--;
    if (!zp_rd_put_u16(r, af == AF_INET ? 1 : 2) || !zp_rd_put_u8(r, (uint32_t)prefix) ||
        !zp_rd_put_u8(r, (uint32_t)(neg << 7 | n)) || !zp_rd_put(r, a, n))
      return false;
  }
  return true;
}

/* A decimal with up to frac digits after the point, scaled by 10^frac, at most max; a sign when
 * neg is allowed, a unit "m" when m is. */
static bool decimal(const zp_field *f, unsigned frac, bool neg, bool m, uint64_t max, int64_t *v)
{
  size_t i = 0, len = f->len;
  bool minus = neg && len > 0 && f->text[0] == '-';
  if (m && len > 0 && (f->text[len - 1] == 'm' || f->text[len - 1] == 'M'))
    len--;
  i += minus;
  uint64_t x = 0;
  unsigned digits = 0, after = 0;
  bool point = false;
  for (; i < len; i++) {
    char c = f->text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9' || (point && after == frac) || digits > 12)
      return false;
    x = x * 10 + (uint64_t)(c - '0');
    digits++;
    after += point;
  }
  if (digits == 0 || (point && after == 0))
    return false;
  for (; after < frac; after++)
    x *= 10;
  if (x > max)
    return false;
  *v = minus ? -(int64_t)x : (int64_t)x;
  return true;
}

/* One coordinate: degrees [minutes [seconds]] and a hemisphere, in thousandths of an arcsecond
 * from the equator or meridian, 2^31 at 0 (RFC 1876 section 2). */
static bool coordinate(zp_rd *r, unsigned max_deg, char pos, char neg)
{
  const zp_field *f;
  int64_t part[3] = {0, 0, 0};
  static const uint64_t limit[3] = {999, 59, 59999};   /* degrees: checked with the rest below */
  for (size_t i = 0;; i++) {
    if (!zp_rd_next(r, &f))
      return false;
    if (i > 0 && f->len == 1 && ((f->text[0] | 0x20) == (pos | 0x20) ||
                                 (f->text[0] | 0x20) == (neg | 0x20))) {
      uint64_t v = (uint64_t)((part[0] * 60 + part[1]) * 60000 + part[2]);
      if (v > (uint64_t)max_deg * 3600000)
        return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "LOC %s beyond %u degrees (RFC 1876 "
                          "section 3)", pos == 'N' ? "latitude" : "longitude", max_deg);
      bool south = (f->text[0] | 0x20) == (neg | 0x20);
      return zp_rd_put_u32(r, (uint32_t)(south ? 0x80000000u - v : 0x80000000u + v));
    }
    if (i == 3 || !decimal(f, i == 2 ? 3 : 0, false, false, limit[i], &part[i]))
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" in LOC RDATA: %s (RFC 1876 "
                        "section 3)", (int)f->len, f->text,
                        i == 3 ? (pos == 'N' ? "N or S expected" : "E or W expected")
                        : i == 0 ? "degrees expected" : i == 1 ? "minutes from 0 to 59 expected"
                                 : "seconds from 0 to 59.999 expected");
  }
}

/* A size or precision in centimetres as RFC 1876 section 2 stores it: a digit times a power of
 * ten, the rest dropped (as BIND and dnspython do). */
static uint8_t precision(int64_t cm)
{
  unsigned e = 0;
  for (; cm >= 10; cm /= 10)
    e++;
  return (uint8_t)(cm << 4 | e);
}

/* RFC 1876 section 3: d1 [m1 [s1]] N|S d2 [m2 [s2]] E|W alt[m] [siz[m] [hp[m] [vp[m]]]]. */
bool zp_rd_loc(zp_rd *r)
{
  size_t at = r->n;
  static const uint8_t fixed[4] = {0, 0x12, 0x16, 0x13};   /* version 0; 1m, 10000m, 10m */
  if (!zp_rd_put(r, fixed, 4) || !coordinate(r, 90, 'N', 'S') || !coordinate(r, 180, 'E', 'W'))
    return false;
  const zp_field *f;
  int64_t v;
  if (!zp_rd_next(r, &f))
    return false;
  if (!decimal(f, 2, true, true, 4284967295, &v) || v < -10000000)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" in LOC RDATA: an altitude from "
                      "-100000.00 to 42849672.95 m expected (RFC 1876 section 3)",
                      (int)f->len, f->text);
  if (!zp_rd_put_u32(r, (uint32_t)(v + 10000000)))
    return false;
  for (size_t i = 1; i < 4 && r->fi < r->in->nfields; i++) {
    if (!zp_rd_next(r, &f))
      return false;
    /* RFC 1876 section 3: up to 90000000.00 m; BIND takes whole metres to 90000000 and any
     * centimetres (stored as 9e9 cm), dnspython more */
    if (!decimal(f, 2, false, true, 9000000099, &v))
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" in LOC RDATA: a %s from 0 to "
                        "90000000.99 m expected (RFC 1876 section 3)", (int)f->len, f->text,
                        i == 1 ? "size" : "precision");
    r->out[at + i] = precision(v);
  }
  return true;
}

/* RFC 4025 section 3.1: gateway type 0 (no gateway, written "."), 1 (IPv4), 2 (IPv6) or 3 (a
 * domain name), the algorithm, then the gateway. */
bool zp_rd_ipseckey_gateway(zp_rd *r)
{
  uint64_t type, alg;
  if (!zp_rd_number(r, 3, &type, "an IPSECKEY gateway type: 0, 1, 2 or 3 (RFC 4025 section "
                    "2.3)") ||
      !zp_rd_number(r, 255, &alg, NULL) || !zp_rd_put_u8(r, (uint32_t)type) ||
      !zp_rd_put_u8(r, (uint32_t)alg))
    return false;
  return zp_rd_gateway(r, (unsigned)type, "gateway type 0 has no gateway, written \".\" (RFC 4025 "
                       "section 3.1)");
}
