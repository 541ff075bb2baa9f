/* dnssec.c -- a signed zone verified as a validating resolver would read it: every RRSIG over
 * its RRset with the apex's DNSKEYs (RFC 4034 section 3.1.8.1, RFC 4035 section 5.3), its
 * validity window, and every authoritative RRset signed with each algorithm of the apex
 * DNSKEY RRset (RFC 4035 section 2.2), the DNSKEY RRset by a key with the SEP bit too.
 *
 * The records go through a sorter (record/sort.c) in canonical order, in --check-memory's
 * quarter that the tuples give up; after the pass they come back a name at a time, and each
 * name's RRsets and signatures are in hand together. Each RRset and its signatures wait in a
 * batch (verify.c) until enough are queued to share among the threads; once verified, the
 * RRsets are judged in the order they came. */
#include <stdlib.h>
#include <time.h>

#include "signed.h"
#include "record/sort.h"
#include "sig.h"

/* --dnssec=auto: records are held from the start, and let go when this many have come without
 * a DNSSEC type (nearly every signer writes an RRSIG right after the SOA). A signed zone found
 * later is read again with --dnssec=on by a caller that can (zp_check_dnssec_late). */
enum { DECIDE_RECORDS = 256 };

/* The least memory one name's records may take in the walk (name_max); an RRset whose signed
 * octets are more than a BIG_SET_SHARE-th of the batch is verified at once, a signature at a
 * time, rather than copied into the batch once per RRSIG. */
enum { NAME_FLOOR = 256 << 10, BIG_SET_SHARE = 8 };

/* An RRset whose signatures are in the batch, and one of them: judged once it is verified. */
typedef struct pending_set {
  size_t owner;            /* in owners */
  size_t sigs, nsigs;      /* in psigs */
  uint32_t skipped;        /* RRSIGs by apex keys past --max-key-tries, not verified */
  uint8_t skipped_algs[32];
  zp_ck_tuple at;
  uint16_t rtype;
  bool apex;
} pending_set;

typedef struct pending_sig {
  zp_ck_tuple at;
  size_t job;              /* its number in the batch */
  int64_t starts, expires;
  uint16_t tag;
  uint8_t alg;
} pending_sig;

struct zp_ck_dnssec {
  zp_sorter sort;
  bool deciding, on;
  bool signed_;            /* an RRSIG was held: --dnssec=auto verifies only then */
  zp_ck_tuple first_sig;         /* the first RRSIG held, in input order */
  uint32_t held;
  bool late;               /* an RRSIG came once auto had let the records go */
  zp_ck_tuple late_at;
  bool late_zonemd;        /* a ZONEMD, the same */
  zp_ck_tuple late_zonemd_at;
  bool has_zonemd;         /* a ZONEMD was held: its digest is checked, signed zone or not */
  /* dnssec_only: the checks' levels, all off until the walk (the first reading told the rest) */
  uint8_t levels[ZP_CK_COUNT];
  bool muted;
  /* the walk */
  uint8_t owner[ZP_NAME_MAX];   /* the name being walked, lowercased (RFC 4034 section 6.2) */
  uint8_t apex[ZP_NAME_MAX];    /* the apex, the signer of every RRSIG judged, the same */
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t key_len;
  zp_ck_rr *rrs;
  size_t nrr, rr_cap;
  zp_buf data;             /* the name's RDATA */
  uint8_t cut[ZP_NAME_KEY_MAX];   /* the last delegation or DNAME: names below it are not the */
  size_t cut_len;                 /* zone's to sign */
  bool have_cut;
  zp_ck_key *keys;
  size_t nkeys, keys_cap;
  bool apex_done;
  zp_ck_denial *denial;
  zp_ck_zonemd *zonemd;
  zp_ck_verify *verify;
  zp_buf sets, psigs, owners;   /* the batch's RRsets, their signatures, their owners */
  size_t owner_at;              /* the name's owner in owners; SIZE_MAX: not yet there */
  size_t batch;                 /* octets a batch may take */
  size_t name_max;              /* octets one name's records may take */
  uint8_t algs[32];        /* the algorithms of the apex's zone keys that are verified */
  int64_t now;
};

static bool is_dnssec_type(uint16_t t)
{
  return t == ZP_TYPE_RRSIG || t == ZP_TYPE_DNSKEY || t == ZP_TYPE_NSEC || t == ZP_TYPE_NSEC3 ||
         t == ZP_TYPE_NSEC3PARAM;
}

