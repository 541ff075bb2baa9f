/* spill.c -- sorted runs in a temporary file, merged through a tree of losers: a whole zone's worth of
 * entries in order while memory holds only one run */
#include "spill.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "tmpfile.h"

/* Runs merged at once: the final merge holds one read buffer per run. More runs than this
 * (a tiny buffer, a huge zone) are first merged FANIN at a time into longer runs. */
enum { FANIN = 64, READ_BUF = 32 * 1024, WRITE_BUF = 64 * 1024, MEM_MIN = 64 * 1024 };

/* One entry in the buffer: where it is, and a window of its string as three integers whose
 * order is the octets' (big-endian), compared a word at a time. */
typedef struct slot {
  uint64_t w[3];
  uint32_t off;
  uint16_t len;
  bool complete;
} slot;

static uint64_t be64(const uint8_t *p)
{
  uint64_t x;
  memcpy(&x, p, sizeof x);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  return x;
}

/* Octet d of the window. */
static unsigned octet(const slot *x, unsigned d)
{
  return (unsigned)(x->w[d / 8] >> (56 - 8 * (d % 8))) & 0xff;
}

/* The first octet where two windows differ; ZP_SPILL_PREFIX where none does. */
static unsigned differ(const slot *x, const slot *y)
{
  for (unsigned i = 0; i < 3; i++) {
    uint64_t m = x->w[i] ^ y->w[i];
    if (m)
      return 8 * i + (unsigned)__builtin_clzll(m) / 8;
  }
  return ZP_SPILL_PREFIX;
}

static int window_cmp(const slot *a, const slot *b)
{
  for (unsigned i = 0; i < 3; i++)
    if (a->w[i] != b->w[i])
      return a->w[i] < b->w[i] ? -1 : 1;
  return 0;
}

typedef struct run {
  uint64_t start, end;   /* octets of the temporary file: entries, each as len, octets (the
                            prefix is made again when an entry is read back) */
  size_t rank;           /* the first spilled run it holds: runs of lower rank hold earlier
                            entries, which come first among equal ones */
} run;

/* A run being read during a merge. */
typedef struct reader {
  uint64_t pos, end;
  uint8_t *buf;
  size_t at, fill;
  slot prefix;           /* of the current entry (off unused) */
  size_t rank;
  const uint8_t *cur;    /* the current entry, in buf until the reader moves on */
  size_t cur_len;
} reader;

struct zp_spill {
  zp_spill_cmp cmp;
  uint8_t *arena;
  size_t arena_cap, arena_len, arena_max;   /* grown up to max, then spilled */
  slot *slots, *tmp;     /* tmp: the merge sort's second half of memory */
  size_t slot_cap, nslots, slot_max;
  int fd;                /* the temporary file, -1 until the first run is spilled */
  uint64_t file_len;
  run *runs;
  size_t nruns, runs_cap;
  uint8_t *wbuf;
  size_t wlen;
  bool reading;
  size_t next;           /* reading an unspilled buffer: the next slot */
  size_t first;          /* runs before it were merged into later ones */
  reader *rd;
  size_t *tree, nrd;     /* tree[0] the reader ahead, tree[1..nrd) the losers of the matches */
  bool handed;           /* the leading reader's entry was handed out: it moves on next */
  zp_spill_prefix_fn prefix;
  void *ctx;
};

/* The slot of an entry, with its window `window`. */
static slot make_slot(const zp_spill *s, const uint8_t *entry, uint32_t off, size_t len,
                      size_t window)
{
  uint8_t b[ZP_SPILL_PREFIX] = {0};
  bool complete = !s->prefix || s->prefix(entry, len, window, b, s->ctx);
  return (slot){{be64(b), be64(b + 8), be64(b + 16)}, off, (uint16_t)len, complete};
}

static int slot_cmp(const zp_spill *s, const slot *a, const slot *b)
{
  int c = window_cmp(a, b);
  if (c != 0 || a->complete)
    return c;
  return s->cmp(s->arena + a->off, s->arena + b->off);
}

