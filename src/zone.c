/* zone.c -- master-file semantics behind grammar/zone.{l,y}: origin, TTLs, includes, $GENERATE */
#include "zone.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "zone_int.h"

enum { TYPE_SOA = 6 };   /* RFC 1035 section 3.2.2 */

/* What an $INCLUDE saves and restores (README "Zone dialect"). */
typedef struct scope {
  uint8_t origin[ZP_NAME_MAX];
  bool have_origin;
  uint32_t ttl;          /* $TTL or -t */
  bool have_ttl;
  uint8_t owner[ZP_NAME_MAX];
  bool have_owner;
} scope;

struct zp_zone {
  const zp_zone_options *opt;
  zp_diag *diag;
  zp_record_fn cb;
  void *user;
  zp_status stop;        /* what the callback stopped with */
  scope sc;
  uint32_t last_ttl;     /* the last TTL stated, for files without $TTL (RFC 1035 5.1) */
  bool have_last_ttl;
  int depth;
  unsigned long includes;  /* $INCLUDE files opened so far, against ZP_INCLUDES_MAX */
  /* the record being read: fields are tokens of the current file's buffer */
  zp_loc rec_loc;
  uint32_t ttl;
  bool have_ttl;
  uint16_t rclass, rtype;
  size_t ntok;
  zp_tok tok[ZP_FIELDS_MAX];
  zp_loc tok_loc[ZP_FIELDS_MAX];
  zp_field fields[ZP_FIELDS_MAX];
  /* $GENERATE: range, and the owner template (tok[] holds the RDATA templates) */
  long gen_start, gen_stop, gen_step;
  zp_tok gen_owner;
  zp_loc gen_owner_loc, gen_at;
  char *gen_buf;         /* substituted text of one generated record */
  /* bison's message for a syntax error, held until the line ends in case a rule explains it */
  bool pending;
  zp_loc pending_loc;
  char pending_msg[256];
};

static zp_status parse_file(zp_zone *z, const char *path, const zp_zfile *parent,
                            const zp_loc *at);

static const uint8_t root[1] = {0};

static void flush_pending(zp_zone *z)
{
  if (!z->pending)
    return;
  z->pending = false;
  zp_diag_report(z->diag, &z->pending_loc, ZP_ERROR, "%s", z->pending_msg);
}

ZP_PRINTF(3, 0) static void verror(zp_zone *z, const zp_loc *loc, const char *fmt, va_list ap)
{
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  flush_pending(z);
  zp_diag_report(z->diag, loc, ZP_ERROR, "%s", msg);
}

ZP_PRINTF(3, 4) static void error(zp_zone *z, const zp_loc *loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  verror(z, loc, fmt, ap);
  va_end(ap);
}

void zp_zone_error(zp_zfile *f, const zp_loc *loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  verror(f->z, loc, fmt, ap);
  va_end(ap);
}

void zp_zone_syntax(zp_zfile *f, const zp_loc *loc, const char *msg)
{
  zp_zone *z = f->z;
  flush_pending(z);
  z->pending = true;
  z->pending_loc = *loc;
  snprintf(z->pending_msg, sizeof z->pending_msg, "%s", msg);
}

void zp_zone_directive_usage(zp_zfile *f, const char *usage, const zp_loc *loc)
{
  zp_zone *z = f->z;
  /* only a syntax error gets the advice: a problem already reported keeps its own message */
  if (!z->pending)
    return;
  z->pending_loc = *loc;
  snprintf(z->pending_msg, sizeof z->pending_msg, "%s", usage);
}

static const char *text_of(const zp_zfile *f, const zp_tok *t)
{
  return f->buf + t->off;
}

