/* lsp_action.c -- the language server's edits: quick fixes where zonepuny knows the fix, and
 * the names of the zone as document symbols; both read a document's records field by field */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "lsp_int.h"
#include "lsp_rpc.h"
#include "read/zone.h"
#include "record/rrtype.h"
#include "record/soa_serial.h"

/* ---- a document's records, field by field ---- */

enum { FIELDS_MAX = 16 };   /* the fields of a record looked at: an SOA's serial is the 7th at most */

typedef struct field {
  size_t a, b;      /* text[a..b) */
} field;

typedef struct rec {
  field f[FIELDS_MAX];
  int n;            /* fields (at most FIELDS_MAX kept) */
  bool owner;       /* the first field is its owner (written in the line's first column) */
} rec;

/* Calls fn for each record of text (a directive's line is one too, its first field "$..."):
 * fields split at blanks outside quotes, comments dropped, parentheses joining lines. */
static void records(const char *t, size_t len, void (*fn)(void *, const rec *), void *user)
{
  rec r = {.n = 0};
  int depth = 0;
  bool quoted = false, in = false, any = false;
  for (size_t i = 0; i <= len; i++) {
    char c = i < len ? t[i] : '\n';
    if (!quoted && c == ';') {   /* (a comment runs to the line's end) */
      while (i < len && t[i] != '\n')
        i++;
      c = '\n';
    }
    bool blank = !quoted && (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '(' ||
                             c == ')');
    if (in && blank) {
      in = false;
      if (r.n < FIELDS_MAX)
        r.f[r.n].b = i;
      r.n++;
    }
    if (!quoted && c == '(')
      depth++;
    if (!quoted && c == ')' && depth > 0)
      depth--;
    if (c == '\n' && (depth == 0 || i >= len)) {
      if (r.n > 0)
        fn(user, &r);
      r = (rec){.n = 0};
      any = false;
      quoted = false;
      continue;
    }
    if (blank)
      continue;
    if (!in) {
      in = true;
      if (r.n == 0 && !any)
        r.owner = i == 0 || t[i - 1] == '\n';
      if (r.n < FIELDS_MAX)
        r.f[r.n].a = i;
      any = true;
    }
    if (c == '\\' && i + 1 < len && t[i + 1] != '\n')
      i++;
    else if (c == '"')
      quoted = !quoted;
  }
}

/* The index of r's type field: past the owner, and any TTL and class; -1 when none is there. */
static int type_index(const char *t, const rec *r)
{
  int k = r->owner;
  for (; k < r->n && k < FIELDS_MAX; k++) {
    const field *f = &r->f[k];
    uint32_t ttl;
    uint16_t v;
    if (!zp_ttl_parse(t + f->a, f->b - f->a, &ttl) &&
        !zp_rrclass_from_text(t + f->a, f->b - f->a, &v))
      return zp_rrtype_from_text(t + f->a, f->b - f->a, &v) ? k : -1;
  }
  return -1;
}

/* ---- quick fixes ---- */

typedef struct fixes {
  const zp_lsp_doc *doc;
  bool utf8;
  json_t *out;        /* [CodeAction] */
  size_t from, to;    /* the range asked about, as byte offsets */
  json_t *serial_diag; /* a serial-* diagnostic of the context, or NULL */
} fixes;

/* One action: replace text[a..b) of the document with repl. */
static void add(fixes *fx, const char *title, const char *kind, json_t *diag, size_t a, size_t b,
                const char *repl, size_t repl_len)
{
  json_t *text = json_stringn(repl, repl_len);
  json_t *edit = json_pack("{s:{s:[{s:o,s:o}]}}", "changes", fx->doc->uri, "range",
                           zp_lsp_range(fx->doc->text, a, b, fx->utf8), "newText", text);
  json_t *act = json_pack("{s:s,s:s,s:o,s:b}", "title", title, "kind", kind, "edit", edit,
                          "isPreferred", diag != NULL);
  if (act && diag)
    json_object_set_new(act, "diagnostics", json_pack("[O]", diag));
  if (act)
    json_array_append_new(fx->out, act);
}

/* The field of the document that starts at off (a diagnostic's start): its end. */
static size_t field_end(const zp_lsp_doc *d, size_t off)
{
  bool quoted = off < d->len && d->text[off] == '"';
  size_t e = off + quoted;
  while (e < d->len && (quoted ? d->text[e] != '"' : !strchr(" \t\r\n();", d->text[e])))
    e += 1 + (d->text[e] == '\\' && e + 1 < d->len);
  return e + (quoted && e < d->len);
}

