/* diag.c -- the one diagnostics sink */
#include "diag.h"
#include "diag_line.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/hash.h"
#include "core/text.h"
#include "idna/utf8.h"

void zp_diag_init(zp_diag *d, FILE *out)
{
  memset(d, 0, sizeof *d);
  d->out = out;
  d->max_errors = 50;
  d->show_source = true;
}

zp_loc zp_loc_at(const zp_loc *tok, bool quoted, const char *text, size_t len, size_t off)
{
  zp_loc loc = *tok;
  loc.col += (uint32_t)(quoted + zp_utf8_chars(text, off < len ? off : len));
  return loc;
}

unsigned long zp_source_serial(void)
{
  static atomic_ulong next = 1;
  return atomic_fetch_add(&next, 1);
}

int zp_source_keep(const zp_source *src)
{
  return src->fd ? fcntl(*src->fd, F_DUPFD_CLOEXEC, 3) : -1;
}

void zp_source_release(int fd)
{
  if (fd >= 0)
    close(fd);
}

/* GCC's colours, as its default GCC_COLORS has them */
#define C_LOCUS "\33[01m\33[K"
#define C_ERROR "\33[01;31m\33[K"
#define C_WARNING "\33[01;35m\33[K"
#define C_CARET "\33[01;32m\33[K"
#define C_END "\33[m\33[K"
#define C_NOTE "\33[01;36m\33[K"

/* GCC's, JSON's and SARIF's word for a severity (SARIF's levels are these three too). */
static const char *sev_word(zp_severity sev)
{
  return sev == ZP_ERROR ? "error" : sev == ZP_NOTE ? "note" : "warning";
}

static void quote_line(zp_diag *d, const zp_loc *loc, const char *buf, ssize_t len)
{
  FILE *out = d->out;
  fprintf(out, " %5u | ", loc->line);
  zp_text_write(out, buf, (size_t)len);
  fprintf(out, "%s\n", len == ZP_QUOTE_MAX ? "..." : "");
  /* The caret is placed by characters (the octets that do not continue a UTF-8 sequence);
   * tabs are repeated so it lines up under them, and an escape takes its width. */
  fputs("       | ", out);
  uint32_t ch = 1;
  const unsigned char *u = (const unsigned char *)buf;
  for (size_t i = 0, n; i < (size_t)len && ch < loc->col; i += n) {
    bool esc;
    n = zp_text_char(u + i, (size_t)len - i, &esc);
    for (size_t k = 0; k < (esc ? 4 * n : 1); k++)
      fputc(u[i] == '\t' ? '\t' : ' ', out);
    for (size_t k = 0; k < n; k++)
      ch += (u[i + k] & 0xC0) != 0x80;
  }
  fprintf(out, "%s^%s\n", d->color ? C_CARET : "", d->color ? C_END : "");
}

/* One diagnostic, its message split from its check's name. */
typedef struct told {
  const zp_loc *loc;     /* NULL, or with a file (line 0: the file as a whole) */
  zp_severity sev;
  const char *msg, *check;
  int msg_len;
  char line[ZP_QUOTE_MAX];
  ssize_t line_len;      /* -1: no line to quote */
  uint32_t end;          /* the column past the field pointed at, 0: none */
  zp_other_cols other;   /* the same two in bytes and UTF-16 units, 0: unknown */
} told;

/* The column to print: characters, or bytes (--column-unit=byte) where they are known. */
static uint32_t shown_col(const zp_diag *d, const told *t, bool end)
{
  uint32_t b = end ? t->other.bend : t->other.b;
  return d->byte_columns && b ? b : end ? t->end : t->loc->col;
}

