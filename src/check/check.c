/* check.c -- whole-zone checks in bounded memory. Every record becomes a tuple (canonical owner,
 * class, type, TTL, RDATA digest, spelling, location); every name records point to (NS, MX,
 * SRV, CNAME targets) is a target, known by number, with one marker tuple keyed by its name.
 * spill.c sorts the tuples in canonical order (RFC 4034 section 6.1), so one pass sees each
 * name's records, then its marker, with a small stack of the delegations and DNAMEs above it;
 * the pass notes what each target is, and the references, kept in the order read, are judged
 * after it. (Past a bound on the targets kept, a reference is a tuple of its own, judged in the
 * pass.) */
#include "check.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/rrtype.h"
#include "core/spill.h"
#include "read/name.h"

enum {
  T_A = 1, T_NS = 2, T_CNAME = 5, T_SOA = 6, T_WKS = 11, T_PTR = 12, T_MINFO = 14, T_MX = 15,
  T_RP = 17, T_AFSDB = 18, T_RT = 21, T_SIG = 24, T_KEY = 25, T_AAAA = 28, T_NXT = 30,
  T_SRV = 33, T_A6 = 38, T_DNAME = 39, T_DS = 43, T_RRSIG = 46, T_NSEC = 47, T_SVCB = 64,
  T_HTTPS = 65,
};

#define CHECK_NAME(id, name, level, what) name,
static const char *const check_names[] = {ZP_CHECKS(CHECK_NAME)};
#undef CHECK_NAME
#define CHECK_LEVEL(id, name, level, what) level,
static const uint8_t check_levels[] = {ZP_CHECKS(CHECK_LEVEL)};
#undef CHECK_LEVEL
#define CHECK_WHAT(id, name, level, what) what,
static const char *const check_whats[] = {ZP_CHECKS(CHECK_WHAT)};
#undef CHECK_WHAT

void zp_check_defaults(zp_check_options *o)
{
  memset(o, 0, sizeof *o);
  memcpy(o->level, check_levels, sizeof o->level);
}

bool zp_check_option(zp_check_options *o, const char *arg)
{
  uint8_t level = ZP_LEVEL_WARNING;
  if (strncmp(arg, "no-", 3) == 0) {
    arg += 3;
    level = ZP_LEVEL_OFF;
  } else if (strncmp(arg, "error=", 6) == 0) {
    arg += 6;
    level = ZP_LEVEL_ERROR;
  }
  for (size_t i = 0; i < ZP_CK_COUNT; i++) {
    if (strcmp(arg, check_names[i]) != 0)
      continue;
    if (level == ZP_LEVEL_WARNING)
      level = check_levels[i] == ZP_LEVEL_ERROR ? ZP_LEVEL_ERROR : ZP_LEVEL_WARNING;
    o->level[i] = level;
    return true;
  }
  return false;
}

const char *zp_check_name(zp_check_id id)
{
  return check_names[id];
}

zp_check_level zp_check_default(zp_check_id id)
{
  return (zp_check_level)check_levels[id];
}

const char *zp_check_what(zp_check_id id)
{
  return check_whats[id];
}

/* ---- tuples ---- */

enum { K_RECORD, K_TARGET, K_REF };   /* a record, a target's marker, a reference */
enum {
  F_NULL_MX = 1,         /* an MX "0 ." (RFC 7505) */
  F_KEY_REL = 2,         /* the key is stored without the first record's zone (skip), which */
  F_EXTRA_REL = 4,       /* nearly every key starts with; the same for a reference's extra */
};

/* Stored unaligned in spill's buffer, then the key, then (a record) its spelling, (a reference)
 * the referring record owner's sort key or (a marker) the target's number. A reference in the
 * log has no key. */
typedef struct tuple {
  uint64_t line_off;
  uint32_t seq;          /* input order */
  uint32_t ttl;
  uint32_t src, line;
  uint32_t digest;       /* of the RDATA of a CNAME, DNAME or SOA; a logged reference's target */
  uint16_t col;
  uint16_t rclass, rtype;  /* a reference: the referring record's */
  uint16_t key_len;      /* as stored: without the first record's zone (F_KEY_REL) */
  uint16_t extra_len;    /* spelling (0: the canonical name itself), or the referring owner */
  uint8_t kind, flags;
} tuple;

static int tuple_cmp(const uint8_t *a, const uint8_t *b)
{
  tuple x, y;
  memcpy(&x, a, sizeof x);
  memcpy(&y, b, sizeof y);
  size_t n = x.key_len < y.key_len ? x.key_len : y.key_len;
  int c = memcmp(a + sizeof x, b + sizeof y, n);
  if (c != 0)
    return c;
  if (x.key_len != y.key_len)
    return x.key_len < y.key_len ? -1 : 1;
  if (x.kind != y.kind)
    return x.kind < y.kind ? -1 : 1;
  if (x.rclass != y.rclass)
    return x.rclass < y.rclass ? -1 : 1;
  if (x.rtype != y.rtype)
    return x.rtype < y.rtype ? -1 : 1;
  return (x.seq > y.seq) - (x.seq < y.seq);
}

/* A copy of a source in the include chain: the parser frees its own once the file is read. */
typedef struct source {
  zp_source src;
  const zp_source *orig;   /* the parser's, to recognise the next record's */
} source;

/* A CNAME pointing to a name that holds a CNAME: a link of a chain, kept for loop finding. */
typedef struct link {
  uint64_t from, to;     /* hashes of the names */
  uint32_t seq, src, line, col;
  uint64_t line_off;
  size_t name_off;       /* the CNAME owner's sort key (after its 2-octet length) in link_names */
} link;

/* A name that records point to, and what the pass found it to be: enough to judge every
 * reference to it after the pass. */
typedef struct target {
  tuple cname;           /* its own CNAME record, when own_cname */
  uint64_t hash;         /* of its sort key */
  size_t key_off;        /* its sort key in target_keys: a 2-octet length, then the key */
  bool seen;             /* the pass reached its marker */
  bool in_zone, glue_zone, below_dname, has_a, has_cname, own_cname;
} target;

static uint64_t hash(const uint8_t *p, size_t n);

/* Names known before the pass, by the hash of their sort key, with flags: small (delegations,
 * DNAMEs, wildcards), so kept in memory. Open addressing over one word per name: the flags in
 * its top four bits, 60 bits of hash below them (one cache line per lookup); 0 is an empty
 * slot. */
typedef struct nameset {
  uint64_t *e;
  size_t cap, n;
} nameset;

enum {
  N_NS = 1, N_DNAME = 2,             /* the owners of NS and DNAME records */
  N_ADDR = 4, N_CNAME = 8,           /* a wildcard below this name holds A/AAAA, CNAME */
};
#define SET_HASH (UINT64_MAX >> 4)

static bool set_grow(nameset *s)
{
  size_t cap = s->cap ? 2 * s->cap : 256;
  uint64_t *e = calloc(cap, sizeof *e);
  if (!e)
    return false;
  for (size_t i = 0; i < s->cap; i++) {
    if (!s->e[i])
      continue;
    size_t k = s->e[i] & (cap - 1);
    while (e[k])
      k = (k + 1) & (cap - 1);
    e[k] = s->e[i];
  }
  free(s->e);
  s->e = e;
  s->cap = cap;
  return true;
}

/* The slot of the name with hash h (a nonzero SET_HASH part), or of where it would go. */
static uint64_t *set_slot(const nameset *s, uint64_t h)
{
  size_t k = h & (s->cap - 1);
  while (s->e[k] && (s->e[k] & SET_HASH) != h)
    k = (k + 1) & (s->cap - 1);
  return &s->e[k];
}

/* Adds flags to the name with hash h; false when out of memory. */
static bool set_add(nameset *s, uint64_t h, uint8_t flags)
{
  h &= SET_HASH;
  h |= !h;   /* (0 is the empty slot) */
  if (2 * (s->n + 1) > s->cap && !set_grow(s))
    return false;
  uint64_t *e = set_slot(s, h);
  s->n += !*e;
  *e = h | (*e & ~SET_HASH) | (uint64_t)flags << 60;
  return true;
}

