/* emit.c -- the writer: records in wire form written through format.c (ldns decodes the field
 * kinds format.c leaves to it), held back by sort.c under --sort */
#include "emit.h"

#include <ldns/ldns.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "record/rrtype.h"
#include "format.h"
#include "record/wire_name.h"
#include "record/sort.h"

struct zp_emitter {
  zp_emit_options opt;
  FILE *out;
  zp_diag *diag;
  zp_format fm;         /* the line of the record being written */
  zp_buf tok;           /* RDATA with its length before it, for ldns_wire2rdf */
  zp_buf obuf;          /* lines not yet written: one fwrite per OUT_CHUNK, not per line */
  zp_sorter sorter;
  bool write_failed;
};

ZP_PRINTF(3, 4) static void bad(zp_emitter *em, const zp_loc *loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  zp_diag_vreport(em->diag, loc, ZP_ERROR, fmt, ap);
  va_end(ap);
}

/* ldns reads RDATA after its 16-bit length: rec's wire form with one, in em->tok. */
static bool with_length(zp_emitter *em, const zp_record *rec)
{
  uint8_t rdlen[2] = {(uint8_t)(rec->rdlen >> 8), (uint8_t)rec->rdlen};
  em->tok.len = 0;
  return zp_buf_put(&em->tok, rdlen, 2) && zp_buf_put(&em->tok, rec->rdata, rec->rdlen);
}

/* The record as an ldns_rr, its RDATA decoded by ldns's descriptor for the type: for the field
 * kinds format.c leaves to ldns (DNSSEC's, LOC, APL ...). */
static zp_status build_rr(zp_emitter *em, const zp_record *rec, ldns_rr **out)
{
  *out = NULL;
  ldns_rr *rr = ldns_rr_new();
  ldns_rdf *owner = rr ? ldns_dname_new_frm_data((uint16_t)zp_name_wire_len(rec->owner),
                                                 rec->owner) : NULL;
  if (!owner || !with_length(em, rec)) {
    ldns_rr_free(rr);
    return ZP_ENOMEM;
  }
  ldns_rr_set_owner(rr, owner);
  ldns_rr_set_ttl(rr, rec->ttl);
  ldns_rr_set_class(rr, (ldns_rr_class)rec->rclass);
  ldns_rr_set_type(rr, (ldns_rr_type)rec->rtype);
  size_t pos = 0;
  if (ldns_wire2rdf(rr, (const uint8_t *)em->tok.p, em->tok.len, &pos) != LDNS_STATUS_OK ||
      pos != em->tok.len) {
    char tb[ZP_RRTYPE_TEXT_MAX];
    bad(em, &rec->loc, "ldns cannot write this %s RDATA", zp_rrtype_name(rec->rtype, tb));
    ldns_rr_free(rr);
    return ZP_OK;
  }
  *out = rr;
  return ZP_OK;
}

enum { OUT_CHUNK = 1 << 16 };

static zp_status flush_out(zp_emitter *em)
{
  size_t n = em->obuf.len;
  em->obuf.len = 0;
  if (n && fwrite(em->obuf.p, 1, n, em->out) != n) {
    em->write_failed = true;
    return ZP_EIO;
  }
  return ZP_OK;
}

static zp_status put_out(zp_emitter *em, const char *p, size_t n)
{
  if (!zp_buf_put(&em->obuf, p, n))
    return ZP_ENOMEM;
  return em->obuf.len >= OUT_CHUNK ? flush_out(em) : ZP_OK;
}

static bool generic_out(const zp_emitter *em, uint16_t type)
{
  return em->opt.generic && (em->opt.generic[type >> 3] & (0x80 >> (type & 7)));
}

/* Whether NSD from 4.10 on (its parser simdzone) misreads SVCB or HTTPS parameters d[0..n)
 * (wire form) as zonepuny writes them. NSD reads the value of keyNNNNN in the syntax of the key
 * it knows by that number, where RFC 9460 section 2.1 takes it as octets (key3=53 is port 53 to
 * NSD 4.6 and 4.15, 13619 to BIND, dnspython and zonepuny), and simdzone knows more keys than
 * NSD 4.6's parser, which knows none past dohpath (7). zonepuny names only the keys
 * BIND 9.18, NSD 4.6 and Knot 3.2 know (zp_svckey_name); of the rest that NSD 4.15 knows,
 * dohpath (7) reads alike either way, ohttp (8) and pvd (11) have no value and an empty docpath
 * (10) is the root path to it too, which leaves tls-supported-groups (9), a docpath with a
 * value, and oots (12: NSD 4.15 reads it after draft-johani-dnsop-svcb-oots, which no registry
 * holds, and refuses it empty). NSD 4.15 reads each of them right in RFC 3597 form. */
