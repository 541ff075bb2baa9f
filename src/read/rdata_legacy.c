/* rdata_legacy.c -- the field kinds of old and rare types (KEY, WKS, NSAP, GPOS, ATMA, HIP,
 * AMTRELAY, NXT, A6), written and as RFC 3597 octets. Each takes what its RFC defines and BIND
 * takes. */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rdata_int.h"

/* RFC 2535 section 3.1.2: a KEY whose flags say "no key" (both of 0xC000) has none; any other
 * has one, in base64. The flags are the RDATA's first two octets. */
static bool key_flags_say_none(const zp_rd *r)
{
  return (r->out[0] & 0xC0) == 0xC0;
}

/* RFC 1035 section 3.4.2: a protocol (tcp, udp, a number or a name /etc/protocols gives) and the
 * services it offers, each a port number or a name /etc/services gives for that protocol, as
 * BIND and dnspython read them; the bitmap ends at the highest port's octet. */
bool zp_rd_wks(zp_rd *r)
{
  const zp_field *f;
  uint64_t proto;
  if (!zp_rd_next(r, &f))
    return false;
  if (f->len == 3 && strncasecmp(f->text, "tcp", 3) == 0)
    proto = 6;
  else if (f->len == 3 && strncasecmp(f->text, "udp", 3) == 0)
    proto = 17;
  else if (!zp_rd_digits(f, 255, &proto)) {
    char name[32];
    struct protoent *pe = NULL;
    if (f->len < sizeof name) {
      memcpy(name, f->text, f->len);
      name[f->len] = '\0';
      pe = getprotobyname(name);
    }
    if (!pe || pe->p_proto < 0 || pe->p_proto > 255)
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a protocol: a number "
                        "from 0 to 255, or a name in /etc/protocols", (int)f->len, f->text);
    proto = (uint64_t)pe->p_proto;
  }
  if (!zp_rd_put_u8(r, (uint32_t)proto))
    return false;
  uint8_t bits[8192] = {0};
  size_t n = 0;
  while (r->fi < r->in->nfields) {
    if (!zp_rd_next(r, &f))
      return false;
    uint64_t port;
    if (!zp_rd_digits(f, 65535, &port)) {
      char name[64];
      struct servent *se = NULL;
      if (f->len < sizeof name && (proto == 6 || proto == 17)) {
        memcpy(name, f->text, f->len);
        name[f->len] = '\0';
        se = getservbyname(name, proto == 6 ? "tcp" : "udp");
      }
      if (!se)
        return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a port number from 0 "
                          "to 65535 or a service of this protocol in /etc/services",
                          (int)f->len, f->text);
      port = ntohs((uint16_t)se->s_port);
    }
    bits[port / 8] |= (uint8_t)(0x80 >> (port % 8));
    if (port / 8 + 1 > n)
      n = port / 8 + 1;
  }
  return zp_rd_put(r, bits, n);
}

/* Hex digits, with '.' between them anywhere (RFC 1706 section 5 NSAP, BIND's ATMA), from text
 * position i; an even number of them, at least two. */
static bool dotted_hex(zp_rd *r, const zp_field *f, size_t i)
{
  int half = -1;
  size_t octets = 0;
  if (!zp_rd_hex_feed(r, f, i, true, &half, &octets))
    return false;
  if (half >= 0 || octets == 0)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "%s RDATA needs an even number of hex "
                      "digits, at least two", r->tname);
  return true;
}

/* RFC 1706 section 5: "0x" and the NSAP address in hex, '.' allowed between digits. */
bool zp_rd_nsap(zp_rd *r)
{
  const zp_field *f;
  if (!zp_rd_next(r, &f))
    return false;
  if (f->len < 2 || f->text[0] != '0' || (f->text[1] | 0x20) != 'x')
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "an NSAP address starts with \"0x\" (RFC "
                      "1706 section 5)");
  return dotted_hex(r, f, 2);
}

/* ATM Forum af-dans-0152.000 as BIND reads it: "+" and E.164 digits (format 1), or an AESA in
 * hex (format 0). */
