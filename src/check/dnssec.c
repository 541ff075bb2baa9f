/* dnssec.c -- a signed zone verified as a validating resolver would read it: every RRSIG over
 * its RRset with the apex's DNSKEYs (RFC 4034 section 3.1.8.1, RFC 4035 section 5.3), its
 * validity window, and every authoritative RRset signed with each algorithm of the apex
 * DNSKEY RRset (RFC 4035 section 2.2), the DNSKEY RRset by a key with the SEP bit too.
 *
 * The records go through a sorter (read/sort.c) in canonical order, in --check-memory's
 * quarter that the tuples give up; after the pass they come back a name at a time, and each
 * name's RRsets and signatures are in hand together. */
#include <stdlib.h>
#include <time.h>

#include "dnssec.h"
#include "read/sort.h"
#include "sig.h"

/* --dnssec=auto: records are held from the start, and let go when this many have come without
 * a DNSSEC type (nearly every signer writes an RRSIG right after the SOA). */
enum { DECIDE_RECORDS = 256 };

typedef struct apex_key {
  zp_sig_key *key;
  uint16_t tag, flags;
  uint8_t alg;
} apex_key;

struct zp_ck_dnssec {
  zp_sorter sort;
  bool deciding, on;
  bool signed_;            /* an RRSIG was held: --dnssec=auto verifies only then */
  uint32_t held;
  bool late;               /* a DNSSEC record came once auto had let the records go */
  tuple late_at;
  /* the walk */
  uint8_t owner[ZP_NAME_MAX];   /* the name being walked, lowercased (RFC 4034 section 6.2) */
  uint8_t apex[ZP_NAME_MAX];    /* the apex, the signer of every RRSIG judged, the same */
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t key_len;
  zp_ck_rr *rrs;
  size_t nrr, rr_cap;
  zp_buf data;             /* the name's RDATA */
  zp_buf sdata;            /* what one signature signs */
  uint8_t cut[ZP_NAME_KEY_MAX];   /* the last delegation or DNAME: names below it are not the */
  size_t cut_len;                 /* zone's to sign */
  bool have_cut;
  apex_key *keys;
  size_t nkeys;
  bool apex_done;
  zp_ck_denial *denial;
  zp_ck_zonemd *zonemd;
  uint8_t algs[32];        /* the algorithms of the apex's zone keys that are verified */
  int64_t now;
};

static bool is_dnssec_type(uint16_t t)
{
  return t == T_RRSIG || t == T_DNSKEY || t == T_NSEC || t == T_NSEC3 || t == T_NSEC3PARAM;
}

zp_status zp_ck_dnssec_new(zp_checker *c, size_t mem)
{
  if (c->opt.dnssec == ZP_DNSSEC_OFF || c->opt.off)
    return ZP_OK;
  zp_ck_dnssec *d = calloc(1, sizeof *d);
  if (!d)
    return ZP_ENOMEM;
  /* (a quarter of it for the NSEC3 chain's hashed owners, sorted after the walk) */
  zp_sort_init(&d->sort, mem - mem / 4);
  d->denial = zp_ck_denial_new(mem / 4);
  d->zonemd = zp_ck_zonemd_new();
  if (!d->denial || !d->zonemd) {
    zp_ck_denial_free(d->denial);
    zp_ck_zonemd_free(d->zonemd);
    free(d);
    return ZP_ENOMEM;
  }
  d->deciding = c->opt.dnssec == ZP_DNSSEC_AUTO;
  d->on = c->opt.dnssec == ZP_DNSSEC_ON;
  d->now = c->opt.now ? c->opt.now : (int64_t)time(NULL);
  c->dnssec = d;
  return ZP_OK;
}

void zp_ck_dnssec_free(zp_checker *c)
{
  zp_ck_dnssec *d = c->dnssec;
  if (!d)
    return;
  zp_sort_free(&d->sort);
  zp_ck_denial_free(d->denial);
  zp_ck_zonemd_free(d->zonemd);
  for (size_t i = 0; i < d->nkeys; i++)
    zp_sig_key_free(d->keys[i].key);
  free(d->keys);
  free(d->rrs);
  zp_buf_free(&d->data);
  zp_buf_free(&d->sdata);
  free(d);
  c->dnssec = NULL;
}