static bool simdzone_misreads(const uint8_t *d, size_t n)
{
  size_t i = n > 2 ? 2 + zp_name_wire_len(d + 2) : n;
  for (; i + 4 <= n; i += 4u + (d[i + 2] << 8 | d[i + 3])) {
    unsigned key = (unsigned)d[i] << 8 | d[i + 1];
    if (key == 9 || key == 12 || (key == 10 && (d[i + 2] | d[i + 3])))
      return true;
  }
  return false;
}

/* Whether NSD misreads the text of a record that it reads right in RFC 3597 form, where that
 * form is written: NSD 4.6 an SPF of more than one string, of whose text it keeps the first
 * string alone; a type list with type 0 ("bad type 0"; BIND and Knot take it), or with more
 * types than its parser holds in one record (4,995: its stack runs out, "memory exhausted"),
 * which no zone has. The lists are RFC 4034 section 4.1.2's windows after the fixed fields of
 * NSEC, NSEC3 (RFC 5155 section 3.2) and CSYNC (RFC 7477 section 2.1). NSD from 4.10 on some
 * SVCB and HTTPS parameters (above). */
static bool nsd_misreads_text(const zp_record *rec)
{
  enum { NSD_TYPES_MAX = 4995 };
  const uint8_t *d = rec->rdata;
  size_t off, n = rec->rdlen, types = 0;
  switch (rec->rtype) {
  case LDNS_RR_TYPE_SPF: return n > 0 && 1u + d[0] < n;
  case LDNS_RR_TYPE_SVCB: case LDNS_RR_TYPE_HTTPS: return simdzone_misreads(d, n);
  case LDNS_RR_TYPE_NSEC: off = zp_name_wire_len(d); break;
  case LDNS_RR_TYPE_NSEC3: off = n > 4 ? 5u + d[4] : n; off = off < n ? off + 1 + d[off] : n; break;
  case LDNS_RR_TYPE_CSYNC: off = 6; break;
  default: return false;
  }
  if (off + 2 < n && d[off] == 0 && (d[off + 2] & 0x80))
    return true;
  for (; off + 2 <= n; off += 2u + d[off + 1])
    for (size_t i = off + 2; i < off + 2u + d[off + 1] && i < n; i++)
      for (unsigned b = d[i]; b; b &= b - 1)
        types++;
  return types > NSD_TYPES_MAX;
}

/* The octets of a field at d, of the left octets of RDATA (the wire the reader made, so well
 * formed). */
static size_t len_rest(const uint8_t *d, size_t left)
{
  (void)d;
  return left;
}

static size_t len_counted(const uint8_t *d, size_t left)
{
  (void)left;
  return 1u + d[0];
}

static size_t len_name(const uint8_t *d, size_t left)
{
  (void)left;
  return zp_name_wire_len(d);
}

/* How the writer takes a field kind: format.c writes it as the ldns field type given, of a
 * fixed number of octets or as many as len counts; or, for the kinds format.c leaves to ldns,
 * the whole record goes through ldns's descriptor of its type (BY_LDNS). The table is built
 * from record/rrtype.h's list, so a kind without its row here does not compile. */
