/* loop.c -- CNAME chains that loop inside the zone: each CNAME to a name that holds a CNAME is a
 * link, and following links from any name either ends or comes back (of two CNAMEs at a name,
 * an error of its own, the first in the file is followed). A loop is told once, at its first
 * CNAME in the file, with its names from there round to it.
 *
 * The links are kept in memory within their share of --check-memory, and followed there. Past
 * it they go to a spill, and the loops are found by sorting alone, in memory as bounded as the
 * spills': each name's reach doubles each round (the name 2^k links on, and the first CNAME in
 * the file among the 2^k names from it), and a name whose chain ends drops out. Once the reach
 * is as long as the names left, the names 2^k links on from them are the loops' own, each knows
 * its loop's first CNAME and how far on it lies, and sorted by that they tell each loop in
 * order. Some log2 of the links rounds, two sorts each. */
#include <stdio.h>
#include <stdlib.h>

#include "check_int.h"

enum { PATH_TEXT = 1200 };   /* of a loop's names, at most (the rest is cut) */

/* A loop's names so far, as it is told. */
typedef struct path {
  char text[PATH_TEXT];
  size_t n;
} path;

static void path_add(path *p, const uint8_t *key, size_t len)
{
  if (p->n < PATH_TEXT)
    p->n += (size_t)snprintf(p->text + p->n, PATH_TEXT - p->n, "%s -> ", zp_ck_key_text(key, len));
}

/* The loop whose first CNAME in the file is l, at the owner key[0..len), its names in p. */
static void tell_loop(zp_checker *c, const zp_ck_link *l, const uint8_t *key, size_t len, path *p)
{
  if (p->n < PATH_TEXT)
    snprintf(p->text + p->n, PATH_TEXT - p->n, "%s", zp_ck_key_text(key, len));
  zp_ck_tuple t = {.seq = l->seq, .src = l->src, .line = l->line, .col = l->col,
             .line_off = l->line_off};
  zp_ck_report(c, ZP_CK_CNAME_LOOP, &t, "CNAME chain loops: %s: no answer comes back", p->text);
}

/* ---- in memory ---- */

/* Whether one more link, its owner's key of len octets, fits in links_max: the arrays as they
 * would grow, each old one beside its new while it is copied, and what following them takes
 * (a state and an entry of the walks' order a link). */
static bool link_room(const zp_checker *c, size_t len)
{
  size_t n = c->nlinks + 1, l = zp_grown_cap(c->links_cap, n, 64);
  size_t k = zp_grown_cap(c->link_names.cap, c->link_names.len + 2 + len, ZP_BUF_FIRST_CAP);
  size_t bytes = l * sizeof(zp_ck_link) + k + n * (1 + 2 * sizeof(uint32_t)) +
                 (l > c->links_cap ? c->links_cap * sizeof(zp_ck_link) : 0) +
                 (k > c->link_names.cap ? c->link_names.cap : 0);
  return bytes <= c->links_max;
}