static uint8_t set_get(const nameset *s, uint64_t h)
{
  h &= SET_HASH;
  return s->cap ? (uint8_t)(*set_slot(s, h | !h) >> 60) : 0;
}

/* A record kept whole in the group state: for messages that name two records. */
typedef struct rep {
  bool set;
  tuple t;
  uint8_t spell[ZP_NAME_MAX];
} rep;

/* What the pass knows of the name being looked at. */
typedef struct group {
  bool in_zone, apex, refs_started;
  int cut, dname;        /* stack index of the delegation (DNAME) at or above, or -1 */
  bool has_a, has_ns, has_cname, has_dname, has_soa, has_ds, mx_other;
  bool rrset_ttl_told, rrset_single_told;
  rep rrset, cname, other, spell1, spell2, glue_other, occ, dname_rec, ns, ds, mx_null_rec;
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t key_len;
} group;

typedef struct frame {
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t key_len;
  bool cut, dname;
  tuple t;               /* the NS or DNAME record */
} frame;

struct zp_checker {
  zp_check_options opt;
  zp_diag *diag;
  zp_spill *sp;
  uint32_t seq;
  /* the zone: from -z, else the first SOA's owner */
  uint8_t apex_key[ZP_NAME_KEY_MAX];
  size_t apex_len;
  bool have_apex, apex_seen;
  /* the prefix given to spill: octets of the key after this one (the first record's zone) */
  uint8_t skip[ZP_NAME_KEY_MAX];
  size_t skip_len;
  bool have_skip;
  source **srcs;
  size_t nsrcs;
  link *links;
  size_t nlinks, links_cap;
  zp_buf link_names;
  frame stack[128];
  size_t depth;
  /* targets by number, found by the hash of their sort key (tmap holds number + 1, 0 empty) */
  target *targets;
  size_t ntargets, targets_cap, targets_max;
  uint32_t *tmap;
  size_t tmap_cap;
  zp_buf target_keys;
  zp_spill *log;         /* references to targets, in the order read */
  zp_spill *held;        /* messages of the pass, to be told in input order */
  uint32_t nheld;
  bool holding;
  nameset cuts;          /* N_NS, N_DNAME: to tell a record that is never served */
  nameset wild;          /* N_ADDR, N_CNAME of *.NAME, under NAME's hash: names they answer for */
  group g;
};

static zp_severity severity(const zp_checker *c, zp_check_id id)
{
  return c->opt.level[id] == ZP_LEVEL_ERROR ? ZP_ERROR : ZP_WARNING;
}

static bool on(const zp_checker *c, zp_check_id id)
{
  return !c->opt.off && c->opt.level[id] != ZP_LEVEL_OFF;
}

static zp_loc loc_of(const zp_checker *c, const tuple *t)
{
  return (zp_loc){.src = t->src == UINT32_MAX ? NULL : &c->srcs[t->src]->src, .line = t->line,
                  .col = t->col, .line_off = t->line_off};
}

/* A message held until the pass is done, then the text. */
typedef struct held {
  uint32_t seq, n;       /* of the record it is about (UINT32_MAX: the zone's), of the message */
  uint32_t src, line;
  uint64_t line_off;
  uint16_t col;
  uint8_t id, placed;    /* the check; whether it has a place */
} held;

static void tell(zp_checker *c, zp_check_id id, const tuple *at, const char *msg)
{
  zp_loc loc;
  if (at)
    loc = loc_of(c, at);
  zp_diag_report(c->diag, at ? &loc : NULL, severity(c, id), "%s [-W%s]", msg, check_names[id]);
}

/* Told at once while records come in (they come in input order); held from the pass on, which
 * finds problems in the order of names, so that all are told in the order of the records they
 * are about. (Held in a spill: bounded memory, whatever the count.) */
ZP_PRINTF(4, 5) static void report(zp_checker *c, zp_check_id id, const tuple *at,
                                   const char *fmt, ...)
{
  char msg[1536];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!c->holding) {
    tell(c, id, at, msg);
    return;
  }
  held h = {.seq = at ? at->seq : UINT32_MAX, .n = c->nheld++, .id = (uint8_t)id,
            .placed = at != NULL};
  if (at) {
    h.src = at->src;
    h.line = at->line;
    h.line_off = at->line_off;
    h.col = at->col;
  }
  struct iovec parts[2] = {{&h, sizeof h}, {msg, n < 0 ? 0 : (size_t)n < sizeof msg ? (size_t)n + 1
                                                                                    : sizeof msg}};
  if (zp_spill_add(c->held, parts, 2) != ZP_OK)
    tell(c, id, at, msg);   /* (out of memory or disk: told now, out of order, not lost) */
}

/* The held messages' order: record, then message. */
static bool held_order(const uint8_t *entry, size_t len, size_t window,
                       uint8_t out[ZP_SPILL_PREFIX], void *ctx)
{
  (void)len;
  (void)ctx;
  held h;
  memcpy(&h, entry, sizeof h);
  memset(out, 0, ZP_SPILL_PREFIX);
  if (window == 0) {
    for (unsigned i = 0; i < 4; i++) {
      out[i] = (uint8_t)(h.seq >> (24 - 8 * i));
      out[4 + i] = (uint8_t)(h.n >> (24 - 8 * i));
    }
  }
  return true;
}

/* The held messages, told in order. */
static zp_status tell_held(zp_checker *c)
{
  const uint8_t *e;
  size_t len;
  zp_status st;
  while ((st = zp_spill_next(c->held, &e, &len)) == ZP_OK && e) {
    held h;
    memcpy(&h, e, sizeof h);
    tuple t = {.src = h.src, .line = h.line, .col = h.col, .line_off = h.line_off};
    tell(c, (zp_check_id)h.id, h.placed ? &t : NULL, (const char *)e + sizeof h);
  }
  return st;
}

/* The text of a wire name, NUL-terminated, in one of a few rotating buffers (a message names
 * up to three). */
static const char *name_text(const uint8_t *wire)
{
  static char bufs[4][ZP_NAME_TEXT_MAX + 1];
  static unsigned next;
  char *b = bufs[next++ % 4];
  b[zp_name_text(b, wire)] = '\0';
  return b;
}

/* The text of the name whose sort key is key[0..len). */
static const char *key_text(const uint8_t *key, size_t len)
{
  uint8_t wire[ZP_NAME_MAX];
  zp_name_from_sort_key(key, len, wire);
  return name_text(wire);
}

/* The text of the name being looked at. */
static const char *owner_text(const group *g)
{
  return key_text(g->key, g->key_len);
}

/* "file:line" of a tuple, for a message that names a second record. */
static const char *where(const zp_checker *c, const tuple *t)
{
  static char bufs[2][600];
  static unsigned next;
  char *b = bufs[next++ % 2];
  if (t->src == UINT32_MAX)
    snprintf(b, sizeof bufs[0], "line %u", t->line);
  else
    snprintf(b, sizeof bufs[0], "%s:%u", c->srcs[t->src]->src.path, t->line);
  return b;
}

static const char *type_text(uint16_t type)
{
  static char bufs[2][ZP_RRTYPE_TEXT_MAX];
  static unsigned next;
  return zp_rrtype_name(type, bufs[next++ % 2]);
}

/* ---- taking records in ---- */

static bool key_prefix(const uint8_t *entry, size_t entry_len, size_t window,
                       uint8_t out[ZP_SPILL_PREFIX], void *ctx);

