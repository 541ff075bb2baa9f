/* rdata_wire.c -- RFC 3597 generic RDATA: its octets, checked as their type's when the type is
 * one zonepuny parses */
#include <stdio.h>
#include <string.h>

#include "rdata_int.h"

static bool invalid(zp_rd *r)
{
  return zp_rd_invalid(r, NULL);
}

/* RFC 4034 section 4.1.2: windows in increasing order, 1 to 32 octets each, no zero octet at
 * the end of one. */
static bool wire_bitmap(zp_rd *r, const uint8_t *in, size_t end, size_t *pos, bool empty)
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
  if (!zp_rd_put(r, in + *pos, p - *pos))
    return false;
  *pos = p;
  return true;
}

static bool wire_field(zp_rd *r, uint8_t kind, const uint8_t *in, size_t end, size_t *pos)
{
  size_t p = *pos, k;
  switch (kind) {
  case ZP_K_NAME: return zp_rd_wire_name(r, in, end, pos);
  case ZP_K_INT8: case ZP_K_ALG: case ZP_K_SCHEME: k = 1; break;
  case ZP_K_INT16: case ZP_K_TYPE: case ZP_K_TYPE_NUM: case ZP_K_CERT_TYPE: k = 2; break;
  case ZP_K_APL:
    /* items: family 1 or 2, a prefix in its range, an address part no longer than the address
     * and without trailing zero octets */
    for (k = 0; p + k < end; k += 4u + (in[p + k + 3] & 0x7F)) {
      const uint8_t *it = in + p + k;
      unsigned fam = (unsigned)it[0] << 8 | it[1], alen = it[3] & 0x7F;
      if (end - p - k >= 4 && fam != 1 && fam != 2)
        return zp_rd_invalid(r, "address family not 1 (IPv4) or 2 (IPv6), the ones RFC 3123 "
                             "section 5 gives a text form");
      if (end - p - k < 4 || it[2] > (fam == 1 ? 32 : 128) ||
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
  case ZP_K_OCTETS: case ZP_K_BASE64_0: case ZP_K_BASE64_DASH: k = end - p; break;
  case ZP_K_GATEWAY:
    /* RFC 4025 section 2: type 0 to 3, the algorithm, then no gateway, 4 or 16 octets, or an
     * uncompressed name */
    if (end - p < 2 || in[p] > 3)
      return invalid(r);
    if (!zp_rd_put(r, in + p, 2))
      return false;
    *pos = p + 2;
    if (in[p] == 3)
      return zp_rd_wire_name(r, in, end, pos);
    k = in[p] == 0 ? 0 : in[p] == 1 ? 4 : 16;
    p += 2;
    break;
  case ZP_K_LOC: {
    /* RFC 1876 section 2: version 0, sizes of a digit and a power of ten, coordinates within
     * 90 and 180 degrees of 2^31 */
    static const char *const what[4] = {"", "size", "horizontal precision",
                                        "vertical precision"};
    k = 16;
    if (end - p > 0 && in[p] != 0)
      return zp_rd_invalid(r, "only version 0 is defined (RFC 1876 section 2)");
    if (end - p != 16)
      return invalid(r);
    /* a size is a digit 1 to 9 (the high nibble) times 10 to a power 0 to 9 (the low one), in
     * centimetres, or 0; named refuses any other octet, such as 0x05 (0e5) or 0x1a, which
     * no text writes and which ldns writes as text that reads back as other octets */
    for (size_t i = 1; i < 4; i++) {
      unsigned m = in[p + i] >> 4, e = in[p + i] & 15;
      if (in[p + i] != 0 && (m < 1 || m > 9 || e > 9)) {
        char why[200];
        snprintf(why, sizeof why, "its %s octet 0x%02x is neither 0 nor a digit 1 to 9 (high four "
                 "bits) times 10 to a power 0 to 9 (low four bits) (RFC 1876 section 2)",
                 what[i], in[p + i]);
        return zp_rd_invalid(r, why);
      }
    }
    for (size_t i = 0; i < 2; i++) {
      const uint8_t *c = in + p + 4 + 4 * i;
      uint32_t v = (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3];
      uint32_t off = v >= 0x80000000u ? v - 0x80000000u : 0x80000000u - v;
      if (off > (i ? 180u : 90u) * 3600000u)
        return invalid(r);
    }
    break;
  }
  case ZP_K_TARGET: case ZP_K_HEX: case ZP_K_BASE64:
    if (p == end)
      return zp_rd_invalid(r, "its last field is empty, which its text form cannot be");
    k = end - p;
    break;
  case ZP_K_KEYDATA: case ZP_K_WKS: case ZP_K_NSAP: case ZP_K_ATMA: case ZP_K_GPOS: case ZP_K_HIP:
  case ZP_K_AMTRELAY: case ZP_K_NXTBITMAP: case ZP_K_A6:
    return zp_rd_legacy_wire(r, kind, in, end, pos);
  case ZP_K_SVCPARAMS: return zp_rd_svcparams_wire(r, in, end, pos, r->in->nfields > 2 ? 2 : 0);
  case ZP_K_BITMAP: return wire_bitmap(r, in, end, pos, false);
  case ZP_K_BITMAP0: return wire_bitmap(r, in, end, pos, true);
  default: k = 4; break;   /* INT32, PERIOD, TIME, A */
  }
  if (k > end - p)
    return invalid(r);
  *pos = p + k;
  return zp_rd_put(r, in + p, k);
}

bool zp_rdata_generic_form(uint16_t type, const zp_field *fields, size_t nfields)
{
  if (nfields == 0 || fields[0].quoted || fields[0].len != 2 ||
      memcmp(fields[0].text, "\\#", 2) != 0)
    return false;
  if (type != ZP_TYPE_TXT)
    return true;
  /* TXT: what BIND's lexer takes for a number (digits, leading zeros too, up to 2^32 - 1) */
  if (nfields < 2 || fields[1].quoted || fields[1].len == 0)
    return false;
  uint64_t v = 0;
  for (size_t i = 0; i < fields[1].len; i++) {
    char c = fields[1].text[i];
    if (c < '0' || c > '9' || (v = v * 10 + (uint64_t)(c - '0')) > 0xFFFFFFFFu)
      return false;
  }
  return true;
}

zp_status zp_rdata_generic(const zp_rdata_in *in, uint8_t *out, size_t *len, zp_rdata_error *err)
{
  uint8_t raw[ZP_RDATA_MAX];
  zp_rd r = {.in = in, .out = raw, .max = zp_rd_max(in->type), .err = err};
  if (in->nfields < 2)
    return zp_rd_fail(&r, in->nfields, 0, "generic RDATA needs a length after \\#"), ZP_ZONE_SYNTAX;
  uint64_t want;
  if (!zp_rd_digits(&in->fields[1], ZP_RDATA_MAX, &want))
    return zp_rd_fail(&r, 1, ZP_RDATA_FIELD,
                      "generic RDATA length \"%.*s\" is not a number from 0 to "
                      "65535",
                      (int)in->fields[1].len, in->fields[1].text),
           ZP_ZONE_SYNTAX;
  r.tname = zp_rrtype_name(in->type, r.tb);
  if (want > r.max)
    return zp_rd_fail(&r, 1, ZP_RDATA_FIELD, "generic RDATA length %llu: %s RDATA longer than "
                      "%zu octets: " ZP_RRSET_LOAD_WHY, (unsigned long long)want, r.tname,
                      r.max),
           ZP_ZONE_SYNTAX;
  int half = -1;
  for (size_t fi = 2; fi < in->nfields; fi++) {
    const zp_field *f = &in->fields[fi];
    for (size_t i = 0; i < f->len; i++) {
      int v = zp_rd_hexval(f->text[i]);
      if (v < 0)
        return zp_rd_fail(&r, fi, i, "invalid hex digit '%c' in generic RDATA", f->text[i]),
               ZP_ZONE_SYNTAX;
      if (half < 0) {
        half = v;
        continue;
      }
      if (r.n == want)
        return zp_rd_fail(&r, fi, i - 1, "generic RDATA is longer than its length %llu",
                    (unsigned long long)want), ZP_ZONE_SYNTAX;
      raw[r.n++] = (uint8_t)(half << 4 | v);
      half = -1;
    }
  }
  size_t end = in->nfields > 2 ? in->nfields - 1 : 1;
  if (half >= 0)
    return zp_rd_fail(&r, end, ZP_RDATA_FIELD, "generic RDATA has an odd number of hex digits"),
           ZP_ZONE_SYNTAX;
  if (r.n != want)
    return zp_rd_fail(&r, end, ZP_RDATA_FIELD,
                      "generic RDATA holds %zu octets, its length says %llu", r.n,
                      (unsigned long long)want),
           ZP_ZONE_SYNTAX;
  const uint8_t *k = in->opaque ? NULL : zp_rrtype_kinds(in->type);
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
  for (; *k != ZP_K_END; k++)
    if (!wire_field(&r, *k, raw, rawlen, &pos))
      return ZP_ZONE_SYNTAX;
  if (pos != rawlen)
    return invalid(&r), ZP_ZONE_SYNTAX;
  if (!zp_rd_rules(&r, in->nfields > 2 ? 2 : 0))
    return ZP_ZONE_SYNTAX;
  *len = r.n;
  return ZP_OK;
}
