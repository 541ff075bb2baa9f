/* buf.c -- the one growable buffer */
#include "buf.h"

#include <stdint.h>
#include <stdlib.h>

enum { FIRST_CAP = 256 };

bool zp_buf_grow(zp_buf *b, size_t more)
{
  if (more > SIZE_MAX / 2 - b->len)
    return false;
  size_t cap = b->cap ? b->cap : FIRST_CAP;
  while (cap < b->len + more)
    cap *= 2;
  char *p = realloc(b->p, cap);
  if (!p)
    return false;
  b->p = p;
  b->cap = cap;
  return true;
}

void zp_buf_free(zp_buf *b)
{
  free(b->p);
  *b = (zp_buf){0};
}