zp_status zp_ck_dnssec_new(zp_checker *c, size_t mem)
{
  if (c->opt.dnssec == ZP_DNSSEC_OFF || c->opt.off)
    return ZP_OK;
  zp_ck_dnssec *d = calloc(1, sizeof *d);
  if (!d)
    return ZP_ENOMEM;
  /* (a quarter of it for the NSEC3 chain's hashed owners, sorted after the walk, and a
   * quarter for a batch of signatures) */
  zp_sort_init(&d->sort, mem / 2);
  d->denial = zp_ck_denial_new(mem / 4);
  d->zonemd = zp_ck_zonemd_new();
  d->verify = zp_ck_verify_new(c->opt.threads);
  d->batch = mem / 4;
  /* (mem is a quarter of --check-memory: a name's records a sixteenth of it, but at least what
   * a few RRsets as large as a DNS message holds take, within the 512 KiB outside it) */
  d->name_max = mem / 4 > NAME_FLOOR ? mem / 4 : NAME_FLOOR;
  c->dnssec = d;
  if (!d->denial || !d->zonemd || !d->verify) {
    zp_ck_dnssec_free(c);
    return ZP_ENOMEM;
  }
  d->deciding = c->opt.dnssec == ZP_DNSSEC_AUTO;
  d->on = c->opt.dnssec == ZP_DNSSEC_ON;
  d->now = c->opt.now ? c->opt.now : (int64_t)time(NULL);
  if (c->opt.dnssec_only && d->on) {
    /* a second reading: what the records and the pass show was told by the first, so every
     * check is silent until the walk (set before the first record, so before the intake's
     * and the pass's threads read a level) */
    memcpy(d->levels, c->opt.level, sizeof d->levels);
    memset(c->opt.level, ZP_LEVEL_OFF, sizeof c->opt.level);
    d->muted = true;
  }
  return ZP_OK;
}

bool zp_check_dnssec_late(const zp_checker *c)
{
  return c->dnssec && c->dnssec->late;
}

void zp_ck_dnssec_free(zp_checker *c)
{
  zp_ck_dnssec *d = c->dnssec;
  if (!d)
    return;
  zp_sort_free(&d->sort);
  zp_ck_denial_free(d->denial);
  zp_ck_zonemd_free(d->zonemd);
  zp_ck_verify_free(d->verify);
  zp_buf_free(&d->sets);
  zp_buf_free(&d->psigs);
  zp_buf_free(&d->owners);
  for (size_t i = 0; i < d->nkeys; i++)
    zp_sig_key_free(d->keys[i].key);
  free(d->keys);
  free(d->rrs);
  zp_buf_free(&d->data);
  free(d);
  c->dnssec = NULL;
}

zp_status zp_ck_dnssec_record(zp_checker *c, const zp_record *r, const zp_ck_tuple *t, bool *shrink)
{
  zp_ck_dnssec *d = c->dnssec;
  *shrink = false;
  if (!d)
    return ZP_OK;
  /* (a ZONEMD is verified in an unsigned zone too: RFC 8976 section 4 does not ask for
   * DNSSEC, and its digest needs the records in canonical order as much as signatures do) */
  bool signing = is_dnssec_type(r->rtype) || r->rtype == ZP_TYPE_ZONEMD;
  if (d->deciding && signing) {
    d->deciding = false;
    d->on = *shrink = true;
  } else if (d->deciding && ++d->held >= DECIDE_RECORDS) {
    d->deciding = false;
    zp_sort_free(&d->sort);
  }
  if (!d->deciding && !d->on) {
    if (r->rtype == ZP_TYPE_RRSIG && !d->late) {
      d->late = true;
      d->late_at = *t;
    }
    if (r->rtype == ZP_TYPE_ZONEMD && !d->late_zonemd) {
      d->late_zonemd = true;
      d->late_zonemd_at = *t;
    }
    return ZP_OK;
  }
  if (r->rtype == ZP_TYPE_ZONEMD)
    d->has_zonemd = true;
  if (r->rtype == ZP_TYPE_RRSIG && !d->signed_) {
    d->signed_ = true;
    d->first_sig = *t;
  }
  return zp_sort_hold(&d->sort, r, t, sizeof *t);
}

/* ---- the walk ---- */

