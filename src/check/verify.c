/* verify.c -- signatures verified in batches: the walk queues each (signed data, signature,
 * algorithm and key tag) of some names, the batch is verified on the -j threads and the
 * caller's at once, and the walk then judges the outcomes in zone order, so that what it says
 * does not depend on which thread verified what. Verification is nearly all of a signed zone's
 * cost (an ECDSA signature takes tens of microseconds), and each is independent of the others. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/handoff.h"
#include "signed.h"

typedef struct job {
  size_t data, len, sig, sig_len;   /* offsets into the batch's octets */
  uint16_t tag;
  uint8_t alg;
  uint32_t result;
  bool done;                        /* verified when queued (zp_ck_verify_now) */
} job;

struct zp_ck_verify {
  zp_buf octets;
  job *jobs;
  size_t njobs, cap;
  const zp_ck_key *keys;
  size_t nkeys;
  uint32_t tries;            /* keys tried for one signature, at most */
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

/* The job j, its octets at o, with v->keys. */
static void verify_job(const zp_ck_verify *v, job *j, const uint8_t *o)
{
  j->result = ZP_CK_BOGUS;
  /* (only the keys of the signature's tag and algorithm, and at most tries of them: a zone
   * of many keys of one tag would have each signature tried with every one, RFC 4035
   * section 5.3.1 notwithstanding) */
  size_t end, k = zp_ck_keys_find(v->keys, v->nkeys, j->alg, j->tag, &end);
  for (uint32_t tried = 0; k < end && j->result == ZP_CK_BOGUS; k++) {
    const zp_ck_key *key = &v->keys[k];
    if (!key->key)
      break;   /* (those that are no key come last in their run) */
    if (tried++ == v->tries)
      j->result = ZP_CK_TRIED_OUT;
    else if (zp_sig_verify(key->key, o + j->data, j->len, o + j->sig, j->sig_len))
      j->result = ZP_CK_VALID | key->flags;
  }
}

static void work(zp_ck_verify *v)
{
  const uint8_t *o = (const uint8_t *)v->octets.p;
  for (size_t i; (i = atomic_fetch_add(&v->next, 1)) < v->njobs;)
    if (!v->jobs[i].done)
      verify_job(v, &v->jobs[i], o);
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

bool zp_ck_verify_now(zp_ck_verify *v, size_t from, const uint8_t *sig, size_t sig_len,
                      uint8_t alg, uint16_t tag, const zp_ck_key *keys, size_t nkeys,
                      uint32_t tries, size_t *n)
{
  if (!zp_ck_verify_add(v, from, sig, sig_len, alg, tag, n))
    return false;
  v->keys = keys;
  v->nkeys = nkeys;
  v->tries = tries;
  job *j = &v->jobs[*n];
  verify_job(v, j, (const uint8_t *)v->octets.p);
  j->done = true;
  v->octets.len = from;   /* (the next job's octets go where these were) */
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

size_t zp_ck_keys_find(const zp_ck_key *keys, size_t n, uint8_t alg, uint16_t tag, size_t *end)
{
  uint32_t want = (uint32_t)alg << 16 | tag;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (((uint32_t)keys[mid].alg << 16 | keys[mid].tag) < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  size_t first = lo;
  for (hi = n; lo < hi;) {
    size_t mid = lo + (hi - lo) / 2;
    if (((uint32_t)keys[mid].alg << 16 | keys[mid].tag) <= want)
      lo = mid + 1;
    else
      hi = mid;
  }
  *end = lo;
  return first;
}

void zp_ck_verify_run(zp_ck_verify *v, const zp_ck_key *keys, size_t nkeys, uint32_t tries)
{
  v->keys = keys;
  v->nkeys = nkeys;
  v->tries = tries;
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

/* ---- what the walk (dnssec.c) asks of signatures and keys ---- */

/* A time of an RRSIG (serial arithmetic, RFC 4034 section 3.1.5) as the one nearest now. */
int64_t zp_ck_nearest(int64_t now, uint32_t t)
{
  return now + (int32_t)(t - (uint32_t)now);
}

const char *zp_ck_time_text(int64_t t)
{
  static char bufs[2][32];
  static unsigned next;
  char *b = bufs[next++ % 2];
  struct tm tm;
  time_t tt = (time_t)t;
  if (!gmtime_r(&tt, &tm) || strftime(b, sizeof bufs[0], "%Y%m%d%H%M%S", &tm) == 0)
    snprintf(b, sizeof bufs[0], "%lld", (long long)t);
  return b;
}

/* The owner of the RRset as the signature signs it (owner already lowercased): the owner
 * itself, or, where the RRSIG's labels field counts fewer labels, the wildcard it was expanded
 * from (RFC 4035 section 5.3.2). False when labels counts more than the owner has. */
bool zp_ck_signed_owner(const uint8_t *owner, unsigned labels, uint8_t *out, size_t *out_len)
{
  size_t n = zp_ck_labels(owner);
  size_t star = owner[0] == 1 && owner[1] == '*';
  if (labels > n - star)
    return false;
  const uint8_t *p = owner;
  for (size_t skip = n - labels; skip > 0; skip--)
    p += *p + 1;
  size_t k = 0;
  if (labels < n) {
    out[k++] = 1;
    out[k++] = '*';
  }
  size_t rest = zp_name_wire_len(p);
  memcpy(out + k, p, rest);
  *out_len = k + rest;
  return true;
}

/* The keys' order for zp_ck_keys_find: algorithm, tag, those that are keys first, place. */
static int key_order(const void *a, const void *b)
{
  const zp_ck_key *x = a, *y = b;
  uint64_t kx = (uint64_t)x->alg << 49 | (uint64_t)x->tag << 33 | (uint64_t)!x->key << 32 |
                x->order;
  uint64_t ky = (uint64_t)y->alg << 49 | (uint64_t)y->tag << 33 | (uint64_t)!y->key << 32 |
                y->order;
  return kx < ky ? -1 : kx > ky;
}

void zp_ck_keys_sort(zp_ck_key *keys, size_t n)
{
  if (n > 1)   /* (keys is NULL when there are none) */
    qsort(keys, n, sizeof *keys, key_order);
}
