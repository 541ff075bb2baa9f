/* rdata_dnssec.c -- the field kinds of DNSSEC's records (RFC 4034, RFC 5155) and the digest
 * rules of DS and ZONEMD */
#include <regex.h>
#include <string.h>

#include "rdata_int.h"
#include "record/dnssec_params.h"

/* DNSSEC algorithm numbers and mnemonics (record/dnssec_params.h). */
bool zp_rd_algorithm(zp_rd *r)
{
#define NAME(num, mnemonic, verified, retired) {num, mnemonic},
  static const zp_rd_name algorithms[] = {ZP_DNSSEC_ALGORITHMS(NAME)};
#undef NAME
  const zp_field *f;
  uint64_t v;
  if (!zp_rd_next(r, &f))
    return false;
  if (zp_rd_number_or_name(f, 255, algorithms, sizeof algorithms / sizeof *algorithms, &v))
    return zp_rd_put_u8(r, (uint32_t)v);
  return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                    "\"%.*s\" is not a DNSSEC algorithm: a number from 0 to 255 or "
                    "a mnemonic such as RSASHA256",
                    (int)f->len, f->text);
}

bool zp_rd_type(zp_rd *r, bool number)
{
  const zp_field *f;
  uint16_t t;
  uint64_t v;
  if (!zp_rd_next(r, &f))
    return false;
  if (zp_rrtype_from_text(f->text, f->len, &t))
    return zp_rd_put_u16(r, t);
  /* (a sign, which BIND's strtol lets through there, is refused: BIND writes none) */
  if (number && zp_rd_digits(f, 65535, &v))
    return zp_rd_put_u16(r, (uint32_t)v);
  if (number)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a type: a mnemonic, "
                      "TYPEnnn or a number from 0 to 65535", (int)f->len, f->text);
  return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "unknown type \"%.*s\"", (int)f->len, f->text);
}

static uint64_t month_days(uint64_t month, uint64_t year)
{
  static const uint8_t days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return days[month - 1] + (month == 2 && leap);
}

bool zp_rdata_date(const char *text, size_t len, int64_t *secs, size_t *bad)
{
  uint64_t d[6] = {0};
  static const uint8_t width[6] = {4, 2, 2, 2, 2, 2};
  *bad = len;
  if (len != 14)
    return false;
  for (size_t i = 0, k = 0; i < 6; i++)
    for (uint8_t w = 0; w < width[i]; w++, k++) {
      if (text[k] < '0' || text[k] > '9') {
        *bad = k;
        return false;
      }
      d[i] = d[i] * 10 + (uint64_t)(text[k] - '0');
    }
  uint64_t y = d[0], mo = d[1], day = d[2];
  if (mo < 1 || mo > 12 || day < 1 || day > month_days(mo, y) || d[3] >= 24 || d[4] >= 60 ||
      d[5] >= 60)
    return false;
  /* the proleptic Gregorian calendar, any year from 0 */
  int64_t days = (int64_t)day - 1;
  for (uint64_t yy = y; yy < 1970; yy++)
    days -= (int64_t)(337 + month_days(2, yy));
  for (uint64_t yy = 1970; yy < y; yy++)
    days += (int64_t)(337 + month_days(2, yy));
  for (uint64_t m = 1; m < mo; m++)
    days += (int64_t)month_days(m, y);
  *secs = days * 86400 + (int64_t)(d[3] * 3600 + d[4] * 60 + d[5]);
  return true;
}

/* RFC 4034 section 3.2: YYYYMMDDHHmmSS in UTC, a real date and time, as seconds since 1970
 * modulo 2^32; or the seconds as a decimal number. */