static const uint8_t *rdata_of(const zp_ck_dnssec *d, const zp_ck_rr *x)
{
  return (const uint8_t *)d->data.p + x->rd;
}

/* Whether key[0..len) is strictly below the name of sort key of[0..of_len). */
static bool below(const uint8_t *key, size_t len, const uint8_t *of, size_t of_len)
{
  return of_len < len && memcmp(key, of, of_len) == 0;
}

/* RFC 4034 section 3.1.8.1: the RRSIG's RDATA but its signature (the signer the apex, in
 * canonical form), then each record of the RRset in canonical order (the sorter's) under the
 * owner name[0..name_len), with the original TTL, appended to out. False when memory is
 * short. */
static bool build(zp_ck_dnssec *d, zp_buf *out, const zp_ck_rr *sig, const uint8_t *name,
                  size_t name_len, size_t first, size_t end)
{
  const uint8_t *rd = rdata_of(d, sig);
  bool ok = zp_buf_put(out, rd, 18) && zp_buf_put(out, d->apex, zp_name_wire_len(d->apex));
  for (size_t i = first; i < end && ok; i++) {
    const zp_ck_rr *x = &d->rrs[i];
    uint8_t head[10] = {(uint8_t)(x->rtype >> 8), (uint8_t)x->rtype, (uint8_t)(x->rclass >> 8),
                        (uint8_t)x->rclass, rd[4], rd[5], rd[6], rd[7],
                        (uint8_t)(x->rdlen >> 8), (uint8_t)x->rdlen};
    ok = zp_buf_put(out, name, name_len) && zp_buf_put(out, head, 10) &&
         zp_buf_put(out, rdata_of(d, x), x->rdlen);
  }
  return ok;
}

/* Queues an RRSIG of the RRset rrs[first..end) by an apex key for the batch. */
static zp_status sig_queue(zp_checker *c, const zp_ck_rr *sig, size_t first, size_t end,
                           pending_set *set)
{
  zp_ck_dnssec *d = c->dnssec;
  const uint8_t *rd = rdata_of(d, sig);
  if (sig->rdlen < 19)
    return ZP_OK;
  const uint8_t *signer = rd + 18;
  size_t signer_len = zp_name_wire_len(signer);
  uint8_t skey[ZP_NAME_KEY_MAX];
  size_t skey_len = zp_name_sort_key(signer, skey);
  if (18 + signer_len > sig->rdlen || skey_len != c->apex_len ||
      memcmp(skey, c->apex_key, skey_len) != 0)
    return ZP_OK;   /* (another zone's signature: not this zone's to judge) */
  pending_sig p = {.at = sig->at, .tag = zp_ck_be16(rd + 16), .alg = rd[2],
                   .expires = zp_ck_nearest(d->now, zp_ck_be32(rd + 8)),
                   .starts = zp_ck_nearest(d->now, zp_ck_be32(rd + 12))};
  size_t run_end, k = zp_ck_keys_find(d->keys, d->nkeys, p.alg, p.tag, &run_end);
  if (k == run_end || !d->keys[k].key)
    return ZP_OK;   /* (a key the apex does not publish: the RRset's other signatures must do) */
  uint32_t tries = zp_ck_key_tries(c);
  if (set->nsigs >= tries) {
    /* each costs the RRset's size again: many over one RRset would cost their product, and
     * validators give up on an RRset after as many tries (Unbound's MAX_VALIDATE_RRSIGS) */
    set->skipped++;
    set->skipped_algs[p.alg / 8] |= (uint8_t)(1u << (p.alg % 8));
    return ZP_OK;
  }
  uint8_t name[ZP_NAME_MAX + 2];
  size_t name_len;
  if (!zp_ck_signed_owner(d->owner, rd[3], name, &name_len)) {
    zp_ck_report(c, ZP_CK_RRSIG_BOGUS, &sig->at,
                 "RRSIG over %s %s counts %u labels, more than its owner has",
                 zp_ck_name_text(d->owner), zp_ck_type_text(set->rtype), rd[3]);
    return ZP_OK;
  }
  zp_buf *batch = zp_ck_verify_octets(d->verify);
  size_t from = batch->len;
  if (!build(d, batch, sig, name, name_len, first, end))
    return ZP_ENOMEM;
  /* a large RRset is verified now, its octets let go: a copy per RRSIG in the batch would
   * take the RRset's size times its signatures */
  bool now = batch->len - from > d->batch / BIG_SET_SHARE;
  if (!(now ? zp_ck_verify_now(d->verify, from, rd + 18 + signer_len,
                               sig->rdlen - 18 - signer_len, p.alg, p.tag, d->keys, d->nkeys,
                               zp_ck_key_tries(c), &p.job)
            : zp_ck_verify_add(d->verify, from, rd + 18 + signer_len,
                               sig->rdlen - 18 - signer_len, p.alg, p.tag, &p.job)) ||
      !zp_buf_put(&d->psigs, &p, sizeof p))
    return ZP_ENOMEM;
  set->nsigs++;
  return ZP_OK;
}