static int link_cmp(const void *a, const void *b)
{
  const zp_ck_link *x = a, *y = b;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The link from the name with hash h, among links[0..n) sorted by name, one a name. */
static const zp_ck_link *link_from(const zp_ck_link *links, size_t n, uint64_t h)
{
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (links[mid].from < h)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && links[lo].from == h ? &links[lo] : NULL;
}

/* The owner of a link's CNAME: its sort key. */
static const uint8_t *link_key(const zp_checker *c, const zp_ck_link *l, size_t *len)
{
  const uint8_t *p = (const uint8_t *)c->link_names.p + l->name_off;
  uint16_t n;
  memcpy(&n, p, sizeof n);
  *len = n;
  return p + sizeof n;
}

/* A walk's start: a link, by its place in the file. */
typedef struct start {
  uint32_t seq, at;
} start;

static int start_cmp(const void *a, const void *b)
{
  const start *x = a, *y = b;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Walks from every link in the order of the file: one that comes back to a link on its own
 * path has found a loop, told from its first CNAME in the file. */
static zp_status loops_in_memory(zp_checker *c)
{
  qsort(c->links, c->nlinks, sizeof *c->links, link_cmp);
  size_t n = 0;
  for (size_t i = 0; i < c->nlinks; i++)
    if (n == 0 || c->links[i].from != c->links[n - 1].from)
      c->links[n++] = c->links[i];
  const zp_ck_link *v = c->links;
  uint8_t *state = calloc(n, 1);   /* 0 new, 1 on the path, 2 done */
  start *order = malloc(n * sizeof *order);
  if (!state || !order) {
    free(state);
    free(order);
    return ZP_ENOMEM;
  }
  for (size_t i = 0; i < n; i++)
    order[i] = (start){v[i].seq, (uint32_t)i};
  qsort(order, n, sizeof *order, start_cmp);
  for (size_t i = 0; i < n; i++) {
    const zp_ck_link *l = &v[order[i].at];
    while (l && state[l - v] == 0) {
      state[l - v] = 1;
      l = link_from(v, n, l->to);
    }
    if (l && state[l - v] == 1) {
      const zp_ck_link *first = l;
      for (const zp_ck_link *k = link_from(v, n, l->to); k != l; k = link_from(v, n, k->to))
        first = k->seq < first->seq ? k : first;
      path p = {.n = 0};
      size_t len;
      const zp_ck_link *k = first;
      do {
        const uint8_t *key = link_key(c, k, &len);
        path_add(&p, key, len);
        k = link_from(v, n, k->to);
      } while (k != first && p.n < PATH_TEXT);
      const uint8_t *key = link_key(c, first, &len);
      tell_loop(c, first, key, len, &p);
    }
    for (l = &v[order[i].at]; l && state[l - v] == 1; l = link_from(v, n, l->to))
      state[l - v] = 2;
  }
  free(state);
  free(order);
  return ZP_OK;
}

/* ---- sorted ---- */

static void put_be(uint8_t *p, uint64_t x, unsigned octets)
{
  for (unsigned i = 0; i < octets; i++)
    p[i] = (uint8_t)(x >> (8 * (octets - 1 - i)));
}

static uint64_t get_be(const uint8_t *p, unsigned octets)
{
  uint64_t x = 0;
  for (unsigned i = 0; i < octets; i++)
    x = x << 8 | p[i];
  return x;
}

/* Entries ordered by their first 12 octets, big-endian (a link by name and place in the file;
 * a loop's name by loop and place in it), or by octets 0-7 or 8-15 (a name's reach: by the name,
 * or by the name it reaches). */
static bool order_at(const uint8_t *e, size_t at, size_t n, size_t window, uint8_t *out)
{
  memset(out, 0, ZP_SPILL_PREFIX);
  if (window == 0)
    memcpy(out, e + at, n);
  return true;
}

static bool by_first(const uint8_t *e, size_t len, size_t window, uint8_t out[ZP_SPILL_PREFIX],
                     void *ctx)
{
  (void)len;
  (void)ctx;
  return order_at(e, 0, 12, window, out);
}

static bool by_name(const uint8_t *e, size_t len, size_t window, uint8_t out[ZP_SPILL_PREFIX],
                    void *ctx)
{
  (void)len;
  (void)ctx;
  return order_at(e, 0, 8, window, out);
}

static bool by_reach(const uint8_t *e, size_t len, size_t window, uint8_t out[ZP_SPILL_PREFIX],
                     void *ctx)
{
  (void)len;
  (void)ctx;
  return order_at(e, 8, 8, window, out);
}

/* A link in the chain: its name and place (big-endian), the link, its owner's sort key. */
static zp_status chain_add(zp_spill *sp, const zp_ck_link *l, const uint8_t *key, size_t len)
{
  uint8_t order[12];
  put_be(order, l->from, 8);
  put_be(order + 8, l->seq, 4);
  struct iovec parts[3] = {{order, sizeof order}, {(void *)l, sizeof *l}, {(void *)key, len}};
  return zp_spill_add(sp, parts, 3);
}

/* A name's reach after a round: the name, the name 2^k links on, and among the 2^k names from
 * it the first CNAME in the file (its place) and how many links on it comes first (less than
 * a loop's length where the name is in one; elsewhere no matter, and held at UINT32_MAX). */
typedef struct reach {
  uint64_t name, to;
  uint32_t first, at;
} reach;

enum { REACH = 24 };   /* octets of a reach as stored: name and to big-endian, then the rest */

static zp_status reach_add(zp_spill *sp, const reach *r)
{
  uint8_t e[REACH];
  put_be(e, r->name, 8);
  put_be(e + 8, r->to, 8);
  memcpy(e + 16, &r->first, 4);
  memcpy(e + 20, &r->at, 4);
  struct iovec part = {e, sizeof e};
  return zp_spill_add(sp, &part, 1);
}

static reach reach_of(const uint8_t *e)
{
  reach r = {get_be(e, 8), get_be(e + 8, 8), 0, 0};
  memcpy(&r.first, e + 16, 4);
  memcpy(&r.at, e + 20, 4);
  return r;
}

/* The spills of the sorted search: the names (in their order, for the loops' text), and the
 * reaches by name and by the name reached, read (0) and being written (1). */
typedef struct search {
  zp_spill *names, *by_name[2], *by_to[2];
  size_t mem;
} search;

static zp_status next_round(search *s, uint64_t *left)
{
  *left = 0;
  zp_status st = zp_spill_new(s->mem, ZP_SPILL_ENTRY_MAX, NULL, by_name, NULL, &s->by_name[1]);
  if (st == ZP_OK)
    st = zp_spill_new(s->mem, ZP_SPILL_ENTRY_MAX, NULL, by_reach, NULL, &s->by_to[1]);
  return st;
}

static void round_done(search *s)
{
  zp_spill_free(s->by_name[0]);
  zp_spill_free(s->by_to[0]);
  s->by_name[0] = s->by_name[1];
  s->by_to[0] = s->by_to[1];
  s->by_name[1] = s->by_to[1] = NULL;
}

/* Round 0 from the chain, sorted by name: a name's first link (in the file) is its reach of 1,
 * and its owner goes to the names. */
static zp_status first_round(zp_checker *c, search *s, uint64_t *left)
{
  zp_status st = next_round(s, left);
  const uint8_t *e;
  size_t len;
  uint64_t last = 0;
  bool any = false;
  while (st == ZP_OK && (st = zp_spill_next(c->chain, &e, &len)) == ZP_OK && e) {
    zp_ck_link l;
    memcpy(&l, e + 12, sizeof l);
    if (any && l.from == last)
      continue;
    any = true;
    last = l.from;
    struct iovec parts[2] = {{&l, sizeof l}, {(void *)(e + 12 + sizeof l), len - 12 - sizeof l}};
    reach r = {l.from, l.to, l.seq, 0};
    if ((st = zp_spill_add(s->names, parts, 2)) == ZP_OK &&
        (st = reach_add(s->by_name[1], &r)) == ZP_OK)
      st = reach_add(s->by_to[1], &r);
    ++*left;
  }
  return st;
}

/* One round: each name's reach joined with the reach of the name it reaches, which doubles it;
 * a name whose reach meets no name (its chain ends) drops out. step: the reach before. */
static zp_status double_reach(search *s, uint64_t step, uint64_t *left)
{
  zp_status st = next_round(s, left);
  const uint8_t *e, *w = NULL;
  size_t len;
  reach at = {0};
  while (st == ZP_OK && (st = zp_spill_next(s->by_to[0], &e, &len)) == ZP_OK && e) {
    reach r = reach_of(e);
    while ((!w || at.name < r.to) && (st = zp_spill_next(s->by_name[0], &w, &len)) == ZP_OK &&
           w)
      at = reach_of(w);
    if (st != ZP_OK || !w || at.name != r.to)
      continue;
    reach d = {r.name, at.to, r.first, r.at};
    if (at.first < r.first) {
      d.first = at.first;
      d.at = step + at.at < UINT32_MAX ? (uint32_t)(step + at.at) : UINT32_MAX;
    }
    if ((st = reach_add(s->by_name[1], &d)) == ZP_OK)
      st = reach_add(s->by_to[1], &d);
    ++*left;
  }
  return st;
}

/* The loops: the names reached (each a loop's), with their loop's first CNAME and distance,
 * and their owners from the names, sorted by loop and by place in it from the first CNAME. */
static zp_status loops_sorted(search *s, zp_spill **out)
{
  zp_status st = zp_spill_new(s->mem, ZP_SPILL_ENTRY_MAX, NULL, by_first, NULL, out);
  const uint8_t *e, *w = NULL, *n = NULL;
  size_t len, nlen = 0;
  uint64_t last = 0;
  bool any = false;
  reach at = {0};
  zp_ck_link l = {0};
  while (st == ZP_OK && (st = zp_spill_next(s->by_to[0], &e, &len)) == ZP_OK && e) {
    uint64_t to = get_be(e + 8, 8);
    if (any && to == last)
      continue;
    any = true;
    last = to;
    while ((!w || at.name < to) && (st = zp_spill_next(s->by_name[0], &w, &len)) == ZP_OK && w)
      at = reach_of(w);
    while ((!n || l.from < to) && (st = zp_spill_next(s->names, &n, &nlen)) == ZP_OK && n)
      memcpy(&l, n, sizeof l);
    if (st != ZP_OK || !w || !n || at.name != to || l.from != to)
      continue;
    /* the first CNAME, then the names after it: the farther from it, the sooner */
    uint8_t order[12];
    put_be(order, at.first, 4);
    put_be(order + 4, at.at ? 0 - (uint64_t)at.at : 0, 8);
    struct iovec parts[3] = {{order, sizeof order}, {(void *)n, sizeof l},
                             {(void *)(n + sizeof l), nlen - sizeof l}};
    st = zp_spill_add(*out, parts, 3);
  }
  return st;
}

/* The loops sorted, told one by one: each starts with its first CNAME. */
static zp_status tell_sorted(zp_checker *c, zp_spill *loops)
{
  const uint8_t *e;
  size_t len;
  zp_status st;
  bool open = false;
  uint32_t loop = 0;
  zp_ck_link first;
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t key_len = 0;
  path p;
  while ((st = zp_spill_next(loops, &e, &len)) == ZP_OK) {
    if (e && open && (uint32_t)get_be(e, 4) == loop) {
      path_add(&p, e + 12 + sizeof first, len - 12 - sizeof first);
      continue;
    }
    if (open)
      tell_loop(c, &first, key, key_len, &p);
    if (!e)
      break;
    open = true;
    loop = (uint32_t)get_be(e, 4);
    memcpy(&first, e + 12, sizeof first);
    key_len = len - 12 - sizeof first;
    memcpy(key, e + 12 + sizeof first, key_len);
    p.n = 0;
    path_add(&p, key, key_len);
  }
  return st;
}

/* The loops among the links of the chain. */
static zp_status loops_in_chain(zp_checker *c)
{
  /* the sort and the log are done with: their half and sixteenth share five spills at once */
  search s = {.mem = zp_ck_mem(c) * 9 / 16 / 5};
  zp_spill *loops = NULL;
  uint64_t left, step = 1;
  zp_status st = zp_spill_new(s.mem, ZP_SPILL_ENTRY_MAX, NULL, NULL, NULL, &s.names);
  if (st == ZP_OK)
    st = first_round(c, &s, &left);
  zp_spill_free(c->chain);
  c->chain = NULL;
  for (round_done(&s); st == ZP_OK && left > 0 && step < left; step *= 2) {
    st = double_reach(&s, step, &left);
    round_done(&s);
  }
  if (st == ZP_OK && left > 0 && (st = loops_sorted(&s, &loops)) == ZP_OK)
    st = tell_sorted(c, loops);
  zp_spill_free(loops);
  zp_spill_free(s.names);
  for (int i = 0; i < 2; i++) {
    zp_spill_free(s.by_name[i]);
    zp_spill_free(s.by_to[i]);
  }
  return st;
}

/* ---- the links ---- */

void zp_ck_chain_link(zp_checker *c, const zp_ck_tuple *t, const uint8_t *from, uint64_t to)
{
  size_t len = t->extra_len;
  zp_ck_link l = {zp_hash(from, len), to, t->seq, t->src, t->line, t->col, t->line_off, 0};
  if (c->chain_err != ZP_OK)
    return;
  if (!c->chain && link_room(c, len)) {
    l.name_off = c->link_names.len;
    uint16_t n = (uint16_t)len;
    if (!zp_array_room(&c->links, c->nlinks, &c->links_cap, sizeof *c->links, 64) ||
        !zp_buf_put(&c->link_names, &n, sizeof n) || !zp_buf_put(&c->link_names, from, len))
      c->chain_err = ZP_ENOMEM;
    else
      c->links[c->nlinks++] = l;
    return;
  }
  if (!c->chain) {
    /* past the links' share: they all go to a spill of that share, in memory no more */
    zp_status st =
        zp_spill_new(c->links_max, ZP_SPILL_ENTRY_MAX, NULL, by_first, NULL, &c->chain);
    for (size_t i = 0; st == ZP_OK && i < c->nlinks; i++) {
      size_t n;
      const uint8_t *key = link_key(c, &c->links[i], &n);
      st = chain_add(c->chain, &c->links[i], key, n);
    }
    free(c->links);
    zp_buf_free(&c->link_names);
    c->links = NULL;
    c->nlinks = c->links_cap = 0;
    if ((c->chain_err = st) != ZP_OK)
      return;
  }
  c->chain_err = chain_add(c->chain, &l, from, len);
}

zp_status zp_ck_find_loops(zp_checker *c)
{
  if (c->chain_err != ZP_OK)
    return c->chain_err;
  if (c->chain)
    return loops_in_chain(c);
  return c->nlinks ? loops_in_memory(c) : ZP_OK;
}
