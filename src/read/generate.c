/* generate.c -- BIND's $GENERATE: $ is the counter, ${offset,width,base}, \$ and $$ a dollar */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zone_int.h"

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
  zp_zone_record_begin(z, at);
  const char *r = zp_zone_text(f, range);
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
    zp_zone_report(z, range_loc, "$GENERATE range \"%.*s\" makes more than %d records", (int)range->len, r,
          ZP_GENERATE_MAX);
    return false;
  }
  if (!ok || stop > 0x7FFFFFFF) {
    zp_zone_report(z, range_loc, "bad $GENERATE range \"%.*s\": START-STOP[/STEP] with 0 <= START <= "
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
    zp_zone_report(z, &z->gen_at, "out of memory");
    return;
  }
  for (long v = z->gen_start; v <= z->gen_stop && !z->stop && !zp_diag_stop(z->diag);
       v += z->gen_step) {
    size_t k = 0, bad = 0;
    if (!gen_subst(zp_zone_text(f, &z->gen_owner), z->gen_owner.len, v, z->gen_buf, ZP_RECORD_MAX,
                   &k, &bad)) {
      zp_loc e = zp_loc_at(&z->gen_owner_loc, z->gen_owner.quoted,
                           zp_zone_text(f, &z->gen_owner), z->gen_owner.len, bad);
      zp_zone_report(z, &e, "bad $GENERATE substitution in \"%.*s\"", (int)z->gen_owner.len,
            zp_zone_text(f, &z->gen_owner));
      return;
    }
    size_t offs[ZP_FIELDS_MAX];
    for (size_t i = 0; i < z->ntok; i++) {
      offs[i] = k;
      const zp_tok *t = &z->tok[i];
      if (!gen_subst(zp_zone_text(f, t), t->len, v, z->gen_buf, ZP_RECORD_MAX, &k, &bad)) {
        zp_loc e = zp_loc_at(&z->tok_loc[i], t->quoted, zp_zone_text(f, t), t->len, bad);
        zp_zone_report(z, &e, "bad $GENERATE substitution in \"%.*s\"", (int)t->len, zp_zone_text(f, t));
        return;
      }
    }
    if (!zp_zone_set_owner(z, z->gen_buf, strlen(z->gen_buf), false, &z->gen_owner_loc))
      return;
    for (size_t i = 0; i < z->ntok; i++)
      z->fields[i] = (zp_field){z->gen_buf + offs[i], strlen(z->gen_buf + offs[i]),
                                z->tok[i].quoted, z->tok[i].joined, z->tok_loc[i]};
    zp_zone_deliver(z);
  }
}

