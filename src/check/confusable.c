/* confusable.c -- two names of the zone that look alike: equal UTS #39 skeletons (section 4),
 * different names, one of them at least with a non-ASCII label (-W confusable).
 *
 * Few names of a zone have a look-alike, so only those that may are filed, in a spill sorted by
 * skeleton after the pass (a hundred-and-twenty-eighth of --check-memory). While records come
 * in, the skeleton's hash of each owner with an ACE label goes into a Bloom filter (a
 * sixty-fourth), in batches sorted by where they fall in it (an eighth of that again), and its
 * tuple carries it (the first of a run of its records) to the pass. An owner whose hash the filter held already
 * may have a look-alike with an ACE label: its hash goes into a second filter, of those wanted
 * (a two-hundred-and-fifty-sixth); so does one whose skeleton an ASCII name may have (every code
 * point of it is in the skeleton of an ASCII character: "pаypal", not "łódź", whose marks stay),
 * as ASCII names are hashed only in the pass, in canonical order, which may bring the ASCII
 * name after its look-alike. The pass then sees every name once, and files those whose hash is
 * wanted (a name with an ACE label by the hash its tuple carried). After the pass the
 * candidates come back by hash; names of one skeleton (compared whole, not by hash) are told
 * against the first of them (the shortest sort key, then the least), each at the one of the two
 * written later. A pair of plain ASCII names is left alone: "ns1" and "nsl", "arm" and "arrn"
 * are skeletons alike, but such names are typed and read as they are; the homographs UTS #39
 * is about need a character beyond ASCII. */
#include <stdio.h>
#include <stdlib.h>

#include "check_int.h"
#include "idna/idna.h"
#include "idna/punycode.h"
#include "idna/utf8.h"
#include "idna/uts39.h"

enum { SKEL_MAX = 4 * ZP_NAME_MAX };

/* The skeleton of one label p (length octet first) into out[0..*n); whether it is ACE. */
bool zp_ck_label_skeleton(const uint8_t *p, uint32_t *out, size_t *n)
{
  uint32_t cp[ZP_LABEL_MAX];
  size_t m = ZP_LABEL_MAX;
  bool ace = zp_idna_ace_prefix((const char *)p + 1, *p) &&
             zp_puny_decode((const char *)p + 5, *p - 4u, cp, &m, NULL) == ZP_OK;
  if (!ace) {
    m = *p;
    for (size_t i = 0; i < m; i++)
      cp[i] = p[1 + i] >= 'A' && p[1 + i] <= 'Z' ? p[1 + i] + 32u : p[1 + i];
  }
  if (zp_uts39_skeleton(cp, m, out, n) != ZP_OK) {
    memcpy(out, cp, m * sizeof *cp);
    *n = m;
  }
  return ace;
}

/* The hash of a skeleton, a code point at a time (so that ASCII needs no skeleton made). */
static inline uint64_t mix(uint64_t h, uint32_t cp)
{
  return (h ^ cp) * 0x100000001b3u;
}

enum { SEED = 0xcbf29ce484222325u };

/* Whether code point cp is in the skeleton of an ASCII character. */
static bool proto(const zp_checker *c, uint32_t cp)
{
  if (cp < 0x80)
    return c->alike_proto_low[cp / 64] >> (cp % 64) & 1;
  for (size_t i = 0; i < c->alike_proto_nhigh; i++)
    if (c->alike_proto_high[i] == cp)
      return true;
  return false;
}

/* The hash of the skeleton of label p (length octet first), made and remembered in cache (each
 * side of the checker has its own: the intake's thread and the pass's); whether it is ACE, and
 * whether an ASCII label may have that skeleton. */