static void write_gcc(zp_diag *d, const told *t)
{
  FILE *out = d->out;
  const char *word = sev_word(t->sev);
  const char *on = d->color ? (t->sev == ZP_ERROR ? C_ERROR : t->sev == ZP_NOTE ? C_NOTE
                                                                                : C_WARNING) : "";
  const char *off = d->color ? C_END : "";
  if (t->loc && t->loc->line > 0) {
    fputs(d->color ? C_LOCUS : "", out);
    zp_text_write(out, t->loc->src->path, strlen(t->loc->src->path));
    fprintf(out, ":%u:%u:%s %s%s:%s ", t->loc->line, shown_col(d, t, false), off, on, word, off);
  } else {
    fprintf(out, "zonepuny: %s%s:%s ", on, word, off);
  }
  zp_text_write(out, t->msg, (size_t)t->msg_len);
  if (t->check) {
    /* (a check's name is zonepuny's own, but split off the words a message ends in) */
    fprintf(out, " [%s-W", on);
    zp_text_write(out, t->check, strlen(t->check));
    fprintf(out, "%s]", off);
  }
  fputc('\n', out);
  if (t->loc && t->loc->line > 0) {
    if (d->show_source && t->line_len >= 0)
      quote_line(d, t->loc, t->line, t->line_len);
    for (const zp_source *s = t->loc->src; s->parent; s = s->parent) {
      fputs("  included from ", out);
      zp_text_write(out, s->parent->path, strlen(s->parent->path));
      fprintf(out, ":%u\n", s->line);
    }
  }
}

static void json_string(FILE *out, const char *s)
{
  fputc('"', out);
  zp_text_json(out, s, strlen(s));
  fputc('"', out);
}

static const char *rule_of(const told *t)
{
  return t->check ? t->check : t->loc && t->loc->line > 0 ? ZP_RULE_READ : ZP_RULE_RUN;
}

/* One line, schema version 1: file, line, column, end_column (null where unknown), severity,
 * check, message, include_chain (the including files, innermost first). */
static void write_json(zp_diag *d, const told *t)
{
  FILE *out = d->out;
  fputs("{\"version\":1,\"file\":", out);
  if (t->loc)
    json_string(out, t->loc->src->path);
  else
    fputs("null", out);
  if (t->loc && t->loc->line > 0)
    fprintf(out, ",\"line\":%u,\"column\":%u,\"end_column\":%u", t->loc->line, t->loc->col,
            t->end);
  else
    fputs(",\"line\":null,\"column\":null,\"end_column\":null", out);
  if (t->loc && t->loc->line > 0 && t->other.b && t->other.bend)
    fprintf(out, ",\"byte_column\":%u,\"byte_end_column\":%u", t->other.b, t->other.bend);
  else
    fputs(",\"byte_column\":null,\"byte_end_column\":null", out);
  fprintf(out, ",\"severity\":\"%s\",\"check\":", sev_word(t->sev));
  json_string(out, rule_of(t));
  fputs(",\"message\":\"", out);
  zp_text_json(out, t->msg, (size_t)t->msg_len);
  fputs("\",\"include_chain\":[", out);
  for (const zp_source *s = t->loc ? t->loc->src : NULL; s && s->parent; s = s->parent) {
    fprintf(out, "%s{\"file\":", s == t->loc->src ? "" : ",");
    json_string(out, s->parent->path);
    fprintf(out, ",\"line\":%u}", s->line);
  }
  fputs("]}\n", out);
}

/* A file's artifactLocation: its path as a relative URI reference (RFC 3986: the bytes
 * outside the unreserved set and '/' percent-encoded). */
static void sarif_uri(FILE *out, const char *path)
{
  fputs("{\"uri\":\"", out);
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p))
      fputc(*p, out);
    else
      fprintf(out, "%%%02X", *p);
  }
  fputs("\"}", out);
}

