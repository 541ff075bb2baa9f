/* conf.c -- what a named.conf means for --check --named-conf: the zones named-checkconf -z
 * (BIND 9.18) loads, their files, and the options that change its verdict on each. The facts
 * it follows, found by running named-checkconf, are tabled in tests/test_conf.c. */
#include "conf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf_int.h"
#include "core/buf.h"
#include "core/hash.h"
#include "record/rrtype.h"
#include "read/name.h"

struct zp_conf {
  conf_tree tree;
  zp_conf_zone *zones;
  size_t n, cap;
};

/* The clauses read in zone, view and options blocks (conf_grammar.c has checked each one's
 * form: a value of its type, given once unless named takes it more than once); the rest only
 * had their grammar read, since whether and how named loads a zone does not hang on them. */
typedef enum opt_id {
  O_TYPE, O_FILE, O_IN_VIEW, O_DATABASE, O_DLZ, O_PRIMARIES, O_MASTERS,
  O_CHECK_NAMES, O_POLICY, O_CHECK_MX, O_MX_CNAME, O_SRV_CNAME, O_DUP_RECORDS, O_FORMAT,
  O_MAX_RECORDS, O_MAX_TYPES, O_MAX_TTL, O_COUNT
} opt_id;

static const char *const levels[] = {"ignore", "warn", "fail", NULL};  /* zp_check_level's order */

/* refused: the value with which named's verdict on a zone is one zonepuny cannot give, and why;
 * the options whose every value leaves the verdict alone (named warns, or does not) are not
 * read. */
static const struct opt {
  const char *name, *refused, *why;
} opts[O_COUNT] = {
  [O_TYPE] = {"type", NULL, NULL},
  [O_FILE] = {"file", NULL, NULL},
  [O_IN_VIEW] = {"in-view", NULL, NULL},
  [O_DATABASE] = {"database", NULL, NULL},
  [O_DLZ] = {"dlz", NULL, NULL},
  [O_PRIMARIES] = {"primaries", NULL, NULL},
  [O_MASTERS] = {"masters", NULL, NULL},
  [O_POLICY] = {"dnssec-policy", NULL, NULL},
  [O_CHECK_NAMES] = {"check-names", NULL, NULL},
  [O_CHECK_MX] = {"check-mx", "fail", "named then refuses a zone for an MX record written as "
                  "an address, or naming a host of the zone with no address, which no check of "
                  "zonepuny singles out"},
  [O_MX_CNAME] = {"check-mx-cname", "fail", "named then refuses a zone for an MX record naming "
                  "an alias, which no check of zonepuny singles out"},
  [O_SRV_CNAME] = {"check-srv-cname", "fail", "named then refuses a zone for an SRV record "
                   "naming an alias, which no check of zonepuny singles out"},
  [O_DUP_RECORDS] = {"check-dup-records", "fail", "named then refuses a zone for two records "
                     "that DNSSEC tells apart and plain DNS holds equal, which zonepuny does not "
                     "check"},
  [O_FORMAT] = {"masterfile-format", "raw", "named then reads zone files in their binary form, "
                "zonepuny the text form only"},
  [O_MAX_RECORDS] = {"max-records-per-type", NULL, NULL},
  [O_MAX_TYPES] = {"max-types-per-name", NULL, NULL},
  [O_MAX_TTL] = {"max-zone-ttl", NULL, NULL},
};

typedef enum level { L_ZONE, L_VIEW, L_OPTIONS } level;

typedef struct settings {
  conf_stmt *at[O_COUNT];   /* the clause of each option, NULL when the block has none */
} settings;

typedef struct view {
  const char *name;
  uint16_t rclass;
  const conf_stmt *st;
  conf_stmt *body;
  settings set;
} view;

/* A zone by (view, name), to find the same zone twice and in-view's target. */
typedef struct slot {
  const uint8_t *key;
  size_t len, view;
  const conf_stmt *st;
} slot;

typedef struct reader {
  zp_conf *conf;
  zp_diag *diag;
  const zp_check_options *checks;
  zp_status st;             /* ZP_OK, or ZP_ENOMEM */
  bool failed;              /* an error was reported */
  settings options;
  view *views;              /* [0] stands for the top level */
  size_t nviews, views_cap;
  slot *slots;
  size_t nslots, slots_cap;
} reader;

