/* emit.c -- the writer: records built through ldns's RR descriptors and converters, written
 * through format.c, held back by sort.c under --sort */
#include "emit.h"

#include <arpa/inet.h>
#include <ldns/ldns.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "rrtype.h"
#include "sort.h"

struct zp_emitter {
  zp_emit_options opt;
  FILE *out;
  zp_diag *diag;
  zp_format fm;         /* the line of the record being written */
  ldns_buffer *wire;    /* RDATA wire form, for --sort */
  zp_buf tok;           /* NUL-terminated copies of field text for ldns's converters */
  zp_sorter sorter;
  bool write_failed;
};

ZP_PRINTF(3, 4) static void bad(zp_emitter *em, const zp_loc *loc, const char *fmt, ...)
{
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  zp_diag_report(em->diag, loc, ZP_ERROR, "%s", msg);
}

/* What ldns's field types are called in messages: those of the types rdata.c does not read yet
 * (WKS, NSAP, SIG, KEY, GPOS, EID, NIMLOC, ATMA, SINK, HIP, SVCB, HTTPS). */
static const char *field_kind(ldns_rdf_type t)
{
  switch (t) {
  case LDNS_RDF_TYPE_DNAME: return "domain name";
  case LDNS_RDF_TYPE_INT8: case LDNS_RDF_TYPE_INT16: case LDNS_RDF_TYPE_INT32: return "number";
  case LDNS_RDF_TYPE_A: return "IPv4 address";
  case LDNS_RDF_TYPE_STR: return "character string";
  case LDNS_RDF_TYPE_B64: return "base64 data";
  case LDNS_RDF_TYPE_HEX: return "hex data";
  case LDNS_RDF_TYPE_TYPE: return "RR type";
  case LDNS_RDF_TYPE_ALG: return "algorithm";
  case LDNS_RDF_TYPE_TIME: return "timestamp";
  case LDNS_RDF_TYPE_WKS: return "protocol and services";
  case LDNS_RDF_TYPE_SVCPARAMS: return "service parameters";
  case LDNS_RDF_TYPE_HIP: return "HIP data";
  default: return "field";
  }
}

/* The label policy for the RDATA names of a type: lowercased where RFC 4034 section 6.2 (as
 * RFC 6840 section 5.1 amends it) lowercases them for DNSSEC, as written elsewhere, so that
 * every signature over the record stays valid. */
static const zp_label_conv *conv_for(const zp_emitter *em, uint16_t type)
{
  return zp_rrtype_lowercases(type) ? &em->opt.conv : &em->opt.conv_keep_case;
}

static bool parse_name(zp_emitter *em, const zp_record *rec, const zp_field *f, uint8_t *wire,
                       size_t *len)
{
  zp_name_error err;
  err.offset = 0;
  err.msg[0] = '\0';
  zp_status st = zp_name_parse(f->text, f->len, rec->origin, conv_for(em, rec->rtype), wire, len,
                               &err);
  if (st == ZP_OK)
    return true;
  zp_loc loc = zp_loc_at(&f->loc, f->quoted, f->text, f->len, err.offset);
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
  char tb[ZP_RRTYPE_TEXT_MAX];
  bad(em, &f->loc, "invalid %s in %s RDATA: \"%.*s\"", field_kind(t), zp_rrtype_name(rec->rtype, tb),
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
  case LDNS_RDF_TYPE_WKS:
  case LDNS_RDF_TYPE_SVCPARAMS:
    return avail;
  default:
    return 1;
  }
}

/* Joins fields [0, n) into em->tok for one ldns converter. Base64 and hex are one blob that
 * may be split anywhere; elsewhere tokens are space separated and quoted ones keep quotes. */
static bool join_fields(zp_emitter *em, const zp_field *f, size_t n, ldns_rdf_type t)
{
  bool blob = t == LDNS_RDF_TYPE_B64 || t == LDNS_RDF_TYPE_HEX;
  size_t need = 1;
  for (size_t i = 0; i < n; i++)
    need += f[i].len + 3;
  em->tok.len = 0;
  if (!zp_buf_reserve(&em->tok, need))
    return false;
  char *tok = em->tok.p;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && !blob)
      tok[k++] = ' ';
    bool q = f[i].quoted && !blob && n > 1;
    if (q)
      tok[k++] = '"';
    memcpy(tok + k, f[i].text, f[i].len);
    k += f[i].len;
    if (q)
      tok[k++] = '"';
  }
  tok[k] = '\0';
  return true;
}

/* Builds one RDATA field of type t from fields [0, n). NULL when reported (or out of memory,
 * which *nomem says). */
