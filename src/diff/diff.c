/* diff.c -- two zones' records compared in canonical order (RFC 4034 section 6.1), each zone
 * through its own sorter, so that memory stays bounded at any size; a record is its owner,
 * class, type and RDATA in wire form, so case, TTL spelling, UTF-8 or ACE spelling, RFC 3597
 * form, order and $INCLUDE layout are no difference, and a record written twice is one
 * (RFC 2181 section 5). A TTL is the record's own: the same record with another TTL is a
 * change of its own kind. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/text.h"
#include "record/rrtype.h"
#include "record/soa_serial.h"
#include "record/wire_name.h"

enum { NAMES_SHOWN = 100 };   /* names a Markdown summary lists; the rest are counted */

typedef struct side {
  zp_sorter *s;
  zp_record rec;
  bool more;
} side;

typedef struct differ {
  const zp_diff_options *opt;
  zp_emitter *em;
  FILE *out;
  zp_diff_counts *n;
  uint32_t (*per_type)[3];   /* Markdown: removed, added, TTL changed, by type */
  zp_buf names;              /* Markdown: the first NAMES_SHOWN names changed, as text */
  zp_buf last;               /* the owner of the last change, in wire form */
  zp_buf soa[2];             /* each zone's SOA: its order string (owner, class, type, RDATA)
                                with the serial zeroed, then its TTL */
  unsigned long names_changed;
} differ;

enum { REMOVED, ADDED, TTL };

/* The types a signer rewrites whenever it runs (--diff-ignore=dnssec). */
static bool signer_churn(uint16_t type)
{
  return type == ZP_TYPE_RRSIG || type == ZP_TYPE_NSEC || type == ZP_TYPE_NSEC3;
}

/* The SOA as it is but for its serial: what --bump-serial asks of it. */
static zp_status keep_soa(zp_buf *b, const zp_sorter *s, const zp_record *rec)
{
  uint8_t ttl[4] = {(uint8_t)(rec->ttl >> 24), (uint8_t)(rec->ttl >> 16),
                    (uint8_t)(rec->ttl >> 8), (uint8_t)rec->ttl};
  b->len = 0;
  if (!zp_buf_put(b, s->last.p, s->last.len) || !zp_buf_put(b, ttl, 4))
    return ZP_ENOMEM;
  memset(b->p + (s->last.len - rec->rdlen) + zp_soa_serial_at(rec->rdata), 0, 4);
  return ZP_OK;
}

static zp_status advance(differ *df, side *x, bool old)
{
  zp_status st;
  do
    st = zp_sort_next(x->s, &x->rec, &x->more);
  while (st == ZP_OK && x->more && df->opt->ignore_dnssec && signer_churn(x->rec.rtype));
  if (st == ZP_OK && x->more && x->rec.rtype == ZP_TYPE_SOA &&
      !(old ? df->n->old_soa : df->n->new_soa)) {
    *(old ? &df->n->old_soa : &df->n->new_soa) = true;
    *(old ? &df->n->old_serial : &df->n->new_serial) = zp_soa_serial(x->rec.rdata);
    st = keep_soa(&df->soa[!old], x->s, &x->rec);
  }
  return st;
}

/* The tab-separated fields of a record's line: owner, TTL, class, type, RDATA. */
typedef struct fields {
  const char *at[5];
  size_t len[5];
} fields;

static fields split(const char *line, size_t len)
{
  fields f;
  const char *p = line, *end = line + len - (len && line[len - 1] == '\n');
  for (int i = 0; i < 5; i++) {
    const char *tab = i < 4 ? memchr(p, '\t', (size_t)(end - p)) : NULL;
    f.at[i] = p;
    f.len[i] = (size_t)((tab ? tab : end) - p);
    p = tab ? tab + 1 : end;
  }
  return f;
}

static void json_field(FILE *out, const char *key, const char *s, size_t n)
{
  fprintf(out, ",\"%s\":\"", key);
  zp_text_json(out, s, n);
  fputc('"', out);
}

/* Markdown: the change counted under its type, its owner among the names changed. */
static zp_status tally(differ *df, int kind, const zp_record *rec, const fields *f)
{
  df->per_type[rec->rtype][kind]++;
  size_t olen = zp_name_wire_len(rec->owner);
  if (df->last.len == olen && memcmp(df->last.p, rec->owner, olen) == 0)
    return ZP_OK;
  df->last.len = 0;
  if (!zp_buf_put(&df->last, rec->owner, olen))
    return ZP_ENOMEM;
  if (df->names_changed++ >= NAMES_SHOWN)
    return ZP_OK;
  /* a code span of the name's text, its backticks written as a zone escapes them */
  if (df->names.len && !zp_buf_put(&df->names, ", ", 2))
    return ZP_ENOMEM;
  if (!zp_buf_put(&df->names, "`", 1))
    return ZP_ENOMEM;
  for (size_t i = 0; i < f->len[0]; i++) {
    const char *c = f->at[0][i] == '`' ? "\\096" : &f->at[0][i];
    if (!zp_buf_put(&df->names, c, f->at[0][i] == '`' ? 4 : 1))
      return ZP_ENOMEM;
  }
  return zp_buf_put(&df->names, "`", 1) ? ZP_OK : ZP_ENOMEM;
}

