/* bench_adversarial.c -- worst-case inputs for the label code: time must grow linearly */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idna/idna.h"
#include "idna/punycode.h"

static volatile size_t sink;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The Punycode part of a maximal label, 59 characters after "xn--" that decode to as many code
 * points as fit: widely spread values make every delta long, the decoder's slowest case. */
static size_t maximal_label(unsigned seed, char *out)
{
  uint32_t cp[63];
  size_t best = 0;
  for (size_t n = 1; n <= 59; n++) {
    for (size_t i = 0; i < n; i++)
      cp[i] = 0x100 + (uint32_t)((seed * 2654435761u + i * 40503u) % 0x2F000u);
    char buf[64];
    size_t len = 59;
    if (zp_puny_encode(cp, n, NULL, buf, &len) != ZP_OK)
      break;
    memcpy(out, buf, len);
    best = len;
  }
  return best;
}

int main(void)
{
  enum { NLABELS = 1024 };
  static char labels[NLABELS][64];
  static size_t lens[NLABELS];
  for (unsigned i = 0; i < NLABELS; i++)
    lens[i] = maximal_label(i, labels[i]);

  printf("Punycode decode of maximal labels (59 characters after xn--):\n");
  printf("%12s %10s %10s\n", "labels", "seconds", "ns/label");
  for (size_t total = 100000; total <= 10000000; total *= 10) {
    uint32_t out[64];
    double t0 = now();
    for (size_t k = 0; k < total; k++) {
      size_t n = 64;
      if (zp_puny_decode(labels[k % NLABELS], lens[k % NLABELS], out, &n, NULL) == ZP_OK)
        sink += n;
    }
    double t = now() - t0;
    printf("%12zu %10.3f %10.1f\n", total, t, t * 1e9 / (double)total);
  }

  /* A label far past 63 octets, as a hostile zone could write one: zonepuny must refuse it in
   * time independent of its length, before decoding (decoding is quadratic in the label). */
  printf("\nACE check of one oversized \"xn--\" label:\n");
  printf("%12s %10s\n", "octets", "seconds");
  for (size_t ncp = 3000; ncp <= 3000000; ncp *= 10) {
    /* A valid encoding, so that nothing but the length can stop the check early; few distinct
     * values keep the encoder itself quick. */
    uint32_t *cp = malloc(ncp * sizeof *cp);
    for (size_t i = 0; i < ncp; i++)
      cp[i] = 0x4E00 + (uint32_t)(i * 7u % 64u);
    size_t len = ncp * 4;
    char *big = malloc(len + 4);
    memcpy(big, "xn--", 4);
    if (zp_puny_encode(cp, ncp, NULL, big + 4, &len) != ZP_OK)
      return 1;
    double t0 = now();
    zp_status st = zp_idna_ace_check(big, len + 4, 0, NULL);
    double t = now() - t0;
    printf("%12zu %10.6f  %s\n", len + 4, t, zp_errname(st));
    free(big);
    free(cp);
  }
  return 0;
}