zp_status zp_ck_dnssec_record(zp_checker *c, const zp_record *r, const tuple *t, bool *shrink)
{
  zp_ck_dnssec *d = c->dnssec;
  *shrink = false;
  if (!d)
    return ZP_OK;
  bool signing = is_dnssec_type(r->rtype);
  if (d->deciding && signing) {
    d->deciding = false;
    d->on = *shrink = true;
  } else if (d->deciding && ++d->held >= DECIDE_RECORDS) {
    d->deciding = false;
    zp_sort_free(&d->sort);
  }
  if (!d->deciding && !d->on) {
    if (r->rtype == T_RRSIG && !d->late) {
      d->late = true;
      d->late_at = *t;
    }
    return ZP_OK;
  }
  d->signed_ |= r->rtype == T_RRSIG;
  return zp_sort_hold(&d->sort, r, t, sizeof *t);
}

/* ---- the walk ---- */

static const uint8_t *rdata_of(const zp_ck_dnssec *d, const zp_ck_rr *x)
{
  return (const uint8_t *)d->data.p + x->rd;
}

static uint32_t be32(const uint8_t *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t be16(const uint8_t *p)
{
  return (uint16_t)(p[0] << 8 | p[1]);
}

/* A time of an RRSIG (serial arithmetic, RFC 4034 section 3.1.5) as the one nearest now. */
static int64_t nearest(int64_t now, uint32_t t)
{
  return now + (int32_t)(t - (uint32_t)now);
}

static const char *time_text(int64_t t)
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

/* Whether key[0..len) is strictly below the name of sort key of[0..of_len). */
static bool below(const uint8_t *key, size_t len, const uint8_t *of, size_t of_len)
{
  return of_len < len && memcmp(key, of, of_len) == 0;
}

/* The owner of the RRset as the signature signs it (owner already lowercased): the owner
 * itself, or, where the RRSIG's labels field counts fewer labels, the wildcard it was expanded
 * from (RFC 4035 section 5.3.2). False when labels counts more than the owner has. */
static bool signed_owner(const uint8_t *owner, unsigned labels, uint8_t *out, size_t *out_len)
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

/* RFC 4034 section 3.1.8.1: the RRSIG's RDATA but its signature (the signer the apex, in
 * canonical form), then each record of the RRset in canonical order (the sorter's) under the
 * owner name[0..name_len), with the original TTL. False when memory is short. */
static bool build(zp_ck_dnssec *d, const zp_ck_rr *sig, const uint8_t *name, size_t name_len,
                  size_t first, size_t end)
{
  const uint8_t *rd = rdata_of(d, sig);
  d->sdata.len = 0;
  bool ok = zp_buf_put(&d->sdata, rd, 18) &&
            zp_buf_put(&d->sdata, d->apex, zp_name_wire_len(d->apex));
  for (size_t i = first; i < end && ok; i++) {
    const zp_ck_rr *x = &d->rrs[i];
    uint8_t head[10] = {(uint8_t)(x->rtype >> 8), (uint8_t)x->rtype, (uint8_t)(x->rclass >> 8),
                        (uint8_t)x->rclass, rd[4], rd[5], rd[6], rd[7],
                        (uint8_t)(x->rdlen >> 8), (uint8_t)x->rdlen};
    ok = zp_buf_put(&d->sdata, name, name_len) && zp_buf_put(&d->sdata, head, 10) &&
         zp_buf_put(&d->sdata, rdata_of(d, x), x->rdlen);
  }
  return ok;
}

/* What the signatures of the RRset rrs[first..end) show: the algorithms that sign it validly,
 * and whether a key with the SEP bit is among the signers. */
typedef struct verdict {
  uint8_t algs[32];        /* signed validly */
  uint8_t judged[32];      /* with a signature by an apex key, told if it failed */
  bool sep;
} verdict;

static zp_status one_sig(zp_checker *c, const zp_ck_rr *sig, size_t first, size_t end, verdict *v)
{
  zp_ck_dnssec *d = c->dnssec;
  const uint8_t *rd = rdata_of(d, sig);
  const zp_ck_rr *set = &d->rrs[first];
  if (sig->rdlen < 19)
    return ZP_OK;
  const uint8_t *signer = rd + 18;
  size_t signer_len = zp_name_wire_len(signer);
  uint8_t skey[ZP_NAME_KEY_MAX];
  size_t skey_len = zp_name_sort_key(signer, skey);
  if (18 + signer_len > sig->rdlen || skey_len != c->apex_len ||
      memcmp(skey, c->apex_key, skey_len) != 0)
    return ZP_OK;   /* (another zone's signature: not this zone's to judge) */
  uint8_t alg = rd[2];
  uint16_t tag = be16(rd + 16);
  const uint8_t *s = rd + 18 + signer_len;
  size_t s_len = sig->rdlen - 18 - signer_len;
  int64_t expires = nearest(d->now, be32(rd + 8)), starts = nearest(d->now, be32(rd + 12));
  const char *type = zp_ck_type_text(set->rtype), *owner = zp_ck_name_text(d->owner);
  bool known = false, verified = false, sep = false;
  for (size_t i = 0; i < d->nkeys && !verified; i++) {
    apex_key *k = &d->keys[i];
    if (k->alg != alg || k->tag != tag || !k->key)
      continue;
    if (!known) {   /* (what is signed is the same whichever key of the tag signed it) */
      known = true;
      uint8_t name[ZP_NAME_MAX + 2];
      size_t name_len;
      if (!signed_owner(d->owner, rd[3], name, &name_len)) {
        zp_ck_report(c, ZP_CK_RRSIG_BOGUS, &sig->at,
                     "RRSIG over %s %s counts %u labels, more than its owner has", owner, type,
                     rd[3]);
        return ZP_OK;
      }
      if (!build(d, sig, name, name_len, first, end))
        return ZP_ENOMEM;
    }
    verified = zp_sig_verify(k->key, (const uint8_t *)d->sdata.p, d->sdata.len, s, s_len);
    sep = verified && (k->flags & 1);
  }
  if (!known)
    return ZP_OK;   /* (a key the apex does not publish: the RRset's other signatures must do) */
  v->judged[alg / 8] |= (uint8_t)(1u << (alg % 8));
  if (!verified) {
    zp_ck_report(c, ZP_CK_RRSIG_BOGUS, &sig->at,
                 "RRSIG over %s %s by key %u (algorithm %u) does not verify", owner, type, tag,
                 alg);
    return ZP_OK;
  }
  if (starts > d->now) {
    zp_ck_report(c, ZP_CK_RRSIG_VALIDITY, &sig->at,
                 "RRSIG over %s %s by key %u is not valid before %s (now %s)", owner, type, tag,
                 time_text(starts), time_text(d->now));
    return ZP_OK;
  }
  if (expires < d->now) {
    zp_ck_report(c, ZP_CK_RRSIG_VALIDITY, &sig->at,
                 "RRSIG over %s %s by key %u expired at %s (now %s)", owner, type, tag,
                 time_text(expires), time_text(d->now));
    return ZP_OK;
  }
  if (expires - d->now < (int64_t)c->opt.sig_min_validity && zp_ck_on(c, ZP_CK_RRSIG_EXPIRING))
    zp_ck_report(c, ZP_CK_RRSIG_EXPIRING, &sig->at,
                 "RRSIG over %s %s by key %u expires at %s, within %u days", owner, type, tag,
                 time_text(expires), (unsigned)((c->opt.sig_min_validity + 86399) / 86400));
  v->algs[alg / 8] |= (uint8_t)(1u << (alg % 8));
  v->sep |= sep;
  return ZP_OK;
}

/* The apex's DNSKEY RRset: the zone keys (RFC 4034 section 2.1.1) the signatures name. */
static zp_status apex_keys(zp_checker *c)
{
  zp_ck_dnssec *d = c->dnssec;
  for (size_t i = 0; i < d->nrr; i++) {
    const zp_ck_rr *x = &d->rrs[i];
    const uint8_t *rd = rdata_of(d, x);
    if (x->rtype != T_DNSKEY || x->rdlen < 4)
      continue;
    uint16_t flags = be16(rd);
    if (!(flags & 0x0100) || (flags & 0x0080) || rd[2] != 3)   /* zone key, not revoked */
      continue;
    apex_key *grown = realloc(d->keys, (d->nkeys + 1) * sizeof *grown);
    if (!grown)
      return ZP_ENOMEM;
    d->keys = grown;
    apex_key *k = &d->keys[d->nkeys++];
    *k = (apex_key){zp_sig_key_new(rd, x->rdlen), zp_sig_key_tag(rd, x->rdlen), flags, rd[3]};
    const char *old = zp_sig_alg_deprecated(rd[3]);
    if (old)
      zp_ck_report(c, ZP_CK_DNSSEC_ALGORITHM, &x->at,
                   "DNSKEY %u: algorithm %u (%s) is not to be used for signing (RFC 8624)",
                   k->tag, rd[3], old);
    if (k->key)
      d->algs[rd[3] / 8] |= (uint8_t)(1u << (rd[3] % 8));
    else if (zp_sig_alg_supported(rd[3]))
      zp_ck_report(c, ZP_CK_RRSIG_BOGUS, &x->at, "DNSKEY %u: not a public key of algorithm %u",
                   k->tag, rd[3]);
    else if (!old)
      zp_ck_report(c, ZP_CK_DNSSEC_ALGORITHM, &x->at,
                   "DNSKEY %u: algorithm %u is not one zonepuny verifies", k->tag, rd[3]);
  }
  return ZP_OK;
}

/* The RRset rrs[first..end) against the name's signatures. */
static zp_status rrset(zp_checker *c, size_t first, size_t end, bool apex)
{
  zp_ck_dnssec *d = c->dnssec;
  const zp_ck_rr *set = &d->rrs[first];
  verdict v = {{0}, {0}, false};
  zp_status st;
  for (size_t i = 0; i < d->nrr; i++) {
    const zp_ck_rr *x = &d->rrs[i];
    if (x->rtype == T_RRSIG && x->rclass == set->rclass && x->rdlen >= 2 &&
        be16(rdata_of(d, x)) == set->rtype && (st = one_sig(c, x, first, end, &v)) != ZP_OK)
      return st;
  }
  for (unsigned alg = 0; alg < 256; alg++) {
    /* (a signature that failed is told as such: the RRset is not told again) */
    if ((d->algs[alg / 8] >> alg % 8 & 1) && !(v.judged[alg / 8] >> alg % 8 & 1)) {
      zp_ck_report(c, ZP_CK_RRSET_UNSIGNED, &set->at,
                   "%s %s has no RRSIG of algorithm %u by an apex DNSKEY",
                   zp_ck_name_text(d->owner), zp_ck_type_text(set->rtype), alg);
      return ZP_OK;
    }
  }
  if (apex && set->rtype == T_DNSKEY && !v.sep)
    zp_ck_report(c, ZP_CK_DNSKEY_SEP, &set->at,
                 "the DNSKEY RRset has no valid RRSIG by a key with the SEP bit (flags 257)");
  return ZP_OK;
}

/* CDS and CDNSKEY (RFC 7344 section 3), but the delete records of RFC 8078 section 4: each the
 * digest of an apex DNSKEY, or one of them, so that a parent taking it keeps the chain of trust.
 * (One of an algorithm no DNSKEY has is cds.c's to tell.) */
static zp_status child_keys(zp_checker *c)
{
  zp_ck_dnssec *d = c->dnssec;
  static const zp_digest_alg by_type[5] = {0, ZP_SHA1, ZP_SHA256, 0, ZP_SHA384};
  for (size_t i = 0; i < d->nrr; i++) {
    const zp_ck_rr *x = &d->rrs[i];
    const uint8_t *rd = rdata_of(d, x);
    uint16_t bits = x->rtype == T_CDS || x->rtype == T_CDNSKEY
                        ? zp_ck_key_bits(x->rtype, rd, x->rdlen) : 0;
    bool cds = x->rtype == T_CDS;
    if (!(bits & ZP_CK_KEY_KNOWN) || (bits & ZP_CK_KEY_DELETE) || (cds && x->rdlen < 5) ||
        (cds && (rd[3] >= 5 || by_type[rd[3]] == 0)))
      continue;   /* (a digest type zonepuny does not compute: not judged) */
    bool alg_seen = false, match = false;
    for (size_t k = 0; k < d->nrr && !match; k++) {
      const zp_ck_rr *y = &d->rrs[k];
      const uint8_t *key = rdata_of(d, y);
      if (y->rtype != T_DNSKEY || y->rdlen < 4 || key[3] != (bits & 0xff))
        continue;
      alg_seen = true;
      if (!cds) {
        match = x->rdlen == y->rdlen && memcmp(rd, key, y->rdlen) == 0;
        continue;
      }
      if (be16(rd) != zp_sig_key_tag(key, y->rdlen))
        continue;
      uint8_t h[ZP_DIGEST_MAX];
      size_t n = 0;
      zp_digest *dg = zp_digest_new(by_type[rd[3]]);
      if (dg && zp_digest_begin(dg) && zp_digest_put(dg, d->apex, zp_name_wire_len(d->apex)) &&
          zp_digest_put(dg, key, y->rdlen))
        n = zp_digest_end(dg, h);
      zp_digest_free(dg);
      if (n == 0)
        return ZP_ENOMEM;
      match = x->rdlen == 4 + n && memcmp(rd + 4, h, n) == 0;
    }
    if (alg_seen && !match && cds)
      zp_ck_report(c, ZP_CK_CDS, &x->at, "CDS %u %u %u: the digest of no DNSKEY at the apex; "
                   "a parent that takes it breaks the chain of trust", be16(rd), rd[2], rd[3]);
    else if (alg_seen && !match)
      zp_ck_report(c, ZP_CK_CDS, &x->at, "CDNSKEY (key tag %u, algorithm %u): no DNSKEY at "
                   "the apex; a parent that takes it breaks the chain of trust",
                   zp_sig_key_tag(rd, x->rdlen), rd[3]);
  }
  return ZP_OK;
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
    if ((st = apex_keys(c)) != ZP_OK || (st = child_keys(c)) != ZP_OK)
      return st;
  }
  /* a delegation (NS below the apex) or a DNAME: the names below are not the zone's to sign
   * (RFC 6672 section 2.4); at a delegation only DS and NSEC are (RFC 4035 section 2.2) */
  bool deleg = false, dname = false;
  for (size_t i = 0; i < d->nrr && !apex && !d->have_cut; i++) {
    deleg |= d->rrs[i].rtype == T_NS;
    dname |= d->rrs[i].rtype == T_DNAME;
  }
  if (!d->apex_done || d->nkeys == 0)
    return ZP_OK;
  zp_ck_name n = {d->owner, d->key, d->key_len, d->rrs, d->nrr, (const uint8_t *)d->data.p,
                  apex, deleg, d->have_cut};
  if ((st = zp_ck_zonemd_name(c, d->zonemd, &n)) != ZP_OK ||
      (st = zp_ck_denial_name(c, d->denial, &n)) != ZP_OK || d->have_cut)
    return st;
  for (size_t i = 0, j; i < d->nrr; i = j) {
    for (j = i + 1; j < d->nrr && d->rrs[j].rtype == d->rrs[i].rtype &&
                    d->rrs[j].rclass == d->rrs[i].rclass;)
      j++;
    uint16_t ty = d->rrs[i].rtype;
    if (ty != T_RRSIG && (!deleg || ty == T_DS || ty == T_NSEC) &&
        (st = rrset(c, i, j, apex)) != ZP_OK)
      return st;
  }
  if (deleg || dname) {
    memcpy(d->cut, d->key, d->key_len);
    d->cut_len = d->key_len;
    d->have_cut = true;
  }
  return ZP_OK;
}

