/* emit.c -- the only module that knows ldns: RR type tables and canonical output */
#include "emit.h"

#include <arpa/inet.h>
#include <ldns/ldns.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "idna.h"

enum { TYPE_CACHE = 320, CLASS_CACHE = 256 };

/* One record held back for --sort: the canonical key (owner as sort_key writes it, class, type,
 * RDATA wire form) and the presentation line already formatted, all stored at off in the
 * arena. */
typedef struct held {
  uint64_t pre[2];      /* the key's first 16 octets, big-endian, zero-padded: most comparisons */
  size_t off;
  const uint8_t *p;     /* arena + off, set once the arena stops moving */
  size_t seq;
  uint16_t rclass, rtype;
  uint16_t key_len, rdata_len;
  uint32_t line_len;
} held;

struct zp_emitter {
  zp_emit_options opt;
  FILE *out;
  zp_diag *diag;
  char *line;           /* the one output buffer, reused for every record */
  size_t line_len, line_cap;
  ldns_buffer *text;    /* what ldns itself formats: the types the fast path leaves to it */
  ldns_buffer *wire;    /* RDATA wire form, for --sort */
  char *tok;            /* NUL-terminated copies of field text for ldns's converters */
  size_t tok_cap;
  held *held;
  size_t nheld, held_cap;
  uint8_t *arena;
  size_t arena_len, arena_cap;
  bool write_failed;
  char *type_text[TYPE_CACHE], *class_text[CLASS_CACHE];
};

/* ldns wants NUL-terminated mnemonics; longer ones are not mnemonics at all. */
static bool terminate(const char *text, size_t len, char *buf, size_t cap)
{
  if (len == 0 || len >= cap || memchr(text, '\0', len))
    return false;
  memcpy(buf, text, len);
  buf[len] = '\0';
  return true;
}

/* ldns looks mnemonics up with strcasecmp down its whole table, which the front end would pay
 * for on every record: the types that make up nearly all of a zone are tried first. */
static bool common_type(const char *text, size_t len, uint16_t *type)
{
  static const struct {
    char name[7];
    uint8_t len;
    uint16_t type;
  } common[] = {
    {"A", 1, LDNS_RR_TYPE_A},         {"AAAA", 4, LDNS_RR_TYPE_AAAA},
    {"NS", 2, LDNS_RR_TYPE_NS},       {"CNAME", 5, LDNS_RR_TYPE_CNAME},
    {"MX", 2, LDNS_RR_TYPE_MX},       {"TXT", 3, LDNS_RR_TYPE_TXT},
    {"SOA", 3, LDNS_RR_TYPE_SOA},     {"PTR", 3, LDNS_RR_TYPE_PTR},
    {"SRV", 3, LDNS_RR_TYPE_SRV},     {"CAA", 3, LDNS_RR_TYPE_CAA},
    {"DS", 2, LDNS_RR_TYPE_DS},       {"RRSIG", 5, LDNS_RR_TYPE_RRSIG},
    {"DNSKEY", 6, LDNS_RR_TYPE_DNSKEY}, {"NSEC", 4, LDNS_RR_TYPE_NSEC},
  };
  for (size_t i = 0; i < sizeof common / sizeof *common; i++) {
    if (common[i].len != len)
      continue;
    size_t k = 0;
    while (k < len && (text[k] & ~0x20) == common[i].name[k])
      k++;
    if (k == len) {
      *type = common[i].type;
      return true;
    }
  }
  return false;
}

bool zp_rr_type_from_text(const char *text, size_t len, uint16_t *type)
{
  if (common_type(text, len, type))
    return true;
  char buf[32];
  if (!terminate(text, len, buf, sizeof buf))
    return false;
  ldns_rr_type t = ldns_get_rr_type_by_name(buf);
  if (t == 0)
    return false;
  *type = (uint16_t)t;
  return true;
}

bool zp_rr_class_from_text(const char *text, size_t len, uint16_t *rclass)
{
  if (len == 2 && (text[0] & ~0x20) == 'I' && (text[1] & ~0x20) == 'N') {
    *rclass = LDNS_RR_CLASS_IN;
    return true;
  }
  /* ldns knows IN, CH, HS, NONE, ANY and CLASSnnn: other shapes (most type names) are not
   * looked up down its table */
  int c0 = len > 0 ? text[0] & ~0x20 : 0;
  if (!(len == 2 || (len == 3 && c0 == 'A') || (len == 4 && c0 == 'N') || (len > 5 && c0 == 'C')))
    return false;
  char buf[32];
  if (!terminate(text, len, buf, sizeof buf))
    return false;
  ldns_rr_class c = ldns_get_rr_class_by_name(buf);
  if (c == 0)
    return false;
  *rclass = (uint16_t)c;
  return true;
}

ZP_PRINTF(3, 4) static void bad(zp_emitter *em, const zp_loc *loc, const char *fmt, ...)
{
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  zp_diag_report(em->diag, loc, ZP_ERROR, "%s", msg);
}

static const char *type_name(uint16_t type, char buf[16])
{
  const ldns_rr_descriptor *d = ldns_rr_descript(type);
  if (d && d->_name && strncmp(d->_name, "TYPE", 4) != 0)
    return d->_name;
  snprintf(buf, 16, "TYPE%u", (unsigned)type);
  return buf;
}

