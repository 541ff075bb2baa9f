/* load.c -- named's load limits (named 9.18.28 and later, CVE-2024-1737): records in one RRset
 * (max-records-per-type), RRsets at one name (max-types-per-name, each RRSIG type covered its
 * own), and max-zone-ttl. named-checkzone and named-checkconf -z apply none of the first two:
 * only a running named refuses the zone ("too many records").
 *
 * named's loader (lib/dns/master.c) hands records to its database in batches: the lines of one
 * owner in a row, ended by another owner, by $INCLUDE (its start and its end), and by its 128 KiB
 * RDATA buffer filling past 128 KiB less 65,512 octets; a name below a delegation that the
 * delegation's NS records name (glue) gathers in a batch of its own without ending the
 * delegation's; a record $GENERATE makes is a batch alone. An RRset's count is judged per
 * batch before duplicates are dropped: the records already held (each once) plus the batch's
 * records (a record twice counts twice) must not pass the limit. Within a batch an RRset takes
 * the TTL of its first record ("TTL set to prior TTL"), which is what max-zone-ttl judges.
 *
 * The batches are worked out here, on the reader's thread, in input order: each record's tuple
 * says whether its RRset already had a record in its batch (F_BATCH_CONT). The pass (rrset.c)
 * counts from there, over each RRset's records in input order. */
#include <stdlib.h>

#include "check_int.h"

/* master.c's buffer: TSIZ, and what must stay free in it (MINTSIZ, DNS_RDATA_MAXLENGTH) */
enum { LOAD_BUFFER = 128 * 1024, LOAD_ROOM = 65512 };

/* named's loader reading one text of the zone: the file as written ($INCLUDE ends batches,
 * $GENERATE makes its own, owners compare with their case), or the zone zonepuny writes (one
 * file, each $GENERATE record a line of it, owners lowercased). */
typedef struct model {
  uint8_t owner[ZP_NAME_KEY_MAX], glue[ZP_NAME_KEY_MAX];
  size_t owner_len, glue_len;
  uint64_t owner_case, glue_case;   /* zp_record.owner_case: the file's reading only */
  bool have_owner, in_glue;
  zp_ck_keyset cur, gl;        /* the RRsets of each batch (type << 16 | type covered), and the TTL
                            the batch gives each */
  zp_ck_keyset ns;             /* the hashes of the current batch's NS targets (its glue names) */
  size_t used, glue_used;  /* RDATA octets in the buffer, the glue batch's among them */
} model;

struct zp_ck_load {
  model in, out;
  const zp_source *src;  /* the file of the last record: a change is an $INCLUDE's start or end */
  unsigned long serial;
};

static void model_free(model *m)
{
  zp_ck_kset_free(&m->cur);
  zp_ck_kset_free(&m->gl);
  zp_ck_kset_free(&m->ns);
}

void zp_ck_load_free(zp_ck_load *l)
{
  if (!l)
    return;
  model_free(&l->in);
  model_free(&l->out);
  free(l);
}

static void commit_all(model *m)
{
  zp_ck_kset_clear(&m->cur);
  zp_ck_kset_clear(&m->gl);
  zp_ck_kset_clear(&m->ns);
  m->used = m->glue_used = 0;
}

static uint64_t name_hash(const uint8_t *wire)
{
  uint8_t key[ZP_NAME_KEY_MAX];
  return zp_hash(key, zp_name_sort_key(wire, key));
}

/* r (owner sort key key[0..len), its case ocase) read by m: whether its RRset has a record in
 * its batch already (*cont), and the TTL the batch gives it (*ttl). */
static zp_status model_take(model *m, const zp_record *r, const zp_ck_tuple *t, const uint8_t *key,
                            size_t len, uint64_t ocase, bool *cont, uint32_t *ttl)
{
  if (m->in_glue && (len != m->glue_len || memcmp(key, m->glue, len) != 0 ||
                     ocase != m->glue_case)) {
    m->in_glue = false;
    zp_ck_kset_clear(&m->gl);
    m->used -= m->glue_used;
    m->glue_used = 0;
  }
  if (!m->in_glue && (!m->have_owner || len != m->owner_len || memcmp(key, m->owner, len) ||
                      ocase != m->owner_case)) {
    if (zp_ck_kset_find(&m->ns, zp_hash(key, len))) {
      m->in_glue = true;
      memcpy(m->glue, key, len);
      m->glue_len = len;
      m->glue_case = ocase;
    } else {
      memcpy(m->owner, key, len);
      m->owner_len = len;
      m->owner_case = ocase;
      m->have_owner = true;
      zp_ck_kset_clear(&m->cur);
      zp_ck_kset_clear(&m->ns);
      m->used = 0;
    }
  }
  zp_ck_keyset *b = m->in_glue ? &m->gl : &m->cur;
  uint32_t k = (uint32_t)t->rtype << 16 | t->covered;
  const zp_ck_kentry *e = zp_ck_kset_find(b, k);
  if (!(*cont = e != NULL) && !(e = zp_ck_kset_add(b, k, r->ttl)))
    return ZP_ENOMEM;
  *ttl = e->val;
  if (r->rtype == ZP_TYPE_NS && !m->in_glue && r->rdata && !r->generic) {
    uint64_t h = name_hash(r->rdata);
    if (!zp_ck_kset_find(&m->ns, h) && !zp_ck_kset_add(&m->ns, h, 0))
      return ZP_ENOMEM;
  }
  m->used += r->rdata ? r->rdlen : 0;
  m->glue_used += m->in_glue && r->rdata ? r->rdlen : 0;
  if (LOAD_BUFFER - m->used < LOAD_ROOM)
    commit_all(m);
  return ZP_OK;
}