static uint64_t label_hash(const zp_checker *c, zp_ck_alike_cache *cache, const uint8_t *p,
                           bool *ace, bool *plain)
{
  zp_ck_alike_seen *e = &cache->seen[zp_hash(p + 1, *p) & (ZP_CK_ALIKE_CACHE - 1)];
  if (e->len == *p && memcmp(e->label, p + 1, *p) == 0) {
    *ace = e->ace;
    *plain = e->plain;
    return e->hash;
  }
  uint32_t s[4 * ZP_LABEL_MAX * 4];
  size_t n = sizeof s / sizeof *s;
  *ace = zp_ck_label_skeleton(p, s, &n);
  *plain = true;
  uint64_t h = SEED;
  for (size_t i = 0; i < n; i++) {
    h = mix(h, s[i]);
    *plain = *plain && proto(c, s[i]);
  }
  e->len = *p;
  memcpy(e->label, p + 1, *p);
  e->ace = *ace;
  e->plain = *plain;
  e->hash = h;
  return h;
}

bool zp_ck_key_labels(const zp_checker *c, const uint8_t *key, size_t len, int side,
                      bool ace_stops, uint64_t *lh, size_t *nl, bool *ascii_like)
{
  /* the labels this key shares with the one before (from the root down: the zone's, and in the
   * pass's canonical order most of a name's) are not hashed again */
  zp_ck_alike_cache *cache = &c->alike_cache[side];
  size_t same = 0, n = 0;
  size_t most = len < cache->prev_len ? len : cache->prev_len;
  for (uint64_t a, b; same + 8 <= most; same += 8) {
    memcpy(&a, key + same, 8);
    memcpy(&b, cache->prev + same, 8);
    if (a != b)
      break;
  }
  while (same < most && key[same] == cache->prev[same])
    same++;
  while (n < cache->prev_nl && cache->prev_end[n] <= same)
    n++;
  bool any_ace = false, all_plain = true;
  for (size_t j = 0; j < n; j++) {
    any_ace |= cache->prev_ace[j];
    all_plain &= cache->prev_plain[j];
  }
  size_t i = n ? cache->prev_end[n - 1] : 0;
  for (; i < len && !(any_ace && ace_stops); i++, n++) {
    /* (a label of the key ends with 0x00; 0x01 escapes 0x00 and 0x01: wire_name.h; the key is
     * lowercase) */
    size_t start = i;
    uint64_t h = SEED;
    bool plain = len - i < 4 || memcmp(key + i, "xn--", 4) != 0, ace = false, like = true;
    if (!plain && ace_stops) {   /* (an ACE label decides: its hash is not wanted) */
      any_ace = true;
      break;
    }
    for (; plain && i < len && key[i] != 0; i++) {
      uint8_t o = key[i];
      if (o == 1 || o >= 0x80) {
        plain = false;
        break;
      }
      if (c->alike_ascii_len[o] == 1) {
        h = mix(h, c->alike_ascii[o][0]);
        continue;
      }
      for (uint8_t k = 0; k < c->alike_ascii_len[o]; k++)
        h = mix(h, c->alike_ascii[o][k]);
    }
    if (!plain) {
      uint8_t lab[1 + ZP_LABEL_MAX];
      size_t m = 0;
      for (i = start; i < len && key[i] != 0 && m < ZP_LABEL_MAX; i++)
        lab[1 + m++] = key[i] == 1 && i + 1 < len ? (uint8_t)(key[++i] - 1) : key[i];
      lab[0] = (uint8_t)m;
      h = label_hash(c, cache, lab, &ace, &like);
      any_ace |= ace;
      all_plain &= like;
    }
    cache->prev_lh[n] = h;
    cache->prev_ace[n] = ace;
    cache->prev_plain[n] = like;
    cache->prev_end[n] = (uint16_t)(i + 1);
  }
  /* (what was hashed: the key to its last label, or to the ACE label that stopped it) */
  size_t done = n ? cache->prev_end[n - 1] : 0;
  memcpy(cache->prev, key, done < len ? done : len);
  cache->prev_len = done < len ? done : len;
  cache->prev_nl = n;
  memcpy(lh, cache->prev_lh, n * sizeof *lh);
  *nl = n;
  if (ascii_like)
    *ascii_like = all_plain;
  return any_ace;
}

