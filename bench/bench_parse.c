/* bench_parse.c -- the front end alone: zp_zone_parse with a callback that only counts */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "read/zone.h"

typedef struct tally {
  unsigned long records, fields;
} tally;

static zp_status count(void *user, const zp_record *rec)
{
  tally *t = user;
  t->records++;
  t->fields += rec->nfields;
  return ZP_OK;
}

/* usage: bench_parse ZONE -- prints records, seconds, records/s and MB/s on one line */
int main(int argc, char **argv)
{
  if (argc != 2) {
    fputs("usage: bench_parse ZONE\n", stderr);
    return 2;
  }
  struct stat sb;
  if (stat(argv[1], &sb) != 0) {
    perror(argv[1]);
    return 2;
  }
  zp_diag diag;
  zp_diag_init(&diag, stderr);
  zp_zone_options opt = {0};
  tally t = {0};
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  zp_status st = zp_zone_parse(argv[1], &opt, &diag, count, &t);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
  if (st != ZP_OK || diag.errors) {
    fprintf(stderr, "bench_parse: %s: %s, %u errors\n", argv[1], zp_strerror(st), diag.errors);
    return 1;
  }
  printf("%lu %.3f %.0f %.1f\n", t.records, s, (double)t.records / s,
         (double)sb.st_size / 1048576.0 / s);
  return 0;
}
