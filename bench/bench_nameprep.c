/* bench_nameprep.c -- ns per code point: zp_nameprep versus libidn's stringprep_nameprep */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stringprep.h>
#include <time.h>

#include "idna/nameprep.h"
#include "idna/utf8.h"

enum { MAXL = 32, CAP = 256 };

struct set {
  const char *name;
  const char *labels[MAXL];
  size_t nl;
  uint32_t cps[MAXL][CAP];
  size_t ncps[MAXL];
};

/* Non-ASCII labels of a realistic mix of scripts, as typed (mixed case, some to be folded). */
static struct set typical = {
  "typical non-ASCII labels",
  {"Bücher", "MÜNCHEN", "straße", "Ελληνικά", "россия", "Москва", "日本語", "中文域名",
   "한국어도메인", "עברית", "العربية", "हिन्दी", "ไทยภาษา", "français", "Español",
   "Ærøskøbing", "Øresund", "český", "Türkçe", "polską", "tiếngviệt", "ＡＢＣ全角",
   "ﬁnance", "ドメイン名例", "παράδειγμα", "пример", "例え", "Zürich"},
  28, {{0}}, {0}};

/* Labels that fail the quick check: decomposed input, compatibility forms, conjoining jamo. */
static struct set hard = {
  "labels needing full normalisation",
  {"Bu\xCC\x88" "cher", "franc\xCC\xA7" "ais", "①②③", "㍿株式", "ｶﾞｷﾞｸﾞ",
   "\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB\xEA\xB8\x80", /* 1112 1161 11AB AE00 */
   "tie\xCC\x82\xCC\x81ng", "ﬃx½"},
  8, {{0}}, {0}};

static volatile size_t sink;

/* Thread CPU time: on a shared machine, time spent descheduled is not ours. */
static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int run_ours(const struct set *s)
{
  uint32_t out[CAP * 18];
  for (size_t i = 0; i < s->nl; i++) {
    size_t n = sizeof out / sizeof out[0];
    if (zp_nameprep(s->cps[i], s->ncps[i], out, &n, 0, NULL) != ZP_OK)
      return 1;
    sink += n;
  }
  return 0;
}

static int run_ours_utf8(const struct set *s)
{
  uint32_t in[CAP], out[CAP * 18];
  uint8_t u8[CAP * 18 * 4];
  for (size_t i = 0; i < s->nl; i++) {
    size_t n = CAP, m = sizeof out / sizeof out[0], o = sizeof u8;
    if (zp_utf8_decode((const uint8_t *)s->labels[i], strlen(s->labels[i]), in, &n, NULL) ||
        zp_nameprep(in, n, out, &m, 0, NULL) || zp_utf8_encode(out, m, u8, &o))
      return 1;
    sink += o;
  }
  return 0;
}

static int run_libidn(const struct set *s)
{
  char buf[CAP * 18 * 4];
  for (size_t i = 0; i < s->nl; i++) {
    strcpy(buf, s->labels[i]);
    if (stringprep_nameprep(buf, sizeof buf) != STRINGPREP_OK)
      return 1;
    sink += (unsigned char)buf[0];
  }
  return 0;
}

/* Seconds for `rounds` runs over the set, best of five: the machine is shared, and the least
 * disturbed pass is the one to report. */
static double best(int (*fn)(const struct set *), const struct set *s, long rounds)
{
  double b = 1e30;
  for (int pass = 0; pass < 5; pass++) {
    double t0 = now();
    for (long r = 0; r < rounds; r++)
      if (fn(s) != 0) {
        fprintf(stderr, "bench_nameprep: a label of \"%s\" failed\n", s->name);
        exit(1);
      }
    double t = now() - t0;
    b = t < b ? t : b;
  }
  return b;
}

static void report(struct set *s)
{
  size_t total = 0;
  for (size_t i = 0; i < s->nl; i++) {
    s->ncps[i] = CAP;
    if (zp_utf8_decode((const uint8_t *)s->labels[i], strlen(s->labels[i]), s->cps[i],
                       &s->ncps[i], NULL) != ZP_OK) {
      fprintf(stderr, "bench_nameprep: bad label %zu of \"%s\"\n", i, s->name);
      exit(1);
    }
    total += s->ncps[i];
  }
  const long rounds = 280000 / (long)s->nl;
  double ours = best(run_ours, s, rounds), ours8 = best(run_ours_utf8, s, rounds);
  double idn = best(run_libidn, s, rounds);
  double labs = (double)rounds * (double)s->nl, cpn = (double)rounds * (double)total;
  printf("nameprep, %s: %zu labels, %.1f code points per label\n", s->name, s->nl,
         (double)total / (double)s->nl);
  printf("  zp_nameprep (UTF-32)            %7.1f ns/label %6.2f ns/code point\n",
         ours * 1e9 / labs, ours * 1e9 / cpn);
  printf("  zp_nameprep + UTF-8 in and out  %7.1f ns/label %6.2f ns/code point\n",
         ours8 * 1e9 / labs, ours8 * 1e9 / cpn);
  printf("  libidn stringprep_nameprep      %7.1f ns/label %6.2f ns/code point\n",
         idn * 1e9 / labs, idn * 1e9 / cpn);
  printf("  libidn / ours: %.1fx (UTF-32), %.1fx (UTF-8)\n", idn / ours, idn / ours8);
}

int main(void)
{
  report(&typical);
  report(&hard);
  return 0;
}
