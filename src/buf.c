/* buf.c -- the one growable buffer */
#include "buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { FIRST_CAP = 256 };

bool zp_buf_reserve(zp_buf *b, size_t more)
{
  if (more <= b->cap - b->len)
    return true;
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

bool zp_buf_put(zp_buf *b, const void *data, size_t n)
{
  if (n == 0)
    return true;   /* data may be NULL, and b->p + 0 with b->p NULL is undefined */
  if (!zp_buf_reserve(b, n))
    return false;
  memcpy(b->p + b->len, data, n);
  b->len += n;
  return true;
}

void zp_buf_free(zp_buf *b)
{
  free(b->p);
  *b = (zp_buf){0};
}
