/* signed.h -- the signed-zone family: the walk of a signed zone (dnssec.c) as its parts see
 * it, a name at a time in canonical order (RFC 4034 section 6.1) with all its records, and the
 * parts: signatures verified in batches (verify.c), the apex's keys (keys.c), the denial of
 * existence (denial.c) and the zone's digest (zonemd.c) */
#ifndef ZP_CK_SIGNED_H
#define ZP_CK_SIGNED_H

#include "check_int.h"
#include "sig.h"

/* A record of the name; its RDATA at data + rd. */
typedef struct zp_ck_rr {
  uint16_t rclass, rtype;
  uint32_t ttl;
  size_t rd;
  uint16_t rdlen;
  zp_ck_tuple at;
} zp_ck_rr;

typedef struct zp_ck_name {
  const uint8_t *owner;        /* wire form, lowercased (RFC 4034 section 6.2) */
  const uint8_t *key;          /* its sort key */
  size_t key_len;
  const zp_ck_rr *rrs;         /* in canonical order: class, type, then RDATA */
  size_t nrr;
  const uint8_t *data;
  bool apex;
  bool deleg;                  /* NS below the apex: a delegation point */
  bool below;                  /* below a delegation or a DNAME: not the zone's own data */
} zp_ck_name;

static inline const uint8_t *zp_ck_rdata(const zp_ck_name *n, const zp_ck_rr *x)
{
  return n->data + x->rd;
}

