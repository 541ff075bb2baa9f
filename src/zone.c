/* zone.c -- RFC 1035 master files: a streaming scanner and record builder with exact locations */
#include "zone.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"

/* Limits (README "Limits"): each is reported as an error when reached. */
enum {
  TYPE_SOA = 6,                 /* RFC 1035 section 3.2.2 */
  LINE_MAX_BYTES = 65535,       /* one physical line */
  RECORD_MAX_BYTES = 1 << 20,   /* the tokens of one record, parentheses included */
  FIELDS_MAX = 4096,            /* tokens in one record */
  INCLUDE_DEPTH_MAX = 16,
  GENERATE_MAX = 1000000,       /* records made by one $GENERATE */
};

typedef struct token {
  size_t off, len;   /* in the record buffer: quotes removed, escapes as written */
  bool quoted;
  zp_loc loc;
} token;

/* A file in the include chain; src first so the chain of zp_source can be walked back to it. */
typedef struct file {
  zp_source src;
  dev_t dev;
  ino_t ino;
} file;

typedef struct state {
  uint8_t origin[ZP_NAME_MAX];
  bool have_origin;
  uint32_t ttl;          /* $TTL, -t, or the SOA MINIMUM taken as default */
  bool have_ttl;
  uint8_t owner[ZP_NAME_MAX];
  bool have_owner;
} state;

typedef struct ctx {
  const zp_zone_options *opt;
  zp_diag *diag;
  zp_record_fn cb;
  void *user;
  zp_status stop;        /* what the callback stopped with */
  state st;
  int depth;
  bool warned_soa_ttl;
  char *buf;             /* token text of the record being read */
  size_t buf_len, buf_cap;
  token tok[FIELDS_MAX];
  size_t ntok;
  zp_field fields[FIELDS_MAX];
} ctx;

static zp_status parse_path(ctx *c, const char *path, const zp_source *parent, const zp_loc *at);

ZP_PRINTF(3, 4) static void error(ctx *c, const zp_loc *loc, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  zp_diag_report(c->diag, loc, ZP_ERROR, "%s", msg);
}

static const char *text_of(const ctx *c, const token *t)
{
  return c->buf + t->off;
}

