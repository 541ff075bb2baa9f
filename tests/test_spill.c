/* test_spill.c -- sorted runs: whatever the memory, entries come back in the comparator's order,
 * every one exactly once, and no temporary file is left in $TMPDIR. The reference order is
 * qsort over the same entries. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/spill.h"
#include "core/tmpfile.h"
#include "xorshift.h"

/* An entry: a 2-octet length, then that many octets; ordered as octet strings, shorter first
 * on a tie, then by an 8-octet serial after the text, so no two entries are equal. */
static int cmp(const uint8_t *a, const uint8_t *b)
{
  size_t na = (size_t)a[0] << 8 | a[1], nb = (size_t)b[0] << 8 | b[1];
  int c = memcmp(a + 2, b + 2, na < nb ? na : nb);
  if (c != 0)
    return c;
  if (na != nb)
    return na < nb ? -1 : 1;
  return memcmp(a + 2 + na, b + 2 + nb, 8);
}

/* The window of the string text, 0, serial (the 0 sorts before any letter, so a text's end
 * before a longer text's next letter): complete when the string ends within it. The window
 * past 24 octets is what orders texts sharing their first 24 letters. */
static bool window_of(const uint8_t *e, size_t window, bool serial, uint8_t out[ZP_SPILL_PREFIX])
{
  size_t n = (size_t)e[0] << 8 | e[1];
  uint8_t str[ZP_SPILL_ENTRY_MAX + 1 + 8];
  memcpy(str, e + 2, n);
  str[n] = 0;
  size_t len = n + 1;
  if (serial) {
    memcpy(str + len, e + 2 + n, 8);
    len += 8;
  }
  memset(out, 0, ZP_SPILL_PREFIX);
  size_t from = window * ZP_SPILL_PREFIX;
  if (from < len)
    memcpy(out, str + from, len - from < ZP_SPILL_PREFIX ? len - from : ZP_SPILL_PREFIX);
  return len <= from + ZP_SPILL_PREFIX;
}

static bool prefix(const uint8_t *e, size_t len, size_t window, uint8_t out[ZP_SPILL_PREFIX],
                   void *ctx)
{
  (void)len;
  (void)ctx;
  return window_of(e, window, true, out);
}

static int qcmp(const void *a, const void *b)
{
  return cmp(*(const uint8_t *const *)a, *(const uint8_t *const *)b);
}

/* The text alone, for complete prefixes: entries of equal text must come back in the order
 * they were added (which is the order of their serials). */
static int cmp_text(const uint8_t *a, const uint8_t *b)
{
  size_t na = (size_t)a[0] << 8 | a[1], nb = (size_t)b[0] << 8 | b[1];
  int c = memcmp(a + 2, b + 2, na < nb ? na : nb);
  return c != 0 ? c : (na > nb) - (na < nb);
}

/* The text and its 0 alone: equal texts are equal strings, ordered by the adding. */
static bool prefix_complete(const uint8_t *e, size_t len, size_t window,
                            uint8_t out[ZP_SPILL_PREFIX], void *ctx)
{
  (void)len;
  (void)ctx;
  return window_of(e, window, false, out);
}

static bool complete_mode;
static size_t last_peak;   /* zp_spill_peak of round_trip's spill */

/* n random entries (texts over a small alphabet, so that prefixes often tie) through a spill of
 * mem octets; checks the order against qsort and returns the number of runs spilled. */
static size_t round_trip(size_t n, size_t mem, uint64_t seed)
{
  uint8_t **e = calloc(n, sizeof *e);
  cr_assert_not_null(e);
  zp_spill *s;
  cr_assert_eq(zp_spill_new(mem, ZP_SPILL_ENTRY_MAX, complete_mode ? cmp_text : cmp,
                            complete_mode ? prefix_complete : prefix, NULL, &s), ZP_OK);
  for (size_t i = 0; i < n; i++) {
    size_t len = xorshift64star(&seed) % (complete_mode ? 6 : 40);
    e[i] = malloc(2 + len + 8);
    e[i][0] = (uint8_t)(len >> 8);
    e[i][1] = (uint8_t)len;
    for (size_t k = 0; k < len; k++)
      e[i][2 + k] = (uint8_t)('a' + xorshift64star(&seed) % 3);
    for (size_t k = 0; k < 8; k++)
      e[i][2 + len + k] = (uint8_t)(i >> (56 - 8 * k));
    struct iovec part = {e[i], 2 + len + 8};
    cr_assert_eq(zp_spill_add(s, &part, 1), ZP_OK);
  }
  qsort(e, n, sizeof *e, qcmp);
  for (size_t i = 0; i <= n; i++) {
    const uint8_t *got;
    size_t len;
    cr_assert_eq(zp_spill_next(s, &got, &len), ZP_OK);
    if (i == n) {
      cr_assert_null(got, "more entries than were added");
      break;
    }
    cr_assert_not_null(got, "entry %zu of %zu missing", i, n);
    size_t want = 2 + ((size_t)e[i][0] << 8 | e[i][1]) + 8;
    cr_assert(len == want && memcmp(got, e[i], len) == 0, "entry %zu out of order", i);
  }
  size_t runs = zp_spill_runs(s);
  last_peak = zp_spill_peak(s);
  zp_spill_free(s);
  for (size_t i = 0; i < n; i++)
    free(e[i]);
  free(e);
  return runs;
}