/* What ldns's field types are called in messages. */
static const char *field_kind(ldns_rdf_type t)
{
  switch (t) {
  case LDNS_RDF_TYPE_DNAME: return "domain name";
  case LDNS_RDF_TYPE_INT8: case LDNS_RDF_TYPE_INT16: case LDNS_RDF_TYPE_INT32: return "number";
  case LDNS_RDF_TYPE_A: return "IPv4 address";
  case LDNS_RDF_TYPE_AAAA: return "IPv6 address";
  case LDNS_RDF_TYPE_STR: case LDNS_RDF_TYPE_LONG_STR: return "character string";
  case LDNS_RDF_TYPE_B64: return "base64 data";
  case LDNS_RDF_TYPE_HEX: return "hex data";
  case LDNS_RDF_TYPE_NSEC: return "type bitmap";
  case LDNS_RDF_TYPE_TYPE: return "RR type";
  case LDNS_RDF_TYPE_CLASS: return "class";
  case LDNS_RDF_TYPE_ALG: case LDNS_RDF_TYPE_CERT_ALG: return "algorithm";
  case LDNS_RDF_TYPE_TIME: return "timestamp";
  case LDNS_RDF_TYPE_PERIOD: return "time period";
  case LDNS_RDF_TYPE_LOC: return "location";
  case LDNS_RDF_TYPE_WKS: return "protocol and services";
  case LDNS_RDF_TYPE_APL: return "address prefix";
  case LDNS_RDF_TYPE_NSEC3_SALT: return "salt";
  case LDNS_RDF_TYPE_NSEC3_NEXT_OWNER: return "base32 hash";
  case LDNS_RDF_TYPE_SVCPARAMS: return "service parameters";
  case LDNS_RDF_TYPE_IPSECKEY: return "IPSECKEY data";
  case LDNS_RDF_TYPE_HIP: return "HIP data";
  case LDNS_RDF_TYPE_TAG: return "tag";
  default: return "field";
  }
}

/* A diagnostic column inside a field: col counts characters, offset counts bytes. */
static zp_loc loc_at(const zp_field *f, size_t offset)
{
  zp_loc loc = f->loc;
  uint32_t chars = f->quoted ? 1 : 0;
  for (size_t i = 0; i < offset && i < f->len; i++)
    chars += ((unsigned char)f->text[i] & 0xC0) != 0x80;
  loc.col += chars;
  return loc;
}

static bool tok_reserve(zp_emitter *em, size_t need)
{
  if (need <= em->tok_cap)
    return true;
  size_t cap = em->tok_cap ? em->tok_cap : 256;
  while (cap < need)
    cap *= 2;
  char *p = realloc(em->tok, cap);
  if (!p)
    return false;
  em->tok = p;
  em->tok_cap = cap;
  return true;
}

/* Dname text: "\X" for the characters that mean something in a master file, "\DDD" for
 * octets that are not printable ASCII, the rest as they are. The "\X" set is BIND's, wider than
 * ldns's: an unescaped '"' opens a quoted string for BIND and for our own scanner, '$' at the
 * start of a line is read as a directive, and ldns reads "@.example." as the origin itself. */
static size_t put_name(char *out, const uint8_t *wire)
{
  size_t n = 0;
  if (*wire == 0) {
    out[n++] = '.';
    return n;
  }
  for (const uint8_t *p = wire; *p; p += *p + 1) {
    for (unsigned i = 1; i <= *p; i++) {
      uint8_t c = p[i];
      if (c == '.' || c == ';' || c == '(' || c == ')' || c == '\\' || c == '"' || c == '$' ||
          c == '@') {
        out[n++] = '\\';
        out[n++] = (char)c;
      } else if (c < 0x21 || c >= 0x7F) {
        out[n++] = '\\';
        out[n++] = (char)('0' + c / 100);
        out[n++] = (char)('0' + c / 10 % 10);
        out[n++] = (char)('0' + c % 10);
      } else {
        out[n++] = (char)c;
      }
    }
    out[n++] = '.';
  }
  return n;
}

/* Longest text put_name writes: every octet as \DDD plus the dots. */
enum { NAME_TEXT_MAX = ZP_NAME_MAX * 4 + 1 };

/* --unicode: ACE labels shown through ToUnicode as raw UTF-8 (a label ToUnicode leaves alone
 * is shown as it is); everything else exactly as put_name writes it. Longest result: 63
 * octets of ACE decode to at most 59 code points of 4 octets each. */
enum { UNICODE_NAME_MAX = 128 * (4 * ZP_LABEL_MAX + 1) };

static size_t put_name_unicode(char *out, const uint8_t *wire)
{
  size_t n = 0;
  if (*wire == 0) {
    out[n++] = '.';
    return n;
  }
  for (const uint8_t *p = wire; *p; p += *p + 1) {
    char text[4 * ZP_LABEL_MAX + 1];
    size_t len = sizeof text;
    bool ace = *p >= 4 && (p[1] | 0x20) == 'x' && (p[2] | 0x20) == 'n' && p[3] == '-' &&
               p[4] == '-';
    if (ace && zp_idna_label_to_unicode((const char *)p + 1, *p, text, &len, 0) == ZP_OK &&
        (len != *p || memcmp(text, p + 1, len) != 0)) {
      memcpy(out + n, text, len);
      n += len;
      out[n++] = '.';
      continue;
    }
    uint8_t one[ZP_LABEL_MAX + 2];
    memcpy(one, p, *p + 1u);
    one[*p + 1] = 0;
    n += put_name(out + n, one);
  }
  return n;
}

static bool parse_name(zp_emitter *em, const zp_field *f, const uint8_t *origin, uint8_t *wire,
                       size_t *len)
{
  zp_name_error err;
  err.offset = 0;
  err.msg[0] = '\0';
  zp_status st = zp_name_parse(f->text, f->len, origin, &em->opt.conv, wire, len, &err);
  if (st == ZP_OK)
    return true;
  zp_loc loc = loc_at(f, err.offset);
  if (err.msg[0])
    bad(em, &loc, "%s", err.msg);
  else
    bad(em, &loc, "bad domain name \"%.*s\": %s", (int)f->len, f->text, zp_strerror(st));
  return false;
}

/* ldns's integer converters take strtol's word for it and wrap out-of-range values silently
 * (MX 70000 becomes 4464): a zone file gets a plain decimal in range or an error. */
