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

/* Fixed-length fields: INT8, ALG and SCHEME; INT16, TYPE and CERT_TYPE; INT32, PERIOD, TIME
 * and A; EUI48; EUI64 and ILNP64; AAAA. */
static bool octet1(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return zp_rd_wire_copy(r, in, end, pos, 1);
}

static bool octets2(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return zp_rd_wire_copy(r, in, end, pos, 2);
}

static bool octets4(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return zp_rd_wire_copy(r, in, end, pos, 4);
}

static bool octets6(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return zp_rd_wire_copy(r, in, end, pos, 6);
}

static bool octets8(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return zp_rd_wire_copy(r, in, end, pos, 8);
}

static bool octets16(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return zp_rd_wire_copy(r, in, end, pos, 16);
}

/* The rest of the RDATA, which may be empty (OCTETS, BASE64_0, BASE64_DASH). */
static bool rest(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return zp_rd_wire_copy(r, in, end, pos, end - *pos);
}

/* The same, not empty (TARGET, HEX, BASE64): their text has at least one octet. */
static bool rest1(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  if (*pos == end)
    return zp_rd_invalid(r, "its last field is empty, which its text form cannot be");
  return rest(r, in, end, pos);
}

/* A length octet and that many octets (STRING, SALT). */
static bool counted(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return zp_rd_wire_copy(r, in, end, pos, *pos < end ? 1u + in[*pos] : 1);
}

static bool opt_string(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return *pos == end || counted(r, in, end, pos);
}

static bool strings(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  if (*pos == end)
    return invalid(r);
  while (*pos < end)
    if (!counted(r, in, end, pos))
      return false;
  return true;
}

static bool hash(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  if (*pos < end && in[*pos] == 0)
    return invalid(r);
  return counted(r, in, end, pos);
}

/* RFC 8659 section 4.1: a length octet, then letters and digits, at least one. */
static bool tag(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  size_t p = *pos, k = p < end ? 1u + in[p] : 1;
  if (p >= end || in[p] == 0 || k > end - p)
    return invalid(r);
  for (size_t i = 1; i < k; i++)
    if (!((in[p + i] >= '0' && in[p + i] <= '9') || ((in[p + i] | 0x20) >= 'a' &&
                                                     (in[p + i] | 0x20) <= 'z')))
      return invalid(r);
  return zp_rd_wire_copy(r, in, end, pos, k);
}

/* RFC 3123 items: family 1 or 2, a prefix in its range, an address part no longer than the
 * address and without trailing zero octets. */
static bool apl(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  size_t p = *pos, k;
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
  return zp_rd_wire_copy(r, in, end, pos, k);
}

/* RFC 4025 section 2: type 0 to 3, the algorithm, then no gateway, 4 or 16 octets, or an
 * uncompressed name. */
static bool gateway(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  size_t p = *pos;
  if (end - p < 2 || in[p] > 3)
    return invalid(r);
  if (!zp_rd_wire_copy(r, in, end, pos, 2))
    return false;
  if (in[p] == 3)
    return zp_rd_wire_name(r, in, end, pos);
  return zp_rd_wire_copy(r, in, end, pos, in[p] == 0 ? 0 : in[p] == 1 ? 4 : 16);
}

/* RFC 1876 section 2: version 0, sizes of a digit and a power of ten, coordinates within 90
 * and 180 degrees of 2^31. */
static bool loc(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  static const char *const what[4] = {"", "size", "horizontal precision", "vertical precision"};
  size_t p = *pos;
  if (end - p > 0 && in[p] != 0)
    return zp_rd_invalid(r, "only version 0 is defined (RFC 1876 section 2)");
  if (end - p != 16)
    return invalid(r);
  /* a size is a digit 1 to 9 (the high nibble) times 10 to a power 0 to 9 (the low one), in
   * centimetres, or 0; named refuses any other octet, such as 0x05 (0e5) or 0x1a, which no
   * text writes and which ldns writes as text that reads back as other octets */
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
  return zp_rd_wire_copy(r, in, end, pos, 16);
}

static bool svcparams(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return zp_rd_svcparams_wire(r, in, end, pos, r->in->nfields > 2 ? 2 : 0);
}

static bool bitmap(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return wire_bitmap(r, in, end, pos, false);
}

static bool bitmap0(zp_rd *r, const uint8_t *in, size_t end, size_t *pos)
{
  return wire_bitmap(r, in, end, pos, true);
}

/* Each kind's reader of its octets; the table is built from record/rrtype.h's list, so a kind
 * without its row here does not compile. */
#define WIRE_NAME zp_rd_wire_name
#define WIRE_INT8 octet1
#define WIRE_INT16 octets2
#define WIRE_INT32 octets4
#define WIRE_PERIOD octets4
#define WIRE_A octets4
#define WIRE_AAAA octets16
#define WIRE_STRING counted
#define WIRE_OPT_STRING opt_string
#define WIRE_STRINGS strings
#define WIRE_OCTETS rest
#define WIRE_TARGET rest1
#define WIRE_HEX rest1
#define WIRE_BASE64 rest1
#define WIRE_BASE64_0 rest
#define WIRE_BASE64_DASH rest
#define WIRE_ALG octet1
#define WIRE_TYPE octets2
#define WIRE_TYPE_NUM octets2
#define WIRE_SCHEME octet1
#define WIRE_TIME octets4
#define WIRE_BITMAP bitmap
#define WIRE_BITMAP0 bitmap0
#define WIRE_SALT counted
#define WIRE_HASH hash
#define WIRE_TAG tag
#define WIRE_EUI48 octets6
#define WIRE_EUI64 octets8
#define WIRE_ILNP64 octets8
#define WIRE_CERT_TYPE octets2
#define WIRE_APL apl
#define WIRE_LOC loc
#define WIRE_GATEWAY gateway
#define WIRE_SVCPARAMS svcparams
#define WIRE_KEYDATA zp_rd_keydata_wire
#define WIRE_WKS zp_rd_wks_wire
#define WIRE_NSAP zp_rd_nsap_wire
#define WIRE_ATMA zp_rd_atma_wire
#define WIRE_GPOS zp_rd_gpos_wire
#define WIRE_HIP zp_rd_hip_wire
#define WIRE_AMTRELAY zp_rd_amtrelay_wire
#define WIRE_NXTBITMAP zp_rd_nxt_bitmap_wire
#define WIRE_A6 zp_rd_a6_wire
#define ROW(id) [ZP_K_##id] = WIRE_##id,
static bool (*const wire_ops[ZP_K_COUNT])(zp_rd *r, const uint8_t *in, size_t end,
                                          size_t *pos) = {ZP_KINDS(ROW)};
#undef ROW

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
    if (!wire_ops[*k](&r, raw, rawlen, &pos))
      return ZP_ZONE_SYNTAX;
  if (pos != rawlen)
    return invalid(&r), ZP_ZONE_SYNTAX;
  if (!zp_rd_rules(&r, in->nfields > 2 ? 2 : 0))
    return ZP_ZONE_SYNTAX;
  *len = r.n;
  return ZP_OK;
}
