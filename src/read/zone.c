/* zone.c -- master-file semantics behind grammar/zone.{l,y} (RFC 1035 section 5): records,
 * owners, origin, TTLs, $ORIGIN and $TTL, and the zone's state from zp_zone_open to
 * zp_zone_close. It opens no file: include.c, which owns the files and the entry points, calls
 * in here and never the other way, so the record rules read without the file stack. */
#include "zone.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "record/rrtype.h"
#include "zone_int.h"

static const uint8_t root[1] = {0};

const char *zp_zone_text(const zp_zfile *f, const zp_tok *t)
{
  return f->buf.p + t->off;
}

const uint8_t *zp_zone_origin_of(const zp_zone *z)
{
  return z->sc.have_origin ? z->sc.origin : NULL;
}

bool zp_ttl_parse(const char *text, size_t len, uint32_t *ttl)
{
  return zp_period_parse(text, len, 0x7FFFFFFF, ttl);
}

int zp_zone_classify(const char *text, size_t len, bool class_seen, uint16_t *num)
{
  if (len > 0 && text[0] >= '0' && text[0] <= '9')
    return 1;
  if (class_seen && zp_rrtype_from_text(text, len, num))
    return 3;
  if (zp_rrclass_from_text(text, len, num))
    return 2;
  if (zp_rrtype_from_text(text, len, num))
    return 3;
  return 0;
}

static bool has_high(const char *text, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if ((unsigned char)text[i] >= 0x80)
      return true;
  return false;
}

static bool has_capital(const uint8_t *text, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (text[i] >= 'A' && text[i] <= 'Z')
      return true;
  return false;
}

/* The name text[0..len) keeping its ASCII case, relative to the origin as written, into out
 * (ZP_NAME_MAX octets): whether it has a capital (false too when it is no name: its error is
 * the case-folding parse's to tell). Only a text or an origin with a capital is parsed again:
 * nearly every zone has neither. */
static bool cased(const zp_zone *z, const char *text, size_t len, uint8_t *out, size_t *wlen)
{
  if (!z->sc.origin_upper && !has_capital((const uint8_t *)text, len))
    return false;
  const uint8_t *origin = z->sc.origin_upper ? z->sc.origin_cased : zp_zone_origin_of(z);
  return zp_name_parse(text, len, origin ? origin : root, &z->opt->conv_keep_case, out, wlen,
                       NULL) == ZP_OK &&
         has_capital(out, *wlen);
}

static void origin_case(zp_zone *z, const char *text, size_t len)
{
  uint8_t o[ZP_NAME_MAX];
  size_t wlen;
  z->sc.origin_upper = cased(z, text, len, o, &wlen);
  if (z->sc.origin_upper)
    memcpy(z->sc.origin_cased, o, wlen);
}

/* A warning of the label policy, at a label or field. */
static void label_warning(zp_zone *z, const zp_loc *at, const char *msg)
{
  zp_zone_warn(z, at, z->opt->label_warnings_fatal, "%s", msg);
}

/* A problem with the initial origin, said as where it came from: -z, a file's name, a conf. */
static void origin_report(zp_diag *d, const zp_zone_options *opt, zp_severity sev, const char *msg)
{
  zp_diag_report(d, opt->origin_loc, sev, "%s %s: %s", opt->origin_from ? opt->origin_from : "-z",
                 opt->origin, msg);
}

/* A warning of the label policy about -z, which is in no file. */
static void origin_warning(void *user, size_t offset, const char *msg)
{
  zp_zone *z = user;
  (void)offset;
  origin_report(z->diag, z->opt, z->opt->label_warnings_fatal ? ZP_ERROR : ZP_WARNING, msg);
}

typedef struct name_at {
  zp_zone *z;
  const zp_loc *loc;
  bool quoted;
  const char *text;
  size_t len;
} name_at;

static void owner_warning(void *user, size_t offset, const char *msg)
{
  const name_at *n = user;
  zp_loc at = zp_loc_at(n->loc, n->quoted, n->text, n->len, offset);
  label_warning(n->z, &at, msg);
}