/* A column inside a token: loc counts characters, offset counts bytes of the token's text. */
static zp_loc loc_in(const char *text, size_t len, const zp_loc *tok_loc, bool quoted,
                     size_t offset)
{
  zp_loc loc = *tok_loc;
  loc.col += quoted ? 1 : 0;
  for (size_t i = 0; i < offset && i < len; i++)
    loc.col += ((unsigned char)text[i] & 0xC0) != 0x80;
  return loc;
}

bool zp_ttl_parse(const char *text, size_t len, uint32_t *ttl)
{
  uint64_t total = 0, v = 0;
  bool digits = false, units = false;
  for (size_t i = 0; i < len; i++) {
    char ch = text[i];
    if (ch >= '0' && ch <= '9') {
      v = v * 10 + (uint64_t)(ch - '0');
      digits = true;
      if (v > 0x7FFFFFFF)
        return false;
      continue;
    }
    uint64_t mult;
    switch (ch | 0x20) {
    case 's': mult = 1; break;
    case 'm': mult = 60; break;
    case 'h': mult = 3600; break;
    case 'd': mult = 86400; break;
    case 'w': mult = 604800; break;
    default: return false;
    }
    if (!digits)
      return false;
    total += v * mult;
    v = 0;
    digits = false;
    units = true;
    if (total > 0x7FFFFFFF)
      return false;
  }
  if (digits)
    total += v;
  else if (!units)
    return false;
  if (total > 0x7FFFFFFF)
    return false;
  *ttl = (uint32_t)total;
  return true;
}

int zp_zone_classify(const char *text, size_t len, uint16_t *num)
{
  if (len > 0 && text[0] >= '0' && text[0] <= '9')
    return 1;
  if (zp_rr_class_from_text(text, len, num))
    return 2;
  if (zp_rr_type_from_text(text, len, num))
    return 3;
  return 0;
}

static bool parse_name(zp_zone *z, const char *text, size_t len, bool quoted, const zp_loc *loc,
                       const uint8_t *origin, uint8_t *out)
{
  zp_name_error err;   /* (not zeroed: 512 bytes a name, and fail() sets both fields) */
  err.offset = 0;
  err.msg[0] = '\0';
  size_t wlen;
  zp_status s = zp_name_parse(text, len, origin, &z->opt->conv, out, &wlen, &err);
  if (s == ZP_OK)
    return true;
  zp_loc at = loc_in(text, len, loc, quoted, err.offset);
  error(z, &at, "%s", err.msg[0] ? err.msg : zp_strerror(s));
  return false;
}

/* ---- records ---- */

bool zp_zone_line_end(zp_zfile *f)
{
  flush_pending(f->z);
  f->buf_len = 0;
  return !f->z->stop && !zp_diag_stop(f->z->diag);
}

static void record_begin(zp_zone *z, const zp_loc *loc)
{
  z->rec_loc = *loc;
  z->have_ttl = false;
  z->rclass = 1;
  z->rtype = 0;
  z->ntok = 0;
}

bool zp_zone_owner(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  zp_zone *z = f->z;
  record_begin(z, loc);
  z->sc.have_owner = false;
  if (!parse_name(z, text_of(f, t), t->len, t->quoted, loc,
                  z->sc.have_origin ? z->sc.origin : NULL, z->sc.owner))
    return false;
  z->sc.have_owner = true;
  return true;
}

bool zp_zone_blank(zp_zfile *f, const zp_loc *loc)
{
  zp_zone *z = f->z;
  record_begin(z, loc);
  if (z->sc.have_owner)
    return true;
  error(z, loc, "no previous owner for a record that starts with a blank");
  return false;
}

bool zp_zone_ttl(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  zp_zone *z = f->z;
  const char *s = text_of(f, t);
  if (zp_ttl_parse(s, t->len, &z->ttl)) {
    z->have_ttl = true;
    return true;
  }
  error(z, loc, "bad TTL \"%.*s\": a number up to 2147483647, units s m h d w allowed",
        (int)t->len, s);
  return false;
}

void zp_zone_class(zp_zfile *f, uint16_t rclass)
{
  f->z->rclass = rclass;
}

