/* handoff.h -- entries handed from one thread to another in order, through a few blocks of
 * fixed size: work that follows the reader runs on a second core, and memory stays bounded */
#ifndef ZP_HANDOFF_H
#define ZP_HANDOFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/uio.h>

#include "idna/status.h"

/* Takes one entry (its octets as put); a status other than ZP_OK ends the taking: the entries
 * after it are dropped, and the status is the handoff's. */
typedef zp_status (*zp_handoff_fn)(void *ctx, const uint8_t *entry, size_t len);

typedef struct zp_handoff zp_handoff;

/* Blocks of block octets (an entry's at most, less 4), four of them on their way at once.
 * threaded: fn runs on a thread of its own, with every signal blocked but those of its own
 * faults (the others stay the caller's thread's); else on the caller's, a block at a time.
 * Either way fn sees every entry once, in the order put. Where no thread can be started, fn
 * runs on the caller's (the same work, on one core). ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_handoff_new(size_t block, bool threaded, zp_handoff_fn fn, void *ctx,
                                      zp_handoff **h);

/* Puts the entry made of parts[0..nparts) end to end. Returns the status fn failed with, once
 * the block it was in comes back (so some entries may be put past it); ZP_EBUFFER for an entry
 * larger than a block allows. */
ZP_NODISCARD zp_status zp_handoff_put(zp_handoff *h, const struct iovec *parts, size_t nparts);

/* Every entry taken, the thread ended: fn's status (ZP_OK). Later calls return the same. */
ZP_NODISCARD zp_status zp_handoff_end(zp_handoff *h);

/* Octets the handoff holds (its blocks). */
size_t zp_handoff_bytes(const zp_handoff *h);

/* Ends it first where zp_handoff_end was not called. */
void zp_handoff_free(zp_handoff *h);

/* A thread of zonepuny's: fn(arg) with every signal blocked but those of its own faults, as
 * the handoff's thread has them. false where none can be started. */
bool zp_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