bool zp_rd_time(zp_rd *r)
{
  const zp_field *f;
  uint64_t v;
  if (!zp_rd_next(r, &f))
    return false;
  if (f->len != 14) {
    /* RFC 2535 section 7.2: SIG's times are dates only (BIND holds to it) */
    if (r->in->type != ZP_TYPE_SIG && zp_rd_digits(f, 0xFFFFFFFFu, &v))
      return zp_rd_put_u32(r, (uint32_t)v);
    if (r->in->type == ZP_TYPE_SIG)
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "\"%.*s\" is not a time: SIG times are "
                        "YYYYMMDDHHmmSS (RFC 2535 section 7.2)", (int)f->len, f->text);
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                      "\"%.*s\" is not a time: YYYYMMDDHHmmSS or seconds up to "
                      "4294967295 (RFC 4034 section 3.2)",
                      (int)f->len, f->text);
  }
  size_t bad;
  int64_t secs;
  if (!zp_rdata_date(f->text, f->len, &secs, &bad)) {
    if (bad < f->len)
      return zp_rd_fail(r, r->fi - 1, bad, "\"%.*s\" is not a time: YYYYMMDDHHmmSS (RFC 4034 "
                        "section 3.2)", (int)f->len, f->text);
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                      "\"%.*s\" is not a date and time (RFC 4034 section 3.2)",
                      (int)f->len, f->text);
  }
  /* any year, taken modulo 2^32 as serial arithmetic reads it: BIND writes a time from 2^31 on
   * as the date before 1970 it also stands for (4294967295 is 19691231235959), and reads every
   * such date back */
  return zp_rd_put_u32(r, (uint32_t)(uint64_t)secs);
}

/* RFC 4034 section 4.1.2: the types of every field to the end, in windows of 256; at least one
 * unless empty is allowed. */
bool zp_rd_bitmap(zp_rd *r, bool empty)
{
  if (!empty && r->fi == r->in->nfields) {
    const zp_field *f;
    return zp_rd_next(r, &f);   /* reports the missing field */
  }
  uint8_t bits[256][32];
  uint8_t used[256] = {0};   /* octets used in each window */
  while (r->fi < r->in->nfields) {
    const zp_field *f;
    uint16_t t;
    if (!zp_rd_next(r, &f))
      return false;
    if (!zp_rrtype_from_text(f->text, f->len, &t))
      return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "unknown type \"%.*s\" in the type bitmap",
                        (int)f->len, f->text);
    uint8_t w = (uint8_t)(t >> 8), o = (uint8_t)((t & 0xFF) >> 3);
    if (used[w] == 0)
      memset(bits[w], 0, sizeof bits[w]);
    if (used[w] < o + 1)
      used[w] = (uint8_t)(o + 1);
    bits[w][o] |= (uint8_t)(0x80 >> (t & 7));
  }
  for (unsigned w = 0; w < 256; w++)
    if (used[w] &&
        !(zp_rd_put_u8(r, w) && zp_rd_put_u8(r, used[w]) && zp_rd_put(r, bits[w], used[w])))
      return false;
  return true;
}

/* RFC 5155 section 3.3: the salt as hex, "-" for none; a length octet first. */
bool zp_rd_salt(zp_rd *r)
{
  const zp_field *f;
  if (r->fi < r->in->nfields && r->in->fields[r->fi].len == 1 &&
      r->in->fields[r->fi].text[0] == '-') {
    r->fi++;
    return zp_rd_put_u8(r, 0);
  }
  size_t at = r->n;
  if (!zp_rd_put_u8(r, 0) || !zp_rd_hex(r, false))
    return false;
  f = &r->in->fields[r->fi - 1];
  if (r->n - at - 1 > 255)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "salt \"%.*s\" is longer than 255 octets",
                      (int)f->len, f->text);
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
bool zp_rd_hash(zp_rd *r)
{
  const zp_field *f;
  if (!zp_rd_next(r, &f))
    return false;
  size_t at = r->n;
  uint32_t acc = 0;
  unsigned bits = 0;
  if (!zp_rd_put_u8(r, 0))
    return false;
  for (size_t i = 0; i < f->len; i++) {
    int v = b32hexval(f->text[i]);
    if (v < 0)
      return zp_rd_fail(r, r->fi - 1, i,
                        "invalid base32hex digit '%c' in %s RDATA (RFC 4648 section "
                        "7, no padding)",
                        f->text[i], r->tname);
    acc = acc << 5 | (uint32_t)v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      if (!zp_rd_put_u8(r, acc >> bits))
        return false;
      acc &= (1u << bits) - 1;
    }
  }
  size_t len = r->n - at - 1;
  /* what is left over must be the zero bits of a whole last digit */
  if (len == 0 || bits >= 5 || acc != 0)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD,
                      "\"%.*s\" is not a hash in base32hex (RFC 4648 section 7)", (int)f->len,
                      f->text);
  if (len > 255)
    return zp_rd_fail(r, r->fi - 1, ZP_RDATA_FIELD, "hash \"%.*s\" is longer than 255 octets",
                      (int)f->len, f->text);
  r->out[at] = (uint8_t)len;
  return true;
}