/* The zone's messages once every name is walked: what --dnssec could not verify. */
static void walk_end(zp_checker *c)
{
  zp_ck_dnssec *d = c->dnssec;
  const tuple *first = c->seq ? &c->first : NULL;
  if (d->late)
    zp_ck_report(c, ZP_CK_DNSSEC_UNVERIFIED, &d->late_at,
                 "signatures not verified: the zone's first DNSSEC record comes after %d "
                 "others; give --dnssec=on to verify them", DECIDE_RECORDS);
  else if (c->opt.dnssec == ZP_DNSSEC_ON && d->nkeys == 0)
    zp_ck_report(c, ZP_CK_RRSET_UNSIGNED, first, "--dnssec=on, but the zone has no DNSKEY "
                 "RRset at its apex%s", d->signed_ ? ": nothing verifies its RRSIGs" : "");
}

zp_status zp_ck_dnssec_end(zp_checker *c)
{
  zp_ck_dnssec *d = c->dnssec;
  if (!d)
    return ZP_OK;
  zp_status st = ZP_OK;
  /* auto: a zone is signed when it holds RRSIGs (and, below, DNSKEYs at its apex) */
  if (d->on && c->have_apex && (d->signed_ || c->opt.dnssec == ZP_DNSSEC_ON)) {
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
      if (d->nrr == d->rr_cap) {
        size_t cap = d->rr_cap ? 2 * d->rr_cap : 16;
        zp_ck_rr *grown = realloc(d->rrs, cap * sizeof *grown);
        if (!grown)
          return ZP_ENOMEM;
        d->rrs = grown;
        d->rr_cap = cap;
      }
      zp_ck_rr *x = &d->rrs[d->nrr++];
      *x = (zp_ck_rr){r.rclass, r.rtype, r.ttl, d->data.len, (uint16_t)r.rdlen, {0}};
      memcpy(&x->at, d->sort.extra, sizeof x->at);
      if (!zp_buf_put(&d->data, r.rdata, r.rdlen))
        return ZP_ENOMEM;
    }
    if (st == ZP_OK)
      st = name_end(c);
    if (st == ZP_OK && d->nkeys > 0) {
      zp_ck_zonemd_end(c, d->zonemd);
      st = zp_ck_denial_end(c, d->denial);
    }
  }
  if (st == ZP_OK)
    walk_end(c);
  return st;
}
