/* line.c -- a record's first line in the usual shape, read at once (zp_line): the scanner hands
 * most records to the parser as one token, whose fields this finds */
#include <string.h>

#include "idna/utf8.h"
#include "zone_int.h"

/* A field of the line: bytes [at, at + len) of it, the UTF-8 continuation bytes before it, and
 * whether it has a byte above 127. */
typedef struct piece {
  size_t at, len, cont;
  bool high;
} piece;

size_t zp_line_read(const char *text, size_t len, bool escape_next, const zp_loc *loc,
                    zp_line *l, size_t *end, size_t *cont)
{
  enum { MAX = ZP_LINE_FIELDS + 4 };
  piece p[MAX + 1];
  size_t n = 0, i = 0;
  bool high = false;
  do {   /* (the scanner's match is never empty, nor starts with a blank) */
    size_t at = i;
    unsigned char any = 0;
    while ((unsigned char)text[i] > ' ')   /* a field's bytes are all above the blanks */
      any |= (unsigned char)text[i++];
    p[n++] = (piece){at, i - at, 0, any >= 0x80};
    high |= any >= 0x80;
    while (text[i] == ' ' || text[i] == '\t')
      i++;
  } while (i < len && n < MAX);
  p[n].at = i;   /* where what is given back starts */
  l->owner.len = p[0].len;
  if (i == len && escape_next && p[n - 1].at + p[n - 1].len == len && n > 1)
    n--;
  /* TTL and class, each once, in either order, then the type: the grammar's shape */
  size_t ttl = 0, cls = 0, type = 0;
  for (size_t j = 1; j < n && j <= 3 && !type; j++) {
    uint16_t num;
    switch (zp_zone_classify(text + p[j].at, p[j].len, cls != 0, &num)) {
    case 1:
      if (ttl)
        return 0;
      ttl = j;
      break;
    case 2:
      if (cls)
        return 0;
      cls = j;
      l->rclass = num;
      break;
    case 3:
      type = j;
      l->rtype = num;
      break;
    default:
      return 0;
    }
  }
  if (!type)
    return 0;
  if (n - type - 1 > ZP_LINE_FIELDS)
    n = type + 1 + ZP_LINE_FIELDS;
  size_t c = 0;
  for (size_t j = 0; high && j <= n; j++) {
    size_t bad;
    p[j].cont = c;
    if (j == n || !p[j].high)
      continue;
    if (zp_utf8_validate((const uint8_t *)text + p[j].at, p[j].len, &bad) != ZP_OK)
      return 0;   /* (the scanner's field rules say where) */
    c += p[j].len - zp_utf8_chars(text + p[j].at, p[j].len);
  }
  l->have_ttl = ttl != 0;
  l->have_class = cls != 0;
  l->nfields = 0;
  for (size_t j = 0; j < n; j++) {
    zp_loc at = *loc;
    at.col += (uint32_t)(p[j].at - p[j].cont);
    zp_tok tok = {p[j].at, p[j].len, false, false, false};
    if (j == 0) {
      l->owner = tok;
      l->owner_loc = at;
    } else if (j == ttl) {
      l->ttl = tok;
      l->ttl_loc = at;
    } else if (j == cls) {
      l->class_loc = at;
    } else if (j == type) {
      l->type_loc = at;
    } else {
      l->field[l->nfields] = tok;
      l->field_loc[l->nfields++] = at;
    }
  }
  *end = p[n - 1].at + p[n - 1].len;
  *cont = c;
  return p[n].at;
}

void zp_line_place(zp_line *l, char *buf, size_t off)
{
  zp_tok *t[ZP_LINE_FIELDS + 2];
  size_t n = 0;
  t[n++] = &l->owner;
  if (l->have_ttl)
    t[n++] = &l->ttl;
  for (size_t i = 0; i < l->nfields; i++)
    t[n++] = &l->field[i];
  for (size_t i = 0; i < n; i++) {
    buf[t[i]->off + t[i]->len] = '\0';
    t[i]->off += off;
  }
}