zp_status zp_ck_load_record(zp_checker *c, const zp_record *r, zp_ck_tuple *t)
{
  bool ttl_limit = c->opt.max_zone_ttl_set && zp_ck_on(c, ZP_CK_LOAD_LIMIT);
  if (!c->opt.max_records_per_type && !ttl_limit)
    return ZP_OK;
  if (!c->load && !(c->load = calloc(1, sizeof *c->load)))
    return ZP_ENOMEM;
  zp_ck_load *l = c->load;
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t len = zp_name_sort_key(r->owner, key);
  uint32_t ttl_in = r->ttl, ttl_out = r->ttl;
  bool cont = false;
  zp_status st;
  /* the file as named reads it */
  const zp_source *src = r->loc.src;
  if (src != l->src || (src && src->serial != l->serial)) {
    commit_all(&l->in);
    l->src = src;
    l->serial = src ? src->serial : 0;
  }
  if (r->generated) {
    /* a batch alone, committed at once (master.c's generate()): the batch pending stays open,
     * and is committed after it; whether that batch holds this RRset */
    model *m = &l->in;
    uint32_t k = (uint32_t)t->rtype << 16 | t->covered;
    const zp_ck_keyset *b = NULL;
    if (m->in_glue && len == m->glue_len && !memcmp(key, m->glue, len) &&
        r->owner_case == m->glue_case)
      b = &m->gl;
    else if (m->have_owner && len == m->owner_len && !memcmp(key, m->owner, len) &&
             r->owner_case == m->owner_case)
      b = &m->cur;
    if (b && zp_ck_kset_find(b, k))
      t->flags |= F_GENERATED_OPEN;
    t->flags |= F_GENERATED;
  } else {
    if ((st = model_take(&l->in, r, t, key, len, r->owner_case, &cont, &ttl_in)) != ZP_OK)
      return st;
    if (cont)
      t->flags |= F_BATCH_CONT_IN;
  }
  /* the zone as zonepuny writes it; --sort hands each RRset over whole, each record once */
  if (c->opt.load_order == ZP_LOAD_SORTED)
    t->flags |= F_BATCH_CONT;
  else if (c->opt.load_order == ZP_LOAD_WRITTEN) {
    if ((st = model_take(&l->out, r, t, key, len, 0, &cont, &ttl_out)) != ZP_OK)
      return st;
    if (cont)
      t->flags |= F_BATCH_CONT;
  }
  uint32_t ttl = ttl_in > ttl_out ? ttl_in : ttl_out;
  if (ttl_limit && ttl > c->opt.max_zone_ttl)
    zp_ck_report(c, ZP_CK_LOAD_LIMIT, t, "TTL %u%s is above max-zone-ttl %u: named refuses "
                 "the zone", ttl, ttl != r->ttl ? " (its RRset's TTL in this run of lines, "
                 "which named gives it)" : "", c->opt.max_zone_ttl);
  return ZP_OK;
}

/* The pass's count of each reading's batches, over an RRset's records in input order: the
 * records named holds (each once, and their digests), and the batch pending: its records, a
 * record written twice twice, those each once (and their digests), those it holds already. */

/* The batch pending of reading m joins what named holds. */
static void batch_commit(zp_checker *c, int m)
{
  zp_ck_group *g = &c->g;
  zp_ck_keyset *b = &c->batch_rdatas[m], *h = &c->held_rdatas[m];
  for (size_t i = 0; i < b->n; i++)
    if (!zp_ck_kset_find(h, b->e[i].key)) {
      (void)zp_ck_kset_add(h, b->e[i].key, 0);   /* (out of memory: counted again, never less) */
      g->load_held[m]++;
    }
  g->load_all[m] = g->load_dist[m] = g->load_again[m] = 0;
  zp_ck_kset_clear(b);
}

/* A record into the batch pending of reading m (once: its digest is not there yet). */
static void batch_add(zp_checker *c, int m, const zp_ck_tuple *t, bool once)
{
  zp_ck_group *g = &c->g;
  g->load_all[m]++;
  if (!once)
    return;
  g->load_dist[m]++;
  g->load_again[m] += zp_ck_kset_find(&c->held_rdatas[m], t->digest) != NULL;
  (void)zp_ck_kset_add(&c->batch_rdatas[m], t->digest, 0);
}

