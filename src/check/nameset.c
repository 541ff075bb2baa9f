/* nameset.c -- the names known before the pass (wildcards): a set of hashes with flags, grown
 * by doubling up to its share of --check-memory */
#include <stdlib.h>

#include "check_int.h"

static bool set_grow(zp_ck_nameset *s)
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

zp_status zp_ck_set_add(zp_ck_nameset *s, uint64_t h, uint8_t flags)
{
  h &= ZP_CK_SET_HASH;
  h |= !h;   /* (0 is the empty slot) */
  uint64_t *held = s->cap ? zp_ck_set_slot(s, h) : NULL;
  if (held && *held) {   /* (a name held takes flags, and no room) */
    *held |= (uint64_t)flags << 60;
    return ZP_OK;
  }
  /* growing holds the old table and the new, twice its size, at once */
  if (2 * (s->n + 1) > s->cap && s->max && (s->cap ? 3 * s->cap : 256) * sizeof *s->e > s->max)
    return ZP_ECHECKMEM;
  if (2 * (s->n + 1) > s->cap && !set_grow(s))
    return ZP_ENOMEM;
  uint64_t *e = zp_ck_set_slot(s, h);
  s->n += !*e;
  *e = h | (*e & ~ZP_CK_SET_HASH) | (uint64_t)flags << 60;
  return ZP_OK;
}