zp_status zp_check_new(const zp_check_options *opt, const uint8_t *zone, zp_diag *diag,
                       zp_checker **out)
{
  *out = NULL;
  zp_checker *c = calloc(1, sizeof *c);
  if (!c)
    return ZP_ENOMEM;
  c->opt = *opt;
  c->diag = diag;
  if (zone) {
    c->apex_len = zp_name_sort_key(zone, c->apex_key);
    c->have_apex = true;
    memcpy(c->skip, c->apex_key, c->apex_len);
    c->skip_len = c->apex_len;
    c->have_skip = true;
  }
  /* the references' log and the targets take a quarter of the run size each, at most */
  size_t run = opt->run_bytes ? opt->run_bytes : 16u << 20;
  c->targets_max = run / 4 / (sizeof(target) + 3 * sizeof(uint32_t) + 24);
  zp_status st = zp_spill_new(run, tuple_cmp, key_prefix, c, &c->sp);
  if (st == ZP_OK)
    st = zp_spill_new(run / 4, NULL, NULL, NULL, &c->log);
  if (st == ZP_OK)
    st = zp_spill_new(run / 4, NULL, held_order, NULL, &c->held);
  if (st != ZP_OK) {
    zp_check_free(c);
    return st;
  }
  *out = c;
  return ZP_OK;
}

/* The index of the copy of rec's source, made on first sight. */
static zp_status intern_source(zp_checker *c, const zp_source *s, uint32_t *index)
{
  /* records come file by file: the last copy is nearly always the one */
  for (size_t i = c->nsrcs; i-- > 0 && i + 4 >= c->nsrcs;) {
    const source *k = c->srcs[i];
    if (k->orig == s && k->src.serial == s->serial) {
      *index = (uint32_t)i;
      return ZP_OK;
    }
  }
  /* the parent first: it may add copies of its own */
  uint32_t parent = UINT32_MAX;
  zp_status st = s->parent ? intern_source(c, s->parent, &parent) : ZP_OK;
  if (st != ZP_OK)
    return st;
  source *k = calloc(1, sizeof *k);
  source **grown = realloc(c->srcs, (c->nsrcs + 1) * sizeof *grown);
  char *path = strdup(s->path);
  if (grown)
    c->srcs = grown;
  if (!k || !grown || !path) {
    free(k);
    free(path);
    return ZP_ENOMEM;
  }
  k->src = *s;
  k->src.path = path;
  k->src.fd = NULL;   /* (messages after the pass: the file is closed by then) */
  k->orig = s;
  k->src.parent = parent == UINT32_MAX ? NULL : &c->srcs[parent]->src;
  c->srcs[c->nsrcs] = k;
  *index = (uint32_t)c->nsrcs++;
  return ZP_OK;
}

/* Eight octets at a time, each word mixed in with a multiply; for this process's tables only. */
static uint64_t hash(const uint8_t *p, size_t n)
{
  const uint64_t m = 0xff51afd7ed558ccdu;
  uint64_t h = 0x9e3779b97f4a7c15u ^ n;
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    memcpy(&w, p, sizeof w);
    h = (h ^ w) * m;
    h ^= h >> 32;
  }
  uint64_t w = 0;
  for (size_t i = 0; i < n; i++)
    w |= (uint64_t)p[i] << (8 * i);
  h = (h ^ w) * m;
  h ^= h >> 29;
  return h * 0xc4ceb9fe1a85ec53u ^ (h >> 32);
}

/* The string spill orders tuples by: whether the key sorts before (0), within (1) or after (2)
 * the first record's zone, the key (past that zone within it), a 0 (before any descendant's
 * next octet, which is at least 1), kind, class and type; input order, kept by the sort, does
 * the rest. */
static bool key_prefix(const uint8_t *entry, size_t entry_len, size_t window,
                       uint8_t out[ZP_SPILL_PREFIX], void *ctx)
{
  const zp_checker *c = ctx;
  const uint8_t *key = entry + sizeof(tuple);
  uint16_t key_len, rclass, rtype;
  uint8_t kind, flags;
  memcpy(&key_len, entry + offsetof(tuple, key_len), sizeof key_len);
  memcpy(&rclass, entry + offsetof(tuple, rclass), sizeof rclass);
  memcpy(&rtype, entry + offsetof(tuple, rtype), sizeof rtype);
  kind = entry[offsetof(tuple, kind)];
  flags = entry[offsetof(tuple, flags)];
  (void)entry_len;
  uint8_t flag = 1;
  if (!(flags & F_KEY_REL))
    flag = memcmp(key, c->skip, key_len < c->skip_len ? key_len : c->skip_len) > 0 ? 2 : 0;
  /* the string: flag, key, 0, kind, class, type; nearly always one window holds it all, and
   * it is made there */
  uint8_t str[1 + ZP_NAME_KEY_MAX + 6 + ZP_SPILL_PREFIX];
  size_t len = 1 + (size_t)key_len + 6;
  bool whole = len <= ZP_SPILL_PREFIX;
  uint8_t *q = whole ? out : str;
  memset(q, 0, ZP_SPILL_PREFIX);
  q[0] = flag;
  memcpy(q + 1, key, key_len);
  q += 1 + key_len;
  q[0] = 0;
  q[1] = kind;
  q[2] = (uint8_t)(rclass >> 8);
  q[3] = (uint8_t)rclass;
  q[4] = (uint8_t)(rtype >> 8);
  q[5] = (uint8_t)rtype;
  size_t from = window * ZP_SPILL_PREFIX;
  if (whole) {
    if (window > 0)
      memset(out, 0, ZP_SPILL_PREFIX);
  } else {
    memset(str + len, 0, ZP_SPILL_PREFIX);
    memcpy(out, str + (from < len ? from : len), ZP_SPILL_PREFIX);
  }
  return len <= from + ZP_SPILL_PREFIX;
}

/* Whether key[0..len) starts with skip: it is then stored without it. */
static bool relative(const zp_checker *c, const uint8_t *key, size_t len)
{
  return len >= c->skip_len && memcmp(key, c->skip, c->skip_len) == 0;
}

/* Whether the key k[0..kn) is of[0..on_len) or an ancestor's. */
static bool is_prefix(const uint8_t *k, size_t kn, const uint8_t *of, size_t on_len)
{
  return kn <= on_len && memcmp(k, of, kn) == 0;
}

/* Files the tuple whole with its key (whole->key_len octets) and extra in sp; a reference's
 * extra is a key too, and either is stored without skip when it starts with it. */
static zp_status add(zp_checker *c, zp_spill *sp, const tuple *whole, const uint8_t *key,
                     const uint8_t *extra)
{
  tuple stored = *whole, *t = &stored;
  if (relative(c, key, t->key_len)) {
    t->flags |= F_KEY_REL;
    key += c->skip_len;
    t->key_len = (uint16_t)(t->key_len - c->skip_len);
  }
  if (t->kind == K_REF && relative(c, extra, t->extra_len)) {
    t->flags |= F_EXTRA_REL;
    extra += c->skip_len;
    t->extra_len = (uint16_t)(t->extra_len - c->skip_len);
  }
  struct iovec parts[3] = {
    {t, sizeof *t}, {(void *)key, t->key_len}, {(void *)extra, t->extra_len}};
  return zp_spill_add(sp, parts, 3);
}

/* The sort key of a target. */
static const uint8_t *target_key(const zp_checker *c, const target *t, size_t *len)
{
  const uint8_t *p = (const uint8_t *)c->target_keys.p + t->key_off;
  uint16_t n;
  memcpy(&n, p, sizeof n);
  *len = n;
  return p + sizeof n;
}

static bool tmap_grow(zp_checker *c)
{
  size_t cap = c->tmap_cap ? 2 * c->tmap_cap : 1024;
  uint32_t *m = calloc(cap, sizeof *m);
  if (!m)
    return false;
  for (size_t i = 0; i < c->ntargets; i++) {
    size_t k = c->targets[i].hash & (cap - 1);
    while (m[k])
      k = (k + 1) & (cap - 1);
    m[k] = (uint32_t)i + 1;
  }
  free(c->tmap);
  c->tmap = m;
  c->tmap_cap = cap;
  return true;
}

/* The number of the target whose sort key is key[0..len), made on first sight with its marker
 * (rec's place); UINT32_MAX past the bound on targets kept. */