static bool check_int(zp_emitter *em, const zp_field *f, ldns_rdf_type t, uint32_t *value)
{
  uint64_t max = t == LDNS_RDF_TYPE_INT8 ? 0xFF : t == LDNS_RDF_TYPE_INT16 ? 0xFFFF : 0xFFFFFFFF;
  uint64_t v = 0;
  bool ok = f->len > 0 && f->len <= 10;
  for (size_t i = 0; ok && i < f->len; i++) {
    ok = f->text[i] >= '0' && f->text[i] <= '9';
    v = v * 10 + (uint64_t)(f->text[i] - '0');
  }
  if (ok && v <= max) {
    *value = (uint32_t)v;
    return true;
  }
  bad(em, &f->loc, "\"%.*s\" is not a number from 0 to %llu", (int)f->len, f->text,
      (unsigned long long)max);
  return false;
}

static void bad_field(zp_emitter *em, const zp_record *rec, const zp_field *f, ldns_rdf_type t,
                      const char *text, size_t len)
{
  char tb[16];
  bad(em, &f->loc, "invalid %s in %s RDATA: \"%.*s\"", field_kind(t), type_name(rec->rtype, tb),
      (int)len, text);
}

/* How many tokens ldns's converter for a field type takes: most take one; the types whose
 * presentation form has spaces in it take the rest of the record (or three, for HIP's
 * algorithm, HIT and key, which are followed by the rendezvous server names). */
static size_t field_span(ldns_rdf_type t, bool last, size_t avail)
{
  switch (t) {
  case LDNS_RDF_TYPE_HIP:
    return avail < 3 ? avail : 3;
  case LDNS_RDF_TYPE_B64:
  case LDNS_RDF_TYPE_HEX:
    return last ? avail : 1;
  case LDNS_RDF_TYPE_NSEC:
  case LDNS_RDF_TYPE_LOC:
  case LDNS_RDF_TYPE_WKS:
  case LDNS_RDF_TYPE_SVCPARAMS:
  case LDNS_RDF_TYPE_IPSECKEY:
  case LDNS_RDF_TYPE_AMTRELAY:
    return avail;
  default:
    return 1;
  }
}

enum { JOIN_OK, JOIN_REPORTED, JOIN_NOMEM };

/* Joins fields [0, n) into em->tok for one ldns converter. Base64 and hex are one blob that
 * may be split anywhere; elsewhere tokens are space separated and quoted ones keep quotes.
 * The IPSECKEY gateway (the fourth token when the gateway type is 3) is a domain name that
 * ldns's descriptor does not mark: it goes through the label policy like any other name. */
static int join_fields(zp_emitter *em, const zp_record *rec, const zp_field *f, size_t n,
                       ldns_rdf_type t)
{
  bool blob = t == LDNS_RDF_TYPE_B64 || t == LDNS_RDF_TYPE_HEX;
  bool gateway_name = t == LDNS_RDF_TYPE_IPSECKEY && n >= 4 && f[1].len == 1 &&
                      f[1].text[0] == '3';
  char gw[NAME_TEXT_MAX];
  size_t gw_len = 0;
  if (gateway_name) {
    uint8_t wire[ZP_NAME_MAX];
    size_t wlen;
    if (!parse_name(em, &f[3], rec->origin, wire, &wlen))
      return JOIN_REPORTED;
    gw_len = put_name(gw, wire);
  }
  size_t need = 1;
  for (size_t i = 0; i < n; i++)
    need += f[i].len + 3 + (i == 3 && gateway_name ? gw_len : 0);
  if (!tok_reserve(em, need))
    return JOIN_NOMEM;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && !blob)
      em->tok[k++] = ' ';
    if (i == 3 && gateway_name) {
      memcpy(em->tok + k, gw, gw_len);
      k += gw_len;
      continue;
    }
    bool q = f[i].quoted && !blob && n > 1;
    if (q)
      em->tok[k++] = '"';
    memcpy(em->tok + k, f[i].text, f[i].len);
    k += f[i].len;
    if (q)
      em->tok[k++] = '"';
  }
  em->tok[k] = '\0';
  return JOIN_OK;
}

/* Builds one RDATA field of type t from fields [0, n). NULL when reported (or out of memory,
 * which *nomem says). */
static ldns_rdf *make_rdf(zp_emitter *em, const zp_record *rec, const zp_field *f, size_t n,
                          ldns_rdf_type t, bool *nomem)
{
  if (t == LDNS_RDF_TYPE_DNAME) {
    uint8_t wire[ZP_NAME_MAX];
    size_t len;
    if (!parse_name(em, f, rec->origin, wire, &len))
      return NULL;
    ldns_rdf *r = ldns_dname_new_frm_data((uint16_t)len, wire);
    *nomem = r == NULL;
    return r;
  }
  uint32_t value;
  if ((t == LDNS_RDF_TYPE_INT8 || t == LDNS_RDF_TYPE_INT16 || t == LDNS_RDF_TYPE_INT32) &&
      !check_int(em, f, t, &value))
    return NULL;
  /* ldns makes an empty field of "" for any type, and then prints nothing for it */
  if (n == 1 && f->len == 0 && t != LDNS_RDF_TYPE_STR && t != LDNS_RDF_TYPE_LONG_STR) {
    bad_field(em, rec, f, t, f->text, 0);
    return NULL;
  }
  int j = join_fields(em, rec, f, n, t);
  if (j != JOIN_OK) {
    *nomem = j == JOIN_NOMEM;
    return NULL;
  }
  ldns_rdf *r = ldns_rdf_new_frm_str(t, em->tok);
  if (!r)
    bad_field(em, rec, f, t, n == 1 ? f->text : em->tok, n == 1 ? f->len : strlen(em->tok));
  return r;
}