Test(spill, in_memory)
{
  cr_assert_eq(round_trip(10000, 16u << 20, 1), 0, "10,000 entries fit in 16 MiB");
}

Test(spill, runs)
{
  /* about 50 octets an entry against 64 KiB: some 20 runs, one merge */
  size_t runs = round_trip(20000, 64 * 1024, 2);
  cr_assert(runs > 1 && runs <= 64, "%zu runs", runs);
}

Test(spill, merge_passes)
{
  /* more runs than one merge takes (64): merged 64 at a time first */
  size_t runs = round_trip(300000, 64 * 1024, 3);
  cr_assert(runs > 64, "%zu runs", runs);
}

Test(spill, complete_prefixes_keep_input_order)
{
  /* texts of at most 5 letters: many equal ones, told apart only by the order of adding */
  complete_mode = true;
  cr_assert_gt(round_trip(100000, 64 * 1024, 5), 1);
  cr_assert_eq(round_trip(5000, 16u << 20, 6), 0);
}

Test(spill, empty)
{
  cr_assert_eq(round_trip(0, 0, 4), 0);
}

/* Without a prefix the spill is a log: entries of any size come back in the order they were
 * added, from memory and across runs (several hundred of them: merge passes too). */
Test(spill, without_order_keeps_the_order_of_adding)
{
  for (size_t mem = 64 * 1024; mem <= 16u << 20; mem *= 256) {
    zp_spill *s;
    cr_assert_eq(zp_spill_new(mem, ZP_SPILL_ENTRY_MAX, NULL, NULL, NULL, &s), ZP_OK);
    uint64_t seed = 9;
    size_t n = 200000;
    for (size_t i = 0; i < n; i++) {
      uint8_t e[64];
      size_t len = 5 + xorshift64star(&seed) % 59;
      memset(e, (int)(i % 251), len);
      memcpy(e, &i, 4);
      struct iovec part = {e, len};
      cr_assert_eq(zp_spill_add(s, &part, 1), ZP_OK);
    }
    seed = 9;
    for (size_t i = 0; i < n; i++) {
      const uint8_t *got;
      size_t len, want = 5 + xorshift64star(&seed) % 59;
      uint32_t k;
      cr_assert_eq(zp_spill_next(s, &got, &len), ZP_OK);
      cr_assert_not_null(got, "entry %zu missing", i);
      memcpy(&k, got, 4);
      cr_assert(len == want && k == (uint32_t)i && got[len - 1] == i % 251,
                "entry %zu: %u of %zu octets", i, k, len);
    }
    const uint8_t *got;
    size_t len;
    cr_assert_eq(zp_spill_next(s, &got, &len), ZP_OK);
    cr_assert_null(got);
    cr_assert(mem > 64 * 1024 || zp_spill_runs(s) > 64, "%zu runs", zp_spill_runs(s));
    zp_spill_free(s);
  }
}

Test(spill, entry_too_long)
{
  zp_spill *s;
  static uint8_t big[ZP_SPILL_ENTRY_MAX + 1];
  cr_assert_eq(zp_spill_new(0, ZP_SPILL_ENTRY_MAX, cmp, prefix, NULL, &s), ZP_OK);
  struct iovec parts[2] = {{big, sizeof big / 2}, {big, sizeof big - sizeof big / 2}};
  cr_assert_eq(zp_spill_add(s, parts, 2), ZP_EBUFFER);
  zp_spill_free(s);
}

/* Entries past 65,535 octets (their lengths four octets in the file): at the least memory each
 * run holds one or two of them, and merges take two runs at a time. An entry is a 4-octet key,
 * then octets made from it; ordered as octet strings. */
enum { BIG = 70000 };

static int big_cmp(const uint8_t *a, const uint8_t *b)
{
  return memcmp(a, b, BIG);
}