ZP_PRINTF(3, 4) static void report(reader *r, const zp_loc *loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  zp_conf_vtell(r->diag, loc, ZP_ERROR, fmt, ap);
  va_end(ap);
  r->failed = true;
}

static bool is(const char *a, const char *b)
{
  return strcasecmp(a, b) == 0;
}

static int word_in(const char *w, const char *const *list)
{
  for (int i = 0; list[i]; i++)
    if (is(w, list[i]))
      return i;
  return -1;
}

static const char *last_text(const conf_stmt *s)
{
  const conf_val *v = s->vals;
  while (v->next)
    v = v->next;
  return v->text;
}

/* "FILE:LINE:COL" of a statement, for "first at". */
static const char *where(const conf_stmt *s, char *buf, size_t cap)
{
  snprintf(buf, cap, "%s:%u:%u", s->vals->loc.src->path, s->vals->loc.line, s->vals->loc.col);
  return buf;
}

/* IN, CH, HS, NONE, ANY, CLASSnnn, and the long names named also takes. */
static bool class_of(const char *w, uint16_t *c)
{
  if (is(w, "chaos") || is(w, "hesiod")) {
    *c = is(w, "chaos") ? 3 : 4;
    return true;
  }
  return zp_rrclass_from_text(w, strlen(w), c);
}

/* The clauses of a zone, view or options block that decide how named loads a zone. In views
 * and options check-names names the kind of zone first: primary (or master) is the one for
 * loaded zones, and named takes it once (both: "cannot take both 'primary' and 'master'"). */
static void scan(reader *r, conf_stmt *body, level lv, settings *set)
{
  char buf[256];
  for (conf_stmt *s = body; s && !zp_diag_stop(r->diag); s = s->next) {
    int id = 0;
    while (id < O_COUNT && !is(s->vals->text, opts[id].name))
      id++;
    if (id == O_COUNT || (id < O_CHECK_NAMES && lv != L_ZONE) ||
        (id == O_CHECK_NAMES && lv != L_ZONE && !is(s->vals->next->text, "primary") &&
         !is(s->vals->next->text, "master")))
      continue;
    if (set->at[id])   /* (named's grammar refuses any other clause given twice) */
      report(r, &s->vals->loc, "'check-names' given twice for primary zones (master is "
             "primary) (first at %s)", where(set->at[id], buf, sizeof buf));
    set->at[id] = s;
  }
}

/* name [class] { ... } -- the block, or NULL when reported. */
static conf_val *named_block(reader *r, const conf_stmt *s, uint16_t *rclass)
{
  const conf_val *name = s->vals->next, *v = name->next;
  if (v->kind == CONF_WORD) {
    if (!class_of(v->text, rclass)) {
      report(r, &v->loc, "%s '%s': invalid class '%s'", s->vals->text, name->text, v->text);
      return NULL;
    }
    v = v->next;
  }
  return (conf_val *)v;
}

static slot *find(reader *r, const uint8_t *key, size_t len, size_t vi)
{
  size_t mask = r->slots_cap - 1, i = (size_t)(zp_hash(key, len) ^ vi) & mask;
  for (;; i = (i + 1) & mask) {
    slot *s = &r->slots[i];
    if (!s->key || (s->len == len && s->view == vi && memcmp(s->key, key, len) == 0))
      return s;
  }
}

/* The slot of (view, key), its st NULL when the zone is new; NULL when out of memory. */
static slot *claim(reader *r, const uint8_t *key, size_t len, size_t vi)
{
  if (2 * (r->nslots + 1) > r->slots_cap) {
    size_t cap = r->slots_cap ? 2 * r->slots_cap : 64;
    slot *old = r->slots, *fresh = calloc(cap, sizeof *fresh);
    if (!fresh)
      return NULL;
    size_t old_cap = r->slots_cap;
    r->slots = fresh;
    r->slots_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
      if (old[i].key)
        *find(r, old[i].key, old[i].len, old[i].view) = old[i];
    free(old);
  }
  slot *s = find(r, key, len, vi);
  if (!s->key) {
    uint8_t *k = zp_conf_alloc(&r->conf->tree, len);
    if (!k)
      return NULL;
    memcpy(k, key, len);
    *s = (slot){.key = k, .len = len, .view = vi};
    r->nslots++;
  }
  return s;
}

