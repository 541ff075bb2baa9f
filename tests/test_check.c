/* test_check.c -- the whole-zone check engine's parts, without a zone:
 *  - keyset (check/keyset.c): keys come back in the order added, each with its value; a key
 *    added is found and one not added is not, below KEYS_LINEAR (16) keys and past it, where an
 *    index by hash takes over, including keys a multiplicative hash handles worst (differing
 *    only in high bits, or multiples of 2^16 and 2^32); emptying forgets every key, keeps a set
 *    of up to KEYS_KEEP (256) entries' room and lets a larger one go;
 *  - nameset (check/nameset.c): flags of one hash OR together, hash 0 is a name like any other,
 *    only 60 bits of a hash count, and max refuses growing rather than passing it;
 *  - the tuples' order (check/tuple.c): sort keys as RFC 4034 section 6.1 orders names, the
 *    string zp_ck_key_prefix makes for spill, zp_ck_tuple_cmp agreeing with it, and spill
 *    handing tuples back in that order.
 * Expectations are written by hand from the comments of check_int.h, keyset.c, nameset.c,
 * tuple.c, spill.h and wire_name.h, or come from references kept here (flags or a value per key
 * of a small universe) driven by xorshift64* with fixed seeds. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "check/check_int.h"
#include "core/spill.h"
#include "record/wire_name.h"
#include "xorshift.h"

/* ---- keyset ---- */