/* One change: rec removed, added, or (TTL) held by both, old_ttl its TTL in the old zone. */
static zp_status change(differ *df, int kind, const zp_record *rec, uint32_t old_ttl)
{
  if (kind == REMOVED)
    df->n->removed++;
  else if (kind == ADDED)
    df->n->added++;
  else
    df->n->ttl++;
  if (rec->rtype == ZP_TYPE_SOA && kind != TTL)
    df->n->soa++;
  if (df->opt->format == ZP_DIFF_COUNT)
    return ZP_OK;
  const char *line;
  size_t len;
  zp_status st = zp_emit_line(df->em, rec, &line, &len);
  if (st != ZP_OK || !line)
    return st;
  fields f = split(line, len);
  switch (df->opt->format) {
  case ZP_DIFF_TEXT:
    fputc("-+~"[kind], df->out);
    fwrite(line, 1, len - 1, df->out);
    if (kind == TTL)
      fprintf(df->out, " ; TTL was %u", old_ttl);
    fputc('\n', df->out);
    return ZP_OK;
  case ZP_DIFF_JSON: {
    static const char *const what[] = {"removed", "added", "ttl"};
    fprintf(df->out, "{\"change\":\"%s\"", what[kind]);
    json_field(df->out, "owner", f.at[0], f.len[0]);
    fprintf(df->out, ",\"ttl\":%u", rec->ttl);
    if (kind == TTL)
      fprintf(df->out, ",\"old_ttl\":%u", old_ttl);
    json_field(df->out, "class", f.at[2], f.len[2]);
    json_field(df->out, "type", f.at[3], f.len[3]);
    json_field(df->out, "rdata", f.at[4], f.len[4]);
    fputs("}\n", df->out);
    return ZP_OK;
  }
  default: return tally(df, kind, rec, &f);
  }
}

/* A file name in a Markdown code span: its backticks, which would end the span, as quotes. */
static void md_file(FILE *out, const char *path)
{
  fputc('`', out);
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, "`");
    zp_text_write(out, p, n);
    p += n;
    if (*p) {
      fputc('\'', out);
      p++;
    }
  }
  fputc('`', out);
}

static void markdown(differ *df)
{
  const zp_diff_counts *n = df->n;
  FILE *out = df->out;
  fputs("### Zone changes: ", out);
  md_file(out, df->opt->old_name);
  fputs(" -> ", out);
  md_file(out, df->opt->new_name);
  fputs("\n\n", out);
  if (!n->removed && !n->added && !n->ttl) {
    fputs("No change: the zones hold the same records.\n", out);
    return;
  }
  fprintf(out, "%lu record%s removed, %lu added, %lu with another TTL", n->removed,
          n->removed == 1 ? "" : "s", n->added, n->ttl);
  if (n->old_soa && n->new_soa)
    fprintf(out, "; SOA serial %u -> %u", n->old_serial, n->new_serial);
  fputs(".\n\n| type | removed | added | TTL changed |\n| --- | ---: | ---: | ---: |\n", out);
  for (unsigned t = 0; t < 65536; t++) {
    const uint32_t *c = df->per_type[t];
    char buf[ZP_RRTYPE_TEXT_MAX];
    if (c[REMOVED] | c[ADDED] | c[TTL])
      fprintf(out, "| %s | %u | %u | %u |\n", zp_rrtype_name((uint16_t)t, buf), c[REMOVED],
              c[ADDED], c[TTL]);
  }
  fprintf(out, "\nNames changed (%lu): %.*s", df->names_changed, (int)df->names.len,
          df->names.p ? df->names.p : "");
  if (df->names_changed > NAMES_SHOWN)
    fprintf(out, " and %lu more", df->names_changed - NAMES_SHOWN);
  fputs("\n", out);
}

zp_status zp_diff_run(zp_sorter *old, zp_sorter *new, const zp_diff_options *opt,
                      zp_emitter *em, FILE *out, zp_diff_counts *counts)
{
  *counts = (zp_diff_counts){0};
  differ df = {.opt = opt, .em = em, .out = out, .n = counts};
  if (opt->format == ZP_DIFF_MARKDOWN && !(df.per_type = calloc(65536, sizeof *df.per_type)))
    return ZP_ENOMEM;
  side a = {.s = old}, b = {.s = new};
  zp_status st = advance(&df, &a, true);
  if (st == ZP_OK)
    st = advance(&df, &b, false);
  while (st == ZP_OK && (a.more || b.more)) {
    int c = !a.more ? 1 : !b.more ? -1 : zp_sort_cmp(old, new);
    if (c < 0) {
      st = change(&df, REMOVED, &a.rec, 0);
    } else if (c > 0) {
      st = change(&df, ADDED, &b.rec, 0);
    } else if (a.rec.ttl != b.rec.ttl) {
      st = change(&df, TTL, &b.rec, a.rec.ttl);
    }
    if (st == ZP_OK && c <= 0)
      st = advance(&df, &a, true);
    if (st == ZP_OK && c >= 0)
      st = advance(&df, &b, false);
  }
  counts->soa_alike = counts->old_soa && counts->new_soa && df.soa[0].len == df.soa[1].len &&
                      memcmp(df.soa[0].p, df.soa[1].p, df.soa[0].len) == 0;
  if (st == ZP_OK && opt->format == ZP_DIFF_MARKDOWN)
    markdown(&df);
  free(df.per_type);
  zp_buf_free(&df.names);
  zp_buf_free(&df.last);
  zp_buf_free(&df.soa[0]);
  zp_buf_free(&df.soa[1]);
  if (st == ZP_OK && out && (fflush(out) != 0 || ferror(out)))
    st = ZP_EWRITE;
  return st;
}
