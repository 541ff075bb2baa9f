/* rdata_text.c -- RDATA from presentation form to wire form: one strict parser per field kind, chosen
 * by the type table (rrtype.c); the DNSSEC kinds are in rdata_dnssec.c, addresses, prefixes and
 * places in rdata_place.c, SVCB in rdata_svcb.c, old types in rdata_legacy.c, the primitives they
 * all build on in rdata_field.c, RFC 3597 RDATA in rdata_wire.c. Nothing wraps, pads or guesses:
 * a field is in range and well formed, or it is an error at its place. */
#include "rdata.h"

#include <arpa/inet.h>
#include <string.h>

#include "rdata_int.h"

static bool integer(zp_rd *r, unsigned bits)
{
  uint64_t max = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1, v;
  if (!zp_rd_number(r, max, &v, NULL))
    return false;
  return bits == 8 ? zp_rd_put_u8(r, (uint32_t)v) : bits == 16 ? zp_rd_put_u16(r, (uint32_t)v)
                                                          : zp_rd_put_u32(r, (uint32_t)v);
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

/* text[0..len) as quoted character-strings of 255 octets at most, each escape kept whole, into
 * out (cap octets); false when they do not fit. */
static bool split_strings(const char *text, size_t len, char *out, size_t cap)
{
  size_t o = 0, octets = 0;
  for (size_t i = 0; i < len;) {
    size_t k = text[i] != '\\' ? 1 : i + 1 < len && text[i + 1] >= '0' && text[i + 1] <= '9' ? 4 : 2;
    if (k > len - i)
      k = len - i;
    if (octets == 255 || i == 0) {
      if (o + 3 > cap)
        return false;
      if (i > 0)
        out[o++] = '"', out[o++] = ' ';
      out[o++] = '"';
      octets = 0;
    }
    if (o + k + 2 > cap)
      return false;
    memcpy(out + o, text + i, k);
    o += k;
    i += k;
    octets++;
  }
  out[o++] = '"';
  out[o] = '\0';
  return true;
}

/* One character-string: a length octet and at most 255 octets (RFC 1035 section 3.3). One too
 * long where the type takes several (TXT's) is told with the strings it makes, ready to paste. */
static bool string(zp_rd *r, const zp_field *f)
{
  uint8_t s[255];
  size_t n = zp_rd_unescape(f->text, f->len, s, sizeof s);
  if (n <= sizeof s)
    return zp_rd_put_u8(r, (uint32_t)n) && zp_rd_put(r, s, n);
  char split[3000];
  bool several = r->kind && *r->kind == ZP_K_STRINGS &&
                 split_strings(f->text, f->len, split, sizeof split);
  return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                    "character-string of %zu octets in %s RDATA: longer than 255 octets (RFC "
                    "1035 section 3.3)%s%s", n, r->tname,
                    several ? "; as strings of 255 octets at most, one after the other: " : "",
                    several ? split : "");
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
  size_t room = r->max - r->n, n = zp_rd_unescape(f->text, f->len, r->out + r->n, room);
  if (n > room)
    return zp_rd_too_long(r, r->fi - 1);
  r->n += n;
  return true;
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

/* DSYNC's scheme (draft-ietf-dnsop-generalized-notify): a number or its mnemonic, as BIND
 * reads it. */
static bool scheme(zp_rd *r)
{
  static const zp_rd_name schemes[] = {{1, "NOTIFY"}};
  const zp_field *f;
  uint64_t v;
  if (!zp_rd_next(r, &f))
    return false;
  if (zp_rd_number_or_name(f, 255, schemes, 1, &v))
    return zp_rd_put_u8(r, (uint32_t)v);
  return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a DSYNC scheme: a number "
                    "from 0 to 255 or NOTIFY", (int)f->len, f->text);
}

static bool int8(zp_rd *r) { return integer(r, 8); }
static bool int16(zp_rd *r) { return integer(r, 16); }
static bool int32(zp_rd *r) { return integer(r, 32); }
static bool ipv4(zp_rd *r) { return zp_rd_address(r, AF_INET); }
static bool ipv6(zp_rd *r) { return zp_rd_address(r, AF_INET6); }

static bool one_string(zp_rd *r)
{
  const zp_field *f;
  return zp_rd_next(r, &f) && string(r, f);
}

/* an empty one is no subaddress at all, as BIND and dnspython read it */
static bool opt_string(zp_rd *r)
{
  const zp_field *f;
  if (r->fi == r->in->nfields)
    return true;
  return zp_rd_next(r, &f) && (f->len == 0 || string(r, f));
}

static bool strings(zp_rd *r)
{
  if (!one_string(r))
    return false;
  while (r->fi < r->in->nfields)
    if (!string(r, &r->in->fields[r->fi++]))
      return false;
  return true;
}