/* The innermost clause of option id for a zone: its own, else its view's, else options' (named's
 * configuration maps, as named_config_get and named-checkconf's get_maps walk them). */
static conf_stmt *inner(const reader *r, const settings *zs, const view *v, int id)
{
  return zs->at[id] ? zs->at[id] : v->set.at[id] ? v->set.at[id] : r->options.at[id];
}

/* The check options of a loaded zone, each from its innermost clause; the caller's where the
 * conf says nothing (named's defaults: check-names fail, 100 records a type, 100 types a name,
 * no maximum TTL). */
static void lay_checks(reader *r, const char *zname, const settings *zs, const view *v,
                       zp_check_options *checks)
{
  for (int id = O_CHECK_NAMES; id < O_COUNT; id++) {
    conf_stmt *s = inner(r, zs, v, id);
    if (!s)
      continue;
    const char *val = last_text(s), *refused = opts[id].refused;
    const conf_stmt *policy = inner(r, zs, v, O_POLICY);
    uint32_t n = 0;
    if (id == O_CHECK_NAMES) {
      checks->level[ZP_CK_CHECK_NAMES] = (uint8_t)word_in(val, levels);
    } else if (id == O_MAX_RECORDS || id == O_MAX_TYPES) {   /* 0: no limit, as named's */
      zp_conf_number(val, true, id == O_MAX_RECORDS ? &checks->max_records_per_type
                                                    : &checks->max_types_per_name);
    } else if (id == O_MAX_TTL) {
      /* load_zone's dns_zone_setmaxttl: 0 checks nothing, and so does unlimited, which named
       * reads as no duration (named-checkconf -z 9.18.49 aborts on it, an assertion) */
      checks->max_zone_ttl_set = !is(val, "unlimited") && zp_conf_duration(val, &n) > 0 && n;
      checks->max_zone_ttl = n;
      if (policy && !is(last_text(policy), "none"))
        zp_conf_tell(r->diag, &s->vals->loc, ZP_WARNING, "zone '%s': option 'max-zone-ttl' "
                       "is ignored when used together with 'dnssec-policy' (named-checkconf "
                       "says so; named-checkconf -z applies it all the same, and so does "
                       "zonepuny)", zname);
    } else if (refused && is(val, refused)) {
      if (!s->told)
        report(r, &s->vals->loc, "'%s %s' is not supported: %s", opts[id].name, val,
               opts[id].why);
      s->told = true;
      r->failed = true;
    }
  }
}

/* named-checkconf refuses a clause the zone's type does not take (cfg_clause_validforzone);
 * of those, the load limits read here. */
static bool limits_allowed(reader *r, const settings *zs, const char *name, const char *type)
{
  static const char *const ttl_types[] = {"primary", "master", "redirect", NULL};
  static const char *const no_limits[] = {"hint", "forward", "delegation-only", NULL};
  for (int id = O_MAX_RECORDS; id <= O_MAX_TTL; id++)
    if (zs->at[id] && (id == O_MAX_TTL ? word_in(type, ttl_types) < 0
                                       : word_in(type, no_limits) >= 0)) {
      report(r, &zs->at[id]->vals->loc, "option '%s' is not allowed in '%s' zone '%s'",
             opts[id].name, type, name);
      return false;
    }
  return true;
}

/* Whether named-checkconf -z loads the zone: primary zones, redirect zones that are not
 * secondaries, and root hints; not those another database serves. */
static bool loads(const settings *zs, const char *type)
{
  bool redirect = is(type, "redirect") && !zs->at[O_PRIMARIES] && !zs->at[O_MASTERS];
  if (is(type, "hint"))
    return true;
  if (!is(type, "primary") && !is(type, "master") && !redirect)
    return false;
  const conf_stmt *db = zs->at[O_DATABASE];
  return !zs->at[O_DLZ] && (!db || is(last_text(db), "rbt") || is(last_text(db), "rbt64"));
}

/* in-view "v": the zone of an earlier view, not loaded again; named lets forward and
 * forwarders stand beside it, no other clause. */
