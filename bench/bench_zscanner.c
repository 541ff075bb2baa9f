/* bench_zscanner.c -- Knot DNS's zone scanner (libzscanner) alone, with a callback that only
 * counts: the parse-only peer of bench_parse.c, which prints the same line */
#include <libzscanner/scanner.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

static void count(zs_scanner_t *s)
{
  ++*(unsigned long *)s->process.data;
}

/* usage: bench_zscanner ORIGIN ZONE -- prints records, seconds, records/s and MB/s on one line */
int main(int argc, char **argv)
{
  if (argc != 3) {
    fputs("usage: bench_zscanner ORIGIN ZONE\n", stderr);
    return 2;
  }
  struct stat sb;
  if (stat(argv[2], &sb) != 0) {
    perror(argv[2]);
    return 2;
  }
  static zs_scanner_t s;   /* (some 100 KB: RDATA buffers) */
  unsigned long records = 0;
  if (zs_init(&s, argv[1], 1, 3600) != 0 || zs_set_input_file(&s, argv[2]) != 0 ||
      zs_set_processing(&s, count, NULL, &records) != 0) {
    fprintf(stderr, "bench_zscanner: %s: %s\n", argv[2], zs_strerror(s.error.code));
    zs_deinit(&s);
    return 2;
  }
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  int rc = zs_parse_all(&s);
  clock_gettime(CLOCK_MONOTONIC, &b);
  zs_deinit(&s);
  if (rc != 0) {
    fprintf(stderr, "bench_zscanner: %s: refused at line %llu\n", argv[2],
            (unsigned long long)s.line_counter);
    return 1;
  }
  double secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
  printf("%lu %.3f %.0f %.1f\n", records, secs, (double)records / secs,
         (double)sb.st_size / 1048576.0 / secs);
  return 0;
}