void zp_zone_type(zp_zfile *f, uint16_t rtype, const zp_loc *loc)
{
  (void)loc;
  f->z->rtype = rtype;
}

void zp_zone_unknown_type(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  error(f->z, loc, "unknown type \"%.*s\"", (int)t->len, text_of(f, t));
}

void zp_zone_unknown_class(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  error(f->z, loc, "unknown class \"%.*s\"", (int)t->len, text_of(f, t));
}

void zp_zone_no_type(zp_zfile *f, const zp_loc *loc)
{
  error(f->z, loc, "record has no type");
}

bool zp_zone_field(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  zp_zone *z = f->z;
  if (z->ntok == ZP_FIELDS_MAX) {
    error(z, loc, "more than %d fields in one record", ZP_FIELDS_MAX);
    return false;
  }
  z->tok[z->ntok] = *t;
  z->tok_loc[z->ntok] = *loc;
  z->ntok++;
  return true;
}

/* The TTL of a record that states none (README "Zone dialect"): $TTL or -t; else, as BIND,
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
  if (z->rtype == TYPE_SOA && z->ntok == 7 &&
      zp_ttl_parse(z->fields[6].text, z->fields[6].len, ttl)) {
    zp_diag_report(z->diag, &z->rec_loc, ZP_WARNING,
                   "no $TTL before the SOA: using its MINIMUM %u as the default TTL, as BIND "
                   "does", *ttl);
    return true;
  }
  error(z, &z->rec_loc, "no TTL for this record: give one, or $TTL or -t before it");
  return false;
}

/* Builds the record from the owner in scope and fields[0..ntok) and hands it on. */
static void deliver(zp_zone *z)
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
  /* the length and hex of RFC 3597 RDATA are checked where RDATA is built (emit.c) */
  bool generic = z->ntok > 0 && !z->fields[0].quoted && z->fields[0].len == 2 &&
                 memcmp(z->fields[0].text, "\\#", 2) == 0;
  zp_record rec = {
    .loc = z->rec_loc,
    .owner = z->sc.owner,
    .origin = z->sc.have_origin ? z->sc.origin : NULL,
    .ttl = ttl,
    .rclass = z->rclass,
    .rtype = z->rtype,
    .generic = generic,
    .nfields = z->ntok,
    .fields = z->fields,
  };
  zp_status s = z->cb(z->user, &rec);
  if (s != ZP_OK)
    z->stop = s;
}

void zp_zone_record_end(zp_zfile *f)
{
  zp_zone *z = f->z;
  for (size_t k = 0; k < z->ntok; k++)
    z->fields[k] = (zp_field){text_of(f, &z->tok[k]), z->tok[k].len, z->tok[k].quoted,
                              z->tok_loc[k]};
  deliver(z);
}

/* ---- directives ---- */

void zp_zone_origin(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  zp_zone *z = f->z;
  const char *s = text_of(f, t);
  /* absolute: ends in a dot that is not escaped (count the backslashes before it) */
  size_t bs = 0;
  while (t->len >= 2 + bs && s[t->len - 2 - bs] == '\\')
    bs++;
  if (t->len == 0 || s[t->len - 1] != '.' || bs % 2 != 0) {
    error(z, loc, "$ORIGIN \"%.*s\" is not absolute (end it with a dot)", (int)t->len, s);
    return;
  }
  if (parse_name(z, s, t->len, t->quoted, loc, root, z->sc.origin))
    z->sc.have_origin = true;
}

void zp_zone_set_ttl(zp_zfile *f, const zp_tok *t, const zp_loc *loc)
{
  zp_zone *z = f->z;
  const char *s = text_of(f, t);
  if (!zp_ttl_parse(s, t->len, &z->sc.ttl)) {
    error(z, loc, "bad $TTL \"%.*s\": a number up to 2147483647, units s m h d w allowed",
          (int)t->len, s);
    return;
  }
  z->sc.have_ttl = true;
}