/* The text between the first "open" after from in s and the next "close", or NULL. */
static const char *between(const char *s, const char *open, const char *close, size_t *n)
{
  const char *a = strstr(s, open), *b = a ? strstr(a + strlen(open), close) : NULL;
  if (!b)
    return NULL;
  *n = (size_t)(b - a - strlen(open));
  return a + strlen(open);
}

static void fix_diagnostic(fixes *fx, json_t *diag)
{
  const zp_lsp_doc *d = fx->doc;
  const char *msg = json_string_value(json_object_get(diag, "message"));
  const char *code = json_string_value(json_object_get(diag, "code"));
  size_t at;
  if (!msg || !zp_lsp_offset(d->text, d->len, json_object_get(json_object_get(diag, "range"),
                                                              "start"), fx->utf8, &at))
    return;
  size_t end = field_end(d, at), n, ln;
  const char *s;
  char title[400];
  if (code && strncmp(code, "serial-", 7) == 0)
    fx->serial_diag = diag;
  /* a target written relative that was meant absolute: the name the hint quotes, a dot added */
  if (strstr(msg, "; missing trailing dot? '") && end > at && d->text[end - 1] != '.' &&
      (s = between(msg, "; missing trailing dot? '", "' was written", &n)) != NULL) {
    snprintf(title, sizeof title, "Add the trailing dot: %.*s.", (int)n, s);
    add(fx, title, "quickfix", diag, end, end, ".", 1);
  }
  /* a TXT string over 255 octets: the strings the message gives, ready to paste */
  static const char split[] = "; as strings of 255 octets at most, one after the other: ";
  if ((s = strstr(msg, split)) != NULL && at < d->len && d->text[at] == '"') {
    s += sizeof split - 1;
    add(fx, "Split the string into strings of 255 octets", "quickfix", diag, at, end, s,
        strlen(s));
  }
  /* an ACE label that is not ToASCII's: the label at the diagnostic replaced by ToASCII's */
  const char *label = between(msg, "label \"", "\" is not the canonical ACE form", &ln);
  const char *canon = between(msg, "(ToASCII gives \"", "\")", &n);
  size_t le = at;
  while (le < end && d->text[le] != '.')
    le++;
  if (label && canon && le - at == ln && strncasecmp(d->text + at, label, ln) == 0) {
    snprintf(title, sizeof title, "Write the label in its canonical ACE form: %.*s", (int)n,
             canon);
    add(fx, title, "quickfix", diag, at, le, canon, n);
  }
}

/* An SOA's serial raised: offered on its record (a quick fix for a serial-* diagnostic), by
 * the policy its form suggests (a date-form serial to today's first, else one more). */
static void soa_serial(void *user, const rec *r)
{
  fixes *fx = user;
  const char *t = fx->doc->text;
  int k = type_index(t, r);
  if (k < 0 || k + 3 >= r->n || k + 3 >= FIELDS_MAX ||
      r->f[k].b - r->f[k].a != 3 || strncasecmp(t + r->f[k].a, "SOA", 3) != 0)
    return;
  const field *sf = &r->f[k + 3];
  if (!(r->f[0].a <= fx->to && fx->from <= r->f[r->n < FIELDS_MAX ? r->n - 1 : FIELDS_MAX - 1].b) &&
      !fx->serial_diag)
    return;
  char num[16];
  size_t n = sf->b - sf->a;
  if (n == 0 || n >= sizeof num)
    return;
  memcpy(num, t + sf->a, n);
  num[n] = '\0';
  char *e;
  unsigned long long old = strtoull(num, &e, 10);
  if (*e || num[0] < '0' || num[0] > '9' || old > UINT32_MAX)
    return;
  /* (above the serial a -Wserial-since message names, when this one is not: it went back) */
  const char *msg = fx->serial_diag ? json_string_value(json_object_get(fx->serial_diag,
                                                                        "message")) : NULL;
  const char *above = msg ? strstr(msg, "raise it above ") : NULL;
  unsigned long long floor = above ? strtoull(above + 15, NULL, 10) : 0;
  uint32_t base = (uint32_t)old;
  if (above && floor <= UINT32_MAX && zp_serial_order(base, (uint32_t)floor) < 0)
    base = (uint32_t)floor;
  uint32_t now = zp_serial_bump(base, zp_serial_date(base) ? ZP_BUMP_DATE : ZP_BUMP_INCREMENT,
                                (int64_t)time(NULL));
  char title[96], repl[16];
  snprintf(repl, sizeof repl, "%u", now);
  snprintf(title, sizeof title, "Raise the SOA serial to %s", repl);
  add(fx, title, fx->serial_diag ? "quickfix" : "refactor.rewrite", fx->serial_diag, sf->a, sf->b,
      repl, strlen(repl));
}

