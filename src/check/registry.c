/* registry.c -- the named checks: each one's -W name, default level and what it finds (the
 * ZP_CHECKS table in registry.h), and the -W options that set their levels */
#include <string.h>

#include "check.h"

#define CHECK_NAME(id, name, level, what) name,
static const char *const check_names[] = {ZP_CHECKS(CHECK_NAME)};
#undef CHECK_NAME
#define CHECK_LEVEL(id, name, level, what) level,
static const uint8_t check_levels[] = {ZP_CHECKS(CHECK_LEVEL)};
#undef CHECK_LEVEL
#define CHECK_WHAT(id, name, level, what) what,
static const char *const check_whats[] = {ZP_CHECKS(CHECK_WHAT)};
#undef CHECK_WHAT

void zp_check_defaults(zp_check_options *o)
{
  memset(o, 0, sizeof *o);
  memcpy(o->level, check_levels, sizeof o->level);
  o->sig_min_validity = 7 * 86400;
  o->max_records_per_type = o->max_types_per_name = 100;
}

bool zp_check_option(zp_check_options *o, const char *arg)
{
  uint8_t level = ZP_LEVEL_WARNING;
  if (strncmp(arg, "no-", 3) == 0) {
    arg += 3;
    level = ZP_LEVEL_OFF;
  } else if (strncmp(arg, "error=", 6) == 0) {
    arg += 6;
    level = ZP_LEVEL_ERROR;
  }
  for (size_t i = 0; i < ZP_CK_COUNT; i++) {
    if (strcmp(arg, check_names[i]) != 0)
      continue;
    if (level == ZP_LEVEL_WARNING)
      level = check_levels[i] == ZP_LEVEL_ERROR ? ZP_LEVEL_ERROR : ZP_LEVEL_WARNING;
    o->level[i] = level;
    return true;
  }
  return false;
}

const char *zp_check_name(zp_check_id id)
{
  return check_names[id];
}

zp_check_level zp_check_default(zp_check_id id)
{
  return (zp_check_level)check_levels[id];
}

const char *zp_check_what(zp_check_id id)
{
  return check_whats[id];
}

const zp_check_doc *zp_check_doc_of(zp_check_id id)
{
  for (size_t i = 0; i < zp_check_docs_n; i++)
    if (strcmp(zp_check_docs[i].name, check_names[id]) == 0)
      return &zp_check_docs[i];
  return NULL;
}