/* A column inside a token: loc counts characters, offset counts bytes of the token's text. */
static zp_loc loc_in(const ctx *c, const token *t, size_t offset)
{
  zp_loc loc = t->loc;
  const char *p = text_of(c, t);
  loc.col += t->quoted ? 1 : 0;
  for (size_t i = 0; i < offset && i < t->len; i++)
    loc.col += ((unsigned char)p[i] & 0xC0) != 0x80;
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

static bool parse_name_tok(ctx *c, const token *t, const uint8_t *origin, uint8_t *out)
{
  zp_name_error err = {0};
  size_t len;
  zp_status s = zp_name_parse(text_of(c, t), t->len, origin, &c->opt->conv, out, &len, &err);
  if (s == ZP_OK)
    return true;
  zp_loc loc = loc_in(c, t, err.offset);
  error(c, &loc, "%s", err.msg[0] ? err.msg : zp_strerror(s));
  return false;
}

/* ---- records ---- */

static const uint8_t root[1] = {0};

/* The TTL of a record that names none: $TTL or -t, else the last one stated (RFC 1035 5.1),
 * else, as BIND does, the SOA MINIMUM with a warning. */
static bool default_ttl(ctx *c, const token *rdata, size_t nrdata, uint16_t type,
                        const zp_loc *loc, uint32_t *ttl)
{
  if (c->st.have_ttl) {
    *ttl = c->st.ttl;
    return true;
  }
  if (type == TYPE_SOA && nrdata == 7 &&
      zp_ttl_parse(text_of(c, &rdata[6]), rdata[6].len, ttl)) {
    if (!c->warned_soa_ttl)
      zp_diag_report(c->diag, loc, ZP_WARNING,
                     "no $TTL before the SOA: using its MINIMUM %u as the default TTL, as BIND "
                     "does", *ttl);
    c->warned_soa_ttl = true;
    c->st.ttl = *ttl;
    c->st.have_ttl = true;
    return true;
  }
  error(c, loc, "no TTL for this record: give one, or $TTL or -t before it");
  return false;
}

/* Owner already in c->st.owner; tokens [i, n) are [TTL] [class] type RDATA... */
static void finish_record(ctx *c, size_t i, size_t n, const zp_loc *rec_loc)
{
  uint32_t ttl = 0;
  bool have_ttl = false, have_class = false;
  uint16_t rclass = 1, type = 0;
  for (; i < n; i++) {
    const token *t = &c->tok[i];
    const char *s = text_of(c, t);
    if (!t->quoted && !have_ttl && s[0] >= '0' && s[0] <= '9') {
      if (!zp_ttl_parse(s, t->len, &ttl)) {
        error(c, &t->loc, "bad TTL \"%.*s\": a number up to 2147483647, units s m h d w allowed",
              (int)t->len, s);
        return;
      }
      have_ttl = true;
      continue;
    }
    if (!t->quoted && !have_class && zp_rr_class_from_text(s, t->len, &rclass)) {
      have_class = true;
      continue;
    }
    if (!t->quoted && zp_rr_type_from_text(s, t->len, &type)) {
      i++;
      break;
    }
    uint16_t next;
    bool type_follows = i + 1 < n && zp_rr_type_from_text(text_of(c, &c->tok[i + 1]),
                                                          c->tok[i + 1].len, &next);
    error(c, &t->loc, "unknown %s \"%.*s\"", type_follows && !have_class ? "class" : "type",
          (int)t->len, s);
    return;
  }
  if (type == 0) {
    error(c, rec_loc, "record has no type");
    return;
  }
  size_t nf = n - i;
  if (!have_ttl && !default_ttl(c, &c->tok[i], nf, type, rec_loc, &ttl))
    return;
  for (size_t k = 0; k < nf; k++) {
    const token *t = &c->tok[i + k];
    c->fields[k] = (zp_field){text_of(c, t), t->len, t->quoted, t->loc};
  }
  zp_record rec = {
    .loc = *rec_loc,
    .owner = c->st.owner,
    .origin = c->st.have_origin ? c->st.origin : NULL,
    .ttl = ttl,
    .rclass = rclass,
    .rtype = type,
    .generic = nf > 0 && !c->fields[0].quoted && c->fields[0].len == 2 &&
               memcmp(c->fields[0].text, "\\#", 2) == 0,
    .nfields = nf,
    .fields = c->fields,
  };
  zp_status s = c->cb(c->user, &rec);
  if (s != ZP_OK)
    c->stop = s;
}

/* ---- $GENERATE (BIND): $ is the counter, ${offset,width,base}, \$ a literal dollar ---- */

static bool gen_subst(const char *in, size_t len, long value, char *out, size_t cap, size_t *outlen)
{
  size_t k = 0;
  for (size_t i = 0; i < len; i++) {
    if (in[i] == '\\' && i + 1 < len && in[i + 1] == '$') {
      if (k + 1 >= cap)
        return false;
      out[k++] = '$';
      i++;
      continue;
    }
    if (in[i] != '$') {
      if (k + 1 >= cap)
        return false;
      out[k++] = in[i];
      continue;
    }
    long offset = 0;
    unsigned width = 0;
    char base = 'd';
    if (i + 1 < len && in[i + 1] == '{') {
      const char *end = memchr(in + i, '}', len - i);
      if (!end)
        return false;
      char spec[64];
      size_t sl = (size_t)(end - (in + i + 2));
      if (sl >= sizeof spec)
        return false;
      memcpy(spec, in + i + 2, sl);
      spec[sl] = '\0';
      char b = 'd';
      int got = sscanf(spec, "%ld,%u,%c", &offset, &width, &b);
      if (got < 1 || width > 32 || !strchr("doxXnN", b))
        return false;
      base = b;
      i = (size_t)(end - in);
    }
    long v = value + offset;
    char num[80];
    int nl;
    if (base == 'n' || base == 'N') {
      /* BIND's nibble mode: hex digits reversed, dot separated, padded to width */
      char hex[40];
      int hl = base == 'n' ? snprintf(hex, sizeof hex, "%0*lx", (int)width, v)
                           : snprintf(hex, sizeof hex, "%0*lX", (int)width, v);
      nl = 0;
      for (int d = hl - 1; d >= 0 && nl + 2 < (int)sizeof num; d--) {
        num[nl++] = hex[d];
        if (d > 0)
          num[nl++] = '.';
      }
      num[nl] = '\0';
    } else {
      if (base == 'o')
        nl = snprintf(num, sizeof num, "%0*lo", (int)width, v);
      else if (base == 'x')
        nl = snprintf(num, sizeof num, "%0*lx", (int)width, v);
      else if (base == 'X')
        nl = snprintf(num, sizeof num, "%0*lX", (int)width, v);
      else
        nl = snprintf(num, sizeof num, "%0*ld", (int)width, v);
    }
    if (nl < 0 || k + (size_t)nl >= cap)
      return false;
    memcpy(out + k, num, (size_t)nl);
    k += (size_t)nl;
  }
  *outlen = k;
  return true;
}

static bool append(ctx *c, const char *p, size_t n);

static void generate(ctx *c, size_t n)
{
  const token *t = c->tok;
  if (n < 4) {
    error(c, &t[0].loc, "$GENERATE needs a range, an owner, a type and RDATA");
    return;
  }
  long start, stop, step = 1;
  char range[64];
  if (t[1].len >= sizeof range) {
    error(c, &t[1].loc, "bad $GENERATE range");
    return;
  }
  memcpy(range, text_of(c, &t[1]), t[1].len);
  range[t[1].len] = '\0';
  char extra;
  int got = sscanf(range, "%ld-%ld/%ld%c", &start, &stop, &step, &extra);
  if (got < 2 || got > 3 || start < 0 || stop < start || step < 1 || strchr(range, '+')) {
    error(c, &t[1].loc, "bad $GENERATE range \"%s\": START-STOP[/STEP] with 0 <= START <= STOP",
          range);
    return;
  }
  /* not "+ 1 >": that overflows for 0-9223372036854775807 (UBSan, found by fuzz_zone) */
  if ((stop - start) / step >= GENERATE_MAX) {
    error(c, &t[1].loc, "$GENERATE range \"%s\" makes more than %d records", range,
          GENERATE_MAX);
    return;
  }
  /* The template tokens stay in the buffer; each round appends its substituted tokens after
   * them and drops them again. */
  size_t ntpl = n - 2, base_len = c->buf_len;
  zp_loc at = t[0].loc;
  token *tpl = malloc(ntpl * sizeof *tpl);
  if (!tpl) {
    c->stop = ZP_ENOMEM;
    return;
  }
  memcpy(tpl, t + 2, ntpl * sizeof *tpl);
  for (long v = start; v <= stop && !c->stop && !zp_diag_stop(c->diag); v += step) {
    c->buf_len = base_len;
    c->ntok = 0;
    bool ok = true;
    for (size_t k = 0; k < ntpl && ok; k++) {
      char out[4096];
      size_t ol;
      if (!gen_subst(c->buf + tpl[k].off, tpl[k].len, v, out, sizeof out, &ol)) {
        error(c, &tpl[k].loc, "bad $GENERATE substitution in \"%.*s\"", (int)tpl[k].len,
              c->buf + tpl[k].off);
        goto out;
      }
      token nt = tpl[k];
      nt.off = c->buf_len;
      nt.len = ol;
      ok = append(c, out, ol) && append(c, "", 1);
      c->tok[c->ntok++] = nt;
    }
    if (!ok) {
      error(c, &at, "$GENERATE record longer than %d bytes", RECORD_MAX_BYTES);
      goto out;
    }
    if (!parse_name_tok(c, &c->tok[0], c->st.have_origin ? c->st.origin : NULL, c->st.owner))
      goto out;
    c->st.have_owner = true;
    finish_record(c, 1, c->ntok, &at);
  }
out:
  free(tpl);
}

/* --include-root: path must resolve, after every symlink and "..", to root or below it. On
 * success *real is the resolved path (caller frees). */
static bool include_allowed(ctx *c, const token *t, const char *path, char **real)
{
  char *rootdir = realpath(c->opt->include_root, NULL);
  bool ok = false;
  if (!rootdir) {
    error(c, &t->loc, "$INCLUDE \"%s\" refused: --include-root %s: %s", path,
          c->opt->include_root, strerror(errno));
    goto out;
  }
  *real = realpath(path, NULL);
  if (!*real) {
    error(c, &t->loc, "cannot read included file \"%s\": %s", path, strerror(errno));
    goto out;
  }
  size_t n = strlen(rootdir);
  /* "/" is a prefix of everything; otherwise the next character must end a component */
  ok = strncmp(*real, rootdir, n) == 0 &&
       (n == 1 || (*real)[n] == '/' || (*real)[n] == 0);
  if (!ok) {
    error(c, &t->loc, "$INCLUDE \"%s\" refused: it resolves to \"%s\", outside --include-root %s",
          path, *real, rootdir);
    free(*real);
    *real = NULL;
  }
out:
  free(rootdir);
  return ok;
}

static void include(ctx *c, size_t n, const zp_source *src)
{
  const token *t = c->tok;
  if (n < 2 || n > 3) {
    error(c, &t[0].loc, "$INCLUDE takes a file name and an optional origin");
    return;
  }
  state saved = c->st;
  if (n == 3) {
    /* relative to the origin in force, so not parsed in place over it (found by fuzz_zone) */
    uint8_t origin[ZP_NAME_MAX];
    if (!parse_name_tok(c, &t[2], c->st.have_origin ? c->st.origin : NULL, origin))
      return;
    memcpy(c->st.origin, origin, sizeof origin);
    c->st.have_origin = true;
  }
  /* relative to the including file */
  const char *name = text_of(c, &t[1]);
  char path[4096];
  const char *slash = strrchr(src->path, '/');
  int plen;
  if (name[0] == '/' || !slash || strcmp(src->path, "-") == 0)
    plen = snprintf(path, sizeof path, "%s", name);
  else
    plen = snprintf(path, sizeof path, "%.*s/%s", (int)(slash - src->path), src->path, name);
  /* a truncated path would name some other file */
  if (plen < 0 || (size_t)plen >= sizeof path) {
    error(c, &t[1].loc, "$INCLUDE file name longer than %zu bytes", sizeof path - 1);
    return;
  }
  if (c->opt->no_include) {
    error(c, &t[0].loc, "$INCLUDE \"%s\" refused: --no-include is in force", path);
    return;
  }
  char *real = NULL;
  if (c->opt->include_root && !include_allowed(c, &t[1], path, &real))
    return;
  zp_loc at = t[0].loc;
  c->depth++;
  /* The file checked is the file opened: the resolved path, not the name again. */
  zp_status s = parse_path(c, real ? real : path, src, &at);
  free(real);
  c->depth--;
  if (s == ZP_EIO)
    error(c, &t[1].loc, "cannot read included file \"%s\": %s", path, strerror(errno));
  c->st = saved;
}

static void directive(ctx *c, size_t n, const zp_source *src)
{
  const token *t = c->tok;
  const char *d = text_of(c, &t[0]);
  if (strcasecmp(d, "$ORIGIN") == 0) {
    if (n != 2) {
      error(c, &t[0].loc, "$ORIGIN takes one absolute name");
      return;
    }
    const char *s = text_of(c, &t[1]);
    bool absolute = t[1].len > 0 && s[t[1].len - 1] == '.' &&
                    (t[1].len < 2 || s[t[1].len - 2] != '\\');
    if (!absolute) {
      error(c, &t[1].loc, "$ORIGIN \"%s\" is not absolute (end it with a dot)", s);
      return;
    }
    if (parse_name_tok(c, &t[1], root, c->st.origin))
      c->st.have_origin = true;
  } else if (strcasecmp(d, "$TTL") == 0) {
    if (n != 2 || !zp_ttl_parse(text_of(c, &t[1]), t[1].len, &c->st.ttl)) {
      error(c, n >= 2 ? &t[1].loc : &t[0].loc,
            "$TTL takes one TTL up to 2147483647 (units s m h d w allowed)");
      return;
    }
    c->st.have_ttl = true;
  } else if (strcasecmp(d, "$INCLUDE") == 0) {
    include(c, n, src);
  } else if (strcasecmp(d, "$GENERATE") == 0) {
    generate(c, n);
  } else {
    error(c, &t[0].loc, "unknown directive \"%s\"", d);
  }
}

static void record(ctx *c, bool blank, const zp_loc *loc, const zp_source *src)
{
  size_t n = c->ntok;
  if (n == 0)
    return;
  const token *t = c->tok;
  if (!blank && !t[0].quoted && text_of(c, &t[0])[0] == '$') {
    directive(c, n, src);
    return;
  }
  size_t i = 0;
  if (!blank) {
    c->st.have_owner = false;
    if (!parse_name_tok(c, &t[0], c->st.have_origin ? c->st.origin : NULL, c->st.owner))
      return;
    c->st.have_owner = true;
    i = 1;
  } else if (!c->st.have_owner) {
    error(c, loc, "no previous owner for a record that starts with a blank");
    return;
  }
  finish_record(c, i, n, loc);
}

/* ---- scanning ---- */

static bool append(ctx *c, const char *p, size_t n)
{
  /* an empty token ("") before any text: c->buf is still NULL, and NULL + 0 is undefined */
  if (n == 0)
    return true;
  if (c->buf_len + n > RECORD_MAX_BYTES)
    return false;
  if (c->buf_len + n > c->buf_cap) {
    size_t cap = c->buf_cap ? c->buf_cap : 4096;
    while (cap < c->buf_len + n)
      cap *= 2;
    char *b = realloc(c->buf, cap);
    if (!b)
      return false;
    c->buf = b;
    c->buf_cap = cap;
  }
  memcpy(c->buf + c->buf_len, p, n);
  c->buf_len += n;
  return true;
}

/* After an error inside a record, the rest of it is skipped: only its parentheses still count,
 * so that reading picks up again at the next record. */
static void skip_rest(const char *p, size_t i, size_t len, int *paren)
{
  for (; i < len; i++) {
    char ch = p[i];
    if (ch == ';')
      return;
    if (ch == '\\') {
      i++;
    } else if (ch == '"') {
      const char *q = memchr(p + i + 1, '"', len - i - 1);
      if (!q)
        return;
      i = (size_t)(q - p);
    } else if (ch == '(') {
      (*paren)++;
    } else if (ch == ')' && *paren > 0) {
      (*paren)--;
    }
  }
}

static zp_status parse_stream(ctx *c, FILE *f, const zp_source *src)
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t got;
  uint32_t lineno = 0;
  uint64_t off = 0, line_off = 0;
  int paren = 0;
  zp_loc paren_loc = {0}, rec_loc = {0};
  bool blank = false, bad = false;
  c->ntok = 0;
  c->buf_len = 0;
  while (!c->stop && !zp_diag_stop(c->diag) && (got = getline(&line, &cap, f)) != -1) {
    size_t len = (size_t)got;
    lineno++;
    line_off = off;
    off += len;
    const char *p = line;
    if (lineno == 1 && len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
      p += 3;
      len -= 3;
    }
    if (len > 0 && p[len - 1] == '\n')
      len--;
    if (len > 0 && p[len - 1] == '\r')
      len--;
    zp_loc here = {src, lineno, 1, line_off};
    if (paren == 0) {
      c->ntok = 0;
      c->buf_len = 0;
      bad = false;
      blank = len > 0 && (p[0] == ' ' || p[0] == '\t');
      rec_loc = here;
    }
    if (len > LINE_MAX_BYTES) {
      error(c, &here, "line longer than %d bytes", LINE_MAX_BYTES);
      bad = true;
    }
    const char *nul = memchr(p, '\0', len);
    if (nul) {
      here.col = 1;
      for (const char *q = p; q < nul; q++)
        here.col += ((unsigned char)*q & 0xC0) != 0x80;
      error(c, &here, "NUL byte in the zone file");
      bad = true;
    }
    uint32_t col = 1;
    size_t i = 0;
    while (i < len) {
      if (bad) {
        skip_rest(p, i, len, &paren);
        break;
      }
      char ch = p[i];
      zp_loc at = {src, lineno, col, line_off};
      if (ch == ' ' || ch == '\t') {
        i++;
        col++;
        continue;
      }
      if (ch == ';')
        break;
      if (ch == '(' || ch == ')') {
        if (ch == '(') {
          if (paren++ == 0)
            paren_loc = at;
        } else if (paren == 0) {
          error(c, &at, "')' without '('");
          bad = true;
        } else {
          paren--;
        }
        i++;
        col++;
        continue;
      }
      if (c->ntok == FIELDS_MAX) {
        error(c, &at, "more than %d fields in one record", FIELDS_MAX);
        bad = true;
        continue;
      }
      token *t = &c->tok[c->ntok];
      t->loc = at;
      t->quoted = ch == '"';
      size_t start = t->quoted ? i + 1 : i, j = start;
      bool closed = !t->quoted;
      while (j < len) {
        char d = p[j];
        if (d == '\\') {
          if (j + 1 >= len) {
            zp_loc e = {src, lineno, col, line_off};
            for (size_t k = i; k < j; k++)
              e.col += ((unsigned char)p[k] & 0xC0) != 0x80;
            error(c, &e, "backslash at the end of a line");
            bad = true;
            break;
          }
          j += 2;
          continue;
        }
        if (t->quoted) {
          if (d == '"') {
            closed = true;
            break;
          }
        } else if (d == ' ' || d == '\t' || d == ';' || d == '(' || d == ')') {
          break;
        }
        j++;
      }
      if (bad)
        break;
      if (!closed) {
        error(c, &at, "quoted string not closed on this line");
        bad = true;
        break;
      }
      t->off = c->buf_len;
      t->len = j - start;
      if (!append(c, p + start, j - start) || !append(c, "", 1)) {
        error(c, &at, "record longer than %d bytes", RECORD_MAX_BYTES);
        bad = true;
        i = t->quoted ? j + 1 : j;
        continue;
      }
      c->ntok++;
      size_t end = t->quoted ? j + 1 : j;
      for (size_t k = i; k < end; k++)
        col += ((unsigned char)p[k] & 0xC0) != 0x80;
      i = end;
    }
    if (bad) {
      /* skip to the end of the record: the rest of the parentheses, if any */
      if (paren == 0) {
        c->ntok = 0;
        c->buf_len = 0;
      }
      continue;
    }
    if (paren > 0)
      continue;
    record(c, blank, &rec_loc, src);
    c->ntok = 0;
    c->buf_len = 0;
  }
  if (paren > 0 && !c->stop)
    error(c, &paren_loc, "'(' not closed before the end of the file");
  free(line);
  return ferror(f) ? ZP_EIO : ZP_OK;
}