uint64_t zp_ck_label_fold(const uint64_t *lh, size_t n)
{
  uint64_t h = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < n; i++) {
    h = (h ^ lh[i]) * 0xff51afd7ed558ccdu;
    h ^= h >> 32;
  }
  return h;
}

/* What a tuple carries of its owner (one with an ACE label): the hash of the skeleton, its low
 * bit set (0 is nothing carried). */
enum { CARRIED = 1 };

/* The skeleton of wire into out[0..*n): its labels' from the last to the first, each ended by
 * 0xFFFFFFFF (no code point). A label no skeleton fits in (ZP_EBUFFER) or no ACE decodes (not
 * one of the zone's: the label policy checks every ACE label it reads) is taken as its octets. */
static void skeleton(const uint8_t *wire, uint32_t *out, size_t *n)
{
  const uint8_t *lab[ZP_NAME_MAX / 2];
  size_t nl = 0, w = 0;
  for (const uint8_t *p = wire; *p; p += *p + 1)
    lab[nl++] = p;
  while (nl-- > 0) {
    size_t k = SKEL_MAX - 1 - w;
    zp_ck_label_skeleton(lab[nl], out + w, &k);
    w += k;
    out[w++] = UINT32_MAX;
  }
  *n = w;
}

/* A filter's bits for hash h: three bits of one 64-octet line of it (a filter far bigger than
 * the caches costs a miss a probe: one, not three), the line and the bits from the hash past
 * CARRIED mixed once more. */
static uint64_t spread(uint64_t h)
{
  h >>= 1;
  return (h ^ h >> 29) * 0xbf58476d1ce4e5b9u;
}

static uint8_t *line(uint8_t *f, size_t len, uint64_t h)
{
  return f + ((size_t)(spread(h) >> 32) & (len / 64 - 1)) * 64;
}

/* Whether the bits of h were all set; set them too with set. */
static bool bloom(uint8_t *f, size_t len, uint64_t h, bool set)
{
  uint8_t *at = line(f, len, h);
  bool all = true;
  h = spread(h);
  for (int i = 0; i < 3; i++, h >>= 9) {
    unsigned b = (unsigned)h & 511;
    all &= at[b / 8] >> (b % 8) & 1;
    if (set)
      at[b / 8] |= (uint8_t)(1u << (b % 8));
  }
  return all;
}

/* A filter of a share of --check-memory: a power of two of octets (a bit is found by a mask). */
static zp_status filter_new(const zp_checker *c, size_t share, uint8_t **f, size_t *len)
{
  for (*len = 4096; *len * 2 <= zp_ck_mem(c) / share;)
    *len *= 2;
  return (*f = calloc(1, *len)) ? ZP_OK : ZP_ENOMEM;
}

zp_status zp_ck_alike_init(zp_checker *c)
{
  if (c->alike_cache)
    return ZP_OK;
  if (!(c->alike_cache = calloc(2, sizeof *c->alike_cache)))
    return ZP_ENOMEM;
  for (uint32_t a = 0; a < 0x80; a++) {
    size_t n = sizeof c->alike_ascii[a] / sizeof *c->alike_ascii[a];
    if (zp_uts39_skeleton(&a, 1, c->alike_ascii[a], &n) != ZP_OK)
      return ZP_EINVAL;   /* (no prototype of ASCII is longer: the tables' generator holds it) */
    c->alike_ascii_len[a] = (uint8_t)n;
    for (size_t i = 0; i < n; i++) {
      uint32_t p = c->alike_ascii[a][i];
      if (p < 0x80)
        c->alike_proto_low[p / 64] |= (uint64_t)1 << (p % 64);
      else if (!proto(c, p))
        c->alike_proto_high[c->alike_proto_nhigh++] = p;
    }
  }
  return ZP_OK;
}

/* A candidate's octets at most: its order and where it is (smaller than spill's default, so
 * that a merge reads more runs at once in the memory it has). */
enum { ENTRY_MAX = 1024 };