static void write_sarif(zp_diag *d, const told *t)
{
  FILE *out = d->out;
  fprintf(out, "%s\n        {\"ruleId\":", d->told ? "," : "");
  json_string(out, rule_of(t));
  fprintf(out, ",\"level\":\"%s\",\"message\":{\"text\":\"", sev_word(t->sev));
  zp_text_json(out, t->msg, (size_t)t->msg_len);
  fputs("\"}", out);
  if (t->loc) {
    fputs(",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":", out);
    sarif_uri(out, t->loc->src->path);
    if (t->loc->line > 0)
      fprintf(out, ",\"region\":{\"startLine\":%u,\"startColumn\":%u,\"endColumn\":%u}",
              t->loc->line, t->loc->col, t->end);
    fputs("}}]", out);
    if (t->loc->src->parent) {
      fputs(",\"relatedLocations\":[", out);
      unsigned id = 0;
      for (const zp_source *s = t->loc->src; s->parent; s = s->parent) {
        fprintf(out, "%s{\"id\":%u,\"message\":{\"text\":\"included from here\"},"
                "\"physicalLocation\":{\"artifactLocation\":", id ? "," : "", id);
        sarif_uri(out, s->parent->path);
        fprintf(out, ",\"region\":{\"startLine\":%u}}}", s->line);
        id++;
      }
      fputc(']', out);
    }
  }
  fputc('}', out);
}

/* s[0..n) as a workflow command's message or (property) a property's value: '%', CR and LF
 * percent-encoded, and ':' and ',' too in a property (the runner's escaping). */
static void github_text(FILE *out, const char *s, size_t n, bool property)
{
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0, len; i < n; i += len) {
    bool esc;
    len = zp_text_char(u + i, n - i, &esc);
    if (u[i] == '%' || u[i] == '\r' || u[i] == '\n' || (property && (u[i] == ':' || u[i] == ',')))
      fprintf(out, "%%%02X", u[i]);
    else if (esc)   /* (as GCC's text: the log is read on a terminal too) */
      zp_text_write(out, s + i, len);
    else
      fwrite(u + i, 1, len, out);
  }
}

static void write_github(zp_diag *d, const told *t)
{
  FILE *out = d->out;
  fprintf(out, "::%s ", t->sev == ZP_NOTE ? "notice" : sev_word(t->sev));
  if (t->loc) {
    fputs("file=", out);
    github_text(out, t->loc->src->path, strlen(t->loc->src->path), true);
    if (t->loc->line > 0)
      fprintf(out, ",line=%u,col=%u,endColumn=%u", t->loc->line, shown_col(d, t, false),
              shown_col(d, t, true));
    fputc(',', out);
  }
  fputs("title=zonepuny ", out);
  const char *rule = rule_of(t);
  github_text(out, rule, strlen(rule), true);
  fputs("::", out);
  github_text(out, t->msg, (size_t)t->msg_len, false);
  for (const zp_source *s = t->loc ? t->loc->src : NULL; s && s->parent; s = s->parent) {
    fputs(" (included from ", out);
    github_text(out, s->parent->path, strlen(s->parent->path), false);
    fprintf(out, ":%u)", s->line);
  }
  fputc('\n', out);
}

static void emit(zp_diag *d, const told *t)
{
  if (d->sink) {
    zp_diag_item it = {t->loc, t->sev, rule_of(t), t->msg, (size_t)t->msg_len, t->end,
                       t->other.b, t->other.bend, t->other.u, t->other.uend};
    d->sink(d->sink_user, &it);
    d->told++;
    return;
  }
  switch (d->format) {
  case ZP_FORMAT_GCC: write_gcc(d, t); break;
  case ZP_FORMAT_JSON: write_json(d, t); break;
  case ZP_FORMAT_SARIF: write_sarif(d, t); break;
  case ZP_FORMAT_GITHUB: write_github(d, t); break;
  }
  d->told++;
}

