/* status.c -- message and name table behind zp_strerror() and zp_errname() */
#include "status.h"

#include <stddef.h>

static const struct {
  zp_status st;
  const char *name;
  const char *msg;
} table[] = {
#define ZP_STATUS_ROW(name, value, msg) {name, #name, msg},
  ZP_STATUS_LIST(ZP_STATUS_ROW)
#undef ZP_STATUS_ROW
};

static size_t find(zp_status st)
{
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].st == st)
      return i;
  return (size_t)-1;
}

const char *zp_strerror(zp_status st)
{
  size_t i = find(st);
  return i == (size_t)-1 ? "unknown status" : table[i].msg;
}

const char *zp_errname(zp_status st)
{
  size_t i = find(st);
  return i == (size_t)-1 ? "ZP_UNKNOWN" : table[i].name;
}