/* A candidate is filed as its order, [skeleton hash 8][key length 2][sort key][record number 4]
 * (big-endian: one name's entries together, by input order), then this. */
typedef struct candidate {
  uint64_t line_off;     /* its first record (of those together, for a name with ACE labels): */
  uint32_t seq, src, line;   /* what a message about it needs of the record's tuple */
  uint16_t col;
  uint8_t flags, ace;    /* ace: it has an ACE label */
} candidate;

/* The place of a candidate as a message takes it. */
static zp_ck_tuple place(const candidate *x)
{
  return (zp_ck_tuple){.line_off = x->line_off, .seq = x->seq, .src = x->src, .line = x->line,
                       .col = x->col, .flags = x->flags, .kind = K_RECORD};
}

static size_t order_len(const uint8_t *entry)
{
  return 8 + 2 + (size_t)(entry[8] << 8 | entry[9]) + 4;
}

static int order_cmp(const uint8_t *a, const uint8_t *b)
{
  return zp_spill_cmp_n(a, order_len(a), b, order_len(b));
}

static bool by_order(const uint8_t *entry, size_t len, size_t window,
                     uint8_t out[ZP_SPILL_PREFIX], void *ctx)
{
  (void)len, (void)ctx;
  return zp_spill_window(entry, order_len(entry), window, out);
}

static void put_be(uint8_t *p, uint64_t v, int octets)
{
  for (int i = 0; i < octets; i++)
    p[i] = (uint8_t)(v >> (8 * (octets - 1 - i)));
}

static zp_status file(zp_checker *c, uint64_t h, const uint8_t *key, size_t key_len, bool ace,
                      const zp_ck_tuple *at)
{
  zp_status st;
  if (!c->alike && (st = zp_spill_new(zp_ck_mem(c) / 128, ENTRY_MAX, order_cmp, by_order,
                                      NULL, &c->alike)) != ZP_OK)
    return st;
  uint8_t head[10], seq[4];
  put_be(head, h, 8);
  put_be(head + 8, key_len, 2);
  put_be(seq, at->seq, 4);
  candidate e = {.line_off = at->line_off, .seq = at->seq, .src = at->src, .line = at->line,
                 .col = at->col, .flags = at->flags, .ace = ace};
  struct iovec parts[4] = {{head, sizeof head}, {(void *)key, key_len}, {seq, sizeof seq},
                           {&e, sizeof e}};
  return zp_spill_add(c->alike, parts, 4);
}

/* An owner's hash into the filters: wanted if the filter held it already or an ASCII name may
 * share its skeleton (the same owner again, past the recent ones, is wanted too: it is filed
 * alone, and told of nothing). */
static void note(zp_checker *c, uint64_t h, bool plain)
{
  if (bloom(c->alike_bloom, c->alike_bloom_len, h, true) || plain) {
    bloom(c->alike_want, c->alike_want_len, h, true);
    c->alike_wanted = true;
  }
  c->alike_plain |= plain;
}

/* The hashes pending into the filters, by the part of the filter their lines are in: a sweep
 * over it rather than a miss each, in memory much bigger than the caches (bucket sort on the
 * line's top bits; the order among hashes does not change what the filters hold). */
static void note_pending(zp_checker *c)
{
  enum { BUCKETS = 256 };
  size_t lines = c->alike_bloom_len / 64, shift = 0, count[BUCKETS + 1] = {0};
  while (lines >> shift > BUCKETS)
    shift++;
  uint64_t *v = c->alike_pending, *sorted = v + c->alike_pending_max;
  size_t n = c->alike_npending;
  for (size_t i = 0; i < n; i++)
    count[1 + ((line(c->alike_bloom, c->alike_bloom_len, v[i] | CARRIED) - c->alike_bloom) / 64 >>
               shift)]++;
  for (size_t b = 0; b < BUCKETS; b++)
    count[b + 1] += count[b];
  for (size_t i = 0; i < n; i++)
    sorted[count[(line(c->alike_bloom, c->alike_bloom_len, v[i] | CARRIED) - c->alike_bloom) /
                 64 >> shift]++] = v[i];
  for (size_t i = 0; i < n; i++)
    note(c, sorted[i] | CARRIED, sorted[i] & 1);
  c->alike_npending = 0;
}