static void in_view(reader *r, const conf_stmt *zst, const conf_val *name, const conf_val *blk,
                    const uint8_t *key, size_t len, size_t vi, const settings *zs)
{
  const char *target = last_text(zs->at[O_IN_VIEW]);
  for (const conf_stmt *s = blk->body; s; s = s->next)
    if (s != zs->at[O_IN_VIEW] && !is(s->vals->text, "forward") &&
        !is(s->vals->text, "forwarders")) {
      report(r, &s->vals->loc, "zone '%s' is in-view: named takes no '%s' beside it (forward "
             "and forwarders only)", name->text, s->vals->text);
      return;
    }
  size_t t = 1;
  while (t < vi && strcmp(r->views[t].name, target) != 0)
    t++;
  const slot *s = t < vi ? find(r, key, len, t) : NULL;
  if (!s || !s->key)
    report(r, &zst->vals->loc, "zone '%s': in-view '%s' names no view before this one that "
           "has the zone", name->text, target);
}

static void add(reader *r, const zp_conf_zone *z)
{
  zp_conf *c = r->conf;
  if (!zp_array_room(&c->zones, c->n, &c->cap, sizeof *c->zones, 16))
    r->st = ZP_ENOMEM;
  else
    c->zones[c->n++] = *z;
}

/* zone "name" [class] { ... }; in view vi (0: the top level). */
static void zone(reader *r, conf_stmt *zst, size_t vi)
{
  static const uint8_t root[1] = {0};
  const view *v = &r->views[vi];
  uint16_t rclass = v->rclass;
  const conf_val *blk = named_block(r, zst, &rclass), *name = zst->vals->next;
  if (!blk)
    return;
  if (rclass != v->rclass) {
    char a[ZP_RRTYPE_TEXT_MAX], b[ZP_RRTYPE_TEXT_MAX];
    report(r, &name->next->loc, "zone '%s' is of class %s, %s of class %s", name->text,
           zp_rrclass_name(rclass, a), vi ? "its view" : "named's default view",
           zp_rrclass_name(v->rclass, b));
    return;
  }
  uint8_t wire[ZP_NAME_MAX], key[ZP_NAME_KEY_MAX];
  size_t wlen;
  zp_name_error err = {0};
  if (zp_name_parse(name->text, strlen(name->text), root, NULL, wire, &wlen, &err) != ZP_OK) {
    report(r, &name->loc, "zone '%s' is not a valid name: %s", name->text, err.msg);
    return;
  }
  size_t klen = zp_name_sort_key(wire, key);
  settings zs = {0};
  unsigned errors = r->diag->errors;
  scan(r, blk->body, L_ZONE, &zs);
  if (r->diag->errors != errors)
    return;   /* (a clause named refuses says all: no "has no type" after a bad type) */
  slot *s = claim(r, key, klen, vi);
  if (!s) {
    r->st = ZP_ENOMEM;
    return;
  }
  char buf[256];
  if (s->st) {
    report(r, &zst->vals->loc, "zone '%s' redefined%s%s%s (first at %s)", name->text,
           vi ? " in view '" : "", vi ? v->name : "", vi ? "'" : "", where(s->st, buf, sizeof buf));
    return;
  }
  s->st = zst;
  if (zs.at[O_IN_VIEW]) {
    in_view(r, zst, name, blk, key, klen, vi, &zs);
    return;
  }
  if (!zs.at[O_TYPE]) {
    report(r, &zst->vals->loc, "zone '%s' has no type", name->text);
    return;
  }
  const char *type = last_text(zs.at[O_TYPE]);
  if (is(type, "redirect") && wlen != 1) {
    report(r, &name->loc, "a redirect zone is named '.', not '%s'", name->text);
    return;
  }
  if (!limits_allowed(r, &zs, name->text, type) || !loads(&zs, type))
    return;
  if (!zs.at[O_FILE]) {
    report(r, &zst->vals->loc, "zone '%s' (type %s) has no file", name->text, type);
    return;
  }
  if (rclass != ZP_CLASS_IN) {
    char a[ZP_RRTYPE_TEXT_MAX];
    report(r, &zst->vals->loc, "zone '%s' is of class %s: zonepuny checks zones of class IN "
           "only", name->text, zp_rrclass_name(rclass, a));
    return;
  }
  const conf_val *file = zs.at[O_FILE]->vals->next;
  zp_conf_zone z = {.name = name->text, .view = vi ? v->name : NULL,
                    .file = zp_conf_join(&r->conf->tree, r->conf->tree.dir, file->text),
                    .dir = *r->conf->tree.dir ? r->conf->tree.dir : ".",
                    .loc = zst->vals->loc, .file_loc = file->loc, .hint = is(type, "hint"),
                    .checks = *r->checks};
  if (!z.file) {
    r->st = ZP_ENOMEM;
    return;
  }
  if (z.hint)   /* named loads hints as a master file: only the loader's own refusals apply */
    for (size_t i = 0; i < ZP_CK_COUNT; i++)
      if (i != ZP_CK_CNAME_OTHER && i != ZP_CK_SINGLETON)
        z.checks.level[i] = ZP_LEVEL_OFF;
  if (!z.hint)
    lay_checks(r, name->text, &zs, v, &z.checks);
  add(r, &z);
}