/* An included file must be a regular file: a zone could otherwise name /dev/zero (read for
 * ever) or a FIFO (open blocks for ever). O_NONBLOCK keeps the open itself from blocking.
 * NULL with *refused set when it is not one, NULL alone (errno set) when it cannot be opened. */
static FILE *open_include(const char *path, bool *refused)
{
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat sb;
  FILE *f = NULL;
  if (fd < 0)
    return NULL;
  if (fstat(fd, &sb) != 0)
    goto out;
  if (!S_ISREG(sb.st_mode)) {
    *refused = true;
    goto out;
  }
  if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
    f = fdopen(fd, "r");
out:
  if (!f) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return f;
}

static zp_status parse_path(ctx *c, const char *path, const zp_source *parent, const zp_loc *at)
{
  bool refused = false;
  FILE *f = !parent ? (strcmp(path, "-") == 0 ? stdin : fopen(path, "r"))
                    : open_include(path, &refused);
  if (refused) {
    error(c, at, "$INCLUDE \"%s\" is not a regular file", path);
    return ZP_OK;
  }
  if (!f)
    return ZP_EIO;
  file fl = {.src = {.path = path, .parent = parent, .line = at ? at->line : 0,
                     .col = at ? at->col : 0}};
  struct stat sb;
  if (f != stdin && fstat(fileno(f), &sb) == 0) {
    fl.dev = sb.st_dev;
    fl.ino = sb.st_ino;
    /* an include loop: this file is already open further up the chain */
    for (const zp_source *s = parent; s; s = s->parent) {
      const file *up = (const file *)s;
      if (up->dev == fl.dev && up->ino == fl.ino) {
        fclose(f);
        error(c, at, "$INCLUDE loop: \"%s\" is already being read", path);
        return ZP_OK;
      }
    }
  }
  struct stat ob;
  if (parent && c->opt->output && fstat(fileno(f), &sb) == 0 && stat(c->opt->output, &ob) == 0 &&
      ob.st_dev == sb.st_dev && ob.st_ino == sb.st_ino) {
    fclose(f);
    error(c, at, "$INCLUDE \"%s\" is the -o output file, which would replace it", path);
    return ZP_OK;
  }
  if (c->depth > INCLUDE_DEPTH_MAX) {
    if (f != stdin)
      fclose(f);
    error(c, at, "$INCLUDE nested deeper than %d files", INCLUDE_DEPTH_MAX);
    return ZP_OK;
  }
  zp_status s = parse_stream(c, f, &fl.src);
  if (f != stdin)
    fclose(f);
  return s;
}

zp_status zp_zone_parse(const char *path, const zp_zone_options *opt, zp_diag *diag,
                        zp_record_fn cb, void *user)
{
  ctx *c = calloc(1, sizeof *c);
  if (!c)
    return ZP_ENOMEM;
  c->opt = opt;
  c->diag = diag;
  c->cb = cb;
  c->user = user;
  if (opt->have_default_ttl) {
    c->st.ttl = opt->default_ttl;
    c->st.have_ttl = true;
  }
  zp_status s = ZP_OK;
  if (opt->origin) {
    zp_name_error err = {0};
    size_t len;
    s = zp_name_parse(opt->origin, strlen(opt->origin), root, &opt->conv, c->st.origin, &len,
                      &err);
    if (s != ZP_OK) {
      zp_diag_report(diag, NULL, ZP_ERROR, "-z %s: %s", opt->origin, err.msg);
      s = ZP_OK;
      goto out;
    }
    c->st.have_origin = true;
  }
  s = parse_path(c, path, NULL, NULL);
  if (s == ZP_OK)
    s = c->stop;
out:
  free(c->buf);
  free(c);
  return s;
}