/* RFC 3402 section 3.2: an empty regexp, or delim-char ERE delim-char replacement delim-char
 * and the flag "i"; the delimiter neither a digit, a backslash nor a flag; the ERE valid
 * (POSIX regcomp), and a back-reference \\N in the replacement one of its subexpressions. */
static bool naptr_regexp(zp_rd *r, size_t field)
{
  /* order, preference, flags, services, then the regexp */
  size_t at = 4 + 1u + r->out[4];
  at += 1u + r->out[at];
  size_t len = r->out[at];
  const uint8_t *re = r->out + at + 1;
  if (len == 0)
    return true;
  uint8_t delim = re[0];
  char ere[256];
  size_t parts = 0, n = 0, refs = 0;
  bool ok = !(delim >= '0' && delim <= '9') && delim != '\\' && delim != 'i' && delim != 0;
  for (size_t i = 1; ok && i < len; i++) {
    uint8_t c = re[i];
    if (c == delim) {
      parts++;
      ok = parts <= 2;
      continue;
    }
    if (parts == 2) {   /* flags */
      ok = c == 'i';
      continue;
    }
    ok = c != 0;
    if (c == '\\') {
      ok = ++i < len && re[i] != 0;
      if (ok && parts == 1 && re[i] >= '0' && re[i] <= '9') {
        ok = re[i] != '0';
        refs = re[i] - '0' > (int)refs ? (size_t)(re[i] - '0') : refs;
      }
      if (ok && parts == 0) {
        ere[n++] = '\\';
        ere[n++] = (char)re[i];
      }
      continue;
    }
    if (parts == 0)
      ere[n++] = (char)c;
  }
  regex_t rx;
  if (ok && parts == 2) {
    ere[n] = '\0';
    ok = regcomp(&rx, ere, REG_EXTENDED) == 0;
    if (ok) {
      ok = refs <= rx.re_nsub;
      regfree(&rx);
    }
  } else {
    ok = false;
  }
  return ok || zp_rd_fail(r, field, ZP_RDATA_FIELD, "NAPTR regexp is not delim ERE delim "
                          "replacement delim [i], its ERE valid and its back-references to "
                          "subexpressions it has (RFC 3402 section 3.2)");
}

/* Digest lengths fixed by the digest type: DS (RFC 4034 5.1.4, RFC 4509, RFC 5933, RFC 6605) and
 * ZONEMD (RFC 8976 section 2.2.3), whose digest is also at least 12 octets (2.2.4). */
static bool digest(zp_rd *r, size_t type_at, size_t digest_at, size_t field, bool zonemd)
{
#define ROW(num, name, octets, hash) {num, octets, name},
  static const struct { uint8_t type; uint8_t len; char name[16]; } ds[] = {ZP_DS_DIGESTS(ROW)},
                                                                    zm[] = {ZP_ZONEMD_HASHES(ROW)};
#undef ROW
  size_t len = r->n - digest_at, n = zonemd ? sizeof zm / sizeof *zm : sizeof ds / sizeof *ds;
  uint8_t type = r->out[type_at];
  if (zonemd && len < 12)
    return zp_rd_fail(r, field, ZP_RDATA_FIELD,
                      "ZONEMD digest of %zu octets: at least 12 (RFC 8976 "
                      "section 2.2.4)",
                      len);
  for (size_t i = 0; i < n; i++) {
    unsigned want = zonemd ? zm[i].len : ds[i].len;
    if ((zonemd ? zm[i].type : ds[i].type) == type && len != want)
      return zp_rd_fail(r, field, ZP_RDATA_FIELD, "%s digest of %zu octets, but %s digests have %u",
                  r->tname, len, zonemd ? zm[i].name : ds[i].name, want);
  }
  return true;
}

/* RFC 4034 appendix A.1.1: a key of algorithm 253, PRIVATEDNS, begins with an uncompressed
 * domain name, which names the algorithm (in KEY and RKEY too, as BIND holds them). BIND refuses
 * the RFC 3597 form of one that does not, though it reads its text: the form KEY and RKEY are
 * written in. */
