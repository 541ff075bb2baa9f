/* zscanner_driver.c -- a zone file as Knot DNS reads it: libzscanner, the scanner knotd and
 * kzonecheck load zones with, prints each record as "owner-hex TTL class type rdata-hex" (the
 * owner and RDATA in wire form, lowercase hex) and each error as "error LINE message" on stdout.
 * Knot itself prints nothing of what it read; the round-trip test (check_roundtrip.py) compares
 * these octets with zonepuny's.
 *
 *   zscanner_driver ORIGIN FILE      exit 0, or 1 when any line was refused, 2 on a usage error
 */
#include <libzscanner/scanner.h>
#include <stdio.h>

static void hex(const uint8_t *d, size_t n)
{
  for (size_t i = 0; i < n; i++)
    printf("%02x", d[i]);
}

static void record(zs_scanner_t *s)
{
  hex(s->r_owner, s->r_owner_length);
  printf(" %u %u %u ", (unsigned)s->r_ttl, (unsigned)s->r_class, (unsigned)s->r_type);
  hex(s->r_data, s->r_data_length);
  putchar('\n');
}

static void error(zs_scanner_t *s)
{
  printf("error %llu %s\n", (unsigned long long)s->line_counter, zs_strerror(s->error.code));
  *(int *)s->process.data = 1;
}

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: zscanner_driver ORIGIN FILE\n");
    return 2;
  }
  static zs_scanner_t s;   /* (some 100 KB: RDATA buffers) */
  int refused = 0;
  if (zs_init(&s, argv[1], 1, 3600) != 0 || zs_set_input_file(&s, argv[2]) != 0 ||
      zs_set_processing(&s, record, error, &refused) != 0) {
    fprintf(stderr, "zscanner_driver: cannot read %s: %s\n", argv[2], zs_strerror(s.error.code));
    zs_deinit(&s);
    return 2;
  }
  int rc = zs_parse_all(&s);
  zs_deinit(&s);
  return rc != 0 || refused ? 1 : 0;
}