json_t *zp_lsp_actions(const zp_lsp_doc *doc, json_t *params, bool utf8)
{
  fixes fx = {doc, utf8, json_array(), 0, 0, NULL};
  json_t *r = json_object_get(params, "range");
  if (!doc->text || !fx.out ||
      !zp_lsp_offset(doc->text, doc->len, json_object_get(r, "start"), utf8, &fx.from) ||
      !zp_lsp_offset(doc->text, doc->len, json_object_get(r, "end"), utf8, &fx.to)) {
    json_decref(fx.out);
    return NULL;
  }
  size_t i;
  json_t *diag;
  json_array_foreach(json_object_get(json_object_get(params, "context"), "diagnostics"), i, diag)
    fix_diagnostic(&fx, diag);
  records(doc->text, doc->len, soa_serial, &fx);
  return fx.out;
}

/* ---- document symbols: the zone's owner names, each at the records it owns ---- */

typedef struct symbols {
  const zp_lsp_doc *doc;
  bool utf8;
  json_t *out;
  json_t *last;       /* the symbol of the owner before, which an ownerless record extends */
} symbols;

static void symbol(void *user, const rec *r)
{
  symbols *sy = user;
  const char *t = sy->doc->text;
  const field *f0 = &r->f[0];
  size_t end = r->f[(r->n < FIELDS_MAX ? r->n : FIELDS_MAX) - 1].b;
  if (t[f0->a] == '$') {   /* (a directive: $ORIGIN starts names anew) */
    sy->last = NULL;
    return;
  }
  int k = type_index(t, r);
  char buf[ZP_RRTYPE_TEXT_MAX];
  const char *tname = "";
  uint16_t type;
  if (k >= 0 && zp_rrtype_from_text(t + r->f[k].a, r->f[k].b - r->f[k].a, &type))
    tname = zp_rrtype_name(type, buf);
  /* (a record of the owner before, written again or left blank: its range grows, its types
   * too) */
  const char *last = sy->last ? json_string_value(json_object_get(sy->last, "name")) : NULL;
  if (sy->last && (!r->owner || (last && strlen(last) == f0->b - f0->a &&
                                 memcmp(last, t + f0->a, f0->b - f0->a) == 0))) {
    json_object_set_new(json_object_get(sy->last, "range"), "end", zp_lsp_position(t, end, sy->utf8));
    const char *was = json_string_value(json_object_get(sy->last, "detail"));
    size_t tl = strlen(tname);
    bool listed = false;
    for (const char *w = was; w && *w && !listed; w += strcspn(w, " "), w += *w == ' ')
      listed = strncmp(w, tname, tl) == 0 && (w[tl] == ' ' || w[tl] == '\0');
    if (tname[0] && was && !listed && strlen(was) < 200) {
      char more[256];
      snprintf(more, sizeof more, "%s %s", was, tname);
      json_object_set_new(sy->last, "detail", json_string(more));
    }
    return;
  }
  if (!r->owner)
    return;
  json_t *name = zp_lsp_string(t + f0->a, f0->b - f0->a);
  json_t *s = name ? json_pack("{s:o,s:s,s:i,s:o,s:o}", "name", name, "detail", tname, "kind", 3,
                               "range", zp_lsp_range(t, f0->a, end, sy->utf8), "selectionRange",
                               zp_lsp_range(t, f0->a, f0->b, sy->utf8))
                   : NULL;
  if (s) {
    json_array_append_new(sy->out, s);
    sy->last = s;
  }
}

json_t *zp_lsp_symbols(const zp_lsp_doc *doc, bool utf8)
{
  symbols sy = {doc, utf8, json_array(), NULL};
  if (doc->text && sy.out)
    records(doc->text, doc->len, symbol, &sy);
  return sy.out;
}