static zp_status target_of(zp_checker *c, const tuple *rec, const uint8_t *key, size_t len,
                           uint32_t *id)
{
  uint64_t h = hash(key, len);
  size_t k = c->tmap_cap ? h & (c->tmap_cap - 1) : 0;
  for (; c->tmap_cap && c->tmap[k]; k = (k + 1) & (c->tmap_cap - 1)) {
    const target *t = &c->targets[c->tmap[k] - 1];
    size_t n;
    const uint8_t *tk = target_key(c, t, &n);
    if (t->hash == h && n == len && memcmp(tk, key, len) == 0) {
      *id = c->tmap[k] - 1;
      return ZP_OK;
    }
  }
  *id = UINT32_MAX;
  if (c->ntargets == c->targets_max)
    return ZP_OK;
  if (!zp_array_room(&c->targets, c->ntargets, &c->targets_cap, sizeof *c->targets, 256))
    return ZP_ENOMEM;
  uint16_t n = (uint16_t)len;
  target *t = &c->targets[c->ntargets];
  *t = (target){.hash = h, .key_off = c->target_keys.len};
  if (!zp_buf_put(&c->target_keys, &n, sizeof n) || !zp_buf_put(&c->target_keys, key, len))
    return ZP_ENOMEM;
  uint32_t made = (uint32_t)c->ntargets++;
  if (2 * c->ntargets > c->tmap_cap) {
    if (!tmap_grow(c))
      return ZP_ENOMEM;
  } else {
    c->tmap[k] = made + 1;
  }
  tuple m = *rec;
  m.kind = K_TARGET;
  m.key_len = n;
  m.extra_len = sizeof made;
  *id = made;
  return add(c, c->sp, &m, key, (const uint8_t *)&made);
}

/* A reference from the record whose owner has the sort key from to the name at to (rec:
 * the record's tuple, placed at the target's field). A target outside the zone is no matter
 * for any rule (BIND looks it up in the DNS, and a CNAME loop through it is no loop of the
 * zone's); the others are logged against their target's number, or past the bound filed as a
 * tuple under the target's name. */
static zp_status add_ref(zp_checker *c, const tuple *rec, const uint8_t *from, size_t from_len,
                         const uint8_t *to)
{
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t len = zp_name_sort_key(to, key);
  if (c->have_apex && !is_prefix(c->apex_key, c->apex_len, key, len))
    return ZP_OK;
  uint32_t id;
  zp_status st = target_of(c, rec, key, len, &id);
  if (st != ZP_OK)
    return st;
  tuple t = *rec;
  t.kind = K_REF;
  t.extra_len = (uint16_t)from_len;
  if (id != UINT32_MAX) {
    t.digest = id;
    t.key_len = 0;
    return add(c, c->log, &t, key, from);
  }
  t.key_len = (uint16_t)len;
  return add(c, c->sp, &t, key, from);
}

/* RFC 952 and RFC 1123 host names as BIND's check-names reads them: letters, digits and
 * hyphens, a letter or digit at both ends of each label; a leading "*" label where wildcard. */