/* named's judgement of a batch as it commits it (lib/dns/rdataslab.c): its records, a record
 * written twice twice, past the limit; or, joining records it holds, those plus the batch's
 * each once (one it holds already counted again). */
static bool batch_over(const zp_ck_group *g, int m, uint32_t max)
{
  return g->load_all[m] > max || (g->load_held[m] && g->load_held[m] + g->load_dist[m] > max);
}

void zp_ck_load_first(zp_checker *c, const zp_ck_tuple *t)
{
  zp_ck_group *g = &c->g;
  g->load_told = false;
  for (int m = 0; m < 2; m++) {
    batch_commit(c, m);
    g->load_held[m] = 0;
    zp_ck_kset_clear(&c->held_rdatas[m]);
  }
  zp_ck_load_more(c, t, true);
  /* NSEC3 records and their RRSIGs go to a tree of their own in named (RFC 5155 section 7.1:
   * an NSEC3 owner is no name of the zone's) */
  bool nsec3 = t->rtype == ZP_TYPE_NSEC3 || (zp_ck_is_sig(t) && t->covered == ZP_TYPE_NSEC3);
  if (!nsec3 && ++g->types > c->opt.max_types_per_name && c->opt.max_types_per_name &&
      !g->types_told && zp_ck_on(c, ZP_CK_LOAD_LIMIT)) {
    zp_ck_report(c, ZP_CK_LOAD_LIMIT, t, "%s holds more than %u RRsets with this %s RRset "
                 "(each RRSIG type covered counts as one): named refuses the zone past "
                 "max-types-per-name %u (\"too many records\")", zp_ck_owner_text(g),
                 c->opt.max_types_per_name, zp_ck_type_text(t->rtype),
                 c->opt.max_types_per_name);
    g->types_told = true;
  }
}

bool zp_ck_load_counting(const zp_checker *c)
{
  return c->opt.max_records_per_type && !c->g.load_told && zp_ck_on(c, ZP_CK_LOAD_LIMIT);
}

void zp_ck_load_more(zp_checker *c, const zp_ck_tuple *t, bool new_rdata)
{
  zp_ck_group *g = &c->g;
  if (!zp_ck_load_counting(c))
    return;
  uint32_t max = c->opt.max_records_per_type;
  int over = -1;
  /* the file as named reads it [0], the zone as zonepuny writes it [1] (--named-conf: none) */
  for (int m = 0; m < (c->opt.load_order == ZP_LOAD_SERVED ? 1 : 2); m++) {
    if (m == 0 && (t->flags & F_GENERATED)) {
      /* committed alone, before the batch pending when that holds the RRset */
      uint32_t pending[3] = {g->load_all[0], g->load_dist[0], g->load_again[0]};
      bool open = t->flags & F_GENERATED_OPEN;
      if (!open)
        batch_commit(c, 0);
      zp_ck_keyset keep = c->batch_rdatas[0];
      c->batch_rdatas[0] = (zp_ck_keyset){0};
      g->load_all[0] = g->load_dist[0] = g->load_again[0] = 0;
      batch_add(c, 0, t, true);
      bool alone = batch_over(g, 0, max);
      batch_commit(c, 0);
      zp_ck_kset_free(&c->batch_rdatas[0]);
      c->batch_rdatas[0] = keep;
      if (open) {
        g->load_all[0] = pending[0];
        g->load_dist[0] = pending[1];
        g->load_again[0] = pending[2];
      }
      if ((alone || batch_over(g, 0, max)) && over < 0)
        over = 0;
      continue;
    }
    if (!(t->flags & (m ? F_BATCH_CONT : F_BATCH_CONT_IN)))
      batch_commit(c, m);
    /* (--sort writes each record once) */
    if (m == 0 || c->opt.load_order != ZP_LOAD_SORTED || new_rdata)
      batch_add(c, m, t, new_rdata || !zp_ck_kset_find(&c->batch_rdatas[m], t->digest));
    if (batch_over(g, m, max) && over < 0)
      over = m;
  }
  if (over < 0)
    return;
  bool rrsig = zp_ck_is_sig(t);
  uint32_t joined = g->load_held[over] + g->load_dist[over];
  bool twice = g->load_all[over] > g->load_dist[over] || g->load_again[over];
  uint32_t n = g->load_all[over] > max ? g->load_all[over] : joined;
  zp_ck_report(c, ZP_CK_LOAD_LIMIT, t, "the %s RRset%s%s at %s counts %u records with this one"
               "%s%s: named refuses the zone past max-records-per-type %u (\"too many records\")",
               zp_ck_type_text(t->rtype), rrsig ? " covering " : "",
               rrsig ? zp_ck_type_text(t->covered) : "", zp_ck_owner_text(g), n,
               twice ? " (named counts a run of lines at a name as it reads it, before it "
                       "drops the records it holds twice)" : "",
               over ? " in the zone zonepuny writes (one file, $GENERATE's records written "
                      "out), though not in this file as named reads it" : "", max);
  g->load_told = true;
}
