/* loop.c -- CNAME chains that loop inside the zone: each CNAME to a name that holds a CNAME is a
 * link, and following links from any name either ends or comes back */
#include <stdio.h>
#include <stdlib.h>

#include "check_int.h"

void zp_ck_chain_link(zp_checker *c, const tuple *t, const uint8_t *from, uint64_t to)
{
  if (!zp_array_room(&c->links, c->nlinks, &c->links_cap, sizeof *c->links, 64))
    return;   /* (a loop then goes unreported; memory is what ran out) */
  size_t off = c->link_names.len;
  uint16_t len = t->extra_len;
  if (!zp_buf_put(&c->link_names, &len, sizeof len) ||
      !zp_buf_put(&c->link_names, from, t->extra_len))
    return;
  c->links[c->nlinks++] = (link){zp_hash(from, t->extra_len), to, t->seq, t->src, t->line,
                                 t->col, t->line_off, off};
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
  return zp_ck_key_text(p + sizeof len, len);
}

/* Each CNAME at a name that holds a CNAME is a link; following links from any name either ends
 * or comes back: a loop, told once, at the link where it was entered, walks starting from the
 * links in input order. */
void zp_ck_find_loops(zp_checker *c)
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
      zp_ck_report(c, ZP_CK_CNAME_LOOP, &t, "CNAME chain loops: %s: no answer comes back", path);
    }
    for (l = first[i]; l && state[l - c->links] == 1; l = link_from(c, l->to))
      state[l - c->links] = 2;
  }
  free(state);
  free(first);
}