typedef struct write_op {
  ldns_rdf_type form;
  uint8_t fixed;
  size_t (*len)(const uint8_t *d, size_t left);
} write_op;
#define BY_LDNS {LDNS_RDF_TYPE_NONE, 0, NULL}
#define WRITE_NAME {LDNS_RDF_TYPE_DNAME, 0, len_name}
#define WRITE_INT8 {LDNS_RDF_TYPE_INT8, 1, NULL}
#define WRITE_INT16 {LDNS_RDF_TYPE_INT16, 2, NULL}
#define WRITE_INT32 {LDNS_RDF_TYPE_INT32, 4, NULL}
#define WRITE_PERIOD {LDNS_RDF_TYPE_PERIOD, 4, NULL}
#define WRITE_A {LDNS_RDF_TYPE_A, 4, NULL}
#define WRITE_AAAA {LDNS_RDF_TYPE_AAAA, 16, NULL}
#define WRITE_STRING {LDNS_RDF_TYPE_STR, 0, len_counted}
#define WRITE_OPT_STRING BY_LDNS
#define WRITE_STRINGS {LDNS_RDF_TYPE_STR, 0, len_counted}   /* (one string at a time) */
#define WRITE_OCTETS {LDNS_RDF_TYPE_LONG_STR, 0, len_rest}
#define WRITE_TARGET {LDNS_RDF_TYPE_LONG_STR, 0, len_rest}
#define WRITE_HEX BY_LDNS
#define WRITE_BASE64 BY_LDNS
#define WRITE_BASE64_0 BY_LDNS
#define WRITE_BASE64_DASH BY_LDNS
#define WRITE_ALG BY_LDNS
#define WRITE_TYPE BY_LDNS
#define WRITE_TYPE_NUM BY_LDNS
#define WRITE_SCHEME BY_LDNS
#define WRITE_TIME BY_LDNS
#define WRITE_BITMAP BY_LDNS
#define WRITE_BITMAP0 BY_LDNS
#define WRITE_SALT BY_LDNS
#define WRITE_HASH BY_LDNS
#define WRITE_TAG {LDNS_RDF_TYPE_TAG, 0, len_counted}
#define WRITE_EUI48 BY_LDNS
#define WRITE_EUI64 BY_LDNS
#define WRITE_ILNP64 BY_LDNS
#define WRITE_CERT_TYPE BY_LDNS
#define WRITE_APL BY_LDNS
#define WRITE_LOC BY_LDNS
#define WRITE_GATEWAY BY_LDNS
#define WRITE_SVCPARAMS {LDNS_RDF_TYPE_SVCPARAMS, 0, len_rest}
#define WRITE_KEYDATA BY_LDNS
#define WRITE_WKS {LDNS_RDF_TYPE_WKS, 0, len_rest}
#define WRITE_NSAP BY_LDNS
#define WRITE_ATMA {LDNS_RDF_TYPE_ATMA, 0, len_rest}
#define WRITE_GPOS BY_LDNS
#define WRITE_HIP BY_LDNS
#define WRITE_AMTRELAY {LDNS_RDF_TYPE_AMTRELAY, 0, len_rest}
#define WRITE_NXTBITMAP {LDNS_RDF_TYPE_UNKNOWN, 0, len_rest}   /* ldns's type for it (format.c) */
#define WRITE_A6 BY_LDNS
#define ROW(id) [ZP_K_##id] = WRITE_##id,
static const write_op write_ops[ZP_K_COUNT] = {ZP_KINDS(ROW)};
#undef ROW

/* Whether format.c writes every field kind of the type. */
static bool format_writes(uint16_t type)
{
  for (const uint8_t *k = zp_rrtype_kinds(type); *k != ZP_K_END; k++)
    if (write_ops[*k].form == LDNS_RDF_TYPE_NONE)
      return false;
  return true;
}

/* The line of a record in wire form whose kinds format.c all writes, into em->fm.line: no
 * ldns_rr is built (it costs a dozen allocations, and these types are nearly every record of a
 * zone). */
static zp_status format_fast(zp_emitter *em, const zp_record *rec)
{
  const uint8_t *kinds = zp_rrtype_kinds(rec->rtype);
  if (!zp_format_head(&em->fm, rec->owner, rec->ttl, rec->rclass, rec->rtype))
    return ZP_ENOMEM;
  size_t off = 0;
  bool first = true;
  /* (CAA's value is the one last field that may be empty, and then is written "") */
  for (const uint8_t *k = kinds; *k != ZP_K_END && (off < rec->rdlen || *k == ZP_K_OCTETS);
       k++) {
    const write_op *op = &write_ops[*k];
    do {
      size_t len = op->fixed ? op->fixed : op->len(rec->rdata + off, rec->rdlen - off);
      if (!zp_format_field(&em->fm, op->form, rec->rdata + off, len, first))
        return ZP_ENOMEM;
      first = false;
      off += len;
    } while (*k == ZP_K_STRINGS && off < rec->rdlen);
  }
  return zp_buf_put(&em->fm.line, "\n", 1) ? ZP_OK : ZP_ENOMEM;
}

