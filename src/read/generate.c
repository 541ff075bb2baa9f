/* generate.c -- BIND's $GENERATE as named (9.18) reads it: START-STOP[/STEP] LHS [TTL] [CLASS]
 * TYPE RHS, where RHS is ONE token (quotes group it). For each value, $ in LHS and RHS becomes
 * the value (${offset,width,base}), \X is copied as written, $$ is a dollar; the owner is LHS,
 * and the RDATA is RHS read as RDATA text: quotes off, then split into fields as a record's are
 * (blanks, quoted strings, escapes, parentheses, a ';' comment). The generated records leave the
 * owner in force as it was: a blank owner after the directive is the one before it. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "zone_int.h"

enum {
  GEN_VALUE_MAX = 0x7FFFFFFF,  /* START, STOP, STEP and every value with its offset */
  GEN_NUMBER_MAX = 127,        /* characters of one substituted number (named: "ran out of
                                  space" past it), so a width up to 127 */
  GEN_RHS_MAX = 65511,         /* characters of the substituted RHS, named's limit */
  GEN_LHS_AREA = 1 << 19,      /* gen_buf: substituted LHS, then RHS, then its fields */
};

/* value as named writes it: decimal signed, the other bases as the 32-bit two's complement
 * (-1 is ffffffff); width pads with zeros. Nibble mode (n, N): the hex digits lowest first,
 * each a label, and the width counts output characters, dots included (named's reading: width
 * 4 of 1 is "1.0.", a trailing dot and all). num holds GEN_NUMBER_MAX + 1 bytes; the length,
 * or 0 when the number does not fit. */
static size_t gen_number(long value, unsigned width, char base, char *num)
{
  uint32_t u = (uint32_t)value;
  if (width > GEN_NUMBER_MAX)
    return 0;
  if (base == 'n' || base == 'N') {
    const char *hex = base == 'n' ? "0123456789abcdef" : "0123456789ABCDEF";
    size_t n = 0;
    do {
      if (n == GEN_NUMBER_MAX)
        return 0;
      num[n++] = hex[u & 0xF];
      u >>= 4;
      if (width > 0)
        width--;
      if (width > 0 || u != 0) {
        if (n == GEN_NUMBER_MAX)
          return 0;
        num[n++] = '.';
        if (width > 0)
          width--;
      }
    } while (u != 0 || width > 0);
    return n;
  }
  char digits[24];
  size_t d = 0;
  unsigned radix = base == 'o' ? 8 : base == 'd' ? 10 : 16;
  const char *set = base == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  bool minus = base == 'd' && value < 0;
  uint64_t m = base == 'd' ? (uint64_t)(minus ? -value : value) : u;
  do {
    digits[d++] = set[m % radix];
    m /= radix;
  } while (m);
  size_t n = 0, len = d + minus;
  if (minus)
    num[n++] = '-';
  for (; len < width; len++)   /* %0*d: the zeros after the sign */
    num[n++] = '0';
  while (d)
    num[n++] = digits[--d];
  return n;
}

/* Decimal digits from *p (at least one) up to max, past them on success. Not sscanf's %d: its
 * overflow is undefined, and it would take blanks and signs. */
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

/* The inside of ${offset[,width[,base]]}, p up to lim: offset from -2^31 to 2^31-1 with an
 * optional sign, width up to GEN_NUMBER_MAX, base one of d o x X n N, nothing else. */