/* What the signatures of an RRset show: the algorithms that sign it validly, and whether a key
 * with the SEP bit is among the signers. */
typedef struct verdict {
  uint8_t algs[32];        /* signed validly */
  uint8_t judged[32];      /* with a signature by an apex key, told if it failed */
  bool sep;
} verdict;

/* A signature of the RRset, verified: told if it failed, or is not valid now. */
static void sig_judge(zp_checker *c, const pending_set *set, const pending_sig *p, verdict *v)
{
  zp_ck_dnssec *d = c->dnssec;
  uint32_t result = zp_ck_verify_result(d->verify, p->job);
  bool valid = result & ZP_CK_VALID, in_window = p->starts <= d->now && p->expires >= d->now;
  v->judged[p->alg / 8] |= (uint8_t)(1u << (p->alg % 8));
  if (valid && in_window) {
    v->algs[p->alg / 8] |= (uint8_t)(1u << (p->alg % 8));
    v->sep |= result & 1;   /* (the SEP bit of the flags, RFC 4034 section 2.1.1) */
    if (p->expires - d->now >= (int64_t)c->opt.sig_min_validity)
      return;
  }
  /* (the texts only for a message: nearly every signature has none) */
  const char *type = zp_ck_type_text(set->rtype);
  const char *owner = zp_ck_name_text((const uint8_t *)d->owners.p + set->owner);
  if (result & ZP_CK_TRIED_OUT) {
    size_t end, k = zp_ck_keys_find(d->keys, d->nkeys, p->alg, p->tag, &end);
    size_t lo = k, hi = end;   /* (the keys of the run come before those that are none) */
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (d->keys[mid].key)
        lo = mid + 1;
      else
        hi = mid;
    }
    size_t n = lo - k;
    zp_ck_report(c, ZP_CK_RRSIG_BOGUS, &p->at,
                 "RRSIG over %s %s by key %u (algorithm %u): not verified by the first %u of "
                 "the %zu apex DNSKEYs of that tag and algorithm, as many as --max-key-tries "
                 "lets one signature try; validators try as few (KeyTrap, CVE-2023-50387) and "
                 "fail it", owner, type, p->tag, p->alg, zp_ck_key_tries(c), n);
  } else if (!valid)
    zp_ck_report(c, ZP_CK_RRSIG_BOGUS, &p->at,
                 "RRSIG over %s %s by key %u (algorithm %u) does not verify", owner, type,
                 p->tag, p->alg);
  else if (p->starts > d->now)
    zp_ck_report(c, ZP_CK_RRSIG_VALIDITY, &p->at,
                 "RRSIG over %s %s by key %u is not valid before %s (now %s)", owner, type,
                 p->tag, zp_ck_time_text(p->starts), zp_ck_time_text(d->now));
  else if (p->expires < d->now)
    zp_ck_report(c, ZP_CK_RRSIG_VALIDITY, &p->at,
                 "RRSIG over %s %s by key %u expired at %s (now %s)", owner, type, p->tag,
                 zp_ck_time_text(p->expires), zp_ck_time_text(d->now));
  else
    zp_ck_report(c, ZP_CK_RRSIG_EXPIRING, &p->at,
                 "RRSIG over %s %s by key %u expires at %s, within %u days", owner, type, p->tag,
                 zp_ck_time_text(p->expires),
                 (unsigned)((c->opt.sig_min_validity + 86399) / 86400));
}

