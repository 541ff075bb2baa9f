/* keyset.c -- the keys of one RRset or one batch of records (RDATA digests, types, NS targets):
 * emptied again for each, so emptying costs what the set holds, never what it once held */
#include <stdlib.h>

#include "check_int.h"

enum { KEYS_LINEAR = 16,    /* keys compared in turn before an index is worth building */
       KEYS_KEEP = 256 };   /* a set emptied keeps this much room; one grown larger lets go */

static size_t probe(const zp_ck_keyset *s, uint64_t key)
{
  size_t mask = s->nindex - 1, k = (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & mask;
  while (s->index[k] && s->e[s->index[k] - 1].key != key)
    k = (k + 1) & mask;
  return k;
}

/* The index rebuilt at four slots a key, so it stays under half full until it is rebuilt. */
static bool reindex(zp_ck_keyset *s)
{
  size_t n = 64;
  while (n < 4 * s->n)
    n *= 2;
  uint32_t *index = calloc(n, sizeof *index);
  if (!index)
    return false;
  free(s->index);
  s->index = index;
  s->nindex = n;
  for (size_t i = 0; i < s->n; i++) {
    s->e[i].slot = (uint32_t)probe(s, s->e[i].key);
    s->index[s->e[i].slot] = (uint32_t)i + 1;
  }
  return true;
}

zp_ck_kentry *zp_ck_kset_find(const zp_ck_keyset *s, uint64_t key)
{
  if (s->nindex) {
    uint32_t i = s->index[probe(s, key)];
    return i ? &s->e[i - 1] : NULL;
  }
  for (size_t i = 0; i < s->n; i++)
    if (s->e[i].key == key)
      return &s->e[i];
  return NULL;
}

zp_ck_kentry *zp_ck_kset_add(zp_ck_keyset *s, uint64_t key, uint32_t val)
{
  if (s->n >= UINT32_MAX / 4 || !zp_array_room(&s->e, s->n, &s->cap, sizeof *s->e, 4))
    return NULL;
  zp_ck_kentry *e = &s->e[s->n++];
  *e = (zp_ck_kentry){key, val, 0};
  if (s->nindex || s->n >= KEYS_LINEAR) {
    if (2 * s->n > s->nindex) {
      if (!reindex(s)) {
        s->n--;
        return NULL;
      }
    } else {
      e->slot = (uint32_t)probe(s, key);
      s->index[e->slot] = (uint32_t)s->n;
    }
  }
  return e;
}

void zp_ck_kset_clear(zp_ck_keyset *s)
{
  if (s->cap > KEYS_KEEP) {
    zp_ck_kset_free(s);
    return;
  }
  if (s->nindex)
    for (size_t i = 0; i < s->n; i++)
      s->index[s->e[i].slot] = 0;
  s->n = 0;
}

void zp_ck_kset_free(zp_ck_keyset *s)
{
  free(s->e);
  free(s->index);
  *s = (zp_ck_keyset){0};
}