bool zp_zone_name(zp_zone *z, const char *text, size_t len, bool quoted, const zp_loc *loc,
                  const uint8_t *origin, uint8_t *out)
{
  zp_name_error err;   /* (not zeroed: 1 KiB a name, and fail() sets both fields) */
  name_at at_ = {z, loc, quoted, text, len};
  err.offset = 0;
  err.msg[0] = '\0';
  err.warn = owner_warning;
  err.user = &at_;
  size_t wlen;
  zp_status s = zp_name_parse(text, len, origin, &z->opt->conv, out, &wlen, &err);
  if (s == ZP_OK)
    return true;
  zp_loc at = zp_loc_at(loc, quoted, text, len, err.offset);
  zp_zone_report(z, &at, "%s", err.msg[0] ? err.msg : zp_strerror(s));
  return false;
}

/* ---- records ---- */

bool zp_zone_line_end(zp_zfile *f)
{
  zp_zone_flush(f->z);
  f->buf.len = 0;
  return !f->z->stop && !zp_diag_stop(f->z->diag) && f->show != ZP_SHOW_NONE;
}

void zp_zone_record_begin(zp_zone *z, const zp_loc *loc)
{
  z->rec_loc = *loc;
  z->have_ttl = false;
  z->rclass = 1;
  z->class_stated = false;
  z->rtype = 0;
  z->ntok = 0;
}

bool zp_zone_set_owner(zp_zone *z, const char *text, size_t len, bool quoted, const zp_loc *loc)
{
  z->sc.have_owner = z->sc.have_spelling = false;
  bool *mapped = z->opt->mapped;
  if (mapped)
    *mapped = false;
  if (!zp_zone_name(z, text, len, quoted, loc, zp_zone_origin_of(z), z->sc.owner))
    return false;
  z->sc.have_owner = true;
  uint8_t c[ZP_NAME_MAX];
  size_t clen;
  z->sc.owner_case = cased(z, text, len, c, &clen) ? zp_hash(c, clen) | 1 : 0;
  /* only a name with a non-ASCII octet (raw or escaped) can be spelled otherwise than it ends */
  const zp_label_conv *sp = &z->opt->spelling;
  if (!sp->fn || (mapped ? !*mapped : !memchr(text, '\\', len) && !has_high(text, len)))
    return true;
  size_t wlen;
  if (zp_name_parse(text, len, zp_zone_origin_of(z), sp, z->sc.spelling, &wlen, NULL) == ZP_OK)
    z->sc.have_spelling = zp_name_wire_len(z->sc.owner) != wlen ||
                          memcmp(z->sc.owner, z->sc.spelling, wlen) != 0;
  return true;
}

bool zp_zone_owner(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  zp_zone_record_begin(f->z, loc);
  return zp_zone_set_owner(f->z, zp_zone_text(f, t), t->len, t->quoted, loc);
}

bool zp_zone_blank(zp_zfile *f, const zp_loc *loc)
{
  zp_zone *z = f->z;
  zp_zone_record_begin(z, loc);
  if (z->sc.have_owner)
    return true;
  zp_zone_report(z, loc, "no previous owner for a record that starts with a blank");
  return false;
}

bool zp_zone_ttl(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  zp_zone *z = f->z;
  const char *s = zp_zone_text(f, t);
  if (zp_ttl_parse(s, t->len, &z->ttl)) {
    z->have_ttl = true;
    return true;
  }
  zp_zone_report(z, loc, "bad TTL \"%.*s\": a number up to 2147483647, units s m h d w allowed",
        (int)t->len, s);
  return false;
}

void zp_zone_class(zp_zfile *f, uint16_t rclass, const zp_loc *loc)
{
  f->z->rclass = rclass;
  f->z->class_loc = *loc;
  f->z->class_stated = true;
}

bool zp_zone_type(zp_zfile *f, uint16_t rtype, const zp_loc *loc)
{
  zp_zone *z = f->z;
  char buf[ZP_RRTYPE_TEXT_MAX];
  z->rtype = rtype;
  if (zp_rrclass_is_meta(z->rclass)) {
    zp_zone_report(z, &z->class_loc, "class %s is a query class, not zone data (RFC 6895 "
                   "section 3.2)", zp_rrclass_name(z->rclass, buf));
    return false;
  }
  if (zp_rrtype_is_meta(rtype)) {
    zp_zone_report(z, loc, "type %s is %s, not zone data (RFC 6895 section 3.1)",
                   zp_rrtype_name(rtype, buf), rtype ? "a query or meta type" : "reserved");
    return false;
  }
  return true;
}

