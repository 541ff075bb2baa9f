/* verify.c -- signatures verified in batches: the walk queues each (signed data, signature,
 * algorithm and key tag) of some names, the batch is verified on the -j threads and the
 * caller's at once, and the walk then judges the outcomes in zone order, so that what it says
 * does not depend on which thread verified what. Verification is nearly all of a signed zone's
 * cost (an ECDSA signature takes tens of microseconds), and each is independent of the others. */
#include <stdatomic.h>
#include <stdlib.h>

#include "core/handoff.h"
#include "dnssec.h"

typedef struct job {
  size_t data, len, sig, sig_len;   /* offsets into the batch's octets */
  uint16_t tag;
  uint8_t alg;
  uint32_t result;
} job;

struct zp_ck_verify {
  zp_buf octets;
  job *jobs;
  size_t njobs, cap;
  const zp_ck_key *keys;
  size_t nkeys;
  atomic_size_t next;        /* the next job to take */
  unsigned want;             /* worker threads to start: -j less the caller's */
  unsigned nthreads;         /* started */
  pthread_t *threads;
  pthread_mutex_t lock;
  pthread_cond_t go, done;
  unsigned batch, finished;  /* the batch started last; the workers done with it */
  bool stop;
};

zp_ck_verify *zp_ck_verify_new(unsigned threads)
{
  zp_ck_verify *v = calloc(1, sizeof *v);
  if (!v)
    return NULL;
  v->want = threads >= 2 ? threads - 1 : 0;
  if (v->want && (pthread_mutex_init(&v->lock, NULL) != 0 ||
                  pthread_cond_init(&v->go, NULL) != 0 ||
                  pthread_cond_init(&v->done, NULL) != 0)) {
    free(v);
    return NULL;
  }
  return v;
}

static void work(zp_ck_verify *v)
{
  const uint8_t *o = (const uint8_t *)v->octets.p;
  for (size_t i; (i = atomic_fetch_add(&v->next, 1)) < v->njobs;) {
    job *j = &v->jobs[i];
    j->result = ZP_CK_BOGUS;
    for (size_t k = 0; k < v->nkeys && j->result == ZP_CK_BOGUS; k++) {
      const zp_ck_key *key = &v->keys[k];
      if (key->alg == j->alg && key->tag == j->tag && key->key &&
          zp_sig_verify(key->key, o + j->data, j->len, o + j->sig, j->sig_len))
        j->result = ZP_CK_VALID | key->flags;
    }
  }
}

static void *worker(void *arg)
{
  zp_ck_verify *v = arg;
  unsigned seen = 0;
  pthread_mutex_lock(&v->lock);
  for (;;) {
    while (v->batch == seen && !v->stop)
      pthread_cond_wait(&v->go, &v->lock);
    if (v->stop)
      break;
    seen = v->batch;
    pthread_mutex_unlock(&v->lock);
    work(v);
    pthread_mutex_lock(&v->lock);
    if (++v->finished == v->nthreads)
      pthread_cond_signal(&v->done);
  }
  pthread_mutex_unlock(&v->lock);
  return NULL;
}

void zp_ck_verify_free(zp_ck_verify *v)
{
  if (!v)
    return;
  if (v->want) {
    pthread_mutex_lock(&v->lock);
    v->stop = true;
    pthread_cond_broadcast(&v->go);
    pthread_mutex_unlock(&v->lock);
    for (unsigned i = 0; i < v->nthreads; i++)
      pthread_join(v->threads[i], NULL);
    pthread_cond_destroy(&v->done);
    pthread_cond_destroy(&v->go);
    pthread_mutex_destroy(&v->lock);
  }
  free(v->threads);
  free(v->jobs);
  zp_buf_free(&v->octets);
  free(v);
}

zp_buf *zp_ck_verify_octets(zp_ck_verify *v)
{
  return &v->octets;
}

bool zp_ck_verify_add(zp_ck_verify *v, size_t from, const uint8_t *sig, size_t sig_len,
                      uint8_t alg, uint16_t tag, size_t *n)
{
  if (!zp_array_room(&v->jobs, v->njobs, &v->cap, sizeof *v->jobs, 256))
    return false;
  job j = {.data = from, .len = v->octets.len - from, .sig = v->octets.len, .sig_len = sig_len,
           .tag = tag, .alg = alg};
  if (!zp_buf_put(&v->octets, sig, sig_len))
    return false;
  *n = v->njobs;
  v->jobs[v->njobs++] = j;
  return true;
}

size_t zp_ck_verify_bytes(const zp_ck_verify *v)
{
  return v->octets.len + v->njobs * sizeof(job);
}

/* The workers, started at the first batch worth sharing: a zone of few signatures starts none.
 * Where fewer start than asked, those that did share the work. */
static void start(zp_ck_verify *v)
{
  if (v->threads || !(v->threads = calloc(v->want, sizeof *v->threads)))
    return;
  while (v->nthreads < v->want && zp_thread_start(&v->threads[v->nthreads], worker, v))
    v->nthreads++;
}

void zp_ck_verify_run(zp_ck_verify *v, const zp_ck_key *keys, size_t nkeys)
{
  v->keys = keys;
  v->nkeys = nkeys;
  atomic_store(&v->next, 0);
  if (v->want && v->njobs > 1)
    start(v);
  if (v->nthreads == 0 || v->njobs <= 1) {
    work(v);
    return;
  }
  pthread_mutex_lock(&v->lock);
  v->finished = 0;
  v->batch++;
  pthread_cond_broadcast(&v->go);
  pthread_mutex_unlock(&v->lock);
  work(v);
  pthread_mutex_lock(&v->lock);
  while (v->finished < v->nthreads)
    pthread_cond_wait(&v->done, &v->lock);
  pthread_mutex_unlock(&v->lock);
}

uint32_t zp_ck_verify_result(const zp_ck_verify *v, size_t n)
{
  return v->jobs[n].result;
}

void zp_ck_verify_clear(zp_ck_verify *v)
{
  v->njobs = 0;
  v->octets.len = 0;
}