static ldns_rdf *make_rdf(zp_emitter *em, const zp_record *rec, const zp_field *f, size_t n,
                          ldns_rdf_type t, bool *nomem)
{
  if (t == LDNS_RDF_TYPE_DNAME) {
    uint8_t wire[ZP_NAME_MAX];
    size_t len;
    if (!parse_name(em, rec, f, wire, &len))
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
  if (!join_fields(em, f, n, t)) {
    *nomem = true;
    return NULL;
  }
  ldns_rdf *r = ldns_rdf_new_frm_str(t, em->tok.p);
  if (!r)
    bad_field(em, rec, f, t, n == 1 ? f->text : em->tok.p, n == 1 ? f->len : strlen(em->tok.p));
  return r;
}

/* RDATA in presentation form, field by field as ldns's descriptor for the type lists them. */
static zp_status build_fields(zp_emitter *em, const zp_record *rec, ldns_rr *rr, bool *ok)
{
  char tb[ZP_RRTYPE_TEXT_MAX];
  const ldns_rr_descriptor *d = ldns_rr_descript(rec->rtype);
  size_t max = d ? ldns_rr_descriptor_maximum(d) : 0;
  size_t min = d ? ldns_rr_descriptor_minimum(d) : 1;
  size_t ti = 0, fi = 0;
  *ok = false;
  while (ti < rec->nfields) {
    const zp_field *f = &rec->fields[ti];
    if (fi >= max) {
      bad(em, &f->loc, "unexpected \"%.*s\" after the last %s RDATA field", (int)f->len, f->text,
          zp_rrtype_name(rec->rtype, tb));
      return ZP_OK;
    }
    ldns_rdf_type t = ldns_rr_descriptor_field_type(d, fi);
    if (t == LDNS_RDF_TYPE_UNKNOWN || t == LDNS_RDF_TYPE_NONE) {
      bad(em, &f->loc, "%s has no presentation format: write its RDATA as \\# LENGTH HEX",
          zp_rrtype_name(rec->rtype, tb));
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
          zp_rrtype_name(rec->rtype, tb));
    else
      bad(em, &rec->loc, "%s RDATA needs at least %zu field%s, found %zu",
          zp_rrtype_name(rec->rtype, tb), min, min == 1 ? "" : "s", fi);
    return ZP_OK;
  }
  *ok = true;
  return ZP_OK;
}

/* Names that arrive inside generic RDATA get the same label policy as written ones. */
static zp_status relabel(zp_emitter *em, const zp_record *rec, const zp_field *f, ldns_rr *rr,
                         size_t i, bool *ok)
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
    const zp_label_conv *conv = conv_for(em, rec->rtype);
    if (conv->fn) {
      st = conv->fn(conv->ctx, p + 1, *p, label, &len, msg, sizeof msg);
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
/* ldns reads RDATA after its 16-bit length: rec's wire form with one, in em->tok. */
static bool with_length(zp_emitter *em, const zp_record *rec)
{
  uint8_t rdlen[2] = {(uint8_t)(rec->rdlen >> 8), (uint8_t)rec->rdlen};
  em->tok.len = 0;
  return zp_buf_put(&em->tok, rdlen, 2) && zp_buf_put(&em->tok, rec->rdata, rec->rdlen);
}

/* RFC 3597 RDATA (the reader has its octets). A type ldns knows is decoded into its fields, so
 * the output is the type's own presentation form, its names through the label policy; others
 * stay generic. */
static zp_status build_generic(zp_emitter *em, const zp_record *rec, ldns_rr *rr, bool *ok)
{
  char tb[ZP_RRTYPE_TEXT_MAX];
  *ok = false;
  const ldns_rr_descriptor *d = ldns_rr_descript(rec->rtype);
  bool native = d && d->_minimum > 0 &&
                ldns_rr_descriptor_field_type(d, 0) != LDNS_RDF_TYPE_UNKNOWN;
  if (!native) {
    ldns_rdf *r = rec->rdlen ? ldns_rdf_new_frm_data(LDNS_RDF_TYPE_UNKNOWN, rec->rdlen,
                                                     rec->rdata) : NULL;
    if (rec->rdlen && (!r || !ldns_rr_push_rdf(rr, r))) {
      ldns_rdf_deep_free(r);
      return ZP_ENOMEM;
    }
    *ok = true;
    return ZP_OK;
  }
  if (!with_length(em, rec))
    return ZP_ENOMEM;
  size_t pos = 0;
  bool valid = ldns_wire2rdf(rr, (const uint8_t *)em->tok.p, em->tok.len, &pos) ==
                   LDNS_STATUS_OK &&
               pos == em->tok.len && ldns_rr_rd_count(rr) >= ldns_rr_descriptor_minimum(d);
  /* ldns decodes some octets it cannot print (a LOC of 2 octets): those are not that type's
   * RDATA either, whether or not anything is written (found by fuzz_zone) */
  for (size_t i = 0; valid && i < ldns_rr_rd_count(rr); i++) {
    ldns_buffer_clear(em->fm.text);
    valid = ldns_rdf2buffer_str(em->fm.text, ldns_rr_rdf(rr, i)) == LDNS_STATUS_OK;
  }
  if (!valid) {
    bad(em, &rec->fields[0].loc, "generic RDATA is not valid %s RDATA",
        zp_rrtype_name(rec->rtype, tb));
    return ZP_OK;
  }
  for (size_t i = 0; i < ldns_rr_rd_count(rr); i++) {
    if (ldns_rdf_get_type(ldns_rr_rdf(rr, i)) != LDNS_RDF_TYPE_DNAME)
      continue;
    zp_status st = relabel(em, rec, &rec->fields[rec->nfields > 2 ? 2 : 0], rr, i, ok);
    if (st != ZP_OK || !*ok)
      return st;
  }
  *ok = true;
  return ZP_OK;
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
  if (rec->generic) {
    st = build_generic(em, rec, rr, &ok);
  } else if (rec->rdata) {
    size_t pos = 0;
    if (!with_length(em, rec))
      goto out;
    st = ZP_OK;
    ok = ldns_wire2rdf(rr, (const uint8_t *)em->tok.p, em->tok.len, &pos) == LDNS_STATUS_OK &&
         pos == em->tok.len;
    if (!ok) {
      char tb[ZP_RRTYPE_TEXT_MAX];
      bad(em, &rec->loc, "ldns cannot write this %s RDATA", zp_rrtype_name(rec->rtype, tb));
    }
  } else {
    st = build_fields(em, rec, rr, &ok);
  }
out:
  if (st == ZP_OK && ok)
    *out = rr;
  else
    ldns_rr_free(rr);
  return st;
}

static zp_status put_out(zp_emitter *em, const char *p, size_t n)
{
  if (fwrite(p, 1, n, em->out) != n) {
    em->write_failed = true;
    return ZP_EIO;
  }
  return ZP_OK;
}

/* The line in em->fm is done: written out, or held for --sort with the record's key. */
static zp_status line_done(zp_emitter *em, const uint8_t *owner, uint16_t rclass, uint16_t type,
                           const uint8_t *rdata, size_t rdlen)
{
  if (em->opt.sort)
    return zp_sort_hold(&em->sorter, owner, rclass, type, rdata, rdlen, em->fm.line.p,
                        em->fm.line.len);
  return put_out(em, em->fm.line.p, em->fm.line.len);
}

static bool generic_out(const zp_emitter *em, uint16_t type)
{
  return em->opt.generic && (em->opt.generic[type >> 3] & (0x80 >> (type & 7)));
}

/* A record the --generic types ask for in RFC 3597 form. */
static zp_status write_generic(zp_emitter *em, const uint8_t *owner, uint32_t ttl,
                               uint16_t rclass, uint16_t type, const uint8_t *rdata,
                               size_t rdlen)
{
  if (!zp_format_generic(&em->fm, owner, ttl, rclass, type, rdata, rdlen))
    return ZP_ENOMEM;
  return line_done(em, owner, rclass, type, rdata, rdlen);
}

static zp_status write_rr(zp_emitter *em, const ldns_rr *rr)
{
  if (!em->out)
    return ZP_OK;
  const uint8_t *owner = ldns_rdf_data(ldns_rr_owner(rr));
  uint16_t rclass = (uint16_t)ldns_rr_get_class(rr), type = (uint16_t)ldns_rr_get_type(rr);
  bool generic = generic_out(em, type);
  ldns_buffer_clear(em->wire);
  if ((generic || em->opt.sort) && ldns_rr_rdata2buffer_wire(em->wire, rr) != LDNS_STATUS_OK)
    return ZP_ENOMEM;
  const uint8_t *rdata = ldns_buffer_begin(em->wire);
  size_t rdlen = ldns_buffer_position(em->wire);
  if (generic)
    return write_generic(em, owner, ldns_rr_ttl(rr), rclass, type, rdata, rdlen);
  zp_status st = zp_format_rr(&em->fm, rr);
  return st == ZP_OK ? line_done(em, owner, rclass, type, rdata, rdlen) : st;
}

/* The field kinds format.c writes itself, as ldns's field types; 0 for the others. */
static ldns_rdf_type format_kind(uint8_t kind)
{
  switch (kind) {
  case ZP_K_NAME: return LDNS_RDF_TYPE_DNAME;
  case ZP_K_INT8: return LDNS_RDF_TYPE_INT8;
  case ZP_K_INT16: return LDNS_RDF_TYPE_INT16;
  case ZP_K_INT32: return LDNS_RDF_TYPE_INT32;
  case ZP_K_PERIOD: return LDNS_RDF_TYPE_PERIOD;
  case ZP_K_A: return LDNS_RDF_TYPE_A;
  case ZP_K_AAAA: return LDNS_RDF_TYPE_AAAA;
  case ZP_K_STRING: case ZP_K_STRINGS: return LDNS_RDF_TYPE_STR;
  case ZP_K_SVCPARAMS: return LDNS_RDF_TYPE_SVCPARAMS;
  default: return LDNS_RDF_TYPE_NONE;
  }
}

/* The octets of the field of kind k at d, of the left octets of RDATA (the wire the reader
 * made, so well formed). */
static size_t wire_len(uint8_t k, const uint8_t *d, size_t left)
{
  switch (k) {
  case ZP_K_SVCPARAMS: return left;
  case ZP_K_NAME: return zp_name_wire_len(d);
  case ZP_K_INT8: return 1;
  case ZP_K_INT16: return 2;
  case ZP_K_AAAA: return 16;
  case ZP_K_STRING: case ZP_K_STRINGS: return 1u + d[0];
  default: return 4;   /* INT32, PERIOD, A */
  }
}

/* Formats a record in wire form whose kinds format.c all writes: no ldns_rr is built (it costs
 * a dozen allocations, and these types are nearly every record of a zone). false: not such a
 * record; *st is then untouched. */
static bool format_fast(zp_emitter *em, const zp_record *rec, zp_status *st)
{
  const uint8_t *kinds = zp_rrtype_kinds(rec->rtype);
  for (const uint8_t *k = kinds; *k != ZP_K_END; k++)
    if (format_kind(*k) == LDNS_RDF_TYPE_NONE)
      return false;
  *st = ZP_ENOMEM;
  if (!zp_format_head(&em->fm, rec->owner, rec->ttl, rec->rclass, rec->rtype))
    return true;
  size_t off = 0;
  bool first = true;
  for (const uint8_t *k = kinds; *k != ZP_K_END && off < rec->rdlen; k++) {
    do {
      size_t len = wire_len(*k, rec->rdata + off, rec->rdlen - off);
      if (!zp_format_field(&em->fm, format_kind(*k), rec->rdata + off, len, first))
        return true;
      first = false;
      off += len;
    } while (*k == ZP_K_STRINGS && off < rec->rdlen);
  }
  if (zp_buf_put(&em->fm.line, "\n", 1))
    *st = line_done(em, rec->owner, rec->rclass, rec->rtype, rec->rdata, rec->rdlen);
  return true;
}

/* A record the reader turned into wire form: nothing is left to check, only to write. */
static zp_status emit_wire(zp_emitter *em, const zp_record *rec)
{
  zp_status st;
  if (!em->out)
    return ZP_OK;
  if (generic_out(em, rec->rtype))
    return write_generic(em, rec->owner, rec->ttl, rec->rclass, rec->rtype, rec->rdata,
                         rec->rdlen);
  if (format_fast(em, rec, &st))
    return st;
  ldns_rr *rr = NULL;
  st = build_rr(em, rec, &rr);
  if (st == ZP_OK && rr)
    st = write_rr(em, rr);
  ldns_rr_free(rr);
  return st;
}

zp_status zp_emit_record(void *user, const zp_record *rec)
{
  zp_emitter *em = user;
  if (rec->rdata && !rec->generic)
    return emit_wire(em, rec);
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
  e->wire = ldns_buffer_new(512);
  if (!zp_format_init(&e->fm, opt->unicode) || !e->wire) {
    zp_emit_free(e);
    return ZP_ENOMEM;
  }
  *em = e;
  return ZP_OK;
}

zp_status zp_emit_finish(zp_emitter *em)
{
  if (!em->out)
    return ZP_OK;
  if (em->opt.sort && zp_sort_write(&em->sorter, em->out) != ZP_OK)
    em->write_failed = true;
  if (fflush(em->out) != 0 || ferror(em->out))
    em->write_failed = true;
  return em->write_failed ? ZP_EIO : ZP_OK;
}

void zp_emit_free(zp_emitter *em)
{
  if (!em)
    return;
  zp_format_free(&em->fm);
  if (em->wire)
    ldns_buffer_free(em->wire);
  zp_buf_free(&em->tok);
  zp_sort_free(&em->sorter);
  free(em);
}