bool zp_rd_atma(zp_rd *r)
{
  const zp_field *f;
  if (!zp_rd_next(r, &f))
    return false;
  if (f->len == 0 || f->text[0] != '+')
    return zp_rd_put_u8(r, 0) && dotted_hex(r, f, 0);
  bool ok = f->len > 1;
  for (size_t i = 1; ok && i < f->len; i++)
    ok = f->text[i] >= '0' && f->text[i] <= '9';
  if (!ok)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "an E.164 ATMA address is \"+\" and digits");
  return zp_rd_put_u8(r, 1) && zp_rd_put(r, f->text + 1, f->len - 1);
}

/* A decimal number, optionally signed, within [-max, max] (max 0: any), as GPOS writes them;
 * or nothing, which BIND takes (a value not given). */
static bool real(const uint8_t *s, size_t n, double max)
{
  char text[64];
  size_t i = n > 0 && (s[0] == '-' || s[0] == '+');
  bool digits = false, point = false;
  if (n == 0)
    return true;
  if (n >= sizeof text)
    return false;
  for (; i < n; i++) {
    if (s[i] == '.' && !point)
      point = true;
    else if (s[i] >= '0' && s[i] <= '9')
      digits = true;
    else
      return false;
  }
  memcpy(text, s, n);
  text[n] = '\0';
  double v = 0;
  if (!digits || sscanf(text, "%lf", &v) != 1)
    return false;
  return max == 0 || (v >= -max && v <= max);
}

static const double gpos_max[3] = {90, 180, 0};

/* RFC 1712 section 3: three character-strings holding real numbers; the first within 90 degrees
 * and the second within 180, as dnspython checks them (the RFC's text calls the first the
 * longitude, but its own example has 116.8652 second). Any may be empty, as BIND reads them. */
bool zp_rd_gpos(zp_rd *r)
{
  static const char *const what[3] = {"a latitude from -90 to 90", "a longitude from -180 to 180",
                                      "an altitude"};
  for (size_t i = 0; i < 3; i++) {
    const zp_field *f;
    uint8_t s[256];
    if (!zp_rd_next(r, &f))
      return false;
    size_t n = zp_rd_unescape(f->text, f->len, s, sizeof s);
    if (n > 255 || !real(s, n, gpos_max[i]))
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" in GPOS RDATA: %s (or \"\") "
                        "expected (RFC 1712 section 3)", (int)f->len, f->text, what[i]);
    if (!zp_rd_put_u8(r, (uint32_t)n) || !zp_rd_put(r, s, n))
      return false;
  }
  return true;
}

/* RFC 8005 section 4: algorithm, HIT in hex, public key in base64 (one field each), then the
 * rendezvous servers, none or more, uncompressed names that keep their case. */
bool zp_rd_hip(zp_rd *r)
{
  uint64_t alg;
  size_t at = r->n;
  if (!zp_rd_number(r, 255, &alg, NULL) || !zp_rd_put_u8(r, 0) || !zp_rd_put_u8(r, (uint32_t)alg) || !zp_rd_put_u16(r, 0) ||
      !zp_rd_hex(r, false))
    return false;
  size_t hit = r->n - at - 4;
  if (hit > 255)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "a HIT is at most 255 octets (RFC 8005 "
                      "section 5)");
  const zp_field *key;
  zp_b64 b = {0};
  if (!zp_rd_next(r, &key) || !zp_rd_b64_feed(r, &b, key->text, key->len, r->fi - 1, 0) ||
      !zp_rd_b64_end(r, &b, r->fi - 1, key->len))
    return false;
  r->out[at] = (uint8_t)hit;
  r->out[at + 2] = (uint8_t)(b.octets >> 8);
  r->out[at + 3] = (uint8_t)b.octets;
  while (r->fi < r->in->nfields)
    if (!zp_rd_dname(r))
      return false;
  return true;
}