/* RDATA's numbers, big-endian. */
static inline uint16_t zp_ck_be16(const uint8_t *p)
{
  return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t zp_ck_be32(const uint8_t *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* An apex DNSKEY that is a zone key (RFC 4034 section 2.1.1), not revoked. */
typedef struct zp_ck_key {
  zp_sig_key *key;             /* NULL: an algorithm zonepuny does not verify, or no key */
  uint16_t tag, flags;
  uint8_t alg;
  uint32_t order;              /* its place in the DNSKEY RRset (canonical order) */
} zp_ck_key;

/* The keys as the walk hands them to the batch: ordered by algorithm, key tag, then place,
 * so that an RRSIG's candidates are one run, found by a binary search. */
/* The first of keys[0..n) of algorithm alg and tag tag (n when none); *end past the last. */
size_t zp_ck_keys_find(const zp_ck_key *keys, size_t n, uint8_t alg, uint16_t tag, size_t *end);
/* The default of --max-key-tries: Unbound's MAX_VALIDATE_RRSIGS since 1.19.1 (BIND 9.18.24's
 * max-validations-per-fetch is 16 for a whole answer, and it stops at the first failure). */
enum { ZP_CK_KEY_TRIES_DEFAULT = 8 };

/* --max-key-tries: the keys of one tag and algorithm an RRSIG, CDS or CDNSKEY is tried with. */
static inline uint32_t zp_ck_key_tries(const zp_checker *c)
{
  return c->opt.max_key_tries ? c->opt.max_key_tries : ZP_CK_KEY_TRIES_DEFAULT;
}

/* ---- verify.c: signatures verified in batches, on the -j threads and the caller's ---- */
typedef struct zp_ck_verify zp_ck_verify;
/* threads: -j; from 2, threads - 1 workers help the caller's. NULL when memory is short. */
zp_ck_verify *zp_ck_verify_new(unsigned threads);
void zp_ck_verify_free(zp_ck_verify *v);
/* The batch's octets: what a signature signs is built at their end, then queued. */
zp_buf *zp_ck_verify_octets(zp_ck_verify *v);
/* Queues sig[0..sig_len), a signature by a key of algorithm alg and key tag tag over the
 * batch's octets from from to their end; *n its number in the batch. false when memory is
 * short. */
bool zp_ck_verify_add(zp_ck_verify *v, size_t from, const uint8_t *sig, size_t sig_len,
                      uint8_t alg, uint16_t tag, size_t *n);
/* The same, but verified at once on the caller's thread with keys[0..nkeys) (tries of each
 * signature's, as zp_ck_verify_run) and the octets from from let go: for a large RRset. */
bool zp_ck_verify_now(zp_ck_verify *v, size_t from, const uint8_t *sig, size_t sig_len,
                      uint8_t alg, uint16_t tag, const zp_ck_key *keys, size_t nkeys,
                      uint32_t tries, size_t *n);
/* Octets queued. */
size_t zp_ck_verify_bytes(const zp_ck_verify *v);
/* Verifies the batch with keys[0..nkeys) (ordered as zp_ck_keys_find wants them; of each
 * signature those of its algorithm and tag, at most tries of them): the outcome of the n-th
 * is then zp_ck_verify_result's. */
void zp_ck_verify_run(zp_ck_verify *v, const zp_ck_key *keys, size_t nkeys, uint32_t tries);
/* ZP_CK_BOGUS, or the flags of the key it verified with, ZP_CK_VALID added; ZP_CK_TRIED_OUT
 * added to a bogus one when keys of its tag and algorithm were left untried. */
enum { ZP_CK_BOGUS = 0, ZP_CK_VALID = 1 << 16, ZP_CK_TRIED_OUT = 1 << 17 };
uint32_t zp_ck_verify_result(const zp_ck_verify *v, size_t n);
/* Empties the batch for the next. */
void zp_ck_verify_clear(zp_ck_verify *v);

/* The keys in zp_ck_keys_find's order: algorithm, tag, those that are keys first, place. */
void zp_ck_keys_sort(zp_ck_key *keys, size_t n);
/* A time of an RRSIG (serial arithmetic, RFC 4034 section 3.1.5) as the one nearest now. */
int64_t zp_ck_nearest(int64_t now, uint32_t t);
/* t as YYYYMMDDHHMMSS, in one of two buffers that take turns (for a message). */
const char *zp_ck_time_text(int64_t t);
/* The owner an RRSIG of labels labels signs for owner (lowercased): itself, or the wildcard
 * it was expanded from (RFC 4035 section 5.3.2), into out; false when labels counts more
 * than the owner has. */
bool zp_ck_signed_owner(const uint8_t *owner, unsigned labels, uint8_t *out, size_t *out_len);

/* ---- denial.c: the NSEC or NSEC3 chain, each name's type bitmap ---- */
typedef struct zp_ck_denial zp_ck_denial;
/* mem: octets the NSEC3 chain's hashed owners are sorted in. NULL when memory is short. */
zp_ck_denial *zp_ck_denial_new(size_t mem);
void zp_ck_denial_free(zp_ck_denial *dn);
/* Each name at or below the apex, in order; the apex first. */
ZP_NODISCARD zp_status zp_ck_denial_name(zp_checker *c, zp_ck_denial *dn, const zp_ck_name *n);
/* After the last name: the chains' ends, and the NSEC3 chain in hash order. */
ZP_NODISCARD zp_status zp_ck_denial_end(zp_checker *c, zp_ck_denial *dn);

/* ---- keys.c: the apex's keys ---- */
/* Its zone keys (a DNSKEY with the zone key bit, not revoked) appended to keys[0..n) (cap its
 * room), in zp_ck_keys_find's order, the algorithms verified with among them set in algs;
 * keys validators refuse, or of algorithms not verified, told. */
ZP_NODISCARD zp_status zp_ck_apex_keys(zp_checker *c, const zp_ck_name *apex, zp_ck_key **keys,
                                       size_t *n, size_t *cap, uint8_t algs[32]);
/* In a signed zone, CDS and CDNSKEY (RFC 7344 section 3) but the delete records of RFC 8078
 * section 4 each the digest of an apex DNSKEY, or one of them, so that a parent taking it
 * keeps the chain of trust (one of an algorithm no DNSKEY has is told before). */
ZP_NODISCARD zp_status zp_ck_cds_keys(zp_checker *c, const zp_ck_name *apex);

/* ---- zonemd.c: ZONEMD's digest of the zone (RFC 8976) ---- */
typedef struct zp_ck_zonemd zp_ck_zonemd;
zp_ck_zonemd *zp_ck_zonemd_new(void);
void zp_ck_zonemd_free(zp_ck_zonemd *z);
/* The same names as zp_ck_denial_name. */
ZP_NODISCARD zp_status zp_ck_zonemd_name(zp_ck_zonemd *z, const zp_ck_name *n);
void zp_ck_zonemd_end(zp_checker *c, zp_ck_zonemd *z);

#endif