static bool gen_modifier(const char *p, const char *lim, long *offset, unsigned *width,
                         char *base)
{
  bool minus = p < lim && *p == '-';
  if (p < lim && (*p == '-' || *p == '+'))
    p++;
  long w = 0;
  if (!gen_decimal(&p, lim, minus ? GEN_VALUE_MAX + 1L : GEN_VALUE_MAX, offset))
    return false;
  if (minus)
    *offset = -*offset;
  if (p < lim && *p == ',') {
    p++;
    if (!gen_decimal(&p, lim, GEN_NUMBER_MAX, &w))
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

typedef enum { GEN_OK, GEN_SYNTAX, GEN_RANGE, GEN_SPACE } gen_fail;

/* Substitutes one template, in[0..len), into out[*k..cap) as named does: $ and ${...} the
 * number, $$ a dollar, a backslash and the byte after it copied as they are; unquote: the
 * template was a quoted token, whose \" named's lexer had already made a quote. The offset of
 * a ${...} holds for each plain $ after it in the same template (named: a${5,3,x}b$ of 1 is
 * a006b6), its width and base do not. On failure *bad is the offending byte. */
static gen_fail gen_subst(const char *in, size_t len, bool unquote, long value, char *out,
                          size_t cap, size_t *k, size_t *bad)
{
  long offset = 0;
  for (size_t i = 0; i < len; i++) {
    *bad = i;
    char c[2] = {in[i], 0};
    size_t nc = 1;
    if (in[i] == '\\' && i + 1 < len) {
      if (unquote && in[i + 1] == '"')
        c[0] = '"';
      else
        c[nc++] = in[i + 1];
      i++;
    } else if (in[i] == '$' && i + 1 < len && in[i + 1] == '$') {
      i++;
    } else if (in[i] == '$') {
      unsigned width = 0;
      char base = 'd';
      if (i + 1 < len && in[i + 1] == '{') {
        const char *end = memchr(in + i, '}', len - i);
        if (!end || !gen_modifier(in + i + 2, end, &offset, &width, &base))
          return GEN_SYNTAX;
        i = (size_t)(end - in);
      }
      if (value + offset > GEN_VALUE_MAX)
        return GEN_RANGE;
      char num[GEN_NUMBER_MAX + 1];
      size_t nl = gen_number(value + offset, width, base, num);
      if (nl == 0)
        return GEN_SYNTAX;
      if (*k + nl >= cap)
        return GEN_SPACE;
      memcpy(out + *k, num, nl);
      *k += nl;
      continue;
    }
    if (*k + nc >= cap)
      return GEN_SPACE;
    memcpy(out + *k, c, nc);
    *k += nc;
  }
  return GEN_OK;
}

static bool gen_quote(const char *s, size_t i, size_t len, bool unquote, size_t *w)
{
  *w = s[i] == '"' ? 1 : unquote && s[i] == '\\' && i + 1 < len && s[i + 1] == '"' ? 2 : 0;
  return *w > 0;
}

/* Splits RDATA text s[0..len) into fields as the scanner splits a record (blanks, "quoted
 * strings", escapes, parentheses, a ';' comment to the end): each field's text offsets in
 * tok[].off and .len (a quoted one's inside its quotes), quoted and joined set, and in at[] the
 * offset of its first byte (a quoted one's opening quote). unquote: s is a quoted token as
 * written, whose \" is a quote. NULL and *n fields, or what is wrong at s[*bad]. */
static const char *gen_split(const char *s, size_t len, bool unquote, zp_tok *tok, size_t *at,
                             size_t *n, size_t *bad)
{
  size_t i = 0, depth = 0, open = 0, end = SIZE_MAX, w;
  *n = 0;
  while (i < len) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      i++;
      continue;
    }
    if (c == ';')
      break;
    if (c == '(') {
      if (depth++ == 0)
        open = i;
      i++;
      continue;
    }
    if (c == ')') {
      *bad = i;
      if (depth == 0)
        return "')' without '('";
      depth--;
      i++;
      continue;
    }
    if (*n == ZP_GENERATE_FIELDS_MAX) {
      *bad = i;
      return "more than 4096 fields";
    }
    zp_tok *t = &tok[*n];
    at[*n] = i;
    t->joined = i == end;
    t->quoted = gen_quote(s, i, len, unquote, &w);
    if (t->quoted) {
      *bad = i;
      i += w;
      t->off = i;
      while (i < len && !gen_quote(s, i, len, unquote, &w))
        i += s[i] == '\\' ? 2 : 1;
      if (i >= len)
        return "quoted string not closed";
      t->len = i - t->off;
      i += w;
    } else {
      t->off = i;
      while (i < len && !strchr(" \t\r;()", s[i]) && !gen_quote(s, i, len, unquote, &w))
        i += s[i] == '\\' ? 2 : 1;
      if (i > len) {
        *bad = len - 1;
        return "backslash at the end";
      }
      t->len = i - t->off;
    }
    end = i;
    (*n)++;
  }
  *bad = open;
  return depth ? "'(' not closed" : NULL;
}

