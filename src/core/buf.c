/* buf.c -- the one growable buffer */
#include "buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t zp_grown_cap(size_t cap, size_t n, size_t first)
{
  cap = cap ? cap : first;
  while (cap < n)
    cap *= 2;
  return cap;
}

bool zp_buf_grow(zp_buf *b, size_t more)
{
  if (more > SIZE_MAX / 2 - b->len)
    return false;
  size_t cap = zp_grown_cap(b->cap, b->len + more, ZP_BUF_FIRST_CAP);
  char *p = realloc(b->p, cap);
  if (!p)
    return false;
  b->p = p;
  b->cap = cap;
  return true;
}

bool zp_array_room(void *items, size_t n, size_t *cap, size_t size, size_t first)
{
  if (n < *cap)
    return true;
  size_t want = *cap ? 2 * *cap : first;
  if (want > SIZE_MAX / size)
    return false;
  /* (through memcpy: items is a T **, read and written as the pointer it holds) */
  void *old, *grown;
  memcpy(&old, items, sizeof old);
  if (!(grown = realloc(old, want * size)))
    return false;
  memcpy(items, &grown, sizeof grown);
  *cap = want;
  return true;
}

void zp_buf_free(zp_buf *b)
{
  free(b->p);
  *b = (zp_buf){0};
}
