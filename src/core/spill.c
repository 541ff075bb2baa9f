/* spill.c -- sorted runs in a temporary file, merged through a tree of losers: a whole zone's worth of
 * entries in order while memory holds only one run */
#include "spill.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "tmpfile.h"

/* Runs merged at once, at most: a merge holds one read buffer per run, each of an entry and its
 * length at the least to READ_MAX octets as the memory allows (at least two): the smaller the
 * entries, the more runs a small spill merges at once. */
enum { FANIN = 64, READ_MAX = 64 * 1024, WRITE_MAX = 64 * 1024, MEM_MIN = 32 * 1024 };

/* One entry in the buffer: where it is, and a window of its string as three integers whose
 * order is the octets' (big-endian), compared a word at a time. */
typedef struct slot {
  uint64_t w[3];
  uint32_t off;
  uint32_t len : 31, complete : 1;
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
  unsigned level;        /* 0: spilled from the buffer; n + 1: merged from runs of level n */
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

/* Memory: the buffer (arena, slots and the sort's second half of them) and the write buffer
 * while entries are added; the readers and the write buffer while runs are merged, the buffer
 * let go first. Both stay within mem. */
struct zp_spill {
  zp_spill_cmp cmp;
  size_t entry_max;      /* octets in one entry, at most */
  size_t lenw;           /* octets of an entry's length in the file: 2, or 4 past 65,535 */
  size_t peak;           /* the most memory held at once */
  uint8_t *arena;
  size_t arena_cap, arena_len, arena_max;   /* grown up to max, then spilled */
  slot *slots, *tmp;     /* tmp: the merge sort's second half of memory */
  size_t slot_cap, nslots, slot_max;
  int fd;                /* the temporary file, -1 until the first run is spilled */
  uint64_t file_len, freed;   /* octets written to it, and those punched out again */
  run *runs;             /* in the order of their ranks (sorted runs only) */
  size_t nruns, runs_cap, spilled;
  uint8_t *wbuf;
  size_t wlen, wcap;
  size_t rcap, fanin;    /* a merge's read buffers, and how many it holds */
  bool reading;
  zp_status err;         /* the first failure, which every later call returns */
  size_t next;           /* reading an unspilled buffer: the next slot */
  reader *rd;
  size_t *tree, nrd;     /* tree[0] the reader ahead, tree[1..nrd) the losers of the matches */
  bool handed;           /* the leading reader's entry was handed out: it moves on next */
  zp_spill_prefix_fn prefix;
  void *ctx;
};

/* Octets held now, and the peak past it. */
static void held_now(zp_spill *s)
{
  size_t n = s->arena_cap + 2 * s->slot_cap * sizeof(slot) + (s->wbuf ? s->wcap : 0) +
             s->nrd * (s->rcap + sizeof(reader) + sizeof(size_t));
  if (n > s->peak)
    s->peak = n;
}

/* The slot of an entry, with its window `window`. */
static slot make_slot(const zp_spill *s, const uint8_t *entry, uint32_t off, size_t len,
                      size_t window)
{
  uint8_t b[ZP_SPILL_PREFIX] = {0};
  bool complete = !s->prefix || s->prefix(entry, len, window, b, s->ctx);
  return (slot){{be64(b), be64(b + 8), be64(b + 16)}, off, (uint32_t)len, complete};
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

/* A buffer holds an entry and its length at the least; memory holds the write buffer and two
 * read buffers while merging, the write buffer and an arena of half the rest while adding. The
 * write buffer keeps its size once it is made. */
void zp_spill_shrink(zp_spill *s, size_t mem)
{
  size_t buf_min = s->entry_max + 64, floor = 4 * buf_min > MEM_MIN ? 4 * buf_min : MEM_MIN;
  mem = mem > floor ? mem : floor;
  if (!s->wbuf) {
    s->wcap = mem / 8 < WRITE_MAX ? mem / 8 : WRITE_MAX;   /* (the largest entry comes first) */
    s->wcap = s->wcap > buf_min ? s->wcap : buf_min;
  }
  size_t buf = mem - s->wcap, each = buf / FANIN;
  s->rcap = each < READ_MAX ? each : READ_MAX;
  s->rcap = s->rcap > buf_min ? s->rcap : buf_min;
  s->fanin = buf / (s->rcap + sizeof(reader) + sizeof(size_t));
  s->fanin = s->fanin < 2 ? 2 : s->fanin > FANIN ? FANIN : s->fanin;
  /* an entry is some 60 octets and costs two slots of 32: half the buffer for slots */
  s->slot_max = buf / 2 / (2 * sizeof(slot));
  s->arena_max = buf - s->slot_max * 2 * sizeof(slot);
  if (s->arena_max > UINT32_MAX)   /* (a slot holds an offset of 32 bits) */
    s->arena_max = UINT32_MAX;
}

zp_status zp_spill_new(size_t mem, size_t entry_max, zp_spill_cmp cmp, zp_spill_prefix_fn prefix,
                       void *ctx, zp_spill **out)
{
  zp_spill *s = *out = calloc(1, sizeof *s);
  if (!s)
    return ZP_ENOMEM;
  *s = (zp_spill){.entry_max = entry_max, .lenw = entry_max > UINT16_MAX ? 4 : 2, .cmp = cmp,
                  .prefix = prefix, .ctx = ctx, .fd = -1};
  zp_spill_shrink(s, mem);
  return ZP_OK;
}

/* Room for one more entry of len octets without spilling: the buffers grow (doubling, from a
 * small start, so that a small zone takes little) up to their maximum. false: spill first. */
static bool room(zp_spill *s, size_t len, zp_status *st)
{
  *st = ZP_OK;
  if (s->nslots == s->slot_cap) {
    if (s->slot_cap >= s->slot_max)
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
    held_now(s);
  }
  while (s->arena_cap - s->arena_len < len) {
    if (s->arena_cap >= s->arena_max)
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
    held_now(s);
  }
  return true;
}

static zp_status flush(zp_spill *s)
{
  zp_status st = zp_tmp_write(s->fd, s->wbuf, s->wlen, s->file_len);
  s->file_len += st == ZP_OK ? s->wlen : 0;
  s->wlen = 0;
  return st;
}

/* Appends an entry, its length first (lenw octets), to the run being written, through wbuf. */
static zp_status put_entry(zp_spill *s, const uint8_t *p, size_t n)
{
  zp_status st;
  if (s->wlen + s->lenw + n > s->wcap && (st = flush(s)) != ZP_OK)
    return st;
  for (size_t i = 0; i < s->lenw; i++)   /* (little-endian) */
    s->wbuf[s->wlen + i] = (uint8_t)(n >> 8 * i);
  memcpy(s->wbuf + s->wlen + s->lenw, p, n);
  s->wlen += s->lenw + n;
  return ZP_OK;
}

/* The run from start to the end of the file, of rank and level, goes last. */
static zp_status end_run(zp_spill *s, uint64_t start, size_t rank, unsigned level)
{
  zp_status st = flush(s);
  if (st != ZP_OK)
    return st;
  if (!s->prefix && s->nruns == 1) {   /* in the order of adding, the file is one run */
    s->runs[0].end = s->file_len;
    return ZP_OK;
  }
  if (!zp_array_room(&s->runs, s->nruns, &s->runs_cap, sizeof *s->runs, 16))
    return ZP_ENOMEM;
  s->runs[s->nruns++] = (run){start, s->file_len, rank, level};
  return ZP_OK;
}

static zp_status open_file(zp_spill *s)
{
  if (!(s->wbuf = malloc(s->wcap)))
    return ZP_ENOMEM;
  held_now(s);
  s->fd = zp_tmpfile();
  return s->fd >= 0 ? ZP_OK : ZP_ETMPFILE;
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
    size_t want = s->rcap - r->fill;
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
  r->cur = NULL;
  if (r->at == r->fill && r->pos == r->end)
    return false;
  if (!fill(s, r, s->lenw)) {
    *err = true;
    return false;
  }
  uint32_t len = 0;
  for (size_t i = 0; i < s->lenw; i++)
    len |= (uint32_t)r->buf[r->at + i] << 8 * i;
  r->at += s->lenw;
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

/* Readers and their tree over runs[first..first+n). The buffer is let go for them first (it
 * grows again from small if entries come). */
static zp_status start_merge(zp_spill *s, size_t first, size_t n)
{
  free(s->arena);
  free(s->slots);
  free(s->tmp);
  s->arena = NULL;
  s->slots = s->tmp = NULL;
  s->arena_cap = s->arena_len = s->slot_cap = s->nslots = 0;
  s->rd = calloc(n, sizeof *s->rd);
  s->tree = malloc(n * sizeof *s->tree);
  if (!s->rd || !s->tree)
    return ZP_ENOMEM;
  s->nrd = n;
  held_now(s);
  bool err = false;
  for (size_t i = 0; i < n; i++) {
    reader *r = &s->rd[i];
    r->pos = s->runs[first + i].start;
    r->end = s->runs[first + i].end;
    r->rank = s->runs[first + i].rank;
    r->buf = malloc(s->rcap);
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

/* The newest n runs become one at the end of the file, in their place among the runs; the
 * octets they held are given back. */
static zp_status merge_tail(zp_spill *s, size_t n)
{
  size_t first = s->nruns - n;
  zp_status st = start_merge(s, first, n);
  uint64_t start = s->file_len;
  const uint8_t *e;
  size_t len;
  while (st == ZP_OK && (st = merge_next(s, &e, &len)) == ZP_OK && e)
    st = put_entry(s, e, len);
  free_readers(s, n);
  s->handed = false;
  if (st == ZP_OK)
    st = flush(s);
  if (st != ZP_OK)
    return st;
  for (size_t i = first; i < s->nruns; i++)
    s->freed += zp_tmp_punch(s->fd, s->runs[i].start, s->runs[i].end - s->runs[i].start);
  s->runs[first] = (run){start, s->file_len, s->runs[first].rank, s->runs[s->nruns - 1].level + 1};
  s->nruns = first + 1;
  return ZP_OK;
}

/* ---- adding ---- */

/* The buffer is full: sorted and written as one run. A sorted spill then merges its newest
 * runs whenever `fanin` of them are of one level, so that the runs kept stay few (fanin - 1 a
 * level) and each entry is merged once a level. */
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
    if ((st = put_entry(s, s->arena + s->slots[i].off, s->slots[i].len)) != ZP_OK)
      return st;
  }
  s->nslots = 0;
  s->arena_len = 0;
  if ((st = end_run(s, start, s->spilled++, 0)) != ZP_OK)
    return st;
  while (s->prefix && s->nruns >= s->fanin &&
         s->runs[s->nruns - s->fanin].level == s->runs[s->nruns - 1].level)
    if ((st = merge_tail(s, s->fanin)) != ZP_OK)
      return st;
  return ZP_OK;
}

zp_status zp_spill_add(zp_spill *s, const struct iovec *parts, size_t nparts)
{
  size_t len = 0;
  for (size_t i = 0; i < nparts; i++)
    len += parts[i].iov_len;
  if (len > s->entry_max)
    return ZP_EBUFFER;
  zp_status st;
  /* (a spill may let the buffer go for a merge: room again after it) */
  if (s->err == ZP_OK && !room(s, len, &st) &&
      (st != ZP_OK || (st = spill(s)) != ZP_OK || (!room(s, len, &st) && st == ZP_OK)))
    s->err = st != ZP_OK ? st : ZP_ENOMEM;
  if (s->err != ZP_OK)
    return s->err;
  for (size_t i = 0, at = s->arena_len; i < nparts; at += parts[i++].iov_len)
    if (parts[i].iov_len)   /* (an empty part may have no base) */
      memcpy(s->arena + at, parts[i].iov_base, parts[i].iov_len);
  s->slots[s->nslots++] = make_slot(s, s->arena + s->arena_len, (uint32_t)s->arena_len, len, 0);
  s->arena_len += len;
  return ZP_OK;
}

size_t zp_spill_runs(const zp_spill *s)
{
  return s->spilled;
}

size_t zp_spill_peak(const zp_spill *s)
{
  return s->peak;
}

zp_status zp_spill_next(zp_spill *s, const uint8_t **entry, size_t *len)
{
  *entry = NULL;
  if (!s->reading && s->err == ZP_OK) {
    s->reading = true;
    if (s->nruns == 0) {
      sort_slots(s, s->slots, s->tmp, s->nslots);
    } else {
      zp_status st = s->nslots > 0 ? spill(s) : ZP_OK;
      /* sorted, the newest runs are merged until one merge takes them all */
      while (st == ZP_OK && s->nruns > s->fanin)
        st = merge_tail(s, s->fanin);
      s->err = st != ZP_OK ? st : start_merge(s, 0, s->nruns);
    }
  }
  if (s->err != ZP_OK)
    return s->err;
  if (s->nruns == 0) {
    if (s->next < s->nslots) {
      const slot *sl = &s->slots[s->next++];
      *entry = s->arena + sl->off;
      *len = sl->len;
    }
    return ZP_OK;
  }
  return s->err = merge_next(s, entry, len);
}

void zp_spill_free(zp_spill *s)
{
  if (!s)
    return;
  free_readers(s, s->nrd);
  if (s->fd >= 0) {
    close(s->fd);
    zp_tmp_give(s->file_len - s->freed);
  }
  free(s->arena);
  free(s->slots);
  free(s->tmp);
  free(s->runs);
  free(s->wbuf);
  free(s);
}
