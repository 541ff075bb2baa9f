/* record.h -- records for the writer and RDATA tests, built from a line of text in a table */
#ifndef ZP_TESTS_RECORD_H
#define ZP_TESTS_RECORD_H

#include <stdint.h>
#include <string.h>

#include "read/rdata.h"
#include "read/zone.h"

static const zp_source src = {.path = "t.zone"};

/* Presentation name to wire form, for owners and origins written in the tables (ASCII, no
 * escapes: the name parser is tested elsewhere). */
static size_t wire_of(const char *text, uint8_t *out)
{
  size_t n = 0;
  const char *p = text;
  while (*p && strcmp(p, ".") != 0) {
    const char *dot = strchr(p, '.');
    size_t len = dot ? (size_t)(dot - p) : strlen(p);
    out[n++] = (uint8_t)len;
    memcpy(out + n, p, len);
    n += len;
    p += len + (dot ? 1 : 0);
  }
  out[n++] = 0;
  return n;
}

typedef struct built {
  uint8_t owner[256], origin[256];
  zp_field fields[64];
  char text[1024];
  zp_record rec;
} built;

/* Splits rdata at blanks; "..." is one quoted token (quotes dropped, escapes kept), joined to
 * the token before it when no blank is between them. Columns
 * count from 21, as if the owner, TTL, class and type took the first 20. */
static void build(built *b, const char *owner, uint16_t type, const char *rdata)
{
  memset(b, 0, sizeof *b);
  wire_of(owner, b->owner);
  wire_of("example.", b->origin);
  strcpy(b->text, rdata);
  size_t n = 0;
  char *p = b->text;
  while (*p) {
    if (*p == ' ') {
      p++;
      continue;
    }
    zp_field *f = &b->fields[n++];
    f->joined = p > b->text && p[-1] != ' ';
    f->loc = (zp_loc){.src = &src, .line = 1, .col = (uint32_t)(21 + (p - b->text))};
    if (*p == '"') {
      f->quoted = true;
      f->text = ++p;
      while (*p && !(*p == '"' && p[-1] != '\\'))
        p++;
      f->len = (size_t)(p - f->text);
      if (*p)
        p++;
    } else {
      f->text = p;
      while (*p && *p != ' ' && !(*p == '"' && p[-1] != '\\'))
        p++;
      f->len = (size_t)(p - f->text);
    }
  }
  b->rec = (zp_record){
    .loc = {.src = &src, .line = 1, .col = 1},
    .owner = b->owner,
    .origin = b->origin,
    .ttl = 3600,
    .rclass = 1,
    .rtype = type,
    .generic = zp_rdata_is_generic(type, b->fields, n),
    .nfields = n,
    .fields = b->fields,
  };
}

#endif