/* RFC 8777 section 4.2: the D bit (0 or 1), the relay type (0 none, written "."; 1 IPv4; 2
 * IPv6; 3 a name, its case kept), the relay. */
bool zp_rd_amtrelay(zp_rd *r)
{
  uint64_t d, type;
  if (!zp_rd_number(r, 1, &d, "the discovery optional bit: 0 or 1 (RFC 8777 section 4.2.2)") ||
      !zp_rd_number(r, 3, &type, "an AMTRELAY type: 0, 1, 2 or 3 (RFC 8777 section 4.2.3)") ||
      !zp_rd_put_u8(r, (uint32_t)(d << 7 | type)))
    return false;
  return zp_rd_gateway(r, (unsigned)type, "type 0 has no relay, written \".\" (RFC 8777 "
                       "section 4.3.1)");
}

/* RFC 2535 section 5.2: the types of every field to the end, none or more, each a mnemonic,
 * TYPEnnn or a number (as BIND writes one it has no name for) from 1 to 127, as a bitmap whose
 * bit n is type n, to its last octet with a bit set. Types past 127 need the other format bit 0
 * announces, which no RFC defines (BIND refuses them). */
bool zp_rd_nxt_bitmap(zp_rd *r)
{
  uint8_t bits[16] = {0};
  size_t n = 0;
  while (r->fi < r->in->nfields) {
    const zp_field *f;
    uint16_t t;
    uint64_t v;
    if (!zp_rd_next(r, &f))
      return false;
    if (zp_rd_digits(f, 0xFFFF, &v))
      t = (uint16_t)v;
    else if (!zp_rrtype_from_text(f->text, f->len, &t))
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "unknown type \"%.*s\" in the type bitmap",
                        (int)f->len, f->text);
    if (t < 1 || t > 127)
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "type \"%.*s\" in NXT RDATA: NXT's bitmap "
                        "holds types 1 to 127 (RFC 2535 section 5.2)", (int)f->len, f->text);
    bits[t / 8] |= (uint8_t)(0x80 >> (t % 8));
    if (t / 8 + 1u > n)
      n = t / 8 + 1u;
  }
  return zp_rd_put(r, bits, n);
}

/* RFC 2874 section 3.1.3: the prefix length, an IPv6 address (absent at 128) and the prefix
 * name (absent at 0). The address's bits within the prefix are not significant: its whole
 * octets there are not kept, and the prefix's bits in the first octet kept are pad bits, set to
 * zero as section 3.1.1 asks of a zone file loaded (BIND sets them so). */
bool zp_rd_a6(zp_rd *r)
{
  uint64_t plen;
  if (!zp_rd_number(r, 128, &plen, "a prefix length from 0 to 128 (RFC 2874 section 3.1.1)") ||
      !zp_rd_put_u8(r, (uint32_t)plen))
    return false;
  if (plen < 128) {
    size_t at = r->n, skip = plen / 8;
    if (!zp_rd_address(r, AF_INET6))
      return false;
    memmove(r->out + at, r->out + at + skip, 16 - skip);
    r->n -= skip;
    r->out[at] &= (uint8_t)(0xFF >> (plen % 8));
  }
  return plen == 0 || zp_rd_dname(r);
}

bool zp_rd_keydata(zp_rd *r)
{
  return key_flags_say_none(r) || zp_rd_base64(r);
}

/* ---- RFC 3597 octets ---- */

/* The octets left from *pos to end, the whole field, once checked. */
static bool rest(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return zp_rd_wire_copy(r, in, end, pos, end - *pos);
}

bool zp_rd_keydata_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  size_t k = end - *pos;
  if (key_flags_say_none(r) ? k != 0 : k == 0)
    return zp_rd_invalid(r, NULL);
  return rest(r, in, end, pos);
}

bool zp_rd_wks_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  /* a protocol, then a bitmap of ports as its text makes it: no zero octet at its end (BIND
   * refuses one) */
  size_t k = end - *pos;
  if (k < 1 || k > 1 + 8192 || (k > 1 && in[end - 1] == 0))
    return zp_rd_invalid(r, NULL);
  return rest(r, in, end, pos);
}