bool zp_zone_generate(zp_zfile *f, const zp_tok *range, const zp_loc *range_loc,
                      const zp_tok *owner, const zp_loc *owner_loc, const zp_loc *at)
{
  zp_zone *z = f->z;
  zp_zone_record_begin(z, at);
  const char *r = zp_zone_text(f, range);
  long start = 0, stop = 0, step = 1;
  const char *p = r, *lim = r + range->len;
  bool ok = gen_decimal(&p, lim, LONG_MAX, &start) && p < lim && *p++ == '-' &&
            gen_decimal(&p, lim, LONG_MAX, &stop);
  if (ok && p < lim && *p == '/') {
    p++;
    ok = gen_decimal(&p, lim, LONG_MAX, &step);
  }
  ok = ok && p == lim && start <= stop && step >= 1;
  if (!ok || stop > GEN_VALUE_MAX || step > GEN_VALUE_MAX) {
    zp_zone_report(z, range_loc, "bad $GENERATE range \"%.*s\": START-STOP[/STEP] with 0 <= "
                   "START <= STOP < 2^31, 1 <= STEP < 2^31", (int)range->len, r);
    return false;
  }
  /* past what named refuses it sets no bound; zonepuny bounds the zone's $GENERATE records
   * all together, told before one is made */
  uint64_t max = z->opt->max_generate ? z->opt->max_generate : ZP_GENERATE_DEFAULT,
           n = (uint64_t)(stop - start) / (uint64_t)step + 1;
  if (n > max - z->generated) {
    if (z->generated)
      zp_zone_report(z, range_loc, "$GENERATE range \"%.*s\" makes %" PRIu64 " records: with "
                     "the %" PRIu64 " made before it, more than the %" PRIu64 " $GENERATE may "
                     "make in one zone (--max-generate)", (int)range->len, r, n, z->generated,
                     max);
    else
      zp_zone_report(z, range_loc, "$GENERATE range \"%.*s\" makes %" PRIu64 " records, more "
                     "than the %" PRIu64 " $GENERATE may make in one zone (--max-generate)",
                     (int)range->len, r, n, max);
    return false;
  }
  z->generated += n;
  z->gen_start = start;
  z->gen_stop = stop;
  z->gen_step = step;
  z->gen_owner = *owner;
  z->gen_owner_loc = *owner_loc;
  z->gen_at = *at;
  return true;
}

/* A failed substitution of the template t (at loc), reported at its offending byte. */
static void gen_report(zp_zfile *f, gen_fail why, const zp_tok *t, const zp_loc *loc, size_t bad,
                       long value)
{
  const char *s = zp_zone_text(f, t);
  zp_loc e = zp_loc_at(loc, t->quoted, s, t->len, bad);
  if (why == GEN_RANGE)
    zp_zone_report(f->z, &e, "$GENERATE value %ld with its offset is past 2147483647 (named: "
                   "\"out of range\")", value);
  else if (why == GEN_SPACE)
    zp_zone_report(f->z, &e, "$GENERATE's %s grows past %d characters at value %ld (named: "
                   "\"ran out of space\")", t == &f->z->gen_owner ? "owner" : "right-hand side",
                   t == &f->z->gen_owner ? GEN_LHS_AREA - 1 : GEN_RHS_MAX, value);
  else
    zp_zone_report(f->z, &e, "bad $GENERATE substitution in \"%.*s\"", (int)t->len, s);
}

