/* conf_driver.c -- zp_conf_read over one named.conf, for tests/cli/check_named_conf_zones.sh */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "cli/conf.h"

/* Usage: conf_driver NAMED.CONF
 * One line per zone, in the reader's order:
 *   VIEW<TAB>NAME<TAB>FILE<TAB>CHECK-NAMES<TAB>KIND<TAB>DIR<TAB>RECORDS<TAB>TYPES<TAB>TTL
 * VIEW "-" outside views; CHECK-NAMES ignore, warn or fail (the caller's default: fail);
 * KIND zone, or hint (read as a piece of the root zone, no checks); DIR what a relative
 * $INCLUDE in FILE is relative to; RECORDS and TYPES the zone's max-records-per-type and
 * max-types-per-name (0: no limit; the caller's default: 100), TTL its max-zone-ttl in seconds
 * or "-" for none. The conf's errors and warnings go to stderr as zonepuny writes them.
 * Exit 0 when the conf is read, 1 when it has errors, 2 when it cannot be read. */
int main(int argc, char **argv)
{
  static const char *const levels[] = {"ignore", "warn", "fail"};
  if (argc != 2) {
    fputs("usage: conf_driver NAMED.CONF\n", stderr);
    return 2;
  }
  zp_check_options checks;
  zp_check_defaults(&checks);
  zp_diag diag;
  zp_diag_init(&diag, stderr);
  zp_diag_begin(&diag, NULL, 0, "test");
  zp_conf *conf;
  zp_status st = zp_conf_read(argv[1], &checks, &diag, &conf);
  zp_diag_end(&diag);
  if (st != ZP_OK) {
    fprintf(stderr, "conf_driver: %s: %s\n", argv[1],
            st == ZP_EIO ? strerror(errno) : zp_strerror(st));
    return 2;
  }
  if (!conf)
    return 1;
  for (size_t i = 0; i < zp_conf_count(conf); i++) {
    const zp_conf_zone *z = zp_conf_zone_at(conf, i);
    char ttl[16] = "-";
    if (z->checks.max_zone_ttl_set)
      snprintf(ttl, sizeof ttl, "%u", z->checks.max_zone_ttl);
    printf("%s\t%s\t%s\t%s\t%s\t%s\t%u\t%u\t%s\n", z->view ? z->view : "-", z->name,
           z->file, levels[z->checks.level[ZP_CK_CHECK_NAMES]], z->hint ? "hint" : "zone", z->dir,
           z->checks.max_records_per_type, z->checks.max_types_per_name, ttl);
  }
  zp_conf_free(conf);
  return fflush(stdout) == 0 ? 0 : 2;
}