bool zp_rd_nsap_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  if (*pos == end)
    return zp_rd_invalid(r, NULL);
  return rest(r, in, end, pos);
}

bool zp_rd_atma_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  size_t p = *pos, k = end - p;
  if (k >= 1 && in[p] > 1)
    return zp_rd_invalid(r, "only formats 0 (AESA) and 1 (E.164) are defined");
  if (k < 2)
    return zp_rd_invalid(r, NULL);
  for (size_t i = p + 1; in[p] == 1 && i < end; i++)
    if (in[i] < '0' || in[i] > '9')
      return zp_rd_invalid(r, NULL);
  return rest(r, in, end, pos);
}

bool zp_rd_gpos_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  size_t p = *pos;
  for (size_t i = 0; i < 3; i++) {
    if (p >= end || in[p] > end - p - 1)
      return zp_rd_invalid(r, NULL);
    if (!real(in + p + 1, in[p], gpos_max[i]))
      return zp_rd_invalid(r, "its values are numbers within their ranges (RFC 1712 section "
                           "3)");
    p += 1u + in[p];
  }
  return zp_rd_wire_copy(r, in, end, pos, p - *pos);
}

bool zp_rd_hip_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  size_t p = *pos, k = end - p;
  if (k < 4)
    return zp_rd_invalid(r, NULL);
  size_t hit = in[p], key = (size_t)(in[p + 2] << 8 | in[p + 3]);
  if (hit == 0 || key == 0 || hit + key > k - 4)
    return zp_rd_invalid(r, NULL);
  if (!zp_rd_wire_copy(r, in, end, pos, 4 + hit + key))
    return false;
  while (*pos < end)
    if (!zp_rd_wire_name(r, in, end, pos))
      return false;
  return true;
}

bool zp_rd_nxt_bitmap_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  /* RFC 2535 section 5.2: at most 128 types, no zero octet at the end; bit 0 set announces
   * another format, which no RFC defines and BIND refuses ("bad bitmap") */
  size_t p = *pos, k = end - p;
  if (k > 0 && (in[p] & 0x80))
    return zp_rd_invalid(r, "bit 0 of its bitmap announces a format no RFC defines (RFC 2535 "
                         "section 5.2)");
  if (k > 16 || (k > 0 && in[end - 1] == 0))
    return zp_rd_invalid(r, NULL);
  return rest(r, in, end, pos);
}

bool zp_rd_a6_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  /* RFC 2874 section 3.1: a prefix length up to 128, the address bits after it in whole
   * octets (the pad bits zero), and the prefix's name unless the length is 0 */
  size_t p = *pos, k = end - p;
  if (k < 1 || in[p] > 128)
    return zp_rd_invalid(r, NULL);
  size_t plen = in[p], n = 16 - plen / 8;
  if (n > k - 1 || (n > 0 && plen % 8 && (in[p + 1] >> (8 - plen % 8))))
    return zp_rd_invalid(r, NULL);
  if (!zp_rd_wire_copy(r, in, end, pos, 1 + n))
    return false;
  if (plen > 0)
    return zp_rd_wire_name(r, in, end, pos);
  return *pos == end || zp_rd_invalid(r, NULL);
}

bool zp_rd_amtrelay_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  size_t p = *pos, k = end - p;
  if (k >= 1 && (in[p] & 0x7F) > 3)
    return zp_rd_invalid(r, "only relay types 0 to 3 are defined (RFC 8777 section 4.2.3)");
  if (k < 1)
    return zp_rd_invalid(r, NULL);
  unsigned type = in[p] & 0x7F;
  if (!zp_rd_wire_copy(r, in, end, pos, 1))
    return false;
  if (type == 3)
    return zp_rd_wire_name(r, in, end, pos);
  if ((type == 0 ? 0u : type == 1 ? 4u : 16u) != end - p - 1)
    return zp_rd_invalid(r, NULL);
  return rest(r, in, end, pos);
}