/* RDATA in presentation form, field by field as ldns's descriptor for the type lists them. */
static zp_status build_fields(zp_emitter *em, const zp_record *rec, ldns_rr *rr, bool *ok)
{
  char tb[16];
  const ldns_rr_descriptor *d = ldns_rr_descript(rec->rtype);
  size_t max = d ? ldns_rr_descriptor_maximum(d) : 0;
  size_t min = d ? ldns_rr_descriptor_minimum(d) : 1;
  size_t ti = 0, fi = 0;
  *ok = false;
  while (ti < rec->nfields) {
    const zp_field *f = &rec->fields[ti];
    if (fi >= max) {
      bad(em, &f->loc, "unexpected \"%.*s\" after the last %s RDATA field", (int)f->len, f->text,
          type_name(rec->rtype, tb));
      return ZP_OK;
    }
    ldns_rdf_type t = ldns_rr_descriptor_field_type(d, fi);
    if (t == LDNS_RDF_TYPE_UNKNOWN || t == LDNS_RDF_TYPE_NONE) {
      bad(em, &f->loc, "%s has no presentation format: write its RDATA as \\# LENGTH HEX",
          type_name(rec->rtype, tb));
      return ZP_OK;
    }
    size_t n = field_span(t, fi + 1 == max, rec->nfields - ti);
    bool nomem = false;
    ldns_rdf *r = make_rdf(em, rec, f, n, t, &nomem);
    if (!r)
      return nomem ? ZP_ENOMEM : ZP_OK;
    if (!ldns_rr_push_rdf(rr, r)) {
      ldns_rdf_deep_free(r);
      return ZP_ENOMEM;
    }
    ti += n;
    fi++;
  }
  if (fi < min) {
    if (d == NULL)
      bad(em, &rec->loc, "%s has no presentation format: write its RDATA as \\# LENGTH HEX",
          type_name(rec->rtype, tb));
    else
      bad(em, &rec->loc, "%s RDATA needs at least %zu field%s, found %zu",
          type_name(rec->rtype, tb), min, min == 1 ? "" : "s", fi);
    return ZP_OK;
  }
  *ok = true;
  return ZP_OK;
}