static void insertion(const zp_spill *s, slot *v, size_t n)
{
  for (size_t i = 1; i < n; i++) {
    slot x = v[i];
    size_t j = i;
    for (; j > 0 && slot_cmp(s, &v[j - 1], &x) > 0; j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

/* v[0..n), whose prefixes are the given window of their entries, in order: most-significant-
 * digit radix sort on the prefixes from octet d on, which never touches the entries (they lie
 * all over the buffer, and reading one is a cache miss); where prefixes tie and are not
 * complete, the same on the next window, one read of each entry rather than one per
 * comparison. Stable throughout. */
static void sort_from(const zp_spill *s, slot *v, slot *tmp, size_t n, unsigned d, size_t window)
{
  if (n >= 32) {
    /* octets all n share (names of one parent share many) are skipped in one pass */
    unsigned lim = ZP_SPILL_PREFIX;
    for (size_t i = 1; i < n && lim > d; i++) {
      unsigned k = differ(&v[i], &v[0]);
      if (k < lim)
        lim = k;
    }
    d = lim;
  }
  if (n >= 32 && d < ZP_SPILL_PREFIX) {
    size_t count[256] = {0};
    unsigned lo = 255, hi = 0;
    for (size_t i = 0; i < n; i++) {
      unsigned b = octet(&v[i], d);
      count[b]++;
      lo = b < lo ? b : lo;
      hi = b > hi ? b : hi;
    }
    size_t at[256], sum = 0;
    for (unsigned b = lo; b <= hi; b++) {
      at[b] = sum;
      sum += count[b];
    }
    for (size_t i = 0; i < n; i++)
      tmp[at[octet(&v[i], d)]++] = v[i];
    memcpy(v, tmp, n * sizeof *v);
    for (size_t b = lo, first = 0; b <= hi; first += count[b++])
      if (count[b] > 1)
        sort_from(s, v + first, tmp + first, count[b], d + 1, window);
    return;
  }
  if (n < 32) {
    insertion(s, v, n);
  } else if (!v[0].complete) {
    /* (all n windows are equal: complete, they are in order) */
    for (size_t i = 0; i < n; i++)
      v[i] = make_slot(s, s->arena + v[i].off, v[i].off, v[i].len, window + 1);
    sort_from(s, v, tmp, n, 0, window + 1);
  }
}

static void sort_slots(const zp_spill *s, slot *v, slot *tmp, size_t n)
{
  if (s->prefix)   /* (without, the order of adding is the order) */
    sort_from(s, v, tmp, n, 0, 0);
}

zp_status zp_spill_new(size_t mem, zp_spill_cmp cmp, zp_spill_prefix_fn prefix, void *ctx,
                       zp_spill **out)
{
  *out = NULL;
  if (mem < MEM_MIN)
    mem = MEM_MIN;
  zp_spill *s = calloc(1, sizeof *s);
  if (!s)
    return ZP_ENOMEM;
  s->cmp = cmp;
  s->prefix = prefix;
  s->ctx = ctx;
  s->fd = -1;
  /* an entry is some 60 octets and costs two slots of 32: half the memory for slots */
  s->slot_max = mem / 2 / (2 * sizeof(slot));
  s->arena_max = mem - s->slot_max * 2 * sizeof(slot);
  *out = s;
  return ZP_OK;
}

/* Room for one more entry of len octets without spilling: the buffers grow (doubling, from a
 * small start, so that a small zone takes little) up to their maximum. false: spill first. */
static bool room(zp_spill *s, size_t len, zp_status *st)
{
  *st = ZP_OK;
  if (s->nslots == s->slot_cap) {
    if (s->slot_cap == s->slot_max)
      return false;
    size_t cap = s->slot_cap ? 2 * s->slot_cap : 1024;
    if (cap > s->slot_max)
      cap = s->slot_max;
    slot *v = realloc(s->slots, cap * sizeof *v), *t = v ? realloc(s->tmp, cap * sizeof *t) : NULL;
    if (v)
      s->slots = v;
    if (!v || !t) {
      *st = ZP_ENOMEM;
      return false;
    }
    s->tmp = t;
    s->slot_cap = cap;
  }
  while (s->arena_cap - s->arena_len < len) {
    if (s->arena_cap == s->arena_max)
      return false;
    size_t cap = s->arena_cap ? 2 * s->arena_cap : 64 * 1024;
    if (cap > s->arena_max)
      cap = s->arena_max;
    uint8_t *a = realloc(s->arena, cap);
    if (!a) {
      *st = ZP_ENOMEM;
      return false;
    }
    s->arena = a;
    s->arena_cap = cap;
  }
  return true;
}

static bool write_all(int fd, const uint8_t *p, size_t n, uint64_t at)
{
  while (n > 0) {
    ssize_t w = pwrite(fd, p, n, (off_t)at);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    p += w;
    n -= (size_t)w;
    at += (uint64_t)w;
  }
  return true;
}

/* Appends an entry, its length first, to the run being written, through wbuf. */
static bool put_entry(zp_spill *s, const uint8_t *p, size_t n)
{
  uint16_t len = (uint16_t)n;
  if (s->wlen + sizeof len + n > WRITE_BUF) {
    if (!write_all(s->fd, s->wbuf, s->wlen, s->file_len))
      return false;
    s->file_len += s->wlen;
    s->wlen = 0;
  }
  memcpy(s->wbuf + s->wlen, &len, sizeof len);
  memcpy(s->wbuf + s->wlen + sizeof len, p, n);
  s->wlen += sizeof len + n;
  return true;
}

static zp_status end_run(zp_spill *s, uint64_t start, size_t rank)
{
  if (!write_all(s->fd, s->wbuf, s->wlen, s->file_len))
    return ZP_ETMPFILE;
  s->file_len += s->wlen;
  s->wlen = 0;
  if (!zp_array_room(&s->runs, s->nruns, &s->runs_cap, sizeof *s->runs, 16))
    return ZP_ENOMEM;
  s->runs[s->nruns++] = (run){start, s->file_len, rank};
  return ZP_OK;
}

static zp_status open_file(zp_spill *s)
{
  if (!(s->wbuf = malloc(WRITE_BUF)))
    return ZP_ENOMEM;
  s->fd = zp_tmpfile();
  return s->fd >= 0 ? ZP_OK : ZP_ETMPFILE;
}

/* The buffer is full: sorted and written as one run. */
static zp_status spill(zp_spill *s)
{
  zp_status st;
  if (s->fd < 0 && (st = open_file(s)) != ZP_OK)
    return st;
  sort_slots(s, s->slots, s->tmp, s->nslots);
  uint64_t start = s->file_len;
  for (size_t i = 0; i < s->nslots; i++) {
    /* sorted, the entries are read all over the buffer: ask for the next ones early */
    if (i + 8 < s->nslots)
      __builtin_prefetch(s->arena + s->slots[i + 8].off);
    if (!put_entry(s, s->arena + s->slots[i].off, s->slots[i].len))
      return ZP_ETMPFILE;
  }
  s->nslots = 0;
  s->arena_len = 0;
  return end_run(s, start, s->nruns);
}

zp_status zp_spill_add(zp_spill *s, const struct iovec *parts, size_t nparts)
{
  size_t len = 0;
  for (size_t i = 0; i < nparts; i++)
    len += parts[i].iov_len;
  if (len > ZP_SPILL_ENTRY_MAX)
    return ZP_EBUFFER;
  zp_status st;
  if (!room(s, len, &st)) {
    if (st != ZP_OK || (st = spill(s)) != ZP_OK)
      return st;
  }
  for (size_t i = 0, at = s->arena_len; i < nparts; at += parts[i++].iov_len)
    if (parts[i].iov_len)   /* (an empty part may have no base) */
      memcpy(s->arena + at, parts[i].iov_base, parts[i].iov_len);
  s->slots[s->nslots++] = make_slot(s, s->arena + s->arena_len, (uint32_t)s->arena_len, len, 0);
  s->arena_len += len;
  return ZP_OK;
}

size_t zp_spill_runs(const zp_spill *s)
{
  return s->nruns;
}

/* ---- merging ---- */

static bool fill(zp_spill *s, reader *r, size_t need)
{
  if (r->fill - r->at >= need)
    return true;
  memmove(r->buf, r->buf + r->at, r->fill - r->at);
  r->fill -= r->at;
  r->at = 0;
  while (r->fill < need && r->pos < r->end) {
    size_t want = READ_BUF - r->fill;
    if (want > r->end - r->pos)
      want = (size_t)(r->end - r->pos);
    ssize_t n = pread(s->fd, r->buf + r->fill, want, (off_t)r->pos);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    r->fill += (size_t)n;
    r->pos += (uint64_t)n;
  }
  return r->fill >= need;
}

/* The reader's next entry at r->cur; false, and cur NULL, at the end of its run (*err on a
 * read error). */
static bool advance(zp_spill *s, reader *r, bool *err)
{
  uint16_t len;
  r->cur = NULL;
  if (r->at == r->fill && r->pos == r->end)
    return false;
  if (!fill(s, r, sizeof len)) {
    *err = true;
    return false;
  }
  memcpy(&len, r->buf + r->at, sizeof len);
  r->at += sizeof len;
  if (!fill(s, r, len)) {
    *err = true;
    return false;
  }
  r->cur = r->buf + r->at;
  r->cur_len = len;
  r->prefix = make_slot(s, r->cur, 0, len, 0);
  r->at += len;
  return true;
}

/* Whether reader a's entry comes before b's: a run's end comes after everything. */
static bool ahead(const zp_spill *s, size_t a, size_t b)
{
  const reader *x = &s->rd[a], *y = &s->rd[b];
  if (!x->cur || !y->cur)
    return x->cur != NULL;
  int c = window_cmp(&x->prefix, &y->prefix);
  if (c == 0 && !x->prefix.complete)
    c = s->cmp(x->cur, y->cur);
  return c != 0 ? c < 0 : x->rank < y->rank;   /* the earlier run first */
}

/* The reader ahead in the subtree at node (leaves at nrd..2 nrd), each match's loser kept. */
static size_t play(zp_spill *s, size_t node)
{
  if (node >= s->nrd)
    return node - s->nrd;
  size_t a = play(s, 2 * node), b = play(s, 2 * node + 1);
  bool a_wins = ahead(s, a, b);
  s->tree[node] = a_wins ? b : a;
  return a_wins ? a : b;
}

static void free_readers(zp_spill *s, size_t n)
{
  for (size_t i = 0; s->rd && i < n; i++)
    free(s->rd[i].buf);
  free(s->rd);
  free(s->tree);
  s->rd = NULL;
  s->tree = NULL;
  s->nrd = 0;
}

/* Readers and their tree over runs[first..first+n). */
static zp_status start_merge(zp_spill *s, size_t first, size_t n)
{
  s->rd = calloc(n, sizeof *s->rd);
  s->tree = malloc(n * sizeof *s->tree);
  if (!s->rd || !s->tree)
    return ZP_ENOMEM;
  s->nrd = n;
  bool err = false;
  for (size_t i = 0; i < n; i++) {
    reader *r = &s->rd[i];
    r->pos = s->runs[first + i].start;
    r->end = s->runs[first + i].end;
    r->rank = s->runs[first + i].rank;
    r->buf = malloc(READ_BUF);
    if (!r->buf)
      return ZP_ENOMEM;
    if (!advance(s, r, &err) && err)
      return ZP_ETMPFILE;
  }
  s->tree[0] = play(s, 1);
  return ZP_OK;
}

/* The smallest current entry, where its reader holds it; NULL when all runs are done. The
 * reader moves on at the next call, so the entry stays put until then; its new entry then
 * plays the matches on its way up. */
static zp_status merge_next(zp_spill *s, const uint8_t **entry, size_t *len)
{
  *entry = NULL;
  if (s->nrd == 0)
    return ZP_OK;
  if (s->handed) {
    s->handed = false;
    size_t w = s->tree[0];
    bool err = false;
    if (!advance(s, &s->rd[w], &err) && err)
      return ZP_ETMPFILE;
    for (size_t node = (s->nrd + w) / 2; node > 0; node /= 2)
      if (ahead(s, s->tree[node], w)) {
        size_t t = s->tree[node];
        s->tree[node] = w;
        w = t;
      }
    s->tree[0] = w;
  }
  const reader *r = &s->rd[s->tree[0]];
  if (!r->cur)
    return ZP_OK;
  *entry = r->cur;
  *len = r->cur_len;
  s->handed = true;
  return ZP_OK;
}

/* Too many runs for one merge: the oldest FANIN become one run at the end of the file, until
 * FANIN are left. */
static zp_status merge_passes(zp_spill *s)
{
  while (s->nruns - s->first > FANIN) {
    zp_status st = start_merge(s, s->first, FANIN);
    uint64_t start = s->file_len;
    const uint8_t *e;
    size_t len;
    while (st == ZP_OK && (st = merge_next(s, &e, &len)) == ZP_OK && e)
      if (!put_entry(s, e, len))
        st = ZP_ETMPFILE;
    free_readers(s, FANIN);
    s->handed = false;
    if (st == ZP_OK)
      st = end_run(s, start, s->runs[s->first].rank);
    if (st != ZP_OK)
      return st;
    s->first += FANIN;
  }
  return ZP_OK;
}

zp_status zp_spill_next(zp_spill *s, const uint8_t **entry, size_t *len)
{
  zp_status st;
  if (!s->reading) {
    s->reading = true;
    if (s->nruns == 0) {
      sort_slots(s, s->slots, s->tmp, s->nslots);
    } else {
      if ((s->nslots > 0 && (st = spill(s)) != ZP_OK) || (st = merge_passes(s)) != ZP_OK ||
          (st = start_merge(s, s->first, s->nruns - s->first)) != ZP_OK)
        return st;
    }
  }
  if (s->nruns == 0) {
    *entry = NULL;
    if (s->next < s->nslots) {
      const slot *sl = &s->slots[s->next++];
      *entry = s->arena + sl->off;
      *len = sl->len;
    }
    return ZP_OK;
  }
  return merge_next(s, entry, len);
}

void zp_spill_free(zp_spill *s)
{
  if (!s)
    return;
  free_readers(s, s->nruns - s->first);
  if (s->fd >= 0)
    close(s->fd);
  free(s->arena);
  free(s->slots);
  free(s->tmp);
  free(s->runs);
  free(s->wbuf);
  free(s);
}