static bool value(zp_rd *r) { return octets(r, false); }
static bool target(zp_rd *r) { return octets(r, true); }
static bool hex(zp_rd *r) { return zp_rd_hex(r, true); }
static bool base64_0(zp_rd *r) { return zp_rd_base64_or_none(r, NULL); }
static bool base64_dash(zp_rd *r) { return zp_rd_base64_or_none(r, "-"); }
static bool type(zp_rd *r) { return zp_rd_type(r, false); }
static bool type_num(zp_rd *r) { return zp_rd_type(r, true); }
static bool bitmap(zp_rd *r) { return zp_rd_bitmap(r, false); }
static bool bitmap0(zp_rd *r) { return zp_rd_bitmap(r, true); }
static bool eui48(zp_rd *r) { return zp_rd_eui(r, 6); }
static bool eui64(zp_rd *r) { return zp_rd_eui(r, 8); }

/* Each kind's reader, and whether its fields may be quoted (Q) or absent (O); the table below
 * is built from record/rrtype.h's list, so a kind without its row here does not compile. */
enum { Q = ZP_RD_QUOTED, O = ZP_RD_OPTIONAL };
#define TEXT_NAME {zp_rd_dname, 0}
#define TEXT_INT8 {int8, 0}
#define TEXT_INT16 {int16, 0}
#define TEXT_INT32 {int32, 0}
#define TEXT_PERIOD {period, 0}
#define TEXT_A {ipv4, 0}
#define TEXT_AAAA {ipv6, 0}
#define TEXT_STRING {one_string, Q}
#define TEXT_OPT_STRING {opt_string, Q | O}
#define TEXT_STRINGS {strings, Q}
#define TEXT_OCTETS {value, Q}
#define TEXT_TARGET {target, Q}
#define TEXT_HEX {hex, 0}
#define TEXT_BASE64 {zp_rd_base64, 0}
#define TEXT_BASE64_0 {base64_0, O}
#define TEXT_BASE64_DASH {base64_dash, 0}
#define TEXT_ALG {zp_rd_algorithm, 0}
#define TEXT_TYPE {type, 0}
#define TEXT_TYPE_NUM {type_num, 0}
#define TEXT_SCHEME {scheme, 0}
#define TEXT_TIME {zp_rd_time, 0}
#define TEXT_BITMAP {bitmap, 0}
#define TEXT_BITMAP0 {bitmap0, O}
#define TEXT_SALT {zp_rd_salt, 0}
#define TEXT_HASH {zp_rd_hash, 0}
#define TEXT_TAG {tag, 0}
#define TEXT_EUI48 {eui48, 0}
#define TEXT_EUI64 {eui64, 0}
#define TEXT_ILNP64 {zp_rd_ilnp64, 0}
#define TEXT_CERT_TYPE {cert_type, 0}
#define TEXT_APL {zp_rd_apl, 0}
#define TEXT_LOC {zp_rd_loc, 0}
#define TEXT_GATEWAY {zp_rd_ipseckey_gateway, 0}
#define TEXT_SVCPARAMS {zp_rd_svcparams, Q | O}   /* (param_text says what a quote may do) */
#define TEXT_KEYDATA {zp_rd_keydata, 0}
#define TEXT_WKS {zp_rd_wks, 0}
#define TEXT_NSAP {zp_rd_nsap, 0}
#define TEXT_ATMA {zp_rd_atma, 0}
#define TEXT_GPOS {zp_rd_gpos, Q}
#define TEXT_HIP {zp_rd_hip, 0}
#define TEXT_AMTRELAY {zp_rd_amtrelay, 0}
#define TEXT_NXTBITMAP {zp_rd_nxt_bitmap, 0}
#define TEXT_A6 {zp_rd_a6, 0}
#define ROW(id) [ZP_K_##id] = TEXT_##id,
static const zp_rd_text_op text_ops[ZP_K_COUNT] = {ZP_KINDS(ROW)};
#undef ROW

zp_status zp_rdata_parse(const zp_rdata_in *in, uint8_t *out, size_t *len, zp_rdata_error *err)
{
  zp_rd r = {.in = in, .out = out, .max = zp_rd_max(in->type), .err = err, .ops = text_ops};
  r.conv = zp_rrtype_lowercases(in->type) ? in->lower : in->keep;
  r.tname = zp_rrtype_name(in->type, r.tb);
  const uint8_t *k = zp_rrtype_kinds(in->type);
  if (!zp_rrtype_reads_text(in->type))
    return zp_rd_fail(&r, 0, 0, "%s has no strict parser", r.tname), ZP_EINVAL;
  for (r.kind = k; *r.kind != ZP_K_END; r.kind++)
    if (!text_ops[*r.kind].read(&r))
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