/* (splitmix64's finisher) */
static uint64_t mix(uint64_t x)
{
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

/* Key k of a family. HIGH keys differ only in bits 52 and up: the index hashes by the top half
 * of key * constant, masked, so they all land on one slot (k < 4096). LOW32 and LOW16 keys
 * share their low 32 or 16 bits; MIXED keys are random above 2^31 + k. Over k < 1639 the
 * families do not overlap (PLAIN below 2^11, LOW16 in [2^16, 2^27] and LOW32 and HIGH with low
 * 16 bits 0 and bit 31 clear, MIXED with bit 31 set). */
enum { PLAIN, HIGH, LOW32, LOW16, MIXED, FAMILIES };
static uint64_t key_of(int fam, uint64_t k)
{
  switch (fam) {
  case PLAIN: return k;
  case HIGH: return k << 52 | UINT64_C(1) << 51;
  case LOW32: return (k + 1) << 32;
  case LOW16: return (k + 1) << 16;
  default: return mix(k) << 32 | UINT64_C(1) << 31 | k;
  }
}

/* What check_int.h says of a keyset whatever it holds: n within cap; nindex 0 or a power of
 * two; each key knows its slot, which holds its number + 1. A count of the keys that do not. */
static size_t kset_misplaced(const zp_ck_keyset *s)
{
  cr_assert_leq(s->n, s->cap);
  cr_assert(s->nindex == 0 || (s->nindex & (s->nindex - 1)) == 0, "nindex %zu", s->nindex);
  size_t bad = 0;
  for (size_t i = 0; s->nindex && i < s->n; i++)
    bad += s->e[i].slot >= s->nindex || s->index[s->e[i].slot] != i + 1;
  return bad;
}

#define val_of(k) ((uint32_t)((k) * 2654435761u + 7))

/* Adds keys from..to of a family; each add returns the new entry, last in the order. */
static void kset_fill(zp_ck_keyset *s, int fam, size_t from, size_t to)
{
  for (size_t k = from; k < to; k++) {
    zp_ck_kentry *e = zp_ck_kset_add(s, key_of(fam, k), val_of(k));
    cr_assert(e == &s->e[s->n - 1] && e->key == key_of(fam, k) && e->val == val_of(k),
              "family %d: add of key %zu", fam, k);
  }
}

/* s holds keys 0..n of the family, in order, with their values: each is found at its place, and
 * the next `absent` keys (not added) are not. */
static void kset_absent(const zp_ck_keyset *s, int fam, size_t n, size_t absent)
{
  cr_assert_eq(s->n, n, "family %d", fam);
  size_t bad = kset_misplaced(s), lost = 0, order = 0, ghosts = 0;
  for (size_t k = 0; k < n; k++) {
    order += s->e[k].key != key_of(fam, k) || s->e[k].val != val_of(k);
    lost += zp_ck_kset_find(s, key_of(fam, k)) != &s->e[k];
  }
  for (size_t k = n; k < n + absent; k++)
    ghosts += zp_ck_kset_find(s, key_of(fam, k)) != NULL;
  cr_assert(bad == 0 && order == 0 && lost == 0 && ghosts == 0,
            "family %d, %zu keys: %zu misplaced in the index, %zu out of order, %zu not found, "
            "%zu found though never added", fam, n, bad, order, lost, ghosts);
}
#define kset_holds(s, fam, n) kset_absent(s, fam, n, 64)

Test(kset, sizes_around_the_index)
{
  /* checked after each of the first 80 adds (1, 15, 16, 17 among them): the add that builds the
   * index must index the keys searched in turn before it, the adds after it their own; then at
   * 1,000 and 100,000 keys (4,000 for HIGH, all of one slot) */
  for (int fam = 0; fam < FAMILIES; fam++) {
    zp_ck_keyset s = {0};
    for (size_t n = 1; n <= 80; n++) {
      kset_fill(&s, fam, n - 1, n);
      kset_holds(&s, fam, n);
      /* keys compared in turn below KEYS_LINEAR; the 16th builds the index */
      cr_assert_eq(s.nindex != 0, n >= 16, "%zu keys, nindex %zu", n, s.nindex);
    }
    kset_fill(&s, fam, 80, 1000);
    kset_holds(&s, fam, 1000);
    size_t big = fam == HIGH ? 4000 : 100000;   /* (HIGH: 12 bits, 64 left to be absent) */
    kset_fill(&s, fam, 1000, big);
    kset_holds(&s, fam, big);
    zp_ck_kset_free(&s);
  }
}

Test(kset, clear_then_reuse)
{
  for (int fam = 0; fam < FAMILIES; fam++) {
    zp_ck_keyset s = {0};
    zp_ck_kset_clear(&s);   /* a set never used */
    cr_assert_eq(s.n, 0);
    /* 100 keys (cap 128, indexed), then 256 (cap 256): emptied, each keeps its room and index,
     * and an index kept must forget every key, or a find would land on a stale number */
    static const size_t kept[] = {100, 256};
    for (size_t i = 0; i < 2; i++) {
      kset_fill(&s, fam, 0, kept[i]);
      size_t cap = s.cap, nindex = s.nindex;
      cr_assert_leq(cap, 256);
      zp_ck_kset_clear(&s);
      cr_assert(s.n == 0 && s.cap == cap && s.e != NULL && s.nindex == nindex,
                "%zu keys: n %zu cap %zu (was %zu)", kept[i], s.n, s.cap, cap);
      kset_absent(&s, fam, 0, kept[i]);
      /* adds work again, the first few through the index kept */
      for (size_t n = 1; n <= 40; n++) {
        kset_fill(&s, fam, n - 1, n);
        kset_holds(&s, fam, n);
      }
      zp_ck_kset_clear(&s);
    }
    /* grown past KEYS_KEEP (257 entries: cap 512): emptying lets its memory go */
    kset_fill(&s, fam, 0, 257);
    cr_assert_gt(s.cap, 256);
    zp_ck_kset_clear(&s);
    cr_assert(s.n == 0 && s.cap == 0 && s.e == NULL && s.index == NULL && s.nindex == 0,
              "cap %zu nindex %zu after clearing 257 keys", s.cap, s.nindex);
    kset_fill(&s, fam, 0, 300);
    kset_holds(&s, fam, 300);
    zp_ck_kset_free(&s);
  }
}

Test(kset, free_empty)
{
  zp_ck_keyset s = {0};
  for (int i = 0; i < 2; i++) {   /* never used, then used and freed: empty either way */
    zp_ck_kset_free(&s);
    cr_assert(s.e == NULL && s.index == NULL && s.n == 0 && s.cap == 0 && s.nindex == 0);
    kset_fill(&s, MIXED, 0, 50);
  }
  zp_ck_kset_free(&s);
}

/* The universe of the random tests: key u is family u % 5's key u / 5. */
enum { UNIVERSE = 8192 };
#define ukey(u) key_of((int)((u) % FAMILIES), (u) / FAMILIES)

/* Against a reference (the value + 1 of each key of the universe, 0: absent, and the order of
 * adding): random adds of keys not in the set and finds of any key, each round to a size drawn
 * around the switch or well past it, checked whole, then emptied. */
Test(kset, random_against_reference)
{
  static const size_t targets[] = {1, 3, 15, 16, 17, 31, 64, 257, 1000, 3000};
  static uint32_t ref[UNIVERSE];
  static size_t order[UNIVERSE];
  uint64_t rng = 0x5eed;
  zp_ck_keyset s = {0};
  size_t wrong = 0;
  for (int round = 0; round < 120; round++) {
    size_t target = targets[xorshift64star(&rng) % (sizeof targets / sizeof *targets)], n = 0;
    while (n < target) {
      size_t u = xorshift64star(&rng) % UNIVERSE;
      const zp_ck_kentry *e = zp_ck_kset_find(&s, ukey(u));
      if (ref[u] ? !e || e->key != ukey(u) || e->val != ref[u] - 1 : e != NULL)
        wrong++;
      if (!ref[u] && xorshift64star(&rng) % 2) {
        uint32_t v = (uint32_t)xorshift64star(&rng);
        cr_assert_not_null(zp_ck_kset_add(&s, ukey(u), v));
        ref[u] = v + 1;
        order[n++] = u;
      }
    }
    cr_assert_eq(wrong, 0, "round %d: %zu finds disagree with the reference", round, wrong);
    cr_assert_eq(s.n, n);
    cr_assert_eq(kset_misplaced(&s), 0, "round %d", round);
    for (size_t i = 0; i < n; i++)
      cr_assert(s.e[i].key == ukey(order[i]) && s.e[i].val == ref[order[i]] - 1,
                "round %d: entry %zu not the %zuth added", round, i, i);
    zp_ck_kset_clear(&s);
    for (size_t i = 0; i < n; i++)
      ref[order[i]] = 0;
  }
  zp_ck_kset_free(&s);
}

/* ---- nameset ---- */

#define TOP4(x) ((uint64_t)(x) << 60)   /* bits no hash of a name is told by */

Test(nset, flags_or_together)
{
  zp_ck_nameset s = {0};
  cr_assert_eq(zp_ck_set_get(&s, 42), 0, "an empty set (no table yet) holds nothing");
  cr_assert(zp_ck_set_add(&s, 42, N_WILD) == ZP_OK && zp_ck_set_get(&s, 42) == N_WILD);
  cr_assert(zp_ck_set_add(&s, 42, N_ADDR) == ZP_OK && zp_ck_set_add(&s, 42, N_WILD) == ZP_OK);
  cr_assert_eq(zp_ck_set_get(&s, 42), N_WILD | N_ADDR);
  cr_assert(zp_ck_set_add(&s, 43, N_CNAME | N_WILD) == ZP_OK);
  cr_assert(zp_ck_set_add(&s, 42, N_CNAME) == ZP_OK);
  cr_assert_eq(zp_ck_set_get(&s, 42), N_WILD | N_ADDR | N_CNAME);
  cr_assert_eq(zp_ck_set_get(&s, 43), N_CNAME | N_WILD);
  cr_assert(zp_ck_set_get(&s, 44) == 0 && s.n == 2);
  /* 60 bits of hash: one whose top four bits differ is the same name */
  cr_assert_eq(zp_ck_set_get(&s, 42 | TOP4(0xf)), N_WILD | N_ADDR | N_CNAME);
  cr_assert(zp_ck_set_add(&s, 44 | TOP4(0x9), N_ADDR) == ZP_OK);
  cr_assert(zp_ck_set_get(&s, 44) == N_ADDR && s.n == 3);
  free(s.e);
}

Test(nset, hash_zero)
{
  /* 0 is the empty slot, so hash 0 is kept as 1 (nameset.c: h |= !h), with zp_ck_set_get
   * asking the same: 0, 1 and 2^60 are one name */
  zp_ck_nameset s = {0};
  cr_assert_eq(zp_ck_set_get(&s, 0), 0);
  cr_assert_eq(zp_ck_set_add(&s, 0, N_WILD), ZP_OK);
  cr_assert(zp_ck_set_get(&s, 0) == N_WILD && zp_ck_set_get(&s, 1) == N_WILD);
  cr_assert(zp_ck_set_add(&s, 1, N_ADDR) == ZP_OK && zp_ck_set_add(&s, TOP4(1), N_CNAME) == ZP_OK);
  cr_assert_eq(zp_ck_set_get(&s, 0), N_WILD | N_ADDR | N_CNAME);
  cr_assert(s.n == 1 && zp_ck_set_get(&s, 2) == 0);
  free(s.e);
}

/* Names i << 16 (i from 1): one slot for all while the table is under 2^16 slots. */
static zp_status add_names(zp_ck_nameset *s, uint64_t from, uint64_t to)
{
  zp_status st = ZP_OK;
  for (uint64_t i = from; i < to && st == ZP_OK; i++)
    st = zp_ck_set_add(s, i << 16, N_WILD);
  return st;
}

static size_t names_missing(const zp_ck_nameset *s, uint64_t from, uint64_t to)
{
  size_t n = 0;
  for (uint64_t i = from; i < to; i++)
    n += zp_ck_set_get(s, i << 16) != N_WILD;
  return n;
}

Test(nset, max_refuses_growing)
{
  /* a table of 256 words (2 KiB) holds 128 names: the 129th would grow it, holding the old
   * table and one of 512 words at once (6 KiB), one octet more than max */
  zp_ck_nameset s = {.max = 3 * 256 * 8 - 1};
  cr_assert_eq(add_names(&s, 1, 129), ZP_OK);
  cr_assert(s.n == 128 && s.cap == 256, "n %zu cap %zu", s.n, s.cap);
  cr_assert_eq(zp_ck_set_add(&s, (uint64_t)129 << 16, N_WILD), ZP_ECHECKMEM);
  cr_assert(s.n == 128 && s.cap == 256, "refused, the set is as it was");
  cr_assert_eq(names_missing(&s, 1, 129), 0);
  cr_assert_eq(zp_ck_set_get(&s, (uint64_t)129 << 16), 0);
  free(s.e);

  s = (zp_ck_nameset){.max = 3 * 256 * 8};   /* room to grow once, to 512 words: 256 names */
  cr_assert_eq(add_names(&s, 1, 257), ZP_OK);
  cr_assert_eq(s.cap, 512);
  cr_assert_eq(zp_ck_set_add(&s, (uint64_t)257 << 16, N_WILD), ZP_ECHECKMEM);
  cr_assert_eq(names_missing(&s, 1, 257), 0);
  free(s.e);

  s = (zp_ck_nameset){.max = 2047};   /* not even the first table */
  cr_assert_eq(zp_ck_set_add(&s, 1, N_WILD), ZP_ECHECKMEM);
  cr_assert(s.cap == 0 && s.n == 0 && s.e == NULL);
  cr_assert_eq(zp_ck_set_get(&s, 1), 0);

  s = (zp_ck_nameset){0};   /* no bound of its own: grows as it needs */
  cr_assert_eq(add_names(&s, 1, 5001), ZP_OK);
  cr_assert(s.n == 5000 && s.cap >= 10000, "n %zu cap %zu", s.n, s.cap);
  cr_assert_eq(names_missing(&s, 1, 5001), 0);
  cr_assert_eq(names_missing(&s, 5001, 5101), 100, "names never added are absent");
  free(s.e);
}

/* A flag added to a name the set holds takes no room, so the bound does not refuse it, even at
 * the set's load limit (n == cap / 2) with a max that refuses growing (check_int.h: "ZP_ECHECKMEM
 * past max"). It once did: the test for growing came before the lookup, and in a zone with
 * wild.max 3 KiB (--check-memory 16K) the 128th wildcard name's second record stopped the
 * reader. */
Test(nset, flags_on_a_held_name_at_the_bound)
{
  zp_ck_nameset s = {.max = 3072};   /* wild.max of --check-memory 16K */
  cr_assert_eq(add_names(&s, 1, 129), ZP_OK);
  cr_assert_eq(zp_ck_set_add(&s, (uint64_t)1 << 16, N_ADDR), ZP_OK, "a name held needs no room");
  cr_assert_eq(zp_ck_set_get(&s, (uint64_t)1 << 16), N_WILD | N_ADDR);
  free(s.e);
}

/* Name u of the random test: 60-bit hashes, distinct (families apart by their low bits, within
 * a family by k), some sharing their low 16 or 32 bits, name 0 the one of hash 0 (kept as 1). */
static uint64_t uname(size_t u)
{
  uint64_t k = u / 4;
  switch (u % 4) {
  case 0: return k << 32;                                 /* low 32 bits 0; u 0: hash 0 */
  case 1: return (k + 1) << 16;                           /* low 16 bits 0, 16..31 not */
  case 2: return (k + 1) << 40 | 2;                       /* even, bit 1 set */
  default: return (mix(k) & ZP_CK_SET_HASH) | 3;          /* odd, never 1 */
  }
}

Test(nset, random_against_reference)
{
  enum { UNAMES = 4096 };
  uint8_t ref[UNAMES] = {0};
  uint64_t rng = 0xface;
  zp_ck_nameset s = {0};
  size_t held = 0;
  for (int op = 0; op < 200000; op++) {
    size_t u = xorshift64star(&rng) % UNAMES;
    uint64_t top = TOP4(xorshift64star(&rng) & 0xf);   /* asked with any top bits */
    if (xorshift64star(&rng) % 3 == 0) {
      uint8_t f = (uint8_t)(1 + xorshift64star(&rng) % 15);
      cr_assert_eq(zp_ck_set_add(&s, uname(u) | top, f), ZP_OK);
      held += !ref[u];
      ref[u] |= f;
    } else
      cr_assert_eq(zp_ck_set_get(&s, uname(u) | top), ref[u], "op %d: name %zu", op, u);
  }
  cr_assert_eq(s.n, held);
  for (size_t u = 0; u < UNAMES; u++)
    cr_assert_eq(zp_ck_set_get(&s, uname(u)), ref[u], "name %zu", u);
  free(s.e);
}

/* ---- the tuples' order ---- */

/* The checker tuple.c reads: only skip (the first record's zone, "example." here). */
static zp_checker ck;

static void zone_example(void)
{
  ck.skip_len = zp_name_sort_key((const uint8_t *)"\7example", ck.skip);
}

/* A tuple as spill holds it: the tuple, then the key, stored without skip when it starts with
 * it (F_KEY_REL), as zp_ck_add files it; no extra. */
typedef struct entry {
  uint8_t b[sizeof(zp_ck_tuple) + ZP_NAME_KEY_MAX];
  size_t len;
} entry;

static entry make(const char *wire, uint8_t kind, uint16_t rclass, uint16_t rtype,
                  uint16_t covered, uint32_t seq)
{
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t n = zp_name_sort_key((const uint8_t *)wire, key), skip = 0;
  zp_ck_tuple t = {.seq = seq, .rclass = rclass, .rtype = rtype, .covered = covered, .kind = kind};
  if (n >= ck.skip_len && memcmp(key, ck.skip, ck.skip_len) == 0) {
    t.flags |= F_KEY_REL;
    skip = ck.skip_len;
  }
  t.key_len = (uint16_t)(n - skip);
  entry e;
  memcpy(e.b, &t, sizeof t);
  memcpy(e.b + sizeof t, key + skip, n - skip);
  e.len = sizeof t + n - skip;
  return e;
}

/* The whole string zp_ck_key_prefix orders e by, window after window until one is complete
 * (zeros past its end); its length in windows' octets. */
static size_t string_of(const entry *e, uint8_t *out)
{
  size_t w = 0;
  while (!zp_ck_key_prefix(e->b, e->len, w, out + w * ZP_SPILL_PREFIX, &ck))
    w++;
  return (w + 1) * ZP_SPILL_PREFIX;
}

/* RFC 4034 section 6.1's example, in its order, with the sort keys worked out by hand (labels
 * from the root, each ended by 0, folded to lower case, octet 0x01 as 0x01 0x02), and "a\000"
 * (octet 0x00 as 0x01 0x01) after every name under "a". */
static const struct { const char *wire, *key; size_t key_len; } rfc[] = {
  {"\7example", "example\0", 8},
  {"\1a\7example", "example\0a\0", 10},
  {"\10yljkjljk\1a\7example", "example\0a\0yljkjljk\0", 19},
  {"\1Z\1a\7example", "example\0a\0z\0", 12},
  {"\4zABC\1a\7EXAMPLE", "example\0a\0zabc\0", 15},
  {"\2a\0\7example", "example\0a\1\1\0", 12},
  {"\1z\7example", "example\0z\0", 10},
  {"\1\1\1z\7example", "example\0z\0\1\2\0", 13},
  {"\1*\1z\7example", "example\0z\0*\0", 12},
  {"\1\200\1z\7example", "example\0z\0\200\0", 12},
};
enum { RFC_NAMES = sizeof rfc / sizeof *rfc };

Test(order, sort_keys_by_hand)
{
  uint8_t key[ZP_NAME_KEY_MAX];
  cr_assert_eq(zp_name_sort_key((const uint8_t *)"", key), 0, "the root's key is empty");
  for (size_t i = 0; i < RFC_NAMES; i++) {
    size_t n = zp_name_sort_key((const uint8_t *)rfc[i].wire, key);
    cr_assert(n == rfc[i].key_len && memcmp(key, rfc[i].key, n) == 0, "name %zu's key", i);
  }
  /* memcmp, the shorter first on a tie, orders the keys as the RFC lists the names */
  for (size_t i = 1; i < RFC_NAMES; i++) {
    size_t a = rfc[i - 1].key_len, b = rfc[i].key_len;
    int c = memcmp(rfc[i - 1].key, rfc[i].key, a < b ? a : b);
    cr_assert(c < 0 || (c == 0 && a < b), "name %zu before %zu", i - 1, i);
  }
}

/* The string of an entry, by hand: flag (0 before the zone, 1 within, 2 after) and the key
 * past the zone (head), then 0, kind, class, type (, type covered) as big-endian octets. */
static void expect_windows(const entry *e, const char *what, const char *head, size_t head_len,
                           const uint8_t *tail, size_t tail_len)
{
  uint8_t got[ZP_SPILL_PREFIX], pad[3 * ZP_SPILL_PREFIX] = {0};
  memcpy(pad, head, head_len);
  memcpy(pad + head_len, tail, tail_len);
  size_t want_len = head_len + tail_len;
  for (size_t w = 0; w < 3; w++) {
    bool complete = zp_ck_key_prefix(e->b, e->len, w, got, &ck);
    cr_assert_eq(complete, want_len <= (w + 1) * ZP_SPILL_PREFIX, "%s: window %zu complete",
                 what, w);
    cr_assert(memcmp(got, pad + w * ZP_SPILL_PREFIX, ZP_SPILL_PREFIX) == 0, "%s: window %zu",
              what, w);
  }
}

#define EXPECT(e, what, head, ...)                                                 \
  do {                                                                             \
    static const uint8_t tail_[] = {__VA_ARGS__};                                  \
    expect_windows(e, what, head, sizeof head - 1, tail_, sizeof tail_);           \
  } while (0)

Test(order, key_prefix_by_hand, .init = zone_example)
{
  entry e = make("\1a\7example", K_RECORD, ZP_CLASS_IN, ZP_TYPE_A, 0, 0);
  EXPECT(&e, "a.example A", "\1a\0", 0, K_RECORD, 0, 1, 0, 1);
  e = make("\7example", K_RECORD, ZP_CLASS_IN, ZP_TYPE_SOA, 0, 0);
  EXPECT(&e, "the zone's SOA", "\1", 0, K_RECORD, 0, 1, 0, 6);
  e = make("", K_RECORD, ZP_CLASS_IN, ZP_TYPE_NS, 0, 0);
  EXPECT(&e, "the root, above the zone", "\0", 0, K_RECORD, 0, 1, 0, 2);
  e = make("\3com", K_RECORD, ZP_CLASS_CH, ZP_TYPE_NS, 0, 0);
  EXPECT(&e, "com, before", "\0com\0", 0, K_RECORD, 0, 3, 0, 2);
  e = make("\1z", K_TARGET, ZP_CLASS_IN, 0, 0, 0);
  EXPECT(&e, "z's marker, after", "\2z\0", 0, K_TARGET, 0, 1, 0, 0);
  e = make("\1a\7example", K_REF, ZP_CLASS_IN, ZP_TYPE_MX, 0, 0);
  EXPECT(&e, "a reference", "\1a\0", 0, K_REF, 0, 1, 0, 15);
  e = make("\1a\7example", K_RECORD, ZP_CLASS_IN, ZP_TYPE_RRSIG, ZP_TYPE_NS, 0);
  EXPECT(&e, "an RRSIG: type covered", "\1a\0", 0, K_RECORD, 0, 1, 0, 46, 0, 2);
  e = make("\1a\7example", K_RECORD, ZP_CLASS_IN, ZP_TYPE_DNSKEY, 8 | ZP_CK_KEY_KNOWN, 0);
  EXPECT(&e, "a DNSKEY: no algorithm", "\1a\0", 0, K_RECORD, 0, 1, 0, 48);
  /* 1 + 17 + 6 octets: one window, complete; 18 spills its type's last octet over */
  e = make("\20abcdefghijklmnop\7example", K_RECORD, ZP_CLASS_IN, ZP_TYPE_A, 0, 0);
  EXPECT(&e, "24 octets", "\1abcdefghijklmnop\0", 0, K_RECORD, 0, 1, 0, 1);
  e = make("\21abcdefghijklmnopq\7example", K_RECORD, ZP_CLASS_IN, ZP_TYPE_AAAA, 0, 0);
  EXPECT(&e, "25 octets", "\1abcdefghijklmnopq\0", 0, K_RECORD, 0, 1, 0, 28);
  e = make("\32abcdefghijklmnopqrstuvwxyz\7example", K_RECORD, ZP_CLASS_IN, ZP_TYPE_A, 0, 0);
  EXPECT(&e, "two windows", "\1abcdefghijklmnopqrstuvwxyz\0", 0, K_RECORD, 0, 1, 0, 1);
}

#define SIGN(x) (((x) > 0) - ((x) < 0))
static int tcmp(const entry *a, const entry *b)
{
  return SIGN(zp_ck_tuple_cmp(a->b, b->b));
}

/* x strictly before y, asked both ways round */
static void before(entry x, entry y, const char *why)
{
  cr_assert(tcmp(&x, &y) < 0 && tcmp(&y, &x) > 0, "%s", why);
}

Test(order, cmp_by_hand, .init = zone_example)
{
  const char *a = "\1a\7example", *ba = "\1b\1a\7example", *a0 = "\2a\0\7example";
  /* a name before its descendants, whatever else; those before "a\000" (0x00 escaped) */
  before(make(a, K_REF, ZP_CLASS_ANY, 65535, 0, 9), make(ba, K_RECORD, ZP_CLASS_IN, 1, 0, 0),
         "a name, a descendant");
  before(make(ba, K_REF, ZP_CLASS_IN, 1, 0, 9), make(a0, K_RECORD, ZP_CLASS_IN, 1, 0, 0),
         "a descendant of a, a\\000");
  /* then kind: records, the marker, references; then class, type */
  before(make(a, K_RECORD, ZP_CLASS_HS, 65535, 0, 9), make(a, K_TARGET, ZP_CLASS_IN, 0, 0, 0),
         "a record, the marker");
  before(make(a, K_TARGET, ZP_CLASS_HS, 0, 0, 9), make(a, K_REF, ZP_CLASS_IN, 0, 0, 0),
         "the marker, a reference");
  before(make(a, K_RECORD, ZP_CLASS_IN, ZP_TYPE_TXT, 0, 9),
         make(a, K_RECORD, ZP_CLASS_CH, ZP_TYPE_A, 0, 0), "class IN, CH");
  before(make(a, K_RECORD, ZP_CLASS_IN, ZP_TYPE_TXT, 0, 9),
         make(a, K_RECORD, ZP_CLASS_IN, ZP_TYPE_AAAA, 0, 0), "TXT, AAAA");
  /* an RRSIG's (a SIG's) type covered before input order; a DNSKEY's algorithm is no order */
  before(make(a, K_RECORD, ZP_CLASS_IN, ZP_TYPE_RRSIG, ZP_TYPE_A, 9),
         make(a, K_RECORD, ZP_CLASS_IN, ZP_TYPE_RRSIG, ZP_TYPE_NS, 0), "RRSIG A, RRSIG NS");
  before(make(a, K_RECORD, ZP_CLASS_IN, ZP_TYPE_SIG, ZP_TYPE_A, 9),
         make(a, K_RECORD, ZP_CLASS_IN, ZP_TYPE_SIG, ZP_TYPE_NS, 0), "SIG A, SIG NS");
  before(make(a, K_RECORD, ZP_CLASS_IN, ZP_TYPE_DNSKEY, 13 | ZP_CK_KEY_KNOWN, 1),
         make(a, K_RECORD, ZP_CLASS_IN, ZP_TYPE_DNSKEY, 8 | ZP_CK_KEY_KNOWN, 2), "input order");
  entry x = make(a, K_RECORD, ZP_CLASS_IN, ZP_TYPE_A, 0, 3);
  cr_assert_eq(tcmp(&x, &x), 0);
}

/* The names of the random test and the spill's: before the zone, the zone, within it
 * (the RFC's example), after it; in canonical order. */
static const char *const names[] = {
  "", "\3com", "\7example\3com", "\7exampla", "\7example", "\1a\7example",
  "\10yljkjljk\1a\7example", "\1z\1a\7example", "\4zabc\1a\7example", "\2a\0\7example",
  "\1z\7example", "\1\1\1z\7example",
  "\1*\1z\7example", "\32abcdefghijklmnopqrstuvwxyz\1z\7example", "\1\200\1z\7example",
  "\7examplf", "\1z", "\1a\1z",
};
enum { NAMES = sizeof names / sizeof *names };

static const uint16_t types[] = {ZP_TYPE_A, ZP_TYPE_NS, ZP_TYPE_SOA, ZP_TYPE_MX, ZP_TYPE_RRSIG,
                                 ZP_TYPE_SIG, ZP_TYPE_DNSKEY, ZP_TYPE_AAAA, 65535};

static entry random_entry(uint64_t *rng)
{
  /* (drawn one at a time: the order of a call's arguments is the compiler's) */
  const char *name = names[xorshift64star(rng) % NAMES];
  uint8_t kind = (uint8_t)(xorshift64star(rng) % 3);
  uint16_t rclass = xorshift64star(rng) % 2 ? ZP_CLASS_IN : ZP_CLASS_CH;
  uint16_t rtype = types[xorshift64star(rng) % (sizeof types / sizeof *types)];
  uint16_t covered = (uint16_t)(xorshift64star(rng) % 3);
  return make(name, kind, rclass, rtype, covered, (uint32_t)(xorshift64star(rng) % 4));
}

/* spill.h: cmp orders entries as their strings do, and it is asked only of entries whose first
 * windows tie (so whose flags are one: keys stored alike). Where the strings tie, input order
 * decides, which is seq's. */
Test(order, cmp_agrees_with_the_string, .init = zone_example)
{
  uint64_t rng = 0xc0ffee;
  size_t pairs = 0;
  for (int i = 0; i < 100000; i++) {
    entry a = random_entry(&rng), b = random_entry(&rng);
    uint8_t sa[24 * ZP_SPILL_PREFIX] = {0}, sb[24 * ZP_SPILL_PREFIX] = {0};
    size_t na = string_of(&a, sa), nb = string_of(&b, sb);
    if (sa[0] != sb[0])
      continue;
    pairs++;
    int want = SIGN(memcmp(sa, sb, na > nb ? na : nb));
    zp_ck_tuple ta, tb;
    memcpy(&ta, a.b, sizeof ta);
    memcpy(&tb, b.b, sizeof tb);
    want = want ? want : SIGN((int64_t)ta.seq - tb.seq);
    cr_assert_eq(tcmp(&a, &b), want, "pair %d", i);
    cr_assert_eq(tcmp(&b, &a), -want, "pair %d, the other way", i);
  }
  cr_assert_gt(pairs, 10000);
}

/* Every name with one record, then a marker, then a reference, through a spill that orders by
 * zp_ck_tuple_cmp and zp_ck_key_prefix, filed by zp_ck_add in a shuffled order: they come
 * back in canonical order (seq holds the place expected). */
Test(order, spill_hands_back_canonical_order, .init = zone_example)
{
  enum { N = 3 * NAMES };
  size_t place[N];
  for (size_t i = 0; i < N; i++)
    place[i] = i;
  uint64_t rng = 7;
  for (size_t i = N - 1; i > 0; i--) {
    size_t j = xorshift64star(&rng) % (i + 1), t = place[i];
    place[i] = place[j];
    place[j] = t;
  }
  zp_spill *sp;
  cr_assert_eq(zp_spill_new(64 * 1024, ZP_SPILL_ENTRY_MAX, zp_ck_tuple_cmp, zp_ck_key_prefix,
                            &ck, &sp), ZP_OK);
  for (size_t i = 0; i < N; i++) {
    size_t p = place[i];
    uint8_t key[ZP_NAME_KEY_MAX];
    zp_ck_tuple t = {.seq = (uint32_t)p, .kind = (uint8_t)(p % 3), .rclass = ZP_CLASS_IN,
               .rtype = p % 3 == K_RECORD ? ZP_TYPE_A : 0};
    t.key_len = (uint16_t)zp_name_sort_key((const uint8_t *)names[p / 3], key);
    cr_assert_eq(zp_ck_add(&ck, sp, &t, key, key, 0), ZP_OK);
  }
  const uint8_t *got;
  size_t len;
  for (size_t i = 0; i < N; i++) {
    cr_assert(zp_spill_next(sp, &got, &len) == ZP_OK && got != NULL, "tuple %zu", i);
    zp_ck_tuple t;
    memcpy(&t, got, sizeof t);
    cr_assert_eq(t.seq, i, "place %zu holds the tuple expected at %u (name %u)", i, t.seq,
                 t.seq / 3);
  }
  cr_assert(zp_spill_next(sp, &got, &len) == ZP_OK && got == NULL, "no more than were added");
  zp_spill_free(sp);
}