static bool big_prefix(const uint8_t *e, size_t len, size_t window, uint8_t out[ZP_SPILL_PREFIX],
                       void *ctx)
{
  (void)ctx;
  size_t from = window * ZP_SPILL_PREFIX;
  memset(out, 0, ZP_SPILL_PREFIX);
  if (from < len)
    memcpy(out, e + from, len - from < ZP_SPILL_PREFIX ? len - from : ZP_SPILL_PREFIX);
  return len <= from + ZP_SPILL_PREFIX;
}

static void big_entry(uint8_t *e, uint32_t key)
{
  for (size_t i = 0; i < 4; i++)
    e[i] = (uint8_t)(key >> (24 - 8 * i));
  for (size_t i = 4; i < BIG; i++)
    e[i] = (uint8_t)(key * 31 + i);
}

/* mem: the least (a run of one or two entries, merges of two), and 1 MiB (where an eighth of
 * memory is more than the write buffer's 64 KiB and less than an entry) */
static void big_round_trip(size_t mem)
{
  static uint8_t e[BIG], want[BIG];
  uint32_t keys[60];
  zp_spill *s;
  cr_assert_eq(zp_spill_new(mem, BIG, big_cmp, big_prefix, NULL, &s), ZP_OK);
  for (uint32_t i = 0; i < 60; i++) {
    keys[i] = (i * 2654435761u) >> 8;   /* distinct, in no order */
    big_entry(e, keys[i]);
    struct iovec part = {e, BIG};
    cr_assert_eq(zp_spill_add(s, &part, 1), ZP_OK);
  }
  for (size_t i = 1; i < 60; i++)
    for (size_t j = i; j > 0 && keys[j - 1] > keys[j]; j--) {
      uint32_t t = keys[j];
      keys[j] = keys[j - 1];
      keys[j - 1] = t;
    }
  for (size_t i = 0; i < 60; i++) {
    const uint8_t *got;
    size_t len;
    cr_assert_eq(zp_spill_next(s, &got, &len), ZP_OK);
    cr_assert_not_null(got, "mem %zu: entry %zu missing", mem, i);
    cr_assert_eq(len, BIG);
    big_entry(want, keys[i]);
    cr_assert(memcmp(got, want, BIG) == 0, "mem %zu: entry %zu is not that of key %u", mem, i,
              keys[i]);
  }
  const uint8_t *end;
  size_t len;
  cr_assert_eq(zp_spill_next(s, &end, &len), ZP_OK);
  cr_assert_null(end);
  cr_assert_gt(zp_spill_runs(s), 3, "mem %zu: %zu runs", mem, zp_spill_runs(s));
  zp_spill_free(s);
}

Test(spill, entries_past_65535_octets)
{
  big_round_trip(0);
  big_round_trip(1u << 20);
}

Test(spill, no_file_left)
{
  char dir[] = "/tmp/zp-spill-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  setenv("TMPDIR", dir, 1);
  zp_spill *s;
  cr_assert_eq(zp_spill_new(0, ZP_SPILL_ENTRY_MAX, cmp, prefix, NULL, &s), ZP_OK);
  uint8_t e[2 + 30 + 8] = {0, 30};
  for (unsigned i = 0; i < 10000; i++) {
    memcpy(e + 2, &i, sizeof i);
    struct iovec part = {e, sizeof e};
    cr_assert_eq(zp_spill_add(s, &part, 1), ZP_OK);
  }
  cr_assert_gt(zp_spill_runs(s), 0);
  /* the file exists only as an open descriptor: the directory is empty while it is in use */
  DIR *d = opendir(dir);
  cr_assert_not_null(d);
  struct dirent *de;
  int files = 0;
  while ((de = readdir(d)))
    files += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
  closedir(d);
  zp_spill_free(s);
  cr_assert_eq(files, 0, "a temporary file is visible in TMPDIR");
  cr_assert_eq(rmdir(dir), 0);
}

/* What the spill holds at once stays within what it was given (32 KiB at least): its buffer
 * while entries come, its readers and write buffer while runs merge, however many runs there
 * are (at 32 KiB a merge takes only six runs at a time: many levels of merges). */
