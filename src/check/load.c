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

/* The RRsets of one batch: type << 16 | type covered, and the TTL the batch gives each. */
typedef struct bentry {
  uint32_t key, ttl;
} bentry;
typedef struct bset {
  bentry *e;
  size_t n, cap;
} bset;

struct zp_ck_load {
  uint8_t owner[ZP_NAME_KEY_MAX], glue[ZP_NAME_KEY_MAX];
  size_t owner_len, glue_len;
  bool have_owner, in_glue;
  bset cur, gl;
  uint64_t *ns;          /* the hashes of the current batch's NS targets (its glue names) */
  size_t nns, ns_cap;
  size_t used, glue_used;  /* RDATA octets in the buffer, the glue batch's among them */
  const zp_source *src;  /* the file of the last record: a change is an $INCLUDE's start or end */
  unsigned long serial;
};

void zp_ck_load_free(zp_ck_load *l)
{
  if (!l)
    return;
  free(l->cur.e);
  free(l->gl.e);
  free(l->ns);
  free(l);
}

static void commit_all(zp_ck_load *l)
{
  l->cur.n = l->gl.n = l->nns = 0;
  l->used = l->glue_used = 0;
}

/* The entry of key in b, added with ttl when it is not there; NULL when memory fails. */
static const bentry *bset_find(bset *b, uint32_t key, uint32_t ttl, bool *found)
{
  for (size_t i = 0; i < b->n; i++)
    if (b->e[i].key == key) {
      *found = true;
      return &b->e[i];
    }
  *found = false;
  if (!zp_array_room(&b->e, b->n, &b->cap, sizeof *b->e, 8))
    return NULL;
  b->e[b->n] = (bentry){key, ttl};
  return &b->e[b->n++];
}

static uint64_t name_hash(const uint8_t *wire)
{
  uint8_t key[ZP_NAME_KEY_MAX];
  return zp_hash(key, zp_name_sort_key(wire, key));
}

zp_status zp_ck_load_record(zp_checker *c, const zp_record *r, tuple *t)
{
  bool ttl_limit = c->opt.max_zone_ttl_set && zp_ck_on(c, ZP_CK_LOAD_LIMIT);
  if (!c->opt.max_records_per_type && !ttl_limit)
    return ZP_OK;
  if (!c->load && !(c->load = calloc(1, sizeof *c->load)))
    return ZP_ENOMEM;
  zp_ck_load *l = c->load;
  uint32_t ttl = r->ttl;
  bool cont = false;
  if (c->opt.load_order == ZP_LOAD_SORTED) {
    /* the writer hands each RRset over whole, each record once: the pass counts them */
    cont = true;
  } else if (!(r->generated && c->opt.load_order == ZP_LOAD_SERVED)) {
    const zp_source *src = r->loc.src;
    if (src != l->src || (src && src->serial != l->serial)) {
      commit_all(l);
      l->src = src;
      l->serial = src ? src->serial : 0;
    }
    uint8_t key[ZP_NAME_KEY_MAX];
    size_t len = zp_name_sort_key(r->owner, key);
    if (l->in_glue && (len != l->glue_len || memcmp(key, l->glue, len) != 0)) {
      l->in_glue = false;
      l->gl.n = 0;
      l->used -= l->glue_used;
      l->glue_used = 0;
    }
    if (!l->in_glue && (!l->have_owner || len != l->owner_len || memcmp(key, l->owner, len))) {
      uint64_t h = zp_hash(key, len);
      bool glue = false;
      for (size_t i = 0; i < l->nns && !glue; i++)
        glue = l->ns[i] == h;
      if (glue) {
        l->in_glue = true;
        memcpy(l->glue, key, len);
        l->glue_len = len;
      } else {
        memcpy(l->owner, key, len);
        l->owner_len = len;
        l->have_owner = true;
        l->cur.n = l->nns = 0;
        l->used = 0;
      }
    }
    bset *b = l->in_glue ? &l->gl : &l->cur;
    const bentry *e = bset_find(b, (uint32_t)t->rtype << 16 | t->covered, r->ttl, &cont);
    if (!e)
      return ZP_ENOMEM;
    ttl = e->ttl;
    if (r->rtype == T_NS && !l->in_glue && r->rdata && !r->generic) {
      if (!zp_array_room(&l->ns, l->nns, &l->ns_cap, sizeof *l->ns, 4))
        return ZP_ENOMEM;
      l->ns[l->nns++] = name_hash(r->rdata);
    }
    l->used += r->rdata ? r->rdlen : 0;
    l->glue_used += l->in_glue && r->rdata ? r->rdlen : 0;
    if (LOAD_BUFFER - l->used < LOAD_ROOM)
      commit_all(l);
  }
  if (cont)
    t->flags |= F_BATCH_CONT;
  if (ttl_limit && ttl > c->opt.max_zone_ttl)
    zp_ck_report(c, ZP_CK_LOAD_LIMIT, t, "TTL %u%s is above max-zone-ttl %u: named refuses "
                 "the zone", ttl, ttl != r->ttl ? " (its RRset's TTL in this run of lines, "
                 "which named gives it)" : "", c->opt.max_zone_ttl);
  return ZP_OK;
}

void zp_ck_load_first(zp_checker *c, const tuple *t)
{
  group *g = &c->g;
  g->load_told = false;
  g->load_records = g->load_batch = 1;
  g->load_before = 0;
  if (++g->types > c->opt.max_types_per_name && c->opt.max_types_per_name && !g->types_told &&
      zp_ck_on(c, ZP_CK_LOAD_LIMIT)) {
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

void zp_ck_load_more(zp_checker *c, const tuple *t, bool new_rdata)
{
  group *g = &c->g;
  if (!zp_ck_load_counting(c))
    return;
  if (!(t->flags & F_BATCH_CONT)) {
    g->load_before = g->load_records;
    g->load_batch = 0;
  }
  g->load_batch += c->opt.load_order != ZP_LOAD_SORTED || new_rdata;
  g->load_records += new_rdata;
  uint32_t max = c->opt.max_records_per_type;
  if (g->load_before + g->load_batch <= max)
    return;
  bool rrsig = zp_ck_is_sig(t);
  bool twice = g->load_before + g->load_batch > g->load_records;
  zp_ck_report(c, ZP_CK_LOAD_LIMIT, t, "the %s RRset%s%s at %s counts %u records with this one"
               "%s: named refuses the zone past max-records-per-type %u (\"too many records\")",
               zp_ck_type_text(t->rtype), rrsig ? " covering " : "",
               rrsig ? zp_ck_type_text(t->covered) : "", zp_ck_owner_text(g),
               g->load_before + g->load_batch,
               twice ? " (named counts the records of each run of lines at a name before it "
                       "drops those written twice)" : "", max);
  g->load_told = true;
}