zp_status zp_ck_alike_owner(zp_checker *c, const uint8_t *owner, const uint8_t *key,
                            size_t key_len, uint64_t *carry)
{
  *carry = 0;
  if (!zp_ck_on(c, ZP_CK_CONFUSABLE))
    return ZP_OK;
  bool ace = false;
  for (const uint8_t *p = owner; *p && !ace; p += *p + 1)
    ace = zp_idna_ace_prefix((const char *)p + 1, *p);
  if (!ace)
    return ZP_OK;
  /* (a name's records mostly come close together: the first of those carries its hash) */
  uint64_t own = zp_hash(owner, zp_name_wire_len(owner)) | 1;
  for (size_t i = 0; i < ZP_CK_ALIKE_RECENT; i++)
    if (c->alike_recent[i] == own)
      return ZP_OK;
  zp_status st;
  if (!c->alike_bloom &&
      ((st = zp_ck_alike_init(c)) != ZP_OK ||
       (st = filter_new(c, 64, &c->alike_bloom, &c->alike_bloom_len)) != ZP_OK ||
       (st = filter_new(c, 256, &c->alike_want, &c->alike_want_len)) != ZP_OK))
    return st;
  if (!c->alike_pending) {
    /* (half as many as the filter has lines, at most 2,048: an eighth of the filter's memory,
     * the sort's half included) */
    c->alike_pending_max = c->alike_bloom_len / 128 < 2048 ? c->alike_bloom_len / 128 : 2048;
    if (!(c->alike_pending = malloc(2 * c->alike_pending_max * sizeof *c->alike_pending)))
      return ZP_ENOMEM;
  }
  uint64_t lh[ZP_NAME_MAX / 2];
  size_t nl;
  bool plain;
  (void)zp_ck_key_labels(c, key, key_len, 0, false, lh, &nl, &plain);
  uint64_t h = zp_ck_label_fold(lh, nl) | CARRIED;
  c->alike_pending[c->alike_npending++] = (h & ~(uint64_t)CARRIED) | plain;
  if (c->alike_npending == c->alike_pending_max)
    note_pending(c);
  c->alike_recent[c->alike_recent_at++ % ZP_CK_ALIKE_RECENT] = own;
  *carry = h;
  return ZP_OK;
}

void zp_ck_alike_intake_end(zp_checker *c)
{
  if (c->alike_pending)
    note_pending(c);
}

void zp_ck_alike_name(zp_checker *c)
{
  if (!c->alike_wanted || c->alike_err != ZP_OK)
    return;
  uint64_t h = c->g.alike;
  if (!h) {
    /* (a name with an ACE label and no record, only referred to, is no owner: left alone; a
     * name without, when no skeleton wanted is one an ASCII name may have, has no look-alike) */
    if (!c->alike_plain)
      return;
    uint64_t lh[ZP_NAME_MAX / 2];
    size_t nl;
    if (zp_ck_key_labels(c, c->g.key, c->g.key_len, 1, true, lh, &nl, NULL))
      return;
    h = zp_ck_label_fold(lh, nl) & ~(uint64_t)CARRIED;
  }
  if (bloom(c->alike_want, c->alike_want_len, h, false))
    c->alike_err = file(c, h & ~(uint64_t)CARRIED, c->g.key, c->g.key_len, h & CARRIED,
                        zp_ck_first(&c->g));
}

const char *zp_ck_alike_shown(const zp_checker *c, const uint8_t *key, size_t len, char *out)
{
  uint8_t wire[ZP_NAME_MAX];
  zp_name_from_sort_key(key, len, wire);
  size_t n = zp_name_text_unicode(out, wire, c->opt.idna2008);
  out[n] = '\0';
  const char *ace = zp_ck_name_text(wire);
  if (strcmp(ace, out) != 0)
    snprintf(out + n, ZP_CK_SHOWN_MAX - n, " (%s)", ace);
  return out;
}