static bool is_hostname(const uint8_t *w, bool wildcard)
{
  /* 1: a letter or digit, 2: a hyphen, 0: neither */
  static const uint8_t kind[256] = {
    ['-'] = 2,
    ['0'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['A'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['a'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  };
  if (wildcard && w[0] == 1 && w[1] == '*')
    w += 2;
  for (; *w; w += *w + 1) {
    bool ok = true;
    for (unsigned i = 1; i <= *w; i++)
      ok &= kind[w[i]] != 0;
    if (!ok || kind[w[1]] != 1 || kind[w[*w]] != 1)
      return false;
  }
  return true;
}

/* A mailbox (SOA RNAME, RP, MINFO): the first label is the local part, anything goes. */
static bool is_mailbox(const uint8_t *w)
{
  return *w == 0 || is_hostname(w + *w + 1, false);
}

static bool is_reverse(const uint8_t *owner)
{
  static const uint8_t *const zones[] = {
    (const uint8_t *)"\7in-addr\4arpa", (const uint8_t *)"\3ip6\4arpa",
    (const uint8_t *)"\3ip6\3int"};
  size_t n = zp_name_wire_len(owner);
  for (size_t z = 0; z < 3; z++) {
    size_t m = strlen((const char *)zones[z]) + 1;
    if (n >= m && strncasecmp((const char *)owner + n - m, (const char *)zones[z], m) == 0) {
      /* a whole label boundary: walk the labels to see that one starts there */
      for (const uint8_t *p = owner; *p; p += *p + 1)
        if (p == owner + n - m)
          return true;
    }
  }
  return false;
}

/* The names of rec's RDATA that check-names holds to a rule: for each, its offset in the RDATA,
 * its field, and whether it is a host name (else a mailbox). Returns how many. */
typedef struct named_field {
  size_t at, field;
  bool host;
} named_field;

static size_t named_fields(const zp_record *r, named_field f[2])
{
  const uint8_t *d = r->rdata;
  switch (r->rtype) {
  case T_NS: f[0] = (named_field){0, 0, true}; return 1;
  case T_MX: case T_AFSDB: case T_RT: f[0] = (named_field){2, 1, true}; return 1;
  case T_SRV: f[0] = (named_field){6, 3, true}; return 1;
  case T_SVCB: case T_HTTPS: f[0] = (named_field){2, 1, true}; return 1;
  case T_PTR:
    if (!is_reverse(r->owner))
      return 0;
    f[0] = (named_field){0, 0, true};
    return 1;
  case T_SOA:
    f[0] = (named_field){0, 0, true};
    f[1] = (named_field){zp_name_wire_len(d), 1, false};
    return 2;
  case T_RP: f[0] = (named_field){0, 0, false}; return 1;
  case T_MINFO:
    f[0] = (named_field){0, 0, false};
    f[1] = (named_field){zp_name_wire_len(d), 1, false};
    return 2;
  default:
    return 0;
  }
}

/* A tuple for a message at field i of r (the record's own place when the field is unknown). */
static tuple at_field(const zp_record *r, const tuple *t, size_t i)
{
  tuple at = *t;
  if (i < r->nfields && r->fields[i].loc.src == r->loc.src) {
    at.line = r->fields[i].loc.line;
    at.col = (uint16_t)(r->fields[i].loc.col < UINT16_MAX ? r->fields[i].loc.col : UINT16_MAX);
    at.line_off = r->fields[i].loc.line_off;
  }
  return at;
}

static void names_check(zp_checker *c, const zp_record *r, const tuple *t)
{
  if (!on(c, ZP_CK_CHECK_NAMES))
    return;
  uint16_t ty = r->rtype;
  if ((ty == T_A || ty == T_AAAA || ty == T_A6 || ty == T_MX || ty == T_WKS) &&
      !is_hostname(r->owner, true))
    report(c, ZP_CK_CHECK_NAMES, t, "the owner of this %s record, %s, is not a host name: "
           "letters, digits and inner hyphens only (RFC 952, RFC 1123 section 2.1; named's "
           "check-names)", type_text(ty), name_text(r->owner));
  named_field f[2];
  size_t n = r->rdata && !r->generic ? named_fields(r, f) : 0;
  for (size_t i = 0; i < n; i++) {
    const uint8_t *w = r->rdata + f[i].at;
    if (f[i].host ? is_hostname(w, false) : is_mailbox(w))
      continue;
    tuple at = at_field(r, t, f[i].field);
    report(c, ZP_CK_CHECK_NAMES, &at, "%s %s in %s RDATA is not a %s (RFC 952, RFC 1123 "
           "section 2.1; named's check-names)", f[i].host ? "name" : "mailbox", name_text(w),
           type_text(ty), f[i].host ? "host name: letters, digits and inner hyphens only"
                                    : "mailbox: a host name after its first label");
  }
}

/* BIND's own test: the target's text as written is an IPv4 address ("192.0.2.1" read as a
 * name relative to the origin). */
static void address_target(zp_checker *c, const zp_record *r, const tuple *t)
{
  size_t f = r->rtype == T_NS ? 0 : r->rtype == T_MX ? 1 : 3;
  if (!on(c, ZP_CK_ADDRESS_TARGET) || r->generic || f >= r->nfields)
    return;
  const zp_field *fd = &r->fields[f];
  char text[64];
  struct in_addr a;
  if (fd->len >= sizeof text)
    return;
  memcpy(text, fd->text, fd->len);
  text[fd->len] = '\0';
  tuple at = at_field(r, t, f);
  if (inet_pton(AF_INET, text, &a) == 1)
    report(c, ZP_CK_ADDRESS_TARGET, &at, "%s target '%s' is an IPv4 address, read as the name %s: "
           "%s takes a host name (RFC 1035 section 3.3)", type_text(r->rtype), text,
           name_text(r->rdata + (r->rtype == T_NS ? 0 : r->rtype == T_MX ? 2 : 6)),
           type_text(r->rtype));
}

zp_status zp_check_record(zp_checker *c, const zp_record *r)
{
  if (c->opt.off)
    return ZP_OK;
  tuple t;
  memset(&t, 0, sizeof t);   /* padding too: the tuple is written to a file */
  uint8_t key[ZP_NAME_KEY_MAX];
  zp_status st = ZP_OK;
  t.src = UINT32_MAX;
  if (r->loc.src && (st = intern_source(c, r->loc.src, &t.src)) != ZP_OK)
    return st;
  t.seq = c->seq++;
  t.ttl = r->ttl;
  t.line = r->loc.line;
  t.col = (uint16_t)(r->loc.col < UINT16_MAX ? r->loc.col : UINT16_MAX);
  t.line_off = r->loc.line_off;
  t.rclass = r->rclass;
  t.rtype = r->rtype;
  t.kind = K_RECORD;
  if (r->rtype == T_CNAME || r->rtype == T_DNAME || r->rtype == T_SOA)
    t.digest = (uint32_t)hash(r->rdata, r->rdlen);   /* (a second one must be the same) */
  t.key_len = (uint16_t)zp_name_sort_key(r->owner, key);
  if (!c->have_skip) {
    memcpy(c->skip, key, t.key_len);
    c->skip_len = t.key_len;
    c->have_skip = true;
  }
  if (r->rtype == T_SOA && !c->have_apex) {
    memcpy(c->apex_key, key, t.key_len);
    c->apex_len = t.key_len;
    c->have_apex = true;
  }
  const uint8_t *spell = r->spelling;
  t.extra_len = spell ? (uint16_t)zp_name_wire_len(spell) : 0;
  if ((r->rtype == T_NS || r->rtype == T_DNAME) &&
      !set_add(&c->cuts, hash(key, t.key_len), r->rtype == T_NS ? N_NS : N_DNAME))
    return ZP_ENOMEM;
  /* a wildcard: the key ends in the label "*" */
  if (t.key_len >= 2 && key[t.key_len - 2] == '*' && (t.key_len == 2 || key[t.key_len - 3] == 0)) {
    uint8_t f = r->rtype == T_A || r->rtype == T_AAAA ? N_ADDR : r->rtype == T_CNAME ? N_CNAME : 0;
    if (f && !set_add(&c->wild, hash(key, t.key_len - 2), f))
      return ZP_ENOMEM;
  }
  bool parsed = r->rdata && !r->generic;
  const uint8_t *to = NULL;
  size_t to_field = 0;
  if (parsed) {
    switch (r->rtype) {
    case T_NS: case T_CNAME: to = r->rdata; break;
    case T_MX:
      to = r->rdata + 2;
      to_field = 1;
      if (*to == 0)
        t.flags = r->rdata[0] == 0 && r->rdata[1] == 0 ? F_NULL_MX : 0;
      break;
    case T_SRV:
      to = r->rdata + 6;
      to_field = 3;
      break;
    default: break;
    }
  }
  if ((st = add(c, c->sp, &t, key, spell)) != ZP_OK)
    return st;
  if (to && *to) {
    /* (told at the target, where a message about it belongs) */
    tuple at = at_field(r, &t, to_field);
    if ((st = add_ref(c, &at, key, t.key_len, to)) != ZP_OK)
      return st;
  }
  if (r->rclass == 1)
    names_check(c, r, &t);
  if (parsed && (r->rtype == T_NS || r->rtype == T_MX || r->rtype == T_SRV))
    address_target(c, r, &t);
  return ZP_OK;
}

/* ---- the pass over the sorted tuples ---- */

/* Types BIND allows beside a CNAME: the DNSSEC records about the name itself. */
static bool beside_cname(uint16_t type)
{
  return type == T_RRSIG || type == T_NSEC || type == T_KEY || type == T_SIG || type == T_NXT;
}

static void keep(rep *r, const tuple *t, const uint8_t *spell)
{
  r->set = true;
  r->t = *t;
  if (t->extra_len)
    memcpy(r->spell, spell, t->extra_len);
}

/* Spellings differ in more than ASCII case, which DNS ignores (RFC 4343). */
static bool same_spelling(const rep *a, const tuple *t, const uint8_t *spell)
{
  if (a->t.extra_len != t->extra_len)
    return false;
  for (size_t i = 0; i < t->extra_len; i++) {
    uint8_t x = a->spell[i], y = spell[i];
    if (x != y && !((x | 0x20) == (y | 0x20) && (x | 0x20) >= 'a' && (x | 0x20) <= 'z'))
      return false;
  }
  return true;
}

/* How a record's owner was written, for people: its spelling, or the name shown through
 * ToUnicode (what a Unicode spelling that IDNA keeps looks like). */
static const char *spelled(const zp_checker *c, const rep *r)
{
  static char bufs[2][ZP_NAME_UNICODE_MAX + 1];
  static unsigned next;
  char *b = bufs[next++ % 2];
  uint8_t wire[ZP_NAME_MAX];
  if (!r->t.extra_len)
    zp_name_from_sort_key(c->g.key, c->g.key_len, wire);
  b[zp_name_text_unicode(b, r->t.extra_len ? r->spell : wire, c->opt.idna2008)] = '\0';
  return b;
}

/* "; 'straße' (a:3) and 'strasse' (a:4) are one name after IDNA" when two records in a
 * message were written differently, else "". */
static const char *collision_note(const zp_checker *c, const rep *x, const rep *y)
{
  static char b[2 * ZP_NAME_TEXT_MAX + 1400];
  b[0] = '\0';
  if (x->set && y->set && !same_spelling(x, &y->t, y->spell))
    snprintf(b, sizeof b, "; written '%s' (%s) and '%s' (%s), one name after IDNA%s ToASCII",
             spelled(c, x), where(c, &x->t), spelled(c, y), where(c, &y->t),
             c->opt.idna2008 ? "2008" : "2003");
  return b;
}

static void group_begin(zp_checker *c, const uint8_t *key, size_t len)
{
  group *g = &c->g;
  memset(g, 0, offsetof(group, rrset));
  g->rrset.set = g->cname.set = g->other.set = g->spell1.set = g->spell2.set = false;
  g->glue_other.set = g->occ.set = g->dname_rec.set = g->ns.set = g->ds.set = false;
  g->mx_null_rec.set = false;
  memcpy(g->key, key, len);
  g->key_len = len;
  g->in_zone = !c->have_apex || is_prefix(c->apex_key, c->apex_len, key, len);
  g->apex = c->have_apex && len == c->apex_len && g->in_zone;
  if (g->apex)
    c->apex_seen = true;
  while (c->depth > 0 && !is_prefix(c->stack[c->depth - 1].key, c->stack[c->depth - 1].key_len,
                                    key, len))
    c->depth--;
  g->cut = g->dname = -1;
  for (size_t i = 0; i < c->depth; i++) {
    if (c->stack[i].cut && g->cut < 0)
      g->cut = (int)i;
    if (c->stack[i].dname && g->dname < 0)
      g->dname = (int)i;
  }
}

static void record_in(zp_checker *c, const tuple *t, const uint8_t *spell)
{
  group *g = &c->g;
  /* an RRset: the tuples of one class and type, in input order */
  if (!g->rrset.set || g->rrset.t.rclass != t->rclass || g->rrset.t.rtype != t->rtype) {
    keep(&g->rrset, t, spell);
    g->rrset_ttl_told = g->rrset_single_told = false;
  } else {
    if (t->ttl != g->rrset.t.ttl && !g->rrset_ttl_told && on(c, ZP_CK_TTL)) {
      rep r = {.set = true, .t = *t};
      memcpy(r.spell, spell, t->extra_len);
      report(c, ZP_CK_TTL, t, "%s %s has TTL %u here and %u at %s: one RRset has one TTL "
             "(RFC 2181 section 5.2), and servers pick differently (BIND the first of each run "
             "of lines and then the last run's, Knot the last line's, NSD each line's own)%s",
             owner_text(g), type_text(t->rtype), t->ttl, g->rrset.t.ttl,
             where(c, &g->rrset.t), collision_note(c, &g->rrset, &r));
      g->rrset_ttl_told = true;
    }
    bool single = t->rtype == T_CNAME || t->rtype == T_DNAME || t->rtype == T_SOA;
    if (single && t->digest != g->rrset.t.digest && !g->rrset_single_told &&
        on(c, ZP_CK_SINGLETON)) {
      rep r = {.set = true, .t = *t};
      memcpy(r.spell, spell, t->extra_len);
      report(c, ZP_CK_SINGLETON, t, "a second %s record at %s, beside the one at %s: a name "
             "holds one %s (RFC %s)%s", type_text(t->rtype), owner_text(g),
             where(c, &g->rrset.t), type_text(t->rtype),
             t->rtype == T_CNAME ? "2181 section 10.1" : t->rtype == T_DNAME ? "6672 section 2.4"
                                                                          : "1035 section 5.2",
             collision_note(c, &g->rrset, &r));
      g->rrset_single_told = true;
    }
  }
  if (!g->spell1.set)
    keep(&g->spell1, t, spell);
  else if (!g->spell2.set && !same_spelling(&g->spell1, t, spell))
    keep(&g->spell2, t, spell);
  switch (t->rtype) {
  case T_A: case T_AAAA: g->has_a = true; break;
  case T_NS: g->has_ns = true; if (!g->ns.set) keep(&g->ns, t, spell); break;
  case T_CNAME: g->has_cname = true; if (!g->cname.set) keep(&g->cname, t, spell); break;
  case T_DNAME: g->has_dname = true; if (!g->dname_rec.set) keep(&g->dname_rec, t, spell); break;
  case T_SOA: g->has_soa = true; break;
  case T_DS: g->has_ds = true; if (!g->ds.set) keep(&g->ds, t, spell); break;
  case T_MX:
    if (t->flags & F_NULL_MX) {
      if (!g->mx_null_rec.set)
        keep(&g->mx_null_rec, t, spell);
    } else {
      g->mx_other = true;
    }
    break;
  default: break;
  }
  if (t->rtype != T_CNAME && !beside_cname(t->rtype) && (!g->other.set || t->seq < g->other.t.seq))
    keep(&g->other, t, spell);
  /* what a delegation point may hold, and glue below it */
  bool at_cut_ok = t->rtype == T_NS || t->rtype == T_DS || t->rtype == T_RRSIG ||
                   t->rtype == T_NSEC || t->rtype == T_A || t->rtype == T_AAAA ||
                   t->rtype == T_DNAME;   /* (dname-and-ns tells of that one) */
  if (!at_cut_ok && (!g->occ.set || t->seq < g->occ.t.seq))
    keep(&g->occ, t, spell);
  if (t->rtype != T_A && t->rtype != T_AAAA && (!g->glue_other.set || t->seq < g->glue_other.t.seq))
    keep(&g->glue_other, t, spell);
}

/* The first record of the group, for a message about the name as a whole. */
static const tuple *first(const group *g)
{
  return &g->spell1.t;
}

/* Everything about the name's own records, once they are all seen. */
static void records_done(zp_checker *c)
{
  group *g = &c->g;
  if (g->refs_started)
    return;
  g->refs_started = true;
  if (!g->spell1.set)
    return;   /* only references: a name with no records */
  if (!g->in_zone) {
    if (on(c, ZP_CK_OUT_OF_ZONE)) {
      uint8_t apex[ZP_NAME_MAX];
      zp_name_from_sort_key(c->apex_key, c->apex_len, apex);
      report(c, ZP_CK_OUT_OF_ZONE, first(g), "%s is outside the zone %s: BIND and Knot leave "
             "it out, NSD refuses the zone", owner_text(g), name_text(apex));
    }
    return;
  }
  if (g->spell2.set && on(c, ZP_CK_COLLISION))
    report(c, ZP_CK_COLLISION, &g->spell2.t, "'%s' here and '%s' at %s are one name after "
           "IDNA%s ToASCII, %s: their records merge", spelled(c, &g->spell2),
           spelled(c, &g->spell1), where(c, &g->spell1.t), c->opt.idna2008 ? "2008" : "2003",
           owner_text(g));
  if (g->has_cname && g->other.set && on(c, ZP_CK_CNAME_OTHER)) {
    const rep *later = g->cname.t.seq > g->other.t.seq ? &g->cname : &g->other;
    const rep *earlier = later == &g->cname ? &g->other : &g->cname;
    report(c, ZP_CK_CNAME_OTHER, &later->t, "CNAME and other data at %s: %s here, %s at %s (RFC "
           "1034 section 3.6.2; BIND, NSD and Knot refuse the zone)%s", owner_text(g),
           type_text(later->t.rtype), type_text(earlier->t.rtype), where(c, &earlier->t),
           collision_note(c, earlier, later));
  }
  if (g->apex) {
    if (!g->has_soa && on(c, ZP_CK_APEX_SOA))
      report(c, ZP_CK_APEX_SOA, first(g), "the zone %s has no SOA record at its apex (RFC 1035 "
             "section 5.2)", owner_text(g));
    if (!g->has_ns && on(c, ZP_CK_APEX_NS))
      report(c, ZP_CK_APEX_NS, first(g), "the zone %s has no NS records at its apex (RFC 1034 "
             "section 4.2.1); BIND refuses it", owner_text(g));
    if (g->has_ds && on(c, ZP_CK_DS_APEX))
      report(c, ZP_CK_DS_APEX, &g->ds.t, "DS record at the apex of %s: DS belongs in the parent "
             "zone (RFC 4034 section 5); BIND refuses the zone", owner_text(g));
  } else {
    if (g->has_soa && on(c, ZP_CK_APEX_SOA)) {
      uint8_t apex[ZP_NAME_MAX];
      zp_name_from_sort_key(c->apex_key, c->apex_len, apex);
      report(c, ZP_CK_APEX_SOA, first(g), "SOA record at %s, below the apex of %s (RFC 1035 "
             "section 5.2); BIND and NSD refuse the zone", owner_text(g), name_text(apex));
    }
    if (g->has_ds && !g->has_ns && on(c, ZP_CK_DS_PLACEMENT))
      report(c, ZP_CK_DS_PLACEMENT, &g->ds.t, "DS record at %s, which is no delegation (no NS "
             "records): DS describes a child zone (RFC 4034 section 5)", owner_text(g));
    if (g->has_ns && g->key_len >= 2 && g->key[g->key_len - 2] == '*' &&
        (g->key_len == 2 || g->key[g->key_len - 3] == 0) && on(c, ZP_CK_WILDCARD_NS))
      report(c, ZP_CK_WILDCARD_NS, &g->ns.t, "NS records at the wildcard %s (RFC 4592 section "
             "4.2); BIND refuses the zone", owner_text(g));
    if (g->has_ns && g->has_dname && on(c, ZP_CK_DNAME_NS))
      report(c, ZP_CK_DNAME_NS, &g->dname_rec.t, "DNAME beside NS at %s, below the apex (RFC "
             "6672 section 2.3); Knot refuses the zone", owner_text(g));
  }
  if (g->mx_null_rec.set && g->mx_other && on(c, ZP_CK_NULL_MX))
    report(c, ZP_CK_NULL_MX, &g->mx_null_rec.t, "a null MX (\"0 .\") beside other MX records at "
           "%s: a domain that accepts no mail has only the null MX (RFC 7505 section 3)",
           owner_text(g));
  if (g->dname >= 0 && on(c, ZP_CK_BELOW_DNAME)) {
    frame *f = &c->stack[g->dname];
    uint8_t d[ZP_NAME_MAX];
    zp_name_from_sort_key(f->key, f->key_len, d);
    report(c, ZP_CK_BELOW_DNAME, first(g), "%s is below the DNAME at %s (%s) and is never "
           "served (RFC 6672 section 2.4); Knot and NSD refuse the zone", owner_text(g),
           name_text(d), where(c, &f->t));
  } else if (g->cut >= 0 && g->glue_other.set && on(c, ZP_CK_OCCLUDED)) {
    frame *f = &c->stack[g->cut];
    uint8_t d[ZP_NAME_MAX];
    zp_name_from_sort_key(f->key, f->key_len, d);
    report(c, ZP_CK_OCCLUDED, &g->glue_other.t, "%s record at %s, below the delegation at %s "
           "(%s), is never served: only address records (glue) belong there (RFC 1034 section "
           "4.2.1)", type_text(g->glue_other.t.rtype), owner_text(g), name_text(d),
           where(c, &f->t));
  } else if (!g->apex && g->has_ns && g->occ.set && on(c, ZP_CK_OCCLUDED)) {
    report(c, ZP_CK_OCCLUDED, &g->occ.t, "%s record at the delegation %s is never served: a "
           "delegation holds NS, DS and glue (RFC 1034 section 4.2.1)",
           type_text(g->occ.t.rtype), owner_text(g));
  }
}

static void chain_link(zp_checker *c, const tuple *t, const uint8_t *from, uint64_t to)
{
  if (!zp_array_room(&c->links, c->nlinks, &c->links_cap, sizeof *c->links, 64))
    return;   /* (a loop then goes unreported; memory is what ran out) */
  size_t off = c->link_names.len;
  uint16_t len = t->extra_len;
  if (!zp_buf_put(&c->link_names, &len, sizeof len) ||
      !zp_buf_put(&c->link_names, from, t->extra_len))
    return;
  c->links[c->nlinks++] = (link){hash(from, t->extra_len), to, t->seq, t->src, t->line,
                                 t->col, t->line_off, off};
}

/* Whether a record of the given type at the name whose sort key is from[0..len) (in the zone)
 * is never served: below a delegation or a DNAME, or at a delegation but for NS. */
static bool never_served(const zp_checker *c, const uint8_t *from, size_t len, uint16_t type)
{
  if (!c->cuts.n)
    return false;
  for (size_t i = c->apex_len ? c->apex_len - 1 : 0; i < len; i++) {
    if (from[i] != 0)
      continue;
    uint8_t f = set_get(&c->cuts, hash(from, i + 1));
    bool below = i + 1 < len, apex = i + 1 == c->apex_len;
    if ((f & N_DNAME) && below)
      return true;
    if ((f & N_NS) && !apex && (below || type != T_NS))
      return true;
  }
  return false;
}

/* A name with no records of its own may be answered by a wildcard (RFC 4592): the one of its
 * nearest ancestor that has one stands in for it. (Strictly, only if no name between them
 * exists; zonepuny does not know every empty non-terminal before the pass.) */
static void wildcard(zp_checker *c)
{
  group *g = &c->g;
  if (!c->wild.n)
    return;
  /* the ancestors' keys are the prefixes that end at a label's end, nearest first */
  for (size_t end = g->key_len - 1; end >= c->apex_len && end > 0; end--) {
    if (g->key[end - 1] != 0)
      continue;
    uint8_t f = set_get(&c->wild, hash(g->key, end));
    if (f) {
      g->has_a = f & N_ADDR;
      g->has_cname = f & N_CNAME;
      return;
    }
  }
}

/* Where a target is an alias: its CNAME, or a wildcard's. */
static const char *alias(const zp_checker *c, const target *f)
{
  static char b[700];
  if (!f->own_cname)
    return "a wildcard CNAME";
  snprintf(b, sizeof b, "CNAME at %s", where(c, &f->cname));
  return b;
}

/* The name being looked at as a target, its own records all seen. */
static target facts(zp_checker *c)
{
  group *g = &c->g;
  records_done(c);
  target f = {.seen = true, .in_zone = g->in_zone, .below_dname = g->dname >= 0,
              .glue_zone = g->cut >= 0 || (g->has_ns && !g->apex), .own_cname = g->cname.set,
              .cname = g->cname.t};
  if (!g->spell1.set)
    wildcard(c);
  f.has_a = g->has_a;
  f.has_cname = g->has_cname;
  return f;
}

/* A record at the name whose sort key is from (t->extra_len octets) points to the target f,
 * whose sort key is key[0..key_len). Names are made text only for a message: most references
 * are fine. */
static void ref_check(zp_checker *c, const target *f, const uint8_t *key, size_t key_len,
                      const tuple *t, const uint8_t *from)
{
  size_t from_len = t->extra_len;
  if (t->rtype == T_CNAME) {
    if (f->own_cname && on(c, ZP_CK_CNAME_LOOP))
      chain_link(c, t, from, f->hash);
    return;
  }
  if (!f->in_zone || !c->have_apex)
    return;   /* BIND looks such names up in the DNS; zonepuny does not */
  if (!is_prefix(c->apex_key, c->apex_len, from, from_len))
    return;   /* the referring record is out of the zone, and told as such */
  bool glue_zone = f->glue_zone;
  /* A target with an address, no alias (or glue below a cut), is fine for every rule below; the
   * referring record's own standing, a lookup per ancestor, is asked only of the others. */
  bool fine = !f->below_dname && f->has_a && (glue_zone || !f->has_cname);
  if (fine || never_served(c, from, from_len, t->rtype))
    return;   /* (a record never served is told as occluded or below a DNAME) */
#define TARGET key_text(key, key_len)
#define FROM key_text(from, from_len)
  if (t->rtype == T_NS) {
    bool apex = from_len == c->apex_len && memcmp(from, c->apex_key, from_len) == 0;
    zp_check_id id = apex ? ZP_CK_APEX_NS : ZP_CK_NS_TARGET;
    const char *refused = apex ? "; BIND refuses the zone" : "";
    if (f->below_dname) {
      if (on(c, id))
        report(c, id, t, "NS target %s of %s is below a DNAME%s", TARGET, FROM, refused);
    } else if (glue_zone) {
      bool required = !apex && is_prefix(from, from_len, key, key_len);
      if (!f->has_a && on(c, ZP_CK_GLUE))
        report(c, ZP_CK_GLUE, t, "%s %s: name server %s is %s and needs glue, an A or AAAA "
               "record for it in this zone (RFC 1034 section 4.2.1)",
               apex ? "zone" : "delegation", FROM, TARGET,
               required ? "inside it" : apex ? "inside a delegation" : "inside another delegation");
    } else if (f->has_cname) {
      if (on(c, id))
        report(c, id, t, "NS target %s of %s is an alias (%s): a name server must be named "
               "by its own name (RFC 2181 section 10.3)%s", TARGET, FROM, alias(c, f), refused);
    } else if (!f->has_a) {
      if (on(c, id))
        report(c, id, t, "NS target %s of %s has no A or AAAA record in the zone%s", TARGET,
               FROM, refused);
    }
    return;
  }
  zp_check_id id = t->rtype == T_MX ? ZP_CK_MX_TARGET : ZP_CK_SRV_TARGET;
  if (!on(c, id) || glue_zone)
    return;   /* a name below a delegation is the child zone's to answer for */
  if (f->below_dname)
    report(c, id, t, "%s target %s is below a DNAME", type_text(t->rtype), TARGET);
  else if (f->has_cname)
    report(c, id, t, "%s target %s is an alias (%s): it must name a host (RFC 2181 section "
           "10.3%s)", type_text(t->rtype), TARGET, alias(c, f), t->rtype == T_SRV ? ", RFC 2782" : "");
  else if (!f->has_a)
    report(c, id, t, "%s target %s has no A or AAAA record in the zone", type_text(t->rtype),
           TARGET);
#undef TARGET
#undef FROM
}

/* The name is done: a delegation or a DNAME goes on the stack for the names below it. */
static void group_end(zp_checker *c)
{
  group *g = &c->g;
  records_done(c);
  bool cut = g->in_zone && !g->apex && g->has_ns;
  if ((cut || (g->in_zone && g->has_dname)) && c->depth < 128) {
    frame *f = &c->stack[c->depth++];
    memcpy(f->key, g->key, g->key_len);
    f->key_len = g->key_len;
    f->cut = cut;
    f->dname = g->has_dname && !cut;   /* a DNAME at a delegation is not the zone's to serve */
    f->t = f->dname ? g->dname_rec.t : g->ns.t;
  }
}

static int link_cmp(const void *a, const void *b)
{
  const link *x = a, *y = b;
  return (x->from > y->from) - (x->from < y->from);
}

static int link_seq_cmp(const void *a, const void *b)
{
  const link *x = *(const link *const *)a, *y = *(const link *const *)b;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

static const link *link_from(const zp_checker *c, uint64_t h)
{
  link k = {.from = h};
  return bsearch(&k, c->links, c->nlinks, sizeof k, link_cmp);
}

/* The owner of a link's CNAME, as text. */
static const char *link_name(const zp_checker *c, const link *l)
{
  const uint8_t *p = (const uint8_t *)c->link_names.p + l->name_off;
  uint16_t len;
  memcpy(&len, p, sizeof len);
  return key_text(p + sizeof len, len);
}

/* Each CNAME at a name that holds a CNAME is a link; following links from any name either ends
 * or comes back: a loop, told once, at the link where it was entered, walks starting from the
 * links in input order. */
static void find_loops(zp_checker *c)
{
  if (c->nlinks == 0)
    return;
  qsort(c->links, c->nlinks, sizeof *c->links, link_cmp);
  uint8_t *state = calloc(c->nlinks, 1);   /* 0 new, 1 on the path, 2 done */
  const link **first = malloc(c->nlinks * sizeof *first);   /* the walks' starts, in input order */
  if (!state || !first) {
    free(state);
    free(first);
    return;
  }
  for (size_t i = 0; i < c->nlinks; i++)
    first[i] = &c->links[i];
  qsort(first, c->nlinks, sizeof *first, link_seq_cmp);
  for (size_t i = 0; i < c->nlinks; i++) {
    const link *l = first[i];
    while (l && state[l - c->links] == 0) {
      state[l - c->links] = 1;
      l = link_from(c, l->to);
    }
    if (l && state[l - c->links] == 1) {
      /* a loop: from l round to l */
      char path[1200];
      size_t n = 0;
      const link *k = l;
      do {
        n += (size_t)snprintf(path + n, n < sizeof path ? sizeof path - n : 0, "%s -> ",
                              link_name(c, k));
        k = link_from(c, k->to);
      } while (k && k != l && n < sizeof path);
      if (n < sizeof path)
        snprintf(path + n, sizeof path - n, "%s", link_name(c, l));
      tuple t = {.seq = l->seq, .src = l->src, .line = l->line, .col = l->col,
                 .line_off = l->line_off};
      report(c, ZP_CK_CNAME_LOOP, &t, "CNAME chain loops: %s: no answer comes back", path);
    }
    for (l = first[i]; l && state[l - c->links] == 1; l = link_from(c, l->to))
      state[l - c->links] = 2;
  }
  free(state);
  free(first);
}

/* A reference's extra, the referring owner's sort key, whole again in from; its length. */
static size_t whole_extra(const zp_checker *c, const tuple *t, const uint8_t *extra,
                          uint8_t *from)
{
  size_t skip = t->flags & F_EXTRA_REL ? c->skip_len : 0;
  memcpy(from, c->skip, skip);
  memcpy(from + skip, extra, t->extra_len);
  return skip + t->extra_len;
}

zp_status zp_check_finish(zp_checker *c)
{
  if (c->opt.off)
    return ZP_OK;
  const uint8_t *e;
  size_t len;
  zp_status st;
  bool started = false;
  uint8_t key[ZP_NAME_KEY_MAX], from[ZP_NAME_KEY_MAX];
  c->holding = true;
  while ((st = zp_spill_next(c->sp, &e, &len)) == ZP_OK && e) {
    tuple t;
    memcpy(&t, e, sizeof t);
    const uint8_t *stored = e + sizeof t, *extra = stored + t.key_len;
    /* whole keys again: skip, then what was stored */
    size_t skip = t.flags & F_KEY_REL ? c->skip_len : 0;
    memcpy(key, c->skip, skip);
    memcpy(key + skip, stored, t.key_len);
    size_t key_len = skip + t.key_len;
    if (!started || key_len != c->g.key_len || memcmp(key, c->g.key, key_len) != 0) {
      if (started)
        group_end(c);
      group_begin(c, key, key_len);
      started = true;
    }
    if (t.kind == K_RECORD) {
      record_in(c, &t, extra);
    } else if (t.kind == K_TARGET) {
      uint32_t id;
      memcpy(&id, extra, sizeof id);
      target f = facts(c);
      f.hash = c->targets[id].hash;
      f.key_off = c->targets[id].key_off;
      c->targets[id] = f;
    } else {
      t.extra_len = (uint16_t)whole_extra(c, &t, extra, from);
      target f = facts(c);
      f.hash = hash(c->g.key, c->g.key_len);
      ref_check(c, &f, c->g.key, c->g.key_len, &t, from);
    }
  }
  if (st != ZP_OK)
    return st;
  if (started)
    group_end(c);
  /* the references to targets, in the order read */
  while ((st = zp_spill_next(c->log, &e, &len)) == ZP_OK && e) {
    tuple t;
    memcpy(&t, e, sizeof t);
    t.extra_len = (uint16_t)whole_extra(c, &t, e + sizeof t + t.key_len, from);
    const target *f = &c->targets[t.digest];
    size_t n;
    const uint8_t *k = target_key(c, f, &n);
    ref_check(c, f, k, n, &t, from);
  }
  if (st != ZP_OK)
    return st;
  if (on(c, ZP_CK_APEX_SOA) && !zp_diag_stop(c->diag)) {
    if (!c->have_apex) {
      report(c, ZP_CK_APEX_SOA, NULL, "the zone has no SOA record (RFC 1035 section 5.2); "
               "give its name with -z, or check a piece of a zone with --fragment");
    } else if (!c->apex_seen) {
      uint8_t apex[ZP_NAME_MAX];
      zp_name_from_sort_key(c->apex_key, c->apex_len, apex);
      report(c, ZP_CK_APEX_SOA, NULL, "the zone %s has no records at its apex: no SOA, no NS "
             "(RFC 1035 section 5.2)", name_text(apex));
    }
  }
  if (on(c, ZP_CK_CNAME_LOOP))
    find_loops(c);
  return tell_held(c);
}

size_t zp_check_runs(const zp_checker *c)
{
  return zp_spill_runs(c->sp);
}

void zp_check_free(zp_checker *c)
{
  if (!c)
    return;
  zp_spill_free(c->sp);
  zp_spill_free(c->log);
  zp_spill_free(c->held);
  free(c->targets);
  free(c->tmap);
  zp_buf_free(&c->target_keys);
  for (size_t i = 0; i < c->nsrcs; i++) {
    free((char *)c->srcs[i]->src.path);
    free(c->srcs[i]);
  }
  free(c->srcs);
  free(c->links);
  zp_buf_free(&c->link_names);
  free(c->cuts.e);
  free(c->wild.e);
  free(c);
}