static bool private_dns(zp_rd *r, size_t field)
{
  /* flags, protocol, algorithm, then the key: none in a KEY whose flags say so */
  if (r->out[3] != 253 || r->n == 4)
    return true;
  size_t p = 4;
  while (p < r->n && r->out[p] != 0 && r->out[p] <= 63)
    p += 1u + r->out[p];
  if (p < r->n && r->out[p] == 0 && p - 4 < 255)
    return true;
  return zp_rd_fail(r, field, ZP_RDATA_FIELD, "%s key of algorithm 253 (PRIVATEDNS) without "
                    "the uncompressed domain name it begins with (RFC 4034 appendix A.1.1); "
                    "BIND refuses it", r->tname);
}

bool zp_rd_rules(zp_rd *r, size_t hexf)
{
  switch (r->in->type) {
  case ZP_TYPE_KEY: case ZP_TYPE_DNSKEY: case ZP_TYPE_CDNSKEY:
    return private_dns(r, hexf == SIZE_MAX ? 3 : hexf);
  case ZP_TYPE_DS: case ZP_TYPE_CDS: case ZP_TYPE_TA: case ZP_TYPE_DLV:
    return digest(r, 3, 4, hexf == SIZE_MAX ? 3 : hexf, false);
  case ZP_TYPE_RKEY:
    /* no flag is defined (draft-reid-dnsext-rkey section 2.1): BIND refuses any but 0 */
    if (r->out[0] || r->out[1])
      return zp_rd_fail(r, hexf == SIZE_MAX ? 0 : hexf, ZP_RDATA_FIELD, "RKEY flags %u are not "
                        "0: no RKEY flag is defined, and BIND refuses any",
                        (unsigned)r->out[0] << 8 | r->out[1]);
    return private_dns(r, hexf == SIZE_MAX ? 3 : hexf);
  case ZP_TYPE_ZONEMD:
    return digest(r, 5, 6, hexf == SIZE_MAX ? 3 : hexf, true);
  case ZP_TYPE_RRSIG: {
    /* RFC 4035 section 5.3.1: the signer is the zone, at or above the owner, whose labels the
     * Labels field counts (less a wildcard): so it is at least the signer's (BIND holds to it) */
    unsigned labels = 0;
    for (const uint8_t *p = r->out + 18; *p; p += *p + 1)
      labels++;
    if (r->out[3] < labels)
      return zp_rd_fail(r, hexf == SIZE_MAX ? 2 : hexf, ZP_RDATA_FIELD, "RRSIG Labels %u is "
                        "fewer than the %u labels of its signer (RFC 4035 section 5.3.1)",
                        r->out[3], labels);
    return true;
  }
  case ZP_TYPE_NSEC3:
    /* RFC 5155 section 5: hash algorithm 1, SHA-1, makes hashes of 20 octets (BIND holds to
     * it) */
    if (r->out[0] == 1 && r->out[5 + r->out[4]] != 20)
      return zp_rd_fail(r, hexf == SIZE_MAX ? 4 : hexf, ZP_RDATA_FIELD, "NSEC3 hash of %u "
                        "octets, but SHA-1 hashes have 20 (RFC 5155 section 5)",
                        r->out[5 + r->out[4]]);
    return true;
  case ZP_TYPE_SSHFP:
    /* RFC 4255 section 3.1.2, RFC 6594 section 3: SHA-1 fingerprints are 20 octets, SHA-256
     * ones 32 */
    if ((r->out[1] == 1 && r->n != 22) || (r->out[1] == 2 && r->n != 34))
      return zp_rd_fail(r, hexf == SIZE_MAX ? 2 : hexf, ZP_RDATA_FIELD, "SSHFP fingerprint of "
                        "%zu octets, but %s fingerprints have %u", r->n - 2,
                        r->out[1] == 1 ? "SHA-1" : "SHA-256", r->out[1] == 1 ? 20u : 32u);
    return true;
  case ZP_TYPE_NAPTR:
    return naptr_regexp(r, hexf == SIZE_MAX ? 4 : hexf);
  case ZP_TYPE_X25: {
    /* RFC 1183 section 3.1: decimal digits, the 4-digit DNIC first (BIND holds to both) */
    bool ok = r->out[0] >= 4;
    for (size_t i = 1; ok && i <= r->out[0]; i++)
      ok = r->out[i] >= '0' && r->out[i] <= '9';
    return ok || zp_rd_fail(r, hexf == SIZE_MAX ? 0 : hexf, ZP_RDATA_FIELD, "an X25 PSDN "
                            "address is 4 or more decimal digits (RFC 1183 section 3.1)");
  }
  default:
    return true;
  }
}