/* view "name" [class] { ... }; -- its clauses read, its zones left for later. */
static void add_view(reader *r, conf_stmt *s)
{
  view v = {.name = s->vals->next->text, .rclass = 1, .st = s};
  const conf_val *blk = named_block(r, s, &v.rclass);
  if (!blk)
    return;
  v.body = blk->body;
  char buf[256];
  for (size_t i = 1; i < r->nviews; i++)
    if (strcmp(r->views[i].name, v.name) == 0 && r->views[i].rclass == v.rclass) {
      report(r, &s->vals->loc, "view '%s' redefined (first at %s)", v.name,
             where(r->views[i].st, buf, sizeof buf));
      return;
    }
  scan(r, blk->body, L_VIEW, &v.set);
  if (!zp_array_room(&r->views, r->nviews, &r->views_cap, sizeof *r->views, 8))
    r->st = ZP_ENOMEM;
  else
    r->views[r->nviews++] = v;
}

/* The top level: options and the views; then the zones, view by view (named's order), or
 * those of the top level when there is no view. */
static void top(reader *r, conf_stmt *first)
{
  const conf_stmt *lone = NULL;
  for (conf_stmt *s = first; s && r->st == ZP_OK && !zp_diag_stop(r->diag); s = s->next) {
    const char *name = s->vals->text;
    if (is(name, "view"))
      add_view(r, s);
    else if (is(name, "zone"))
      lone = lone ? lone : s;
    else if (is(name, "options"))
      scan(r, s->vals->next->body, L_OPTIONS, &r->options);
  }
  if (lone && r->nviews > 1) {
    report(r, &lone->vals->loc, "a zone outside every view, and the conf has views: named "
           "wants every zone in one");
    return;
  }
  for (size_t vi = 1; vi < r->nviews; vi++)
    for (conf_stmt *s = r->views[vi].body; s && r->st == ZP_OK && !zp_diag_stop(r->diag);
         s = s->next)
      if (is(s->vals->text, "zone"))
        zone(r, s, vi);
  for (conf_stmt *s = first; s && r->st == ZP_OK && !zp_diag_stop(r->diag); s = s->next)
    if (r->nviews == 1 && is(s->vals->text, "zone"))
      zone(r, s, 0);
}

zp_status zp_conf_read(const char *path, const zp_check_options *checks, zp_diag *diag,
                       zp_conf **conf)
{
  *conf = NULL;
  zp_conf *c = calloc(1, sizeof *c);
  if (!c)
    return ZP_ENOMEM;
  zp_status st = zp_conf_parse(path, diag, &c->tree);
  reader r = {.conf = c, .diag = diag, .checks = checks};
  if (st == ZP_OK && !zp_array_room(&r.views, 0, &r.views_cap, sizeof *r.views, 8))
    st = ZP_ENOMEM;
  if (st == ZP_OK) {
    r.views[r.nviews++] = (view){.name = NULL, .rclass = 1};   /* the top level */
    top(&r, c->tree.top);
    st = r.st;
  }
  free(r.views);
  free(r.slots);
  if (st == ZP_OK && !r.failed) {
    *conf = c;
    return ZP_OK;
  }
  zp_conf_free(c);
  return st == ZP_ZONE_SYNTAX ? ZP_OK : st;
}

size_t zp_conf_count(const zp_conf *conf)
{
  return conf->n;
}

const zp_conf_zone *zp_conf_zone_at(const zp_conf *conf, size_t i)
{
  return &conf->zones[i];
}

void zp_conf_free(zp_conf *conf)
{
  if (!conf)
    return;
  zp_conf_tree_free(&conf->tree);
  free(conf->zones);
  free(conf);
}