Test(spill, memory_stays_within_its_bound)
{
  static const size_t mems[] = {0, 40 * 1024, 64 * 1024, 300 * 1024, 1u << 20};
  for (size_t i = 0; i < sizeof mems / sizeof *mems; i++) {
    size_t bound = mems[i] < 32 * 1024 ? 32 * 1024 : mems[i];
    size_t runs = round_trip(150000, mems[i], 10 + i);
    cr_assert_gt(runs, 2, "mem %zu: %zu runs", mems[i], runs);
    cr_assert(last_peak <= bound && last_peak > bound / 2, "mem %zu: peak %zu", mems[i],
              last_peak);
  }
  cr_assert_eq(round_trip(1000, 16u << 20, 20), 0);
  cr_assert_lt(last_peak, 1u << 20, "1,000 entries in memory: peak %zu", last_peak);
}

/* The octets written to temporary files count against the bound: a spill past it stops with
 * ZP_ETMPLIMIT, from then on, and gives its octets back when freed; merged runs are punched
 * out, so that a sort of many levels holds about twice its entries, not once per level. */
Test(spill, bound_on_temporary_files)
{
  zp_tmp_begin();
  zp_tmp_set_limit(200 * 1024);
  zp_spill *s;
  cr_assert_eq(zp_spill_new(0, ZP_SPILL_ENTRY_MAX, cmp, prefix, NULL, &s), ZP_OK);
  uint8_t e[2 + 30 + 8] = {0, 30};
  zp_status st = ZP_OK;
  unsigned i = 0;
  for (; i < 100000 && st == ZP_OK; i++) {
    memcpy(e + 2, &i, sizeof i);
    struct iovec part = {e, sizeof e};
    st = zp_spill_add(s, &part, 1);
  }
  cr_assert_eq(st, ZP_ETMPLIMIT, "entry %u: %s", i, zp_errname(st));
  /* 42 octets an entry in the file, which holds each once and, while runs merge, twice: it
   * stopped between 200 KiB of entries over two and all of them (and a buffer of them in
   * memory, 32 KiB at most) */
  cr_assert(i > 200 * 1024 / 42 / 2 && i < (200 + 32) * 1024 / 42, "stopped at entry %u", i);
  cr_assert(zp_tmp_reached());
  cr_assert_leq(zp_tmp_used(), 200 * 1024);
  const uint8_t *got;
  size_t len;
  cr_assert_eq(zp_spill_next(s, &got, &len), ZP_ETMPLIMIT, "the bound reached holds");
  zp_spill_free(s);
  cr_assert_eq(zp_tmp_used(), 0);

  /* 2 MB of entries sorted in 32 KiB (a dozen levels of merges) under a bound of 5 MB */
  zp_tmp_begin();
  zp_tmp_set_limit(5u << 20);
  cr_assert_eq(zp_spill_new(0, ZP_SPILL_ENTRY_MAX, cmp, prefix, NULL, &s), ZP_OK);
  for (i = 0; i < 50000; i++) {
    memcpy(e + 2, &i, sizeof i);
    struct iovec p = {e, sizeof e};
    cr_assert_eq(zp_spill_add(s, &p, 1), ZP_OK, "entry %u", i);
  }
  for (i = 0; i < 50000; i++) {
    cr_assert_eq(zp_spill_next(s, &got, &len), ZP_OK, "entry %u", i);
    cr_assert_not_null(got);
  }
  zp_spill_free(s);
  cr_assert_eq(zp_tmp_used(), 0);
  cr_assert(!zp_tmp_reached());
  zp_tmp_set_limit(0);
}

/* The default bound follows the zone's octets read: 64 times them, 1 GiB at the least; a bound
 * given holds whatever is read, and UINT64_MAX is none. */
Test(spill, default_bound_follows_the_input)
{
  zp_tmp_set_limit(0);
  zp_tmp_begin();
  cr_assert_eq(zp_tmp_limit(), (uint64_t)1 << 30);
  zp_tmp_input(10u << 20);   /* 640 MiB: under the floor */
  cr_assert_eq(zp_tmp_limit(), (uint64_t)1 << 30);
  cr_assert(zp_tmp_default());
  zp_tmp_input(90u << 20);   /* 100 MiB read */
  cr_assert_eq(zp_tmp_limit(), (uint64_t)6400 << 20);
  zp_tmp_begin();            /* a new zone */
  cr_assert_eq(zp_tmp_limit(), (uint64_t)1 << 30);
  zp_tmp_set_limit(5000);
  zp_tmp_input(1u << 30);
  cr_assert_eq(zp_tmp_limit(), 5000);
  cr_assert(!zp_tmp_default());
  zp_tmp_set_limit(UINT64_MAX);
  cr_assert(zp_tmp_take(UINT64_MAX / 2));
  zp_tmp_give(UINT64_MAX / 2);
  cr_assert_eq(zp_tmp_used(), 0);
  zp_tmp_set_limit(0);
}