/* --include-root: path must resolve, after every symlink and "..", to root or below it. On
 * success *real is the resolved path (caller frees). */
static bool include_allowed(zp_zone *z, const zp_loc *loc, const char *path, char **real)
{
  char *rootdir = realpath(z->opt->include_root, NULL);
  bool ok = false;
  if (!rootdir) {
    error(z, loc, "$INCLUDE \"%s\" refused: --include-root %s: %s", path, z->opt->include_root,
          strerror(errno));
    goto out;
  }
  *real = realpath(path, NULL);
  if (!*real) {
    error(z, loc, "cannot read included file \"%s\": %s", path, strerror(errno));
    goto out;
  }
  size_t n = strlen(rootdir);
  /* "/" is a prefix of everything; otherwise the next character must end a component */
  ok = strncmp(*real, rootdir, n) == 0 && (n == 1 || (*real)[n] == '/' || (*real)[n] == 0);
  if (!ok) {
    error(z, loc, "$INCLUDE \"%s\" refused: it resolves to \"%s\", outside --include-root %s",
          path, *real, rootdir);
    free(*real);
    *real = NULL;
  }
out:
  free(rootdir);
  return ok;
}

void zp_zone_include(zp_zfile *f, const zp_tok *file, const zp_loc *file_loc, const zp_tok *origin,
                     const zp_loc *origin_loc, const zp_loc *at)
{
  zp_zone *z = f->z;
  scope saved = z->sc;
  if (origin) {
    /* relative to the origin in force, so not parsed in place over it (found by fuzz_zone) */
    uint8_t o[ZP_NAME_MAX];
    if (!parse_name(z, text_of(f, origin), origin->len, origin->quoted, origin_loc,
                    z->sc.have_origin ? z->sc.origin : NULL, o))
      return;
    memcpy(z->sc.origin, o, sizeof o);
    z->sc.have_origin = true;
  }
  /* relative to the including file's directory */
  const char *name = text_of(f, file);
  const char *slash = strrchr(f->src.path, '/');
  char path[4096];
  int n;
  if (name[0] == '/' || !slash)
    n = snprintf(path, sizeof path, "%s", name);
  else
    n = snprintf(path, sizeof path, "%.*s/%s", (int)(slash - f->src.path), f->src.path, name);
  /* a truncated path would name some other file */
  if (n < 0 || (size_t)n >= sizeof path) {
    error(z, file_loc, "$INCLUDE file name longer than %zu bytes", sizeof path - 1);
    z->sc = saved;
    return;
  }
  if (z->opt->no_include) {
    error(z, at, "$INCLUDE \"%s\" refused: --no-include is in force", path);
    z->sc = saved;
    return;
  }
  char *real = NULL;
  if (z->opt->include_root && !include_allowed(z, file_loc, path, &real)) {
    z->sc = saved;
    return;
  }
  if (++z->includes > ZP_INCLUDES_MAX) {
    error(z, at, "more than %d $INCLUDE files in one zone", ZP_INCLUDES_MAX);
    free(real);
    z->sc = saved;
    return;
  }
  z->depth++;
  /* The file checked is the file opened: the resolved path, not the name again. */
  zp_status s = parse_file(z, real ? real : path, f, at);
  z->depth--;
  free(real);
  if (s == ZP_EIO)
    error(z, file_loc, "cannot read included file \"%s\": %s", path, strerror(errno));
  z->sc = saved;
}

/* ---- $GENERATE (BIND): $ is the counter, ${offset,width,base}, \$ and $$ a literal dollar ---- */

