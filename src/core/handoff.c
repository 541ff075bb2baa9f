/* handoff.c -- a ring of blocks between two threads: the caller fills one block while the taker
 * works through those filled before it, one lock taken per block, not per entry */
#include "handoff.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Blocks in the ring: one filled, one taken, two to spare for the unevenness of the two. */
enum { NBLOCKS = 4 };

struct zp_handoff {
  zp_handoff_fn fn;
  void *ctx;
  size_t cap;               /* octets of a block */
  uint8_t *mem;             /* the blocks, end to end */
  size_t lens[NBLOCKS];     /* octets a filled block holds */
  unsigned fill;            /* the block being filled (the caller's alone) */
  size_t at;                /* octets in it */
  unsigned head, nfull;     /* the filled blocks, oldest first; the one being taken counts */
  bool threaded, ended;
  atomic_int err;           /* fn's first failure (a zp_status) */
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t filled, freed;
};

/* Every entry of block b (len octets) to fn, until one fails. */
static zp_status take_block(zp_handoff *h, unsigned b, size_t len)
{
  const uint8_t *p = h->mem + (size_t)b * h->cap, *end = p + len;
  while (p < end) {
    uint32_t n;
    memcpy(&n, p, sizeof n);
    zp_status st = h->fn(h->ctx, p + sizeof n, n);
    if (st != ZP_OK)
      return st;
    p += sizeof n + n;
  }
  return ZP_OK;
}

static void fail(zp_handoff *h, zp_status st)
{
  int ok = ZP_OK;
  if (st != ZP_OK)
    atomic_compare_exchange_strong(&h->err, &ok, (int)st);
}

static void *taker(void *arg)
{
  zp_handoff *h = arg;
  pthread_mutex_lock(&h->lock);
  for (;;) {
    while (h->nfull == 0 && !h->ended)
      pthread_cond_wait(&h->filled, &h->lock);
    if (h->nfull == 0)
      break;
    unsigned b = h->head;
    size_t len = h->lens[b];
    pthread_mutex_unlock(&h->lock);
    /* (past a failure the entries are only dropped: the caller must never wait on a block) */
    if (atomic_load(&h->err) == ZP_OK)
      fail(h, take_block(h, b, len));
    pthread_mutex_lock(&h->lock);
    h->head = (h->head + 1) % NBLOCKS;
    h->nfull--;
    pthread_cond_signal(&h->freed);
  }
  pthread_mutex_unlock(&h->lock);
  return NULL;
}

/* Signals a thread raises on itself by what it does: blocked, they would end the process
 * without the handlers that clean up (a temporary output file's name) running at all. */
static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};

bool zp_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
  /* signals are the caller's thread's to take: the new thread starts with all blocked but
   * those of its own faults, which reach the process's handlers from it */
  sigset_t all, saved;
  sigfillset(&all);
  for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
    sigdelset(&all, faults[i]);
  pthread_sigmask(SIG_BLOCK, &all, &saved);
  bool started = pthread_create(t, NULL, fn, arg) == 0;
  pthread_sigmask(SIG_SETMASK, &saved, NULL);
  return started;
}

zp_status zp_handoff_new(size_t block, bool threaded, zp_handoff_fn fn, void *ctx,
                         zp_handoff **out)
{
  *out = NULL;
  zp_handoff *h = calloc(1, sizeof *h);
  if (!h || !(h->mem = malloc(NBLOCKS * block))) {
    free(h);
    return ZP_ENOMEM;
  }
  h->fn = fn;
  h->ctx = ctx;
  h->cap = block;
  atomic_init(&h->err, ZP_OK);
  if (threaded && pthread_mutex_init(&h->lock, NULL) == 0) {
    if (pthread_cond_init(&h->filled, NULL) == 0) {
      if (pthread_cond_init(&h->freed, NULL) == 0) {
        h->threaded = zp_thread_start(&h->thread, taker, h);
        if (!h->threaded)
          pthread_cond_destroy(&h->freed);
      }
      if (!h->threaded)
        pthread_cond_destroy(&h->filled);
    }
    if (!h->threaded)
      pthread_mutex_destroy(&h->lock);
  }
  *out = h;
  return ZP_OK;
}

/* The block being filled goes to the taker; the next one is filled once it is free. */
static void hand_over(zp_handoff *h)
{
  h->lens[h->fill] = h->at;
  h->at = 0;
  if (!h->threaded) {
    if (atomic_load(&h->err) == ZP_OK)
      fail(h, take_block(h, h->fill, h->lens[h->fill]));
    return;
  }
  pthread_mutex_lock(&h->lock);
  h->nfull++;
  pthread_cond_signal(&h->filled);
  while (h->nfull == NBLOCKS)
    pthread_cond_wait(&h->freed, &h->lock);
  pthread_mutex_unlock(&h->lock);
  h->fill = (h->fill + 1) % NBLOCKS;
}

zp_status zp_handoff_put(zp_handoff *h, const struct iovec *parts, size_t nparts)
{
  size_t len = 0;
  for (size_t i = 0; i < nparts; i++)
    len += parts[i].iov_len;
  uint32_t n = (uint32_t)len;
  if (len + sizeof n > h->cap)
    return ZP_EBUFFER;
  if (h->at + sizeof n + len > h->cap)
    hand_over(h);
  uint8_t *p = h->mem + (size_t)h->fill * h->cap + h->at;
  memcpy(p, &n, sizeof n);
  p += sizeof n;
  for (size_t i = 0; i < nparts; p += parts[i++].iov_len)
    if (parts[i].iov_len)   /* (an empty part may have no base) */
      memcpy(p, parts[i].iov_base, parts[i].iov_len);
  h->at += sizeof n + len;
  return (zp_status)atomic_load(&h->err);
}

/* The last block handed over, the thread joined. */
static void end(zp_handoff *h)
{
  if (!h->ended) {
    if (h->at > 0)
      hand_over(h);
    if (h->threaded) {
      pthread_mutex_lock(&h->lock);
      h->ended = true;
      pthread_cond_signal(&h->filled);
      pthread_mutex_unlock(&h->lock);
      pthread_join(h->thread, NULL);
    }
    h->ended = true;
  }
}

zp_status zp_handoff_end(zp_handoff *h)
{
  end(h);
  return (zp_status)atomic_load(&h->err);
}

size_t zp_handoff_bytes(const zp_handoff *h)
{
  return NBLOCKS * h->cap;
}

void zp_handoff_free(zp_handoff *h)
{
  if (!h)
    return;
  end(h);
  if (h->threaded) {
    pthread_cond_destroy(&h->freed);
    pthread_cond_destroy(&h->filled);
    pthread_mutex_destroy(&h->lock);
  }
  free(h->mem);
  free(h);
}
