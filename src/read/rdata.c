/* rdata.c -- RDATA from presentation form to wire form: one strict parser per field kind, chosen
 * by the type table (rrtype.c); the DNSSEC kinds are in rdata_dnssec.c, addresses, prefixes and
 * places in rdata_place.c, SVCB in rdata_svcb.c, old types in rdata_legacy.c, the primitives they
 * all build on in rdata_field.c, RFC 3597 RDATA in rdata_wire.c. Nothing wraps, pads or guesses:
 * a field is in range and well formed, or it is an error at its place. */
#include "rdata.h"

#include <arpa/inet.h>

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
  case ZP_K_BASE64_0: return zp_rd_base64_or_none(r, NULL);
  case ZP_K_BASE64_DASH: return zp_rd_base64_or_none(r, "-");
  case ZP_K_ALG: return zp_rd_algorithm(r);
  case ZP_K_TYPE: return zp_rd_type(r, false);
  case ZP_K_TYPE_NUM: return zp_rd_type(r, true);
  case ZP_K_SCHEME: return scheme(r);
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
  case ZP_K_AMTRELAY: case ZP_K_NXTBITMAP: case ZP_K_A6:
    return zp_rd_legacy(r, kind);
  default: return zp_rd_fail(r, r->fi, 0, "internal error: field kind %u", kind);
  }
}

zp_status zp_rdata_parse(const zp_rdata_in *in, uint8_t *out, size_t *len, zp_rdata_error *err)
{
  zp_rd r = {.in = in, .out = out, .max = zp_rd_max(in->type), .err = err};
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