static bool gen_number(long v, unsigned width, char base, char *num, size_t cap, size_t *len)
{
  int nl;
  if (base == 'n' || base == 'N') {
    /* nibble mode: hex digits lowest first, each followed by a dot (BIND ARM, $GENERATE) */
    char hex[40];
    int hl = base == 'n' ? snprintf(hex, sizeof hex, "%0*lx", (int)width, v)
                         : snprintf(hex, sizeof hex, "%0*lX", (int)width, v);
    if (hl < 0 || (size_t)hl * 2 >= cap)
      return false;
    nl = 0;
    for (int d = hl - 1; d >= 0; d--) {
      num[nl++] = hex[d];
      if (d > 0)
        num[nl++] = '.';
    }
  } else {
    if (base == 'o')
      nl = snprintf(num, cap, "%0*lo", (int)width, v);
    else if (base == 'x')
      nl = snprintf(num, cap, "%0*lx", (int)width, v);
    else if (base == 'X')
      nl = snprintf(num, cap, "%0*lX", (int)width, v);
    else
      nl = snprintf(num, cap, "%0*ld", (int)width, v);
    if (nl < 0 || (size_t)nl >= cap)
      return false;
  }
  *len = (size_t)nl;
  return true;
}

/* Decimal digits from *p (at least one) up to max, past them on success. Not sscanf's %ld:
 * its overflow is undefined, and it would take blanks and signs. */
static bool gen_decimal(const char **p, const char *lim, long max, long *v)
{
  const char *s = *p;
  long n = 0;
  for (; s < lim && *s >= '0' && *s <= '9'; s++) {
    if (n > (max - (*s - '0')) / 10)
      return false;
    n = n * 10 + (*s - '0');
  }
  if (s == *p)
    return false;
  *v = n;
  *p = s;
  return true;
}

/* The inside of ${offset[,width[,base]]}, p up to lim: offset |n| < 2^31 with an optional sign,
 * width up to 32, base one of d o x X n N, nothing else. */
static bool gen_modifier(const char *p, const char *lim, long *offset, unsigned *width,
                         char *base)
{
  bool minus = p < lim && *p == '-';
  if (p < lim && (*p == '-' || *p == '+'))
    p++;
  long w = 0;
  if (!gen_decimal(&p, lim, 0x7FFFFFFF, offset))
    return false;
  if (minus)
    *offset = -*offset;
  if (p < lim && *p == ',') {
    p++;
    if (!gen_decimal(&p, lim, 32, &w))
      return false;
    *width = (unsigned)w;
    if (p < lim && *p == ',') {
      if (lim - p != 2 || !memchr("doxXnN", p[1], 6))
        return false;
      *base = p[1];
      p = lim;
    }
  }
  return p == lim;
}

/* Substitutes one template into out[*k..cap); false with *bad at the offending byte. */
static bool gen_subst(const char *in, size_t len, long value, char *out, size_t cap, size_t *k,
                      size_t *bad)
{
  for (size_t i = 0; i < len; i++) {
    *bad = i;
    char c = in[i];
    if (c == '\\' && i + 1 < len && in[i + 1] == '$') {
      c = '$';
      i++;
    } else if (c == '$' && i + 1 < len && in[i + 1] == '$') {
      i++;
    } else if (c == '$') {
      long offset = 0;
      unsigned width = 0;
      char base = 'd';
      if (i + 1 < len && in[i + 1] == '{') {
        const char *end = memchr(in + i, '}', len - i);
        if (!end || !gen_modifier(in + i + 2, end, &offset, &width, &base))
          return false;
        i = (size_t)(end - in);
      }
      char num[80];
      size_t nl;
      if (!gen_number(value + offset, width, base, num, sizeof num, &nl) || *k + nl >= cap)
        return false;
      memcpy(out + *k, num, nl);
      *k += nl;
      continue;
    }
    if (*k + 1 >= cap)
      return false;
    out[(*k)++] = c;
  }
  if (*k + 1 >= cap)
    return false;
  out[(*k)++] = '\0';
  return true;
}