zp_emit_route zp_emit_text_route(uint16_t type)
{
  if (format_writes(type))
    return ZP_EMIT_FORMAT;
  /* (ldns 1.8 hands out a placeholder for a type it does not know: TYPEnnn, no number) */
  const ldns_rr_descriptor *d = ldns_rr_descript(type);
  return d && d->_type == type ? ZP_EMIT_LDNS : ZP_EMIT_GENERIC;
}

/* How a record is written: in RFC 3597 form (where asked, or where NSD would misread its text),
 * or as its type's text route says. */
static zp_emit_route route_of(const zp_emitter *em, const zp_record *rec)
{
  if (rec->generic || generic_out(em, rec->rtype) || nsd_misreads_text(rec))
    return ZP_EMIT_GENERIC;
  return zp_emit_text_route(rec->rtype);
}

/* The record's line into em->fm.line; *ok false (reported) when ldns cannot write it. */
static zp_status line_of(zp_emitter *em, const zp_record *rec, bool *ok)
{
  *ok = true;
  switch (route_of(em, rec)) {
  case ZP_EMIT_GENERIC:
    return zp_format_generic(&em->fm, rec->owner, rec->ttl, rec->rclass, rec->rtype, rec->rdata,
                             rec->rdlen) ? ZP_OK : ZP_ENOMEM;
  case ZP_EMIT_FORMAT: return format_fast(em, rec);
  default: break;
  }
  ldns_rr *rr = NULL;
  zp_status st = build_rr(em, rec, &rr);
  if (st == ZP_OK && rr)
    st = zp_format_rr(&em->fm, rr);
  *ok = rr != NULL;
  ldns_rr_free(rr);
  return st;
}

static zp_status write_record(zp_emitter *em, const zp_record *rec)
{
  bool ok;
  zp_status st = line_of(em, rec, &ok);
  return st == ZP_OK && ok ? put_out(em, em->fm.line.p, em->fm.line.len) : st;
}

zp_status zp_emit_line(zp_emitter *em, const zp_record *rec, const char **line, size_t *len)
{
  bool ok;
  zp_status st = line_of(em, rec, &ok);
  *line = ok ? em->fm.line.p : NULL;
  *len = ok ? em->fm.line.len : 0;
  return st;
}

/* --sort: the record is held in wire form and written once the zone is read (--diff: held in
 * the caller's sorter). What ldns would refuse to decode is told now, at the record's line. */
static zp_status hold_record(zp_emitter *em, const zp_record *rec)
{
  if (route_of(em, rec) == ZP_EMIT_LDNS) {
    ldns_rr *rr = NULL;
    zp_status st = build_rr(em, rec, &rr);
    ldns_rr_free(rr);
    if (st != ZP_OK || !rr)
      return st;
  }
  return zp_sort_hold(em->opt.into ? em->opt.into : &em->sorter, rec, NULL, 0);
}

/* The reader has turned every record into wire form, checked: nothing is left but to write it.
 * A type the reader does not parse (it took only RFC 3597 RDATA for it) stays in that form. */
zp_status zp_emit_record(void *user, const zp_record *rec)
{
  zp_emitter *em = user;
  if (em->opt.into || (em->out && em->opt.sort))
    return hold_record(em, rec);
  return em->out ? write_record(em, rec) : ZP_OK;
}

/* The records --sort held, in order. */
static zp_status write_sorted(zp_emitter *em)
{
  zp_record rec;
  bool more;
  zp_status st;
  while ((st = zp_sort_next(&em->sorter, &rec, &more)) == ZP_OK && more)
    if ((st = write_record(em, &rec)) != ZP_OK)
      return st;
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
  zp_sort_init(&e->sorter, opt->sort_memory);
  if (!zp_format_init(&e->fm, opt->unicode, opt->idna2008)) {
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
  zp_status st = em->opt.sort ? write_sorted(em) : ZP_OK;
  if (flush_out(em) != ZP_OK)
    em->write_failed = true;
  if (fflush(em->out) != 0 || ferror(em->out))
    em->write_failed = true;
  return em->write_failed ? ZP_EIO : st;
}

void zp_emit_free(zp_emitter *em)
{
  if (!em)
    return;
  zp_format_free(&em->fm);
  zp_buf_free(&em->tok);
  zp_buf_free(&em->obuf);
  zp_sort_free(&em->sorter);
  free(em);
}
