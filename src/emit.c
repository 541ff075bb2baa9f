/* emit.c -- the only module that knows ldns: RR type tables and canonical output */
#include "emit.h"

#include <ldns/ldns.h>
#include <string.h>

/* ldns wants NUL-terminated mnemonics; longer ones are not mnemonics at all. */
static bool terminate(const char *text, size_t len, char *buf, size_t cap)
{
  if (len == 0 || len >= cap || memchr(text, '\0', len))
    return false;
  memcpy(buf, text, len);
  buf[len] = '\0';
  return true;
}

bool zp_rr_type_from_text(const char *text, size_t len, uint16_t *type)
{
  char buf[32];
  if (!terminate(text, len, buf, sizeof buf))
    return false;
  ldns_rr_type t = ldns_get_rr_type_by_name(buf);
  if (t == 0)
    return false;
  *type = (uint16_t)t;
  return true;
}

bool zp_rr_class_from_text(const char *text, size_t len, uint16_t *rclass)
{
  char buf[32];
  if (!terminate(text, len, buf, sizeof buf))
    return false;
  ldns_rr_class c = ldns_get_rr_class_by_name(buf);
  if (c == 0)
    return false;
  *rclass = (uint16_t)c;
  return true;
}