void zp_zone_generate_end(zp_zfile *f, const zp_tok *rhs, const zp_loc *rhs_loc)
{
  zp_zone *z = f->z;
  if (rhs->in_parens) {
    /* named reads RHS as RDATA with its lexer's parentheses still open, and fails */
    zp_zone_report(z, rhs_loc, "$GENERATE's right-hand side is inside parentheses, which named "
                   "refuses: close them before it");
    return;
  }
  if ((!z->gen_buf && !(z->gen_buf = malloc(ZP_RECORD_MAX))) ||
      !zp_zone_fields_room(z, ZP_GENERATE_FIELDS_MAX)) {
    zp_zone_report(z, &z->gen_at, "out of memory");
    return;
  }
  /* RHS as written split once, for the fields' places and its one structural error: a value
   * adds only digits, letters, '-', '.' and '$', so each value's RHS splits the same way */
  const char *rt = zp_zone_text(f, rhs);
  size_t nf = 0, bad = 0, at[ZP_GENERATE_FIELDS_MAX];
  const char *split = gen_split(rt, rhs->len, rhs->quoted, z->tok, at, &nf, &bad);
  zp_loc split_loc = zp_loc_at(rhs_loc, rhs->quoted, rt, rhs->len, bad);
  for (size_t i = 0; i < nf && !split; i++)
    z->tok_loc[i] = zp_loc_at(rhs_loc, rhs->quoted, rt, rhs->len, at[i]);
  /* the owner in force before the directive stays in force after it, as in named */
  zp_scope saved = z->sc;
  char *lhs = z->gen_buf + GEN_RHS_MAX + 1, *rbuf = z->gen_buf,
       *fbuf = lhs + GEN_LHS_AREA;
  for (long v = z->gen_start; v <= z->gen_stop && !z->stop && !zp_diag_stop(z->diag);
       v += z->gen_step) {
    size_t kl = 0, kr = 0;
    gen_fail why = gen_subst(zp_zone_text(f, &z->gen_owner), z->gen_owner.len, false, v, lhs,
                             GEN_LHS_AREA, &kl, &bad);
    if (why != GEN_OK) {
      gen_report(f, why, &z->gen_owner, &z->gen_owner_loc, bad, v);
      break;
    }
    why = gen_subst(rt, rhs->len, rhs->quoted, v, rbuf, GEN_RHS_MAX + 1, &kr, &bad);
    if (why != GEN_OK) {
      gen_report(f, why, rhs, rhs_loc, bad, v);
      break;
    }
    if (split) {
      zp_zone_report(z, &split_loc, "%s in $GENERATE's right-hand side", split);
      break;
    }
    size_t n = 0;
    if (gen_split(rbuf, kr, false, z->tok, at, &n, &bad) || n != nf) {
      zp_zone_report(z, rhs_loc, "$GENERATE's right-hand side does not split as written");
      break;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
      const zp_tok *t = &z->tok[i];
      memcpy(fbuf + k, rbuf + t->off, t->len);
      fbuf[k + t->len] = '\0';
      z->fields[i] = (zp_field){fbuf + k, t->len, t->quoted, t->joined, z->tok_loc[i]};
      k += t->len + 1;
    }
    z->ntok = n;
    unsigned errors = z->diag->errors;
    if (!zp_zone_set_owner(z, lhs, kl, false, &z->gen_owner_loc))
      break;
    z->generating = true;
    zp_zone_deliver(z);
    z->generating = false;
    if (z->diag->errors != errors)   /* one message for the directive, as for a record */
      break;
  }
  memcpy(z->sc.owner, saved.owner, sizeof saved.owner);
  memcpy(z->sc.spelling, saved.spelling, sizeof saved.spelling);
  z->sc.have_owner = saved.have_owner;
  z->sc.have_spelling = saved.have_spelling;
}