static int hexval(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Names that arrive inside generic RDATA get the same label policy as written ones. */
static zp_status relabel(zp_emitter *em, const zp_field *f, ldns_rr *rr, size_t i, bool *ok)
{
  const uint8_t *in = ldns_rdf_data(ldns_rr_rdf(rr, i));
  uint8_t wire[ZP_NAME_MAX];
  size_t n = 0;
  *ok = false;
  for (const uint8_t *p = in; *p; p += *p + 1) {
    uint8_t label[ZP_LABEL_MAX + 1];
    size_t len = sizeof label;
    char msg[512] = "";
    zp_status st = ZP_OK;
    if (em->opt.conv.fn) {
      st = em->opt.conv.fn(em->opt.conv.ctx, p + 1, *p, label, &len, msg, sizeof msg);
    } else {
      memcpy(label, p + 1, *p);
      len = *p;
    }
    if (st != ZP_OK) {
      bad(em, &f->loc, "%s", msg[0] ? msg : zp_strerror(st));
      return ZP_OK;
    }
    if (n + 1 + len + 1 > ZP_NAME_MAX) {
      bad(em, &f->loc, "name in generic RDATA is longer than 255 octets after conversion");
      return ZP_OK;
    }
    wire[n++] = (uint8_t)len;
    memcpy(wire + n, label, len);
    n += len;
  }
  wire[n++] = 0;
  ldns_rdf *r = ldns_dname_new_frm_data((uint16_t)n, wire);
  if (!r)
    return ZP_ENOMEM;
  ldns_rdf_deep_free(ldns_rr_set_rdf(rr, r, i));
  *ok = true;
  return ZP_OK;
}

/* RFC 3597 "\# LENGTH HEX". A type ldns knows is decoded into its fields, so the output is
 * the type's own presentation form; others stay generic. */
static zp_status build_generic(zp_emitter *em, const zp_record *rec, ldns_rr *rr, bool *ok)
{
  char tb[16];
  zp_status st = ZP_OK;
  uint8_t *data = NULL;
  *ok = false;
  if (rec->nfields < 2) {
    bad(em, &rec->loc, "generic RDATA needs a length after \\#");
    goto out;
  }
  const zp_field *lf = &rec->fields[1];
  unsigned long want = 0;
  bool num = lf->len > 0 && lf->len <= 5;
  for (size_t i = 0; num && i < lf->len; i++) {
    num = lf->text[i] >= '0' && lf->text[i] <= '9';
    want = want * 10 + (unsigned long)(lf->text[i] - '0');
  }
  if (!num || want > 65535) {
    bad(em, &lf->loc, "generic RDATA length \"%.*s\" is not a number from 0 to 65535",
        (int)lf->len, lf->text);
    goto out;
  }
  data = malloc(want + 2);
  if (!data) {
    st = ZP_ENOMEM;
    goto out;
  }
  data[0] = (uint8_t)(want >> 8);
  data[1] = (uint8_t)want;
  size_t have = 0;
  int half = -1;
  for (size_t ti = 2; ti < rec->nfields; ti++) {
    const zp_field *f = &rec->fields[ti];
    for (size_t i = 0; i < f->len; i++) {
      int v = hexval(f->text[i]);
      if (v < 0) {
        zp_loc loc = loc_at(f, i);
        bad(em, &loc, "invalid hex digit '%c' in generic RDATA", f->text[i]);
        goto out;
      }
      if (half < 0) {
        half = v;
        continue;
      }
      if (have == want) {
        zp_loc loc = loc_at(f, i - 1);
        bad(em, &loc, "generic RDATA is longer than its length %lu", want);
        goto out;
      }
      data[2 + have++] = (uint8_t)(half << 4 | v);
      half = -1;
    }
  }
  const zp_loc *end = rec->nfields > 2 ? &rec->fields[rec->nfields - 1].loc : &lf->loc;
  if (half >= 0) {
    bad(em, end, "generic RDATA has an odd number of hex digits");
    goto out;
  }
  if (have != want) {
    bad(em, end, "generic RDATA holds %zu octets, its length says %lu", have, want);
    goto out;
  }
  const ldns_rr_descriptor *d = ldns_rr_descript(rec->rtype);
  bool native = d && d->_minimum > 0 &&
                ldns_rr_descriptor_field_type(d, 0) != LDNS_RDF_TYPE_UNKNOWN;
  if (native) {
    size_t pos = 0;
    if (ldns_wire2rdf(rr, data, want + 2, &pos) != LDNS_STATUS_OK || pos != want + 2 ||
        ldns_rr_rd_count(rr) < ldns_rr_descriptor_minimum(d)) {
      bad(em, &rec->fields[0].loc, "generic RDATA is not valid %s RDATA",
          type_name(rec->rtype, tb));
      goto out;
    }
    for (size_t i = 0; i < ldns_rr_rd_count(rr); i++) {
      if (ldns_rdf_get_type(ldns_rr_rdf(rr, i)) != LDNS_RDF_TYPE_DNAME)
        continue;
      bool lok;
      st = relabel(em, &rec->fields[rec->nfields > 2 ? 2 : 0], rr, i, &lok);
      if (st != ZP_OK || !lok)
        goto out;
    }
  } else if (want > 0) {
    ldns_rdf *r = ldns_rdf_new_frm_data(LDNS_RDF_TYPE_UNKNOWN, want, data + 2);
    if (!r || !ldns_rr_push_rdf(rr, r)) {
      ldns_rdf_deep_free(r);
      st = ZP_ENOMEM;
      goto out;
    }
  }
  *ok = true;
out:
  free(data);
  return st;
}

static zp_status build_rr(zp_emitter *em, const zp_record *rec, ldns_rr **out)
{
  zp_status st = ZP_ENOMEM;
  bool ok = false;
  *out = NULL;
  ldns_rr *rr = ldns_rr_new();
  if (!rr)
    goto out;
  ldns_rdf *owner = ldns_dname_new_frm_data((uint16_t)zp_name_wire_len(rec->owner), rec->owner);
  if (!owner)
    goto out;
  ldns_rr_set_owner(rr, owner);
  ldns_rr_set_ttl(rr, rec->ttl);
  ldns_rr_set_class(rr, (ldns_rr_class)rec->rclass);
  ldns_rr_set_type(rr, (ldns_rr_type)rec->rtype);
  st = rec->generic ? build_generic(em, rec, rr, &ok) : build_fields(em, rec, rr, &ok);
out:
  if (st == ZP_OK && ok)
    *out = rr;
  else
    ldns_rr_free(rr);
  return st;
}

static bool arena_put(zp_emitter *em, const void *p, size_t n)
{
  /* nothing to add (an RR with empty RDATA) while the arena is still NULL: NULL + 0 is UB */
  if (n == 0)
    return true;
  if (em->arena_len + n > em->arena_cap) {
    size_t cap = em->arena_cap ? em->arena_cap : 1u << 16;
    while (cap < em->arena_len + n)
      cap *= 2;
    uint8_t *a = realloc(em->arena, cap);
    if (!a)
      return false;
    em->arena = a;
    em->arena_cap = cap;
  }
  memcpy(em->arena + em->arena_len, p, n);
  em->arena_len += n;
  return true;
}

/* RFC 4034 section 6.1 order as a byte string that memcmp orders: labels from the root down,
 * case-folded, each ended by 0x00, with octets 0x00 and 0x01 escaped as 0x01 0x01 and 0x01 0x02
 * so that the end of a label sorts before any octet (a shorter label first). */
static size_t sort_key(const uint8_t *wire, uint8_t *key)
{
  const uint8_t *labels[128];
  size_t n = 0, k = 0;
  for (const uint8_t *p = wire; *p && n < 128; p += *p + 1)
    labels[n++] = p;
  while (n > 0) {
    const uint8_t *l = labels[--n];
    for (unsigned i = 1; i <= *l; i++) {
      uint8_t c = l[i] >= 'A' && l[i] <= 'Z' ? (uint8_t)(l[i] + 32) : l[i];
      if (c <= 1) {
        key[k++] = 1;
        key[k++] = (uint8_t)(c + 1);
      } else {
        key[k++] = c;
      }
    }
    key[k++] = 0;
  }
  return k;
}

/* Keeps one formatted record for --sort with its canonical key. */
static zp_status hold(zp_emitter *em, const uint8_t *owner, uint16_t rclass, uint16_t rtype,
                      const uint8_t *rdata, size_t rdata_len)
{
  if (em->nheld == em->held_cap) {
    size_t cap = em->held_cap ? em->held_cap * 2 : 1024;
    held *h = realloc(em->held, cap * sizeof *h);
    if (!h)
      return ZP_ENOMEM;
    em->held = h;
    em->held_cap = cap;
  }
  held h = {
    .off = em->arena_len,
    .seq = em->nheld,
    .rclass = rclass,
    .rtype = rtype,
    .key_len = 0,
    .rdata_len = (uint16_t)rdata_len,
    .line_len = (uint32_t)em->line_len,
  };
  uint8_t key[2 * ZP_NAME_MAX + 16];
  h.key_len = (uint16_t)sort_key(owner, key);
  /* zero padding sorts right: inside a key a 0x00 (label end) is never followed by another */
  memset(key + h.key_len, 0, 16);
  for (size_t i = 0; i < 16; i++)
    h.pre[i / 8] = h.pre[i / 8] << 8 | key[i];
  if (!arena_put(em, key, h.key_len) || !arena_put(em, rdata, rdata_len) ||
      !arena_put(em, em->line, em->line_len))
    return ZP_ENOMEM;
  em->held[em->nheld++] = h;
  return ZP_OK;
}

static zp_status put_out(zp_emitter *em, const char *p, size_t n)
{
  if (fwrite(p, 1, n, em->out) != n) {
    em->write_failed = true;
    return ZP_EIO;
  }
  return ZP_OK;
}

static bool line_reserve(zp_emitter *em, size_t more)
{
  if (em->line_len + more <= em->line_cap)
    return true;
  size_t cap = em->line_cap ? em->line_cap : 1024;
  while (cap < em->line_len + more)
    cap *= 2;
  char *p = realloc(em->line, cap);
  if (!p)
    return false;
  em->line = p;
  em->line_cap = cap;
  return true;
}

static bool line_put(zp_emitter *em, const void *p, size_t n)
{
  if (!line_reserve(em, n))
    return false;
  memcpy(em->line + em->line_len, p, n);
  em->line_len += n;
  return true;
}

/* Appends what ldns wrote into em->text. */
static bool line_put_text(zp_emitter *em)
{
  return line_put(em, ldns_buffer_begin(em->text), ldns_buffer_position(em->text));
}

static size_t put_uint(char *out, uint32_t v)
{
  char tmp[10];
  size_t n = 0, k = 0;
  do
    tmp[n++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  while (n > 0)
    out[k++] = tmp[--n];
  return k;
}

/* Type and class mnemonics are ldns's own text, asked for once per value. */
static const char *cached_text(zp_emitter *em, char **cache, size_t cap, uint16_t v, bool type)
{
  if (v < cap && cache[v])
    return cache[v];
  ldns_buffer_clear(em->text);
  ldns_status st = type ? ldns_rr_type2buffer_str(em->text, (ldns_rr_type)v)
                        : ldns_rr_class2buffer_str(em->text, (ldns_rr_class)v);
  if (st != LDNS_STATUS_OK || !ldns_buffer_reserve(em->text, 1))
    return NULL;
  ldns_buffer_write_u8(em->text, 0);
  const char *t = (const char *)ldns_buffer_begin(em->text);
  if (v >= cap)
    return t;
  cache[v] = strdup(t);
  return cache[v];
}

static const char b64_digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* One RDATA field the way ldns_rdf2buffer_str writes it; the types listed are the ones the
 * differential test (tests/test_emit.c) proves identical, the rest are ldns's own output. */
enum { PUT_NOMEM, PUT_DONE, PUT_NOT_MINE };

static int put_field(zp_emitter *em, ldns_rdf_type t, const uint8_t *d, size_t n)
{
  switch (t) {
  case LDNS_RDF_TYPE_DNAME:
    if (!line_reserve(em, UNICODE_NAME_MAX))
      return PUT_NOMEM;
    em->line_len += em->opt.unicode ? put_name_unicode(em->line + em->line_len, d)
                                    : put_name(em->line + em->line_len, d);
    return PUT_DONE;
  case LDNS_RDF_TYPE_A:
    if (n != 4 || !line_reserve(em, 16))
      break;
    for (size_t i = 0; i < 4; i++) {
      em->line_len += put_uint(em->line + em->line_len, d[i]);
      if (i < 3)
        em->line[em->line_len++] = '.';
    }
    return PUT_DONE;
  case LDNS_RDF_TYPE_AAAA:
    /* ldns formats IPv6 with inet_ntop too */
    if (n != 16 || !line_reserve(em, INET6_ADDRSTRLEN) ||
        !inet_ntop(AF_INET6, d, em->line + em->line_len, INET6_ADDRSTRLEN))
      break;
    em->line_len += strlen(em->line + em->line_len);
    return PUT_DONE;
  case LDNS_RDF_TYPE_INT8:
  case LDNS_RDF_TYPE_ALG:
    if (n != 1 || !line_reserve(em, 3))
      break;
    em->line_len += put_uint(em->line + em->line_len, d[0]);
    return PUT_DONE;
  case LDNS_RDF_TYPE_INT16:
    if (n != 2 || !line_reserve(em, 5))
      break;
    em->line_len += put_uint(em->line + em->line_len, (uint32_t)d[0] << 8 | d[1]);
    return PUT_DONE;
  case LDNS_RDF_TYPE_INT32:
  case LDNS_RDF_TYPE_PERIOD:
    if (n != 4 || !line_reserve(em, 10))
      break;
    em->line_len += put_uint(em->line + em->line_len, (uint32_t)d[0] << 24 |
                             (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3]);
    return PUT_DONE;
  case LDNS_RDF_TYPE_STR: {
    if (n < 1 || d[0] != n - 1 || !line_reserve(em, 2 + 4 * (n - 1)))
      break;
    char *o = em->line + em->line_len;
    size_t k = 0;
    o[k++] = '"';
    for (size_t i = 1; i < n; i++) {
      uint8_t c = d[i];
      if (c == '"' || c == '\\') {
        o[k++] = '\\';
        o[k++] = (char)c;
      } else if ((c >= 0x20 && c < 0x7F) || c == '\t') {
        /* ldns leaves a tab as it is inside quotes */
        o[k++] = (char)c;
      } else {
        o[k++] = '\\';
        o[k++] = (char)('0' + c / 100);
        o[k++] = (char)('0' + c / 10 % 10);
        o[k++] = (char)('0' + c % 10);
      }
    }
    o[k++] = '"';
    em->line_len += k;
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_HEX: {
    if (n == 0 || !line_reserve(em, 2 * n))
      break;
    static const char hex[] = "0123456789abcdef";
    char *o = em->line + em->line_len;
    for (size_t i = 0; i < n; i++) {
      o[2 * i] = hex[d[i] >> 4];
      o[2 * i + 1] = hex[d[i] & 15];
    }
    em->line_len += 2 * n;
    return PUT_DONE;
  }
  case LDNS_RDF_TYPE_B64: {
    if (n == 0 || !line_reserve(em, (n + 2) / 3 * 4))
      break;
    char *o = em->line + em->line_len;
    size_t k = 0;
    for (size_t i = 0; i < n; i += 3) {
      uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) |
                   (i + 2 < n ? d[i + 2] : 0);
      o[k++] = b64_digits[v >> 18];
      o[k++] = b64_digits[v >> 12 & 63];
      o[k++] = i + 1 < n ? b64_digits[v >> 6 & 63] : '=';
      o[k++] = i + 2 < n ? b64_digits[v & 63] : '=';
    }
    em->line_len += k;
    return PUT_DONE;
  }
  default:
    break;
  }
  return PUT_NOT_MINE;
}

static bool put_rdf(zp_emitter *em, const ldns_rdf *r)
{
  int done = put_field(em, ldns_rdf_get_type(r), ldns_rdf_data(r), ldns_rdf_size(r));
  if (done != PUT_NOT_MINE)
    return done == PUT_DONE;
  ldns_buffer_clear(em->text);
  return ldns_rdf2buffer_str(em->text, r) == LDNS_STATUS_OK && line_put_text(em);
}

/* Owner, TTL, class and type as ldns_rr2buffer_str writes them, each followed by a tab but the
 * type. */
static bool put_head(zp_emitter *em, const uint8_t *owner, uint32_t ttl, uint16_t rclass,
                     uint16_t type)
{
  const char *ctext = cached_text(em, em->class_text, CLASS_CACHE, rclass, false);
  if (!ctext || !line_reserve(em, UNICODE_NAME_MAX + 16 + strlen(ctext)))
    return false;
  em->line_len += em->opt.unicode ? put_name_unicode(em->line, owner) : put_name(em->line, owner);
  em->line[em->line_len++] = '\t';
  em->line_len += put_uint(em->line + em->line_len, ttl);
  em->line[em->line_len++] = '\t';
  if (!line_put(em, ctext, strlen(ctext)) || !line_put(em, "\t", 1))
    return false;
  const char *ttext = cached_text(em, em->type_text, TYPE_CACHE, type, true);
  return ttext && line_put(em, ttext, strlen(ttext));
}

/* ldns_rr2buffer_str's layout (owner, TTL, class, type, fields separated by one space) with
 * the common field types formatted here: ldns prints a name one character at a time through
 * printf, which made it 90% of the run time. DNSKEY keeps ldns's key-id comment (not under
 * --unicode, which is for reading, not for loading). */
static zp_status format_rr(zp_emitter *em, const ldns_rr *rr)
{
  uint16_t type = (uint16_t)ldns_rr_get_type(rr);
  size_t count = ldns_rr_rd_count(rr);
  em->line_len = 0;
  if (!put_head(em, ldns_rdf_data(ldns_rr_owner(rr)), ldns_rr_ttl(rr),
                (uint16_t)ldns_rr_get_class(rr), type))
    return ZP_ENOMEM;
  if (type == LDNS_RR_TYPE_DNSKEY && !em->opt.unicode) {
    /* ldns's fields and comment follow the fourth tab; its owner text has none (a tab in a
     * name is \009), and the owner is ours, escaped as put_name does */
    ldns_buffer_clear(em->text);
    if (ldns_rr2buffer_str_fmt(em->text, ldns_output_format_default, rr) != LDNS_STATUS_OK)
      return ZP_ENOMEM;
    const char *t = (const char *)ldns_buffer_begin(em->text);
    size_t len = ldns_buffer_position(em->text), i = 0;
    for (int tabs = 0; i < len && tabs < 4; i++)
      tabs += t[i] == '\t';
    return line_put(em, t + i - 1, len - (i - 1)) ? ZP_OK : ZP_ENOMEM;
  }
  if (count == 0 && !line_put(em, "\t\\# 0", 5))
    return ZP_ENOMEM;
  for (size_t i = 0; i < count; i++)
    if (!line_put(em, i == 0 ? "\t" : " ", 1) || !put_rdf(em, ldns_rr_rdf(rr, i)))
      return ZP_ENOMEM;
  return line_put(em, "\n", 1) ? ZP_OK : ZP_ENOMEM;
}

static zp_status write_rr(zp_emitter *em, const ldns_rr *rr)
{
  if (!em->out)
    return ZP_OK;
  zp_status st = format_rr(em, rr);
  if (st != ZP_OK)
    return st;
  if (!em->opt.sort)
    return put_out(em, em->line, em->line_len);
  ldns_buffer_clear(em->wire);
  if (ldns_rr_rdata2buffer_wire(em->wire, rr) != LDNS_STATUS_OK)
    return ZP_ENOMEM;
  return hold(em, ldns_rdf_data(ldns_rr_owner(rr)), (uint16_t)ldns_rr_get_class(rr),
              (uint16_t)ldns_rr_get_type(rr), ldns_buffer_begin(em->wire),
              ldns_buffer_position(em->wire));
}

/* Types whose fields are all names, addresses and 16-bit numbers: the bulk of real zones. */
static bool fast_type(uint16_t type)
{
  switch (type) {
  case LDNS_RR_TYPE_A: case LDNS_RR_TYPE_AAAA: case LDNS_RR_TYPE_NS: case LDNS_RR_TYPE_CNAME:
  case LDNS_RR_TYPE_PTR: case LDNS_RR_TYPE_DNAME: case LDNS_RR_TYPE_MX: case LDNS_RR_TYPE_SRV:
    return true;
  default:
    return false;
  }
}

/* One address field the way ldns_str2rdf_a and ldns_str2rdf_aaaa read it: inet_pton. */
static bool parse_addr(const zp_field *f, int af, uint8_t *out)
{
  char text[INET6_ADDRSTRLEN + 1];
  if (f->len >= sizeof text || memchr(f->text, '\0', f->len))
    return false;
  memcpy(text, f->text, f->len);
  text[f->len] = '\0';
  return inet_pton(af, text, out) == 1;
}

/* The fast types are built straight into wire form by the converters the ldns path uses
 * (zp_name_parse, inet_pton as ldns does, check_int) and formatted by put_field, without the
 * dozen allocations an ldns_rr costs. Messages are the ldns path's. */
static zp_status emit_fast(zp_emitter *em, const zp_record *rec)
{
  char tb[16];
  const ldns_rr_descriptor *d = ldns_rr_descript(rec->rtype);
  size_t max = ldns_rr_descriptor_maximum(d), min = ldns_rr_descriptor_minimum(d);
  uint8_t rdata[8 + ZP_NAME_MAX];
  size_t off[4], n = 0, fi = 0;
  ldns_rdf_type types[4];
  for (size_t ti = 0; ti < rec->nfields; ti++, fi++) {
    const zp_field *f = &rec->fields[ti];
    if (fi >= max) {
      bad(em, &f->loc, "unexpected \"%.*s\" after the last %s RDATA field", (int)f->len, f->text,
          type_name(rec->rtype, tb));
      return ZP_OK;
    }
    ldns_rdf_type t = ldns_rr_descriptor_field_type(d, fi);
    types[fi] = t;
    off[fi] = n;
    size_t len;
    uint32_t v;
    switch (t) {
    case LDNS_RDF_TYPE_DNAME:
      if (!parse_name(em, f, rec->origin, rdata + n, &len))
        return ZP_OK;
      n += len;
      break;
    case LDNS_RDF_TYPE_INT16:
      if (!check_int(em, f, t, &v))
        return ZP_OK;
      rdata[n++] = (uint8_t)(v >> 8);
      rdata[n++] = (uint8_t)v;
      break;
    default:
      if (!parse_addr(f, t == LDNS_RDF_TYPE_A ? AF_INET : AF_INET6, rdata + n)) {
        bad_field(em, rec, f, t, f->text, f->len);
        return ZP_OK;
      }
      n += t == LDNS_RDF_TYPE_A ? 4 : 16;
      break;
    }
  }
  if (fi < min) {
    bad(em, &rec->loc, "%s RDATA needs at least %zu field%s, found %zu",
        type_name(rec->rtype, tb), min, min == 1 ? "" : "s", fi);
    return ZP_OK;
  }
  if (!em->out)
    return ZP_OK;
  em->line_len = 0;
  if (!put_head(em, rec->owner, rec->ttl, rec->rclass, rec->rtype))
    return ZP_ENOMEM;
  for (size_t i = 0; i < fi; i++) {
    size_t end = i + 1 < fi ? off[i + 1] : n;
    if (!line_put(em, i == 0 ? "\t" : " ", 1) ||
        put_field(em, types[i], rdata + off[i], end - off[i]) != PUT_DONE)
      return ZP_ENOMEM;
  }
  if (!line_put(em, "\n", 1))
    return ZP_ENOMEM;
  if (em->opt.sort)
    return hold(em, rec->owner, rec->rclass, rec->rtype, rdata, n);
  return put_out(em, em->line, em->line_len);
}

zp_status zp_emit_record(void *user, const zp_record *rec)
{
  zp_emitter *em = user;
  if (!rec->generic && fast_type(rec->rtype))
    return emit_fast(em, rec);
  ldns_rr *rr = NULL;
  zp_status st = build_rr(em, rec, &rr);
  if (st == ZP_OK && rr)
    st = write_rr(em, rr);
  ldns_rr_free(rr);
  return st;
}

zp_status zp_emit_new(const zp_emit_options *opt, FILE *out, zp_diag *diag, zp_emitter **em)
{
  zp_emitter *e = calloc(1, sizeof *e);
  *em = NULL;
  if (!e)
    return ZP_ENOMEM;
  e->opt = *opt;
  e->out = out;
  e->diag = diag;
  e->text = ldns_buffer_new(512);
  e->wire = ldns_buffer_new(512);
  if (!e->text || !e->wire) {
    zp_emit_free(e);
    return ZP_ENOMEM;
  }
  *em = e;
  return ZP_OK;
}

/* Octet strings in order, a missing octet first. */
static int bytes_cmp(const uint8_t *x, size_t nx, const uint8_t *y, size_t ny)
{
  int c = memcmp(x, y, nx < ny ? nx : ny);
  if (c != 0)
    return c;
  return nx < ny ? -1 : nx > ny;
}

static int rdata_cmp(const held *x, const held *y)
{
  return bytes_cmp(x->p + x->key_len, x->rdata_len, y->p + y->key_len, y->rdata_len);
}

/* Owner, class, type, then RDATA as RFC 4034 section 6.3 orders an RRset. */
static int same_rr(const held *x, const held *y)
{
  if (x->pre[0] != y->pre[0])
    return x->pre[0] < y->pre[0] ? -1 : 1;
  if (x->pre[1] != y->pre[1])
    return x->pre[1] < y->pre[1] ? -1 : 1;
  int c = bytes_cmp(x->p, x->key_len, y->p, y->key_len);
  if (c != 0)
    return c;
  if (x->rclass != y->rclass)
    return x->rclass < y->rclass ? -1 : 1;
  if (x->rtype != y->rtype)
    return x->rtype < y->rtype ? -1 : 1;
  return rdata_cmp(x, y);
}

/* Equal records keep input order, so the first of a set of duplicates is the one written. */
static int held_cmp(const void *a, const void *b)
{
  const held *x = a, *y = b;
  int c = same_rr(x, y);
  if (c != 0)
    return c;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

zp_status zp_emit_finish(zp_emitter *em)
{
  zp_status st = ZP_OK;
  if (!em->out)
    return ZP_OK;
  if (em->opt.sort && em->nheld > 0) {
    for (size_t i = 0; i < em->nheld; i++)
      em->held[i].p = em->arena + em->held[i].off;
    qsort(em->held, em->nheld, sizeof *em->held, held_cmp);
    for (size_t i = 0; i < em->nheld && st == ZP_OK; i++) {
      const held *h = &em->held[i];
      if (i > 0 && same_rr(&em->held[i - 1], h) == 0)
        continue;
      st = put_out(em, (const char *)h->p + h->key_len + h->rdata_len, h->line_len);
    }
  }
  if (fflush(em->out) != 0 || ferror(em->out))
    em->write_failed = true;
  return em->write_failed ? ZP_EIO : st;
}

void zp_emit_free(zp_emitter *em)
{
  if (!em)
    return;
  ldns_buffer_free(em->text);
  ldns_buffer_free(em->wire);
  free(em->tok);
  free(em->line);
  for (size_t i = 0; i < TYPE_CACHE; i++)
    free(em->type_text[i]);
  for (size_t i = 0; i < CLASS_CACHE; i++)
    free(em->class_text[i]);
  free(em->held);
  free(em->arena);
  free(em);
}