/* The first record of the name at or after class, type and (for RRSIG) type covered. */
static size_t rr_lower(const zp_ck_dnssec *d, uint16_t rclass, uint16_t rtype, uint32_t covered)
{
  uint64_t want = (uint64_t)rclass << 33 | (uint64_t)rtype << 17 | covered;
  size_t lo = 0, hi = d->nrr;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const zp_ck_rr *x = &d->rrs[mid];
    uint32_t cov = x->rtype == ZP_TYPE_RRSIG ? x->rdlen >= 2 ? zp_ck_be16(rdata_of(d, x)) : 0 : 0;
    if (((uint64_t)x->rclass << 33 | (uint64_t)x->rtype << 17 | cov) < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Queues the RRset rrs[first..end) and its signatures. */
static zp_status set_queue(zp_checker *c, size_t first, size_t end, bool apex)
{
  zp_ck_dnssec *d = c->dnssec;
  const zp_ck_rr *set = &d->rrs[first];
  if (d->owner_at == SIZE_MAX) {
    d->owner_at = d->owners.len;
    if (!zp_buf_put(&d->owners, d->owner, zp_name_wire_len(d->owner)))
      return ZP_ENOMEM;
  }
  pending_set p = {.owner = d->owner_at, .sigs = d->psigs.len / sizeof(pending_sig),
                   .at = set->at, .rtype = set->rtype, .apex = apex};
  zp_status st;
  /* the name's records are in canonical order (class, type, RDATA), and an RRSIG's RDATA
   * starts with the type it covers: the RRset's RRSIGs are one run, found by two binary
   * searches rather than a scan of the name per RRset (a name of 60,000 types) */
  size_t i = rr_lower(d, set->rclass, ZP_TYPE_RRSIG, set->rtype), sig_end =
         rr_lower(d, set->rclass, ZP_TYPE_RRSIG, set->rtype + 1u);
  for (; i < sig_end; i++)
    if ((st = sig_queue(c, &d->rrs[i], first, end, &p)) != ZP_OK)
      return st;
  return zp_buf_put(&d->sets, &p, sizeof p) ? ZP_OK : ZP_ENOMEM;
}

/* A queued RRset, its signatures verified. */
static void set_judge(zp_checker *c, const pending_set *set)
{
  zp_ck_dnssec *d = c->dnssec;
  verdict v = {{0}, {0}, false};
  for (size_t i = 0; i < set->nsigs; i++)
    sig_judge(c, set, (const pending_sig *)d->psigs.p + set->sigs + i, &v);
  for (unsigned alg = 0; alg < 256; alg++) {
    if (!(d->algs[alg / 8] >> alg % 8 & 1) || (v.algs[alg / 8] >> alg % 8 & 1))
      continue;
    const char *owner = zp_ck_name_text((const uint8_t *)d->owners.p + set->owner);
    if (set->skipped_algs[alg / 8] >> alg % 8 & 1) {
      zp_ck_report(c, ZP_CK_RRSIG_BOGUS, &set->at, "%s %s: none of the first %u of its RRSIGs "
                   "by apex keys verifies with algorithm %u, and %u more are left unverified: "
                   "as many as --max-key-tries lets one RRset try; validators try as few "
                   "(KeyTrap, CVE-2023-50387) and fail it", owner, zp_ck_type_text(set->rtype),
                   zp_ck_key_tries(c), alg, set->skipped);
      return;
    }
    /* (a signature that failed is told as such: the RRset is not told again) */
    if (!(v.judged[alg / 8] >> alg % 8 & 1)) {
      zp_ck_report(c, ZP_CK_RRSET_UNSIGNED, &set->at,
                   "%s %s has no RRSIG of algorithm %u by an apex DNSKEY", owner,
                   zp_ck_type_text(set->rtype), alg);
      return;
    }
  }
  if (set->apex && set->rtype == ZP_TYPE_DNSKEY && !v.sep)
    zp_ck_report(c, ZP_CK_DNSKEY_SEP, &set->at,
                 "the DNSKEY RRset has no valid RRSIG by a key with the SEP bit (flags 257)");
}

/* The batch verified, and its RRsets judged in order. */
static void flush(zp_checker *c)
{
  zp_ck_dnssec *d = c->dnssec;
  zp_ck_verify_run(d->verify, d->keys, d->nkeys, zp_ck_key_tries(c));
  for (size_t i = 0; i < d->sets.len / sizeof(pending_set); i++)
    set_judge(c, (const pending_set *)d->sets.p + i);
  zp_ck_verify_clear(d->verify);
  d->sets.len = d->psigs.len = d->owners.len = 0;
}

/* The records of one name, collected: each RRset the zone signs verified; the name in the
 * chain of denial and in the zone's digest. */
static zp_status name_end(zp_checker *c)
{
  zp_ck_dnssec *d = c->dnssec;
  if (d->nrr == 0)
    return ZP_OK;
  bool apex = d->key_len == c->apex_len && memcmp(d->key, c->apex_key, c->apex_len) == 0;
  bool in_zone = apex || below(d->key, d->key_len, c->apex_key, c->apex_len);
  if (d->have_cut && !below(d->key, d->key_len, d->cut, d->cut_len))
    d->have_cut = false;
  if (!in_zone)
    return ZP_OK;
  zp_status st;
  if (apex && !d->apex_done) {
    d->apex_done = true;
    /* (an unsigned zone walked for its ZONEMD alone: no key of it is used) */
    zp_ck_name apex_name = {.owner = d->owner, .rrs = d->rrs, .nrr = d->nrr,
                            .data = (const uint8_t *)d->data.p, .apex = true};
    if ((d->signed_ || c->opt.dnssec == ZP_DNSSEC_ON) &&
        (st = zp_ck_apex_keys(c, &apex_name, &d->keys, &d->nkeys, &d->keys_cap, d->algs)) !=
            ZP_OK)
      return st;
  }
  /* a delegation (NS below the apex) or a DNAME: the names below are not the zone's to sign
   * (RFC 6672 section 2.4); at a delegation only DS and NSEC are (RFC 4035 section 2.2) */
  bool deleg = false, dname = false;
  for (size_t i = 0; i < d->nrr && !apex && !d->have_cut; i++) {
    deleg |= d->rrs[i].rtype == ZP_TYPE_NS;
    dname |= d->rrs[i].rtype == ZP_TYPE_DNAME;
  }
  if (!d->apex_done)
    return ZP_OK;
  zp_ck_name n = {d->owner, d->key, d->key_len, d->rrs, d->nrr, (const uint8_t *)d->data.p,
                  apex, deleg, d->have_cut};
  if ((st = zp_ck_zonemd_name(d->zonemd, &n)) != ZP_OK || d->nkeys == 0)
    return st;
  if ((apex && (st = zp_ck_cds_keys(c, &n)) != ZP_OK) ||
      (st = zp_ck_denial_name(c, d->denial, &n)) != ZP_OK || d->have_cut)
    return st;
  d->owner_at = SIZE_MAX;
  for (size_t i = 0, j; i < d->nrr; i = j) {
    for (j = i + 1; j < d->nrr && d->rrs[j].rtype == d->rrs[i].rtype &&
                    d->rrs[j].rclass == d->rrs[i].rclass;)
      j++;
    uint16_t ty = d->rrs[i].rtype;
    if (ty != ZP_TYPE_RRSIG && (!deleg || ty == ZP_TYPE_DS || ty == ZP_TYPE_NSEC) &&
        (st = set_queue(c, i, j, apex)) != ZP_OK)
      return st;
    /* (the batch stays within its share: a name of many RRsets is flushed between them) */
    if (zp_ck_verify_bytes(d->verify) + d->sets.len + d->psigs.len + d->owners.len >= d->batch) {
      flush(c);
      d->owner_at = SIZE_MAX;
    }
  }
  if (deleg || dname) {
    memcpy(d->cut, d->key, d->key_len);
    d->cut_len = d->key_len;
    d->have_cut = true;
  }
  return ZP_OK;
}

/* The zone's messages once every name is walked (walked: the zone was): what --dnssec could
 * not verify. */
static void walk_end(zp_checker *c, bool walked)
{
  zp_ck_dnssec *d = c->dnssec;
  const zp_ck_tuple *first = c->seq ? &c->first : NULL;
  if (d->late)
    zp_ck_report(c, ZP_CK_DNSSEC_UNVERIFIED, &d->late_at,
                 "signatures not verified: the zone's first DNSSEC record comes after %d "
                 "others, and input that cannot be read again (standard input, a pipe) is "
                 "read once; give --dnssec=on to verify them", DECIDE_RECORDS);
  /* (an unsigned zone's ZONEMD past the first records: its digest needs them all) */
  else if (d->late_zonemd)
    zp_ck_report(c, ZP_CK_DNSSEC_UNVERIFIED, &d->late_zonemd_at,
                 "ZONEMD not verified: the zone's first ZONEMD or DNSSEC record comes after "
                 "%d others, when the records were let go; write it after the SOA",
                 DECIDE_RECORDS);
  /* RRSIGs are there, so the zone is signed, whatever --dnssec says; with no apex DNSKEY
   * (its keys removed, or never added) not one of them can be verified (RFC 4035 sections
   * 2.1 and 5.3.1), as dnssec-verify, kzonecheck and ldns-verify-zone refuse it */
  else if (walked && d->signed_ && d->nkeys == 0)
    zp_ck_report(c, ZP_CK_RRSET_UNSIGNED, &d->first_sig,
                 "%s has RRSIG records, the first here, but no DNSKEY RRset at its apex: "
                 "nothing verifies them (RFC 4035 sections 2.1 and 5.3.1)",
                 zp_ck_name_text(d->apex));
  else if (c->opt.dnssec == ZP_DNSSEC_ON && d->nkeys == 0)
    zp_ck_report(c, ZP_CK_RRSET_UNSIGNED, first, "--dnssec=on, but the zone has no DNSKEY "
                 "RRset at its apex%s", d->signed_ ? ": nothing verifies its RRSIGs" : "");
}

/* The records of one name need more than name_max: the run ends (exit 2), as at the other
 * bounds of --check-memory. */
static void name_too_big(zp_checker *c)
{
  zp_ck_dnssec *d = c->dnssec;
  zp_diag_report(c->diag, NULL, ZP_ERROR, "%s: the records at %s need more than %zu bytes, "
                 "the share of --check-memory (a sixteenth, at least %u KiB) that one name's "
                 "records may take while they are verified: raise it",
                 c->opt.file ? c->opt.file : "the zone", zp_ck_name_text(d->owner),
                 d->name_max, NAME_FLOOR >> 10);
}

zp_status zp_ck_dnssec_end(zp_checker *c)
{
  zp_ck_dnssec *d = c->dnssec;
  if (!d)
    return ZP_OK;
  zp_status st = ZP_OK;
  if (d->muted) {
    memcpy(c->opt.level, d->levels, sizeof d->levels);
    d->muted = false;
  }
  /* auto: a zone is signed when it holds RRSIGs; one with no DNSKEY at its apex is told so */
  bool walked = d->on && c->have_apex &&
                (d->signed_ || d->has_zonemd || c->opt.dnssec == ZP_DNSSEC_ON);
  if (walked) {
    zp_record r;
    bool more;
    zp_name_from_sort_key(c->apex_key, c->apex_len, d->apex);
    while ((st = zp_sort_next(&d->sort, &r, &more)) == ZP_OK && more) {
      uint8_t key[ZP_NAME_KEY_MAX];
      size_t key_len = zp_name_sort_key(r.owner, key);
      if (d->nrr && (key_len != d->key_len || memcmp(key, d->key, key_len) != 0)) {
        if ((st = name_end(c)) != ZP_OK)
          break;
        d->nrr = 0;
        d->data.len = 0;
      }
      if (d->nrr == 0) {
        memcpy(d->key, key, key_len);
        d->key_len = key_len;
        zp_name_from_sort_key(key, key_len, d->owner);   /* (lowercased: canonical form) */
      }
      if (d->data.len + r.rdlen + (d->nrr + 1) * sizeof *d->rrs > d->name_max) {
        name_too_big(c);
        return ZP_ELIMIT;
      }
      if (!zp_array_room(&d->rrs, d->nrr, &d->rr_cap, sizeof *d->rrs, 16))
        return ZP_ENOMEM;
      zp_ck_rr *x = &d->rrs[d->nrr++];
      *x = (zp_ck_rr){r.rclass, r.rtype, r.ttl, d->data.len, (uint16_t)r.rdlen, {0}};
      memcpy(&x->at, d->sort.extra, sizeof x->at);
      if (!zp_buf_put(&d->data, r.rdata, r.rdlen))
        return ZP_ENOMEM;
    }
    if (st == ZP_OK)
      st = name_end(c);
    if (st == ZP_OK && d->apex_done)
      zp_ck_zonemd_end(c, d->zonemd);
    if (st == ZP_OK && d->nkeys > 0) {
      flush(c);
      st = zp_ck_denial_end(c, d->denial);
    }
  }
  if (st == ZP_OK)
    walk_end(c, walked);
  return st;
}