bool zp_zone_generate(zp_zfile *f, const zp_tok *range, const zp_loc *range_loc,
                      const zp_tok *owner, const zp_loc *owner_loc, const zp_loc *at)
{
  zp_zone *z = f->z;
  record_begin(z, at);
  const char *r = text_of(f, range);
  long start = 0, stop = 0, step = 1;
  const char *p = r, *lim = r + range->len;
  bool ok = !range->quoted && gen_decimal(&p, lim, LONG_MAX, &start) && p < lim && *p++ == '-' &&
            gen_decimal(&p, lim, LONG_MAX, &stop);
  if (ok && p < lim && *p == '/') {
    p++;
    ok = gen_decimal(&p, lim, LONG_MAX, &step);
  }
  ok = ok && p == lim && start <= stop && step >= 1;
  /* not "+ 1 >": that overflows for 0-9223372036854775807 (UBSan, found by fuzz_zone) */
  if (ok && (stop - start) / step >= ZP_GENERATE_MAX) {
    error(z, range_loc, "$GENERATE range \"%.*s\" makes more than %d records", (int)range->len, r,
          ZP_GENERATE_MAX);
    return false;
  }
  if (!ok || stop > 0x7FFFFFFF) {
    error(z, range_loc, "bad $GENERATE range \"%.*s\": START-STOP[/STEP] with 0 <= START <= "
          "STOP < 2^31, STEP >= 1", (int)range->len, r);
    return false;
  }
  z->gen_start = start;
  z->gen_stop = stop;
  z->gen_step = step;
  z->gen_owner = *owner;
  z->gen_owner_loc = *owner_loc;
  z->gen_at = *at;
  return true;
}

void zp_zone_generate_end(zp_zfile *f)
{
  zp_zone *z = f->z;
  if (!z->gen_buf && !(z->gen_buf = malloc(ZP_RECORD_MAX))) {
    error(z, &z->gen_at, "out of memory");
    return;
  }
  for (long v = z->gen_start; v <= z->gen_stop && !z->stop && !zp_diag_stop(z->diag);
       v += z->gen_step) {
    size_t k = 0, bad = 0;
    if (!gen_subst(text_of(f, &z->gen_owner), z->gen_owner.len, v, z->gen_buf, ZP_RECORD_MAX,
                   &k, &bad)) {
      zp_loc e = loc_in(text_of(f, &z->gen_owner), z->gen_owner.len, &z->gen_owner_loc,
                        z->gen_owner.quoted, bad);
      error(z, &e, "bad $GENERATE substitution in \"%.*s\"", (int)z->gen_owner.len,
            text_of(f, &z->gen_owner));
      return;
    }
    size_t offs[ZP_FIELDS_MAX];
    for (size_t i = 0; i < z->ntok; i++) {
      offs[i] = k;
      const zp_tok *t = &z->tok[i];
      if (!gen_subst(text_of(f, t), t->len, v, z->gen_buf, ZP_RECORD_MAX, &k, &bad)) {
        zp_loc e = loc_in(text_of(f, t), t->len, &z->tok_loc[i], t->quoted, bad);
        error(z, &e, "bad $GENERATE substitution in \"%.*s\"", (int)t->len, text_of(f, t));
        return;
      }
    }
    if (!parse_name(z, z->gen_buf, strlen(z->gen_buf), false, &z->gen_owner_loc,
                    z->sc.have_origin ? z->sc.origin : NULL, z->sc.owner))
      return;
    z->sc.have_owner = true;
    for (size_t i = 0; i < z->ntok; i++)
      z->fields[i] = (zp_field){z->gen_buf + offs[i], strlen(z->gen_buf + offs[i]),
                                z->tok[i].quoted, z->tok_loc[i]};
    deliver(z);
  }
}

/* ---- files ---- */

/* An included file must be a regular file: a zone could otherwise name /dev/zero (read for
 * ever) or a FIFO (open blocks for ever). O_NONBLOCK keeps the open itself from blocking.
 * NULL with *refused set when it is not one, NULL alone (errno set) when it cannot be opened. */