void zp_diag_begin(zp_diag *d, const zp_diag_rule *rules, size_t nrules, const char *version)
{
  d->once = true;   /* (zp_diag_end frees what that holds) */
  if (d->format != ZP_FORMAT_SARIF || d->silent || d->sink)
    return;
  FILE *out = d->out;
  fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
        "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"tool\": {\"driver\": {"
        "\"name\":\"zonepuny\",\"version\":", out);
  json_string(out, version);
  fputs(",\"rules\":[", out);
  for (size_t i = 0; i < nrules; i++) {
    fprintf(out, "%s\n        {\"id\":", i ? "," : "");
    json_string(out, rules[i].id);
    fputs(",\"shortDescription\":{\"text\":", out);
    json_string(out, rules[i].help);
    if (rules[i].full) {
      fputs("},\"fullDescription\":{\"text\":", out);
      json_string(out, rules[i].full);
    }
    if (rules[i].help_text) {
      fputs("},\"help\":{\"text\":", out);
      json_string(out, rules[i].help_text);
      if (rules[i].help_md) {
        fputs(",\"markdown\":", out);
        json_string(out, rules[i].help_md);
      }
    }
    fprintf(out, "},\"defaultConfiguration\":{\"level\":\"%s\"%s}}",
            rules[i].error ? "error" : "warning", rules[i].off ? ",\"enabled\":false" : "");
  }
  fputs("]}},\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": [", out);
}

/* ---- messages of files that zones $INCLUDE, told once ---- */

/* A message told from an included file: the file by its device and inode (two zones' $INCLUDEs
 * may spell its path apart), line, column, severity and words make its key; the zones after
 * the first that said it again are kept for the note. */
typedef struct repeat {
  uint64_t key;
  char *path, *check;    /* as the message was told; check: its -W name, or NULL */
  uint32_t line, col;
  zp_severity sev;
  zp_buf zones;          /* the zones' top files, each ending in '\0' */
  size_t more;           /* zones after the first */
} repeat;

struct zp_diag_repeats {
  repeat *e;
  size_t n, cap;
  uint32_t *slot;        /* index + 1 of each key's entry, by the key's low bits; 0: free */
  size_t nslots;
};

/* Messages remembered; past it each is told as it comes (what a run can hold in memory). */
enum { REPEATS_MAX = 1 << 20 };

static bool repeats_grow(struct zp_diag_repeats *r)
{
  size_t n = r->nslots ? r->nslots * 2 : 256;
  uint32_t *s = calloc(n, sizeof *s);
  if (!s)
    return false;
  for (size_t i = 0; i < r->n; i++) {
    size_t at = r->e[i].key & (n - 1);
    while (s[at])
      at = (at + 1) & (n - 1);
    s[at] = (uint32_t)i + 1;
  }
  free(r->slot);
  r->slot = s;
  r->nslots = n;
  return true;
}

/* Whether the message msg[0..len) at loc (in an included file) was told before: then the zone
 * it comes from now is added to its note. */
static bool repeated(zp_diag *d, const zp_loc *loc, zp_severity sev, const char *msg, int len,
                     const char *check)
{
  struct stat st;
  const zp_source *src = loc->src, *top = src;
  while (top->parent)
    top = top->parent;
  uint64_t at[5] = {loc->line, loc->col, sev, 0, 0};
  if (src->fd && fstat(*src->fd, &st) == 0) {
    at[3] = st.st_dev;
    at[4] = st.st_ino;
  } else {
    at[3] = zp_hash((const uint8_t *)src->path, strlen(src->path));
  }
  uint64_t key = zp_hash((const uint8_t *)at, sizeof at) ^ zp_hash((const uint8_t *)msg, (size_t)len);
  struct zp_diag_repeats *r = d->repeats;
  if (!r && !(r = d->repeats = calloc(1, sizeof *r)))
    return false;
  if (r->n >= REPEATS_MAX || ((r->n + 1) * 2 > r->nslots && !repeats_grow(r)))
    return false;
  size_t i = key & (r->nslots - 1);
  for (; r->slot[i]; i = (i + 1) & (r->nslots - 1)) {
    repeat *e = &r->e[r->slot[i] - 1];
    if (e->key != key)
      continue;
    for (size_t k = 0; k < e->zones.len; k += strlen(e->zones.p + k) + 1)
      if (strcmp(e->zones.p + k, top->path) == 0)
        return true;   /* (the same zone again: one $INCLUDE of the file after another) */
    if (zp_buf_grow(&e->zones, strlen(top->path) + 1)) {
      memcpy(e->zones.p + e->zones.len, top->path, strlen(top->path) + 1);
      e->zones.len += strlen(top->path) + 1;
      e->more++;
    }
    return true;
  }
  if (!zp_array_room(&r->e, r->n, &r->cap, sizeof *r->e, 16))
    return false;
  repeat e = {.key = key, .path = strdup(src->path), .check = check ? strdup(check) : NULL,
              .line = loc->line, .col = loc->col, .sev = sev};
  if (!e.path || (check && !e.check) || !zp_buf_grow(&e.zones, strlen(top->path) + 1)) {
    free(e.path);
    free(e.check);
    zp_buf_free(&e.zones);
    return false;
  }
  memcpy(e.zones.p, top->path, strlen(top->path) + 1);
  e.zones.len = strlen(top->path) + 1;
  r->e[r->n] = e;
  r->slot[i] = (uint32_t)++r->n;
  return false;
}

/* The notes: each repeated message's zones after the first, at its place. */
static void repeats_end(zp_diag *d)
{
  struct zp_diag_repeats *r = d->repeats;
  for (size_t i = 0; r && i < r->n; i++) {
    repeat *e = &r->e[i];
    if (e->more && !d->silent) {
      zp_source src = {.path = e->path};
      zp_loc loc = {.src = &src, .line = e->line, .col = e->col};
      char msg[4096];
      const char *first = e->zones.p, *next = first + strlen(first) + 1;
      int n = snprintf(msg, sizeof msg, "the %s told here for %s is in %zu more zone%s that "
                       "include%s this file, told once:", sev_word(e->sev), first, e->more,
                       e->more == 1 ? "" : "s", e->more == 1 ? "s" : "");
      for (const char *z = next; z < e->zones.p + e->zones.len && n < (int)sizeof msg;
           z += strlen(z) + 1)
        n += snprintf(msg + n, sizeof msg - (size_t)n, "%s %s", z == next ? "" : ",", z);
      if (n >= (int)sizeof msg)
        n = (int)sizeof msg - 1;
      emit(d, &(told){.loc = &loc, .sev = ZP_NOTE, .msg = msg, .msg_len = n, .check = e->check,
                      .line_len = -1, .end = e->col});
    }
    free(e->path);
    free(e->check);
    zp_buf_free(&e->zones);
  }
  if (r) {
    free(r->e);
    free(r->slot);
    free(r);
  }
  d->repeats = NULL;
}

void zp_diag_end(zp_diag *d)
{
  repeats_end(d);
  if (d->format == ZP_FORMAT_SARIF && !d->silent && !d->sink)
    fputs("\n      ]\n    }\n  ]\n}\n", d->out);
  if (d->out)
    fflush(d->out);
}

void zp_diag_report(zp_diag *d, const zp_loc *loc, zp_severity sev, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  zp_diag_vreport(d, loc, sev, fmt, ap);
  va_end(ap);
}

void zp_diag_vreport(zp_diag *d, const zp_loc *loc, zp_severity sev, const char *fmt, va_list ap)
{
  if (sev == ZP_WARNING && d->werror)
    sev = ZP_ERROR;
  if (sev == ZP_ERROR && zp_diag_stop(d))
    return;
  char msg[4096];
  int n = vsnprintf(msg, sizeof msg, fmt, ap);
  told t = {.loc = loc && loc->src ? loc : NULL, .sev = sev, .msg = msg, .line_len = -1};
  t.msg_len = n < 0 ? 0 : n < (int)sizeof msg ? n : (int)sizeof msg - 1;
  /* a check's message ends in " [-WNAME]" */
  char *w = t.msg_len > 0 && msg[t.msg_len - 1] == ']' ? strstr(msg, " [-W") : NULL;
  while (w && strstr(w + 1, " [-W"))
    w = strstr(w + 1, " [-W");
  if (w) {
    msg[t.msg_len - 1] = '\0';
    t.check = w + 4;
    t.msg_len = (int)(w - msg);
  }
  if (t.loc && t.loc->src->parent && t.loc->line > 0 && !d->silent && d->once &&
      repeated(d, t.loc, sev, msg, t.msg_len, t.check))
    return;
  if (sev == ZP_ERROR) {
    d->errors++;
  } else {
    d->warnings++;
    if (d->quiet)
      return;
  }
  if (d->silent)
    return;
  if (t.loc && t.loc->line > 0) {
    if (d->show_source || d->format != ZP_FORMAT_GCC || d->byte_columns || d->sink)
      t.line_len = zp_diag_the_line(d, t.loc, t.line);
    if (d->format != ZP_FORMAT_GCC || d->byte_columns || d->sink)
      t.end = zp_diag_end_col(d, t.loc);
    if (d->byte_columns || d->format == ZP_FORMAT_JSON || d->sink)
      zp_diag_other_cols(d, t.loc, t.loc->col, t.end, &t.other);
  }
  emit(d, &t);
  if (sev == ZP_ERROR && zp_diag_stop(d)) {
    /* (the notice is no error of the zone's: not counted) */
    n = snprintf(msg, sizeof msg, "too many errors (%u), stopping", d->errors);
    emit(d, &(told){.sev = ZP_ERROR, .msg = msg, .msg_len = n, .line_len = -1});
  }
}

bool zp_diag_stop(const zp_diag *d)
{
  return d->max_errors != 0 && d->errors >= d->max_errors;
}