/* "unknown type "CNMAE"", and the type (class) it is a slip from: "; did you mean CNAME?" */
static void unknown(zp_zfile *f, const zp_tok *t, const zp_loc *loc, const char *what,
                    const char *near)
{
  zp_zone_report(f->z, loc, "unknown %s \"%.*s\"%s%s%s", what, (int)t->len, zp_zone_text(f, t),
                 near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
}

void zp_zone_unknown_type(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  unknown(f, t, loc, "type", zp_rrtype_nearest(zp_zone_text(f, t), t->len));
}

void zp_zone_unknown_class(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  unknown(f, t, loc, "class", zp_rrclass_nearest(zp_zone_text(f, t), t->len));
}

void zp_zone_no_type(zp_zfile *f, const zp_loc *loc)
{
  zp_zone_report(f->z, loc, "record has no type");
}

bool zp_zone_fields_room(zp_zone *z, size_t n)
{
  if (n <= z->tok_cap)
    return true;
  size_t cap = z->tok_cap ? z->tok_cap : 64;
  while (cap < n)
    cap *= 2;
  zp_tok *tok = realloc(z->tok, cap * sizeof *tok);
  if (tok)
    z->tok = tok;
  zp_loc *loc = tok ? realloc(z->tok_loc, cap * sizeof *loc) : NULL;
  if (loc)
    z->tok_loc = loc;
  zp_field *fields = loc ? realloc(z->fields, cap * sizeof *fields) : NULL;
  if (!fields)
    return false;
  z->fields = fields;
  z->tok_cap = cap;
  return true;
}

bool zp_zone_field(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  zp_zone *z = f->z;
  if (z->ntok == ZP_FIELDS_MAX) {
    zp_zone_report(z, loc, "more than %d fields in one record", ZP_FIELDS_MAX);
    return false;
  }
  if (z->ntok == z->tok_cap && !zp_zone_fields_room(z, z->ntok + 1)) {
    zp_zone_report(z, loc, "out of memory");
    return false;
  }
  z->tok[z->ntok] = *t;
  z->tok_loc[z->ntok] = *loc;
  z->ntok++;
  return true;
}

bool zp_zone_line(zp_zfile *f, const zp_line *l)
{
  if (!zp_zone_owner(f, &l->owner, &l->owner_loc) ||
      (l->have_ttl && !zp_zone_ttl(f, &l->ttl, &l->ttl_loc)))
    return false;
  if (l->have_class)
    zp_zone_class(f, l->rclass, &l->class_loc);
  if (!zp_zone_type(f, l->rtype, &l->type_loc))
    return false;
  for (size_t i = 0; i < l->nfields; i++)
    if (!zp_zone_field(f, &l->field[i], &l->field_loc[i]))
      return false;
  return true;
}

/* The TTL of a record that states none (doc/dialect.md): $TTL or -t; else, as BIND,
 * the last TTL stated (RFC 1035 section 5.1), and for a first SOA its MINIMUM with a warning. */
static bool default_ttl(zp_zone *z, uint32_t *ttl)
{
  if (z->sc.have_ttl) {
    *ttl = z->sc.ttl;
    return true;
  }
  if (z->have_last_ttl) {
    *ttl = z->last_ttl;
    return true;
  }
  if (z->rtype == ZP_TYPE_SOA && z->ntok == 7 &&
      zp_ttl_parse(z->fields[6].text, z->fields[6].len, ttl)) {
    /* as BIND: the minimum then stands for $TTL, so a later stated TTL does not replace it */
    zp_zone_warn(z, &z->rec_loc, false, "no $TTL before the SOA: using its MINIMUM %u as the default "
         "TTL, as BIND does", *ttl);
    z->sc.ttl = *ttl;
    z->sc.have_ttl = true;
    return true;
  }
  zp_zone_report(z, &z->rec_loc, "no TTL for this record: give one, or $TTL or -t before it");
  return false;
}

typedef struct rdata_at {
  zp_zone *z;
  const zp_record *rec;
} rdata_at;

static void rdata_warning(void *user, size_t field, size_t offset, const char *msg)
{
  const rdata_at *r = user;
  zp_rdata_error where = {.field = field, .offset = offset};
  zp_loc at = zp_rdata_error_loc(&where, r->rec);
  label_warning(r->z, &at, msg);
}

/* The record's RDATA in wire form, every field checked: false when reported. */
static bool rdata(zp_zone *z, zp_record *rec)
{
  rdata_at at_ = {z, rec};
  zp_rdata_in in = {
    .type = rec->rtype,
    .fields = rec->fields,
    .nfields = rec->nfields,
    .origin = rec->origin,
    .lower = &z->opt->conv,
    .keep = &z->opt->conv_keep_case,
    .warn = rdata_warning,
    .user = &at_,
    .opaque = !zp_rrtype_in_class(rec->rtype, rec->rclass),
    .relative = &rec->relative,
  };
  zp_rdata_error err;
  zp_status st = rec->generic ? zp_rdata_generic(&in, z->rdata, &rec->rdlen, &err)
                              : zp_rdata_parse(&in, z->rdata, &rec->rdlen, &err);
  if (st == ZP_OK) {
    rec->rdata = z->rdata;
    /* RFC 3597 RDATA of a type parsed here is that type's wire form now, written as such */
    rec->generic = rec->generic && (in.opaque || !zp_rrtype_reads_text(rec->rtype));
    return true;
  }
  zp_loc at = zp_rdata_error_loc(&err, rec);
  zp_zone_report(z, &at, "%s", err.msg);
  if (rec->rtype == ZP_TYPE_SOA && z->opt->soa_refused) {
    if (!*z->opt->soa_refused && z->opt->soa_refused_owner)
      memcpy(z->opt->soa_refused_owner, rec->owner, zp_name_wire_len(rec->owner));
    *z->opt->soa_refused = true;
  }
  return false;
}

/* Builds the record from the owner in scope and fields[0..ntok) and hands it on. */
void zp_zone_deliver(zp_zone *z)
{
  if (z->rtype == 0)
    return;
  uint32_t ttl = z->ttl;
  if (z->have_ttl) {
    z->last_ttl = ttl;
    z->have_last_ttl = true;
  } else if (!default_ttl(z, &ttl)) {
    return;
  } else if (!z->sc.have_ttl && !z->have_last_ttl) {
    z->last_ttl = ttl;
    z->have_last_ttl = true;
  }
  /* an omitted class is the last one stated (RFC 1035 section 5.1), which in a zone of one
   * class is the zone's */
  if (!z->class_stated && z->have_zone_class)
    z->rclass = z->zone_class;
  if (!z->have_zone_class) {
    z->zone_class = z->rclass;
    z->have_zone_class = true;
  } else if (z->rclass != z->zone_class) {
    char a[ZP_RRTYPE_TEXT_MAX], b[ZP_RRTYPE_TEXT_MAX];
    zp_zone_report(z, &z->class_loc, "class %s in a zone of "
                   "class %s (its first record's): a zone holds one class (RFC 1035 section "
                   "5.2); BIND refuses the zone", zp_rrclass_name(z->rclass, a),
                   zp_rrclass_name(z->zone_class, b));
    return;
  }
  bool generic = zp_rdata_is_generic(z->rtype, z->fields, z->ntok);
  zp_record rec = {
    .loc = z->rec_loc,
    .owner = z->sc.owner,
    .spelling = z->sc.have_spelling ? z->sc.spelling : NULL,
    .origin = zp_zone_origin_of(z),
    .ttl = ttl,
    .rclass = z->rclass,
    .rtype = z->rtype,
    .generic = generic,
    .generated = z->generating,
    .owner_case = z->sc.owner_case,
    .nfields = z->ntok,
    .fields = z->fields,
  };
  if (z->rtype == ZP_TYPE_MD || z->rtype == ZP_TYPE_MF) {
    /* BIND refuses to load a zone that holds either */
    zp_zone_report(z, &z->rec_loc, "MD and MF are obsolete (RFC 973, RFC 1035 sections 3.3.4 "
                   "and 3.3.5): write MX instead");
    return;
  }
  if (z->rtype == ZP_TYPE_NSEC3 && rec.owner[0] == 1 && rec.owner[1] == '*') {
    /* BIND refuses one ("invalid NSEC3 owner name") whatever check-names says */
    zp_zone_report(z, &z->rec_loc, "an NSEC3 record at a wildcard: its owner is a hash in "
                   "base32hex, never \"*\" (RFC 5155 section 3); BIND refuses the zone");
    return;
  }
  if (z->rtype == ZP_TYPE_A && z->rclass == ZP_CLASS_CH) {
    zp_zone_report(z, z->ntok ? &z->fields[0].loc : &z->rec_loc,
                   "an A record of class CH holds a Chaosnet address (a domain name and an octal "
                   "number), which zonepuny does not read, though named does");
    return;
  }
  if (!generic && !zp_rrtype_in_class(z->rtype, z->rclass)) {
    char tb[ZP_RRTYPE_TEXT_MAX], cb[ZP_RRTYPE_TEXT_MAX];
    zp_zone_report(z, z->ntok ? &z->fields[0].loc : &z->rec_loc,
                   "%s RDATA is defined for class IN only: in class %s named reads it only as "
                   "RFC 3597 RDATA (\\# LENGTH HEX), of a type it does not know",
                   zp_rrtype_name(z->rtype, tb), zp_rrclass_name(z->rclass, cb));
    return;
  }
  if (!generic && !zp_rrtype_reads_text(z->rtype)) {
    char tb[ZP_RRTYPE_TEXT_MAX];
    zp_zone_report(z, z->ntok ? &z->fields[0].loc : &z->rec_loc,
                   "zonepuny does not check the text of %s: write its RDATA as \\# LENGTH HEX "
                   "(RFC 3597 section 5)", zp_rrtype_name(z->rtype, tb));
    return;
  }
  if (!rdata(z, &rec))
    return;
  zp_zfile *f = zp_zone_file_at(&z->rec_loc);
  if (f)
    zp_zone_reads(f);
  zp_status s = z->cb(z->user, &rec);
  if (s != ZP_OK)
    z->stop = s;
}

void zp_zone_record_end(zp_zfile *f)
{
  zp_zone *z = f->z;
  for (size_t k = 0; k < z->ntok; k++)
    z->fields[k] = (zp_field){zp_zone_text(f, &z->tok[k]), z->tok[k].len, z->tok[k].quoted,
                              z->tok[k].joined, z->tok_loc[k]};
  zp_zone_deliver(z);
}

/* ---- directives ---- */

bool zp_zone_origin(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  zp_zone *z = f->z;
  /* relative to the origin in force, so not parsed in place over it (found by fuzz_zone) */
  uint8_t o[ZP_NAME_MAX];
  if (!zp_zone_name(z, zp_zone_text(f, t), t->len, t->quoted, loc, zp_zone_origin_of(z), o))
    return false;
  origin_case(z, zp_zone_text(f, t), t->len);   /* (against the origin before this one) */
  memcpy(z->sc.origin, o, sizeof o);
  z->sc.have_origin = true;
  zp_zone_reads(f);
  return true;
}

void zp_zone_set_ttl(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  zp_zone *z = f->z;
  const char *s = zp_zone_text(f, t);
  if (!zp_ttl_parse(s, t->len, &z->sc.ttl)) {
    zp_zone_report(z, loc, "bad $TTL \"%.*s\": a number up to 2147483647, units s m h d w allowed",
          (int)t->len, s);
    return;
  }
  z->sc.have_ttl = true;
  zp_zone_reads(f);
}

/* ---- the zone's lifetime ---- */

zp_status zp_zone_open(const zp_zone_options *opt, zp_diag *diag, zp_record_fn cb, void *user,
                       zp_zone **out)
{
  *out = NULL;
  zp_zone *z = calloc(1, sizeof *z);
  if (!z)
    return ZP_ENOMEM;
  z->opt = opt;
  z->diag = diag;
  z->cb = cb;
  z->user = user;
  if (opt->have_default_ttl) {
    z->sc.ttl = opt->default_ttl;
    z->sc.have_ttl = true;
  }
  if (opt->origin) {
    zp_name_error err = {.warn = origin_warning, .user = z};
    size_t wlen;
    if (zp_name_parse(opt->origin, strlen(opt->origin), root, &opt->conv, z->sc.origin, &wlen,
                      &err) != ZP_OK) {
      /* an error in the input, not a failure: reported, and no file is read against it */
      origin_report(diag, opt, ZP_ERROR, err.msg);
      if (opt->soa_refused)   /* (nor is the SOA read: no "no SOA" after this) */
        *opt->soa_refused = true;
      zp_zone_close(z);
      return ZP_OK;
    }
    origin_case(z, opt->origin, strlen(opt->origin));
    z->sc.have_origin = true;
  }
  *out = z;
  return ZP_OK;
}

void zp_zone_close(zp_zone *z)
{
  if (!z)
    return;
  zp_zone_drop_held(z);
  free(z->gen_buf);
  free(z->tok);
  free(z->tok_loc);
  free(z->fields);
  free(z);
}

zp_zone *zp_zone_scan_only(zp_diag *diag)
{
  zp_zone *z = calloc(1, sizeof *z);
  if (z)
    z->diag = diag;
  return z;
}