static FILE *open_include(const char *path, bool *refused)
{
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat sb;
  FILE *fp = NULL;
  if (fd < 0)
    return NULL;
  if (fstat(fd, &sb) != 0)
    goto out;
  if (!S_ISREG(sb.st_mode)) {
    *refused = true;
    goto out;
  }
  if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
    fp = fdopen(fd, "r");
out:
  if (!fp) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return fp;
}

static zp_status parse_file(zp_zone *z, const char *path, const zp_zfile *parent,
                            const zp_loc *at)
{
  zp_status s = ZP_OK;
  zp_zfile *f = calloc(1, sizeof *f);
  if (!f)
    return ZP_ENOMEM;
  f->z = z;
  f->src = (zp_source){.path = path, .parent = parent ? &parent->src : NULL,
                       .line = at ? at->line : 0, .col = at ? at->col : 0};
  bool refused = false;
  f->in = !parent ? (strcmp(path, "-") == 0 ? stdin : fopen(path, "r"))
                  : open_include(path, &refused);
  if (refused) {
    error(z, at, "$INCLUDE \"%s\" is not a regular file", path);
    goto out;
  }
  if (!f->in) {
    s = ZP_EIO;
    goto out;
  }
  struct stat sb;
  if (f->in != stdin && fstat(fileno(f->in), &sb) == 0) {
    f->dev = sb.st_dev;
    f->ino = sb.st_ino;
    /* an include loop: this file is already open further up the chain */
    for (const zp_zfile *up = parent; up; up = (const zp_zfile *)up->src.parent) {
      if (up->dev == f->dev && up->ino == f->ino) {
        error(z, at, "$INCLUDE loop: \"%s\" is already being read", path);
        goto out;
      }
    }
  }
  struct stat ob;
  if (parent && z->opt->output && fstat(fileno(f->in), &sb) == 0 &&
      stat(z->opt->output, &ob) == 0 && ob.st_dev == sb.st_dev && ob.st_ino == sb.st_ino) {
    error(z, at, "$INCLUDE \"%s\" is the -o output file, which would replace it", path);
    goto out;
  }
  if (z->depth > ZP_INCLUDE_DEPTH_MAX) {
    error(z, at, "$INCLUDE nested deeper than %d files", ZP_INCLUDE_DEPTH_MAX);
    goto out;
  }
  if (!zp_lex_open(f)) {
    s = ZP_ENOMEM;
    goto out;
  }
  int rc = zp_parse(f);
  flush_pending(z);
  if (rc == 2)
    s = ZP_ENOMEM;
  else if (f->read_error)
    error(z, NULL, "reading %s: %s", path, strerror(errno));
out:
  zp_lex_close(f);
  if (f->in && f->in != stdin)
    fclose(f->in);
  free(f->buf);
  free(f);
  return s;
}

zp_status zp_zone_parse(const char *path, const zp_zone_options *opt, zp_diag *diag,
                        zp_record_fn cb, void *user)
{
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
  zp_status s = ZP_OK;
  if (opt->origin) {
    zp_name_error err = {0};
    size_t len;
    s = zp_name_parse(opt->origin, strlen(opt->origin), root, &opt->conv, z->sc.origin, &len,
                      &err);
    if (s != ZP_OK) {
      zp_diag_report(diag, NULL, ZP_ERROR, "-z %s: %s", opt->origin, err.msg);
      s = ZP_OK;
      goto out;
    }
    z->sc.have_origin = true;
  }
  s = parse_file(z, path, NULL, NULL);
  if (s == ZP_OK)
    s = z->stop;
out:
  free(z->gen_buf);
  free(z);
  return s;
}

zp_zone *zp_zone_scan_only(zp_diag *diag)
{
  zp_zone *z = calloc(1, sizeof *z);
  if (z)
    z->diag = diag;
  return z;
}
