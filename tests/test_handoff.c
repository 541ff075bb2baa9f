/* test_handoff.c -- entries handed between threads: on a thread of their own or on the caller's,
 * the taker sees every entry once, whole, in the order put, across blocks; a failure stops the
 * taking at the entry that failed and comes back to the caller; an entry larger than a block
 * is refused. The entries are made from their number, so the taker can tell each one. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/handoff.h"
#include "xorshift.h"

typedef struct seen {
  uint32_t next;         /* the number the next entry must have */
  uint32_t fail_at;      /* fail on this entry (UINT32_MAX: never) */
  uint32_t wrong;        /* entries out of order or not as put */
} seen;

/* Entry k: its number (4 octets), then (k * 7919) % 301 octets, octet i being (k + i) & 0xff. */
static size_t entry_of(uint32_t k, uint8_t *out)
{
  size_t n = (size_t)(k * 7919u % 301u);
  memcpy(out, &k, sizeof k);
  for (size_t i = 0; i < n; i++)
    out[sizeof k + i] = (uint8_t)(k + i);
  return sizeof k + n;
}

static zp_status take(void *ctx, const uint8_t *e, size_t len)
{
  seen *s = ctx;
  uint8_t want[4 + 301];
  size_t n = entry_of(s->next, want);
  if (len != n || memcmp(e, want, n) != 0)
    s->wrong++;
  if (s->next++ == s->fail_at)
    return ZP_ETMPLIMIT;
  return ZP_OK;
}

/* Puts count entries, each in two parts split at a random point, through a handoff of block
 * octets; the status of the end. */
static zp_status run(bool threaded, size_t block, uint32_t count, seen *s, uint32_t *put)
{
  zp_handoff *h;
  cr_assert_eq(zp_handoff_new(block, threaded, take, s, &h), ZP_OK);
  cr_assert_eq(zp_handoff_bytes(h), 4 * block);
  uint64_t rng = 42;
  uint8_t e[4 + 301];
  zp_status st = ZP_OK;
  for (*put = 0; *put < count && st == ZP_OK; (*put)++) {
    size_t n = entry_of(*put, e), cut = xorshift64star(&rng) % (n + 1);
    struct iovec parts[2] = {{e, cut}, {e + cut, n - cut}};
    st = zp_handoff_put(h, parts, 2);
  }
  zp_status end = zp_handoff_end(h);
  cr_assert_eq(zp_handoff_end(h), end, "a second end returns the same");
  if (st != ZP_OK)
    cr_assert_eq(st, end, "put and end tell the same failure");
  zp_handoff_free(h);
  return end;
}

static void every_entry_in_order(bool threaded, size_t block)
{
  seen s = {.fail_at = UINT32_MAX};
  uint32_t put;
  cr_assert_eq(run(threaded, block, 200000, &s, &put), ZP_OK);
  cr_assert_eq(put, 200000);
  cr_assert_eq(s.next, 200000, "taken: %u of 200000", s.next);
  cr_assert_eq(s.wrong, 0);
}

Test(handoff, every_entry_in_order_threaded)
{
  every_entry_in_order(true, 4096);      /* a block holds a few entries: the ring turns often */
  every_entry_in_order(true, 256 * 1024);
}

Test(handoff, every_entry_in_order_on_one_thread)
{
  every_entry_in_order(false, 4096);
  every_entry_in_order(false, 256 * 1024);
}

static void failure_stops_taking(bool threaded)
{
  seen s = {.fail_at = 5000};
  uint32_t put;
  cr_assert_eq(run(threaded, 4096, 200000, &s, &put), ZP_ETMPLIMIT);
  cr_assert_eq(s.next, 5001, "entries taken past the failure: %u", s.next - 5001);
  cr_assert_eq(s.wrong, 0);
  /* the caller hears of it within the blocks on their way: four, a few entries each */
  cr_assert_gt(put, 5000);
  cr_assert_lt(put, 5000 + 4 * 4096 / 4, "put after the failure: %u", put - 5000);
}

Test(handoff, failure_stops_taking_threaded)
{
  failure_stops_taking(true);
}

Test(handoff, failure_stops_taking_on_one_thread)
{
  failure_stops_taking(false);
}

Test(handoff, entry_past_a_block)
{
  for (int threaded = 0; threaded < 2; threaded++) {
    seen s = {.fail_at = UINT32_MAX};
    zp_handoff *h;
    cr_assert_eq(zp_handoff_new(4096, threaded, take, &s, &h), ZP_OK);
    static uint8_t big[4096];
    struct iovec fits = {big, 4096 - 4}, too_big = {big, 4096 - 3};
    cr_assert_eq(zp_handoff_put(h, &too_big, 1), ZP_EBUFFER);
    cr_assert_eq(zp_handoff_put(h, &fits, 1), ZP_OK);
    cr_assert_eq(zp_handoff_end(h), ZP_OK);
    zp_handoff_free(h);
    cr_assert_eq(s.next, 1, "the entry that fits is taken, the other is not");
  }
}

Test(handoff, nothing_put)
{
  for (int threaded = 0; threaded < 2; threaded++) {
    seen s = {.fail_at = UINT32_MAX};
    zp_handoff *h;
    cr_assert_eq(zp_handoff_new(4096, threaded, take, &s, &h), ZP_OK);
    zp_handoff_free(h);   /* (without an end: free ends it, and the thread with it) */
    cr_assert_eq(s.next, 0);
  }
}