/* A skeleton s[0..n) as text: its labels in the order written, each ended by a dot. */
static const char *skeleton_text(const uint32_t *s, size_t n, char *out, size_t cap)
{
  size_t w = 0, end = n;
  while (end > 0) {
    size_t start = end - 1;   /* (s[end - 1] ends the label) */
    while (start > 0 && s[start - 1] != UINT32_MAX)
      start--;
    size_t k = cap - 1 - w;
    if (zp_utf8_encode(s + start, end - 1 - start, (uint8_t *)out + w, &k) != ZP_OK)
      k = 0;
    w += k;
    if (w + 1 < cap)
      out[w++] = '.';
    end = start;
  }
  out[w] = '\0';
  return out;
}

/* The skeleton of the name whose sort key is key[0..len). */
static void key_skeleton(const uint8_t *key, size_t len, uint32_t *s, size_t *n)
{
  uint8_t wire[ZP_NAME_MAX];
  zp_name_from_sort_key(key, len, wire);
  skeleton(wire, s, n);
}

zp_status zp_ck_alike_end(zp_checker *c)
{
  if (!c->alike || c->alike_err != ZP_OK)
    return c->alike_err;
  /* the first name of each hash, its skeleton made once another name has that hash */
  static char a[ZP_CK_SHOWN_MAX], b[ZP_CK_SHOWN_MAX], t[ZP_NAME_UNICODE_MAX * 2];
  candidate first = {0};
  uint8_t first_head[10], first_key[ZP_NAME_KEY_MAX], last_key[ZP_NAME_KEY_MAX];
  size_t first_len = 0, first_n = 0, last_len = 0;
  uint32_t first_s[SKEL_MAX], s[SKEL_MAX];
  const uint8_t *e;
  size_t len;
  zp_status st;
  bool have = false;
  while ((st = zp_spill_next(c->alike, &e, &len)) == ZP_OK && e) {
    candidate x;
    size_t key_len = order_len(e) - 14, n = 0;
    const uint8_t *key = e + 10;
    memcpy(&x, e + order_len(e), sizeof x);
    /* (the same name again: a later run of its records) */
    if (have && key_len == last_len && memcmp(key, last_key, key_len) == 0)
      continue;
    memcpy(last_key, key, key_len);
    last_len = key_len;
    bool same = have && memcmp(e, first_head, 8) == 0;
    if (same) {
      if (!first_n)
        key_skeleton(first_key, first_len, first_s, &first_n);
      key_skeleton(key, key_len, s, &n);
      same = n == first_n && memcmp(s, first_s, n * sizeof *s) == 0;
    }
    if (!same) {
      first = x;
      memcpy(first_head, e, 8);
      memcpy(first_key, key, key_len);
      first_len = key_len;
      first_n = 0;   /* (not made yet) */
      have = true;
      continue;
    }
    if (!x.ace && !first.ace)
      continue;
    /* told at the one written later, naming the other */
    bool later = x.seq > first.seq;
    zp_ck_tuple xt = place(&x), ft = place(&first);
    zp_ck_report(c, ZP_CK_CONFUSABLE, later ? &xt : &ft,
                 "name %s looks like %s at %s: both have the skeleton %s (UTS #39 section 4)",
                 later ? zp_ck_alike_shown(c, key, key_len, a) : zp_ck_alike_shown(c, first_key, first_len, a),
                 later ? zp_ck_alike_shown(c, first_key, first_len, b) : zp_ck_alike_shown(c, key, key_len, b),
                 zp_ck_where(c, later ? &ft : &xt), skeleton_text(s, n, t, sizeof t));
  }
  zp_spill_free(c->alike);
  c->alike = NULL;
  return st;
}

void zp_ck_alike_free(zp_checker *c)
{
  zp_spill_free(c->alike);
  free(c->alike_bloom);
  free(c->alike_want);
  free(c->alike_pending);
  free(c->alike_cache);
}
