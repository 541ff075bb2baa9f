/* keys.c -- the apex's keys: the zone keys of its DNSKEY RRset that RRSIGs are verified with
 * (RFC 4034 section 2), and CDS and CDNSKEY (RFC 7344), as named holds them against the apex's
 * DNSKEYs before it loads a zone: a delete record (RFC 8078 section 4) stands alone in its
 * RRset, any other needs a DNSKEY of its algorithm at the apex. (named 9.18 compares
 * algorithms only, not digests or keys: so does zonepuny, but in a signed zone, where each
 * must also be the digest of an apex DNSKEY, or one of them.) */
#include <stdlib.h>

#include "record/dnssec_params.h"
#include "signed.h"

/* The delete records of RFC 8078 section 4: CDS 0 0 0 00, CDNSKEY 0 3 0 AA==. */
static const uint8_t cds_delete[5] = {0, 0, 0, 0, 0}, cdnskey_delete[5] = {0, 0, 3, 0, 0};

zp_status zp_ck_apex_keys(zp_checker *c, const zp_ck_name *apex, zp_ck_key **keys, size_t *n,
                          size_t *cap, uint8_t algs[32])
{
  for (size_t i = 0; i < apex->nrr; i++) {
    const zp_ck_rr *x = &apex->rrs[i];
    const uint8_t *rd = zp_ck_rdata(apex, x);
    if (x->rtype != ZP_TYPE_DNSKEY || x->rdlen < 4)
      continue;
    uint16_t flags = zp_ck_be16(rd);
    if (!(flags & 0x0100) || (flags & 0x0080) || rd[2] != 3)   /* zone key, not revoked */
      continue;
    if (!zp_array_room(keys, *n, cap, sizeof **keys, 4))
      return ZP_ENOMEM;
    zp_ck_key *k = &(*keys)[(*n)++];
    char why[160];
    *k = (zp_ck_key){zp_sig_key_new(rd, x->rdlen, why, sizeof why), zp_sig_key_tag(rd, x->rdlen),
                     flags, rd[3], (uint32_t)i};
    const char *old = zp_sig_alg_deprecated(rd[3]);
    if (old)
      zp_ck_report(c, ZP_CK_DNSSEC_ALGORITHM, &x->at,
                   "DNSKEY %u: algorithm %u (%s) is not to be used for signing (RFC 8624)",
                   k->tag, rd[3], old);
    if (k->key)
      algs[rd[3] / 8] |= (uint8_t)(1u << (rd[3] % 8));
    else if (zp_sig_alg_supported(rd[3]))
      zp_ck_report(c, ZP_CK_RRSIG_BOGUS, &x->at,
                   "DNSKEY %u: not a public key of algorithm %u%s%s: no signature is verified "
                   "with it", k->tag, rd[3], why[0] ? ": " : "", why);
    else if (!old)
      zp_ck_report(c, ZP_CK_DNSSEC_ALGORITHM, &x->at,
                   "DNSKEY %u: algorithm %u is not one zonepuny verifies", k->tag, rd[3]);
  }
  zp_ck_keys_sort(*keys, *n);
  return ZP_OK;
}

uint16_t zp_ck_key_bits(uint16_t type, const uint8_t *rdata, size_t rdlen)
{
  size_t at = type == ZP_TYPE_CDS ? 2 : 3;   /* the algorithm octet (RFC 4034 sections 2.1, 5.1) */
  if (rdlen <= at)
    return 0;
  uint16_t d = ZP_CK_KEY_KNOWN | rdata[at];
  if (type != ZP_TYPE_DNSKEY && rdlen == 5 &&
      memcmp(rdata, type == ZP_TYPE_CDS ? cds_delete : cdnskey_delete, 5) == 0)
    d |= ZP_CK_KEY_DELETE;
  return d;
}

void zp_ck_cds_record(zp_checker *c, const zp_ck_tuple *t, const uint8_t *spell)
{
  (void)spell;
  zp_ck_group *g = &c->g;
  if (!(t->covered & ZP_CK_KEY_KNOWN))
    return;
  unsigned alg = t->covered & 0xff;
  if (t->rtype == ZP_TYPE_DNSKEY) {
    g->dnskey_algs[alg / 8] |= (uint8_t)(1u << (alg % 8));
    g->has_dnskey = true;
    return;
  }
  int k = t->rtype == ZP_TYPE_CDNSKEY;
  bool del = t->covered & ZP_CK_KEY_DELETE;
  const char *type = k ? "CDNSKEY" : "CDS";
  bool mixed = del ? g->key_other[k] : g->key_delete[k];
  g->key_delete[k] |= del;
  g->key_other[k] |= !del;
  if (!g->apex || g->key_told[k] || !zp_ck_on(c, ZP_CK_CDS))
    return;
  if (mixed) {
    zp_ck_report(c, ZP_CK_CDS, t, "%s delete record (%s) beside other %s records at %s: it "
                 "asks the parent to remove the DS records, and stands alone (RFC 8078 section "
                 "4); BIND refuses the zone", type, k ? "0 3 0 AA==" : "0 0 0 00", type,
                 zp_ck_owner_text(g));
  } else if (del) {
    return;
  } else if (!g->has_dnskey) {
    zp_ck_report(c, ZP_CK_CDS, t, "%s record at %s, which has no DNSKEY records: a %s names a "
                 "key of the zone (RFC 7344 section 3); BIND refuses the zone", type,
                 zp_ck_owner_text(g), type);
  } else if (!(g->dnskey_algs[alg / 8] & (1u << (alg % 8)))) {
    zp_ck_report(c, ZP_CK_CDS, t, "%s record of algorithm %u at %s, where no DNSKEY has that "
                 "algorithm (RFC 7344 section 4.1); BIND refuses the zone", type, alg,
                 zp_ck_owner_text(g));
  } else {
    return;
  }
  g->key_told[k] = true;
}

/* The digest a DS or CDS of digest type type holds; ZP_DIGEST_NONE for one not computed. */
static zp_digest_alg ds_digest(uint8_t type)
{
  switch (type) {
#define HASH(num, name, octets, hash) case num: return ZP_DIGEST_##hash;
  ZP_DS_DIGESTS(HASH)
#undef HASH
  default: return ZP_DIGEST_NONE;
  }
}

/* Whether the apex DNSKEY key[0..len) is what CDS or CDNSKEY rd[0..rdlen) names; -1 when
 * memory is short. */
static int names_key(const zp_ck_name *n, bool cds, const uint8_t *rd, size_t rdlen,
                     const uint8_t *key, size_t len)
{
  if (!cds)
    return rdlen == len && memcmp(rd, key, len) == 0;
  uint8_t h[ZP_DIGEST_MAX];
  size_t h_len = 0;
  zp_digest *dg = zp_digest_new(ds_digest(rd[3]));
  if (dg && zp_digest_begin(dg) && zp_digest_put(dg, n->owner, zp_name_wire_len(n->owner)) &&
      zp_digest_put(dg, key, len))
    h_len = zp_digest_end(dg, h);
  zp_digest_free(dg);
  if (h_len == 0)
    return -1;
  return rdlen == 4 + h_len && memcmp(rd + 4, h, h_len) == 0;
}

zp_status zp_ck_cds_keys(zp_checker *c, const zp_ck_name *n)
{
  /* Each record is held against the DNSKEYs of its algorithm and tag only (a DNSKEY RRset
   * of many keys and as many CDS records costs the sort, not their product), and at most
   * --max-key-tries of them are digested: keys may be crafted to share one tag. */
  zp_ck_key *keys = malloc((n->nrr ? n->nrr : 1) * sizeof *keys);
  if (!keys)
    return ZP_ENOMEM;
  size_t nkeys = 0;
  for (size_t i = 0; i < n->nrr; i++) {
    const zp_ck_rr *y = &n->rrs[i];
    const uint8_t *key = zp_ck_rdata(n, y);
    if (y->rtype == ZP_TYPE_DNSKEY && y->rdlen >= 4)
      keys[nkeys++] = (zp_ck_key){NULL, zp_sig_key_tag(key, y->rdlen), zp_ck_be16(key), key[3],
                                  (uint32_t)i};
  }
  zp_ck_keys_sort(keys, nkeys);
  uint32_t tries = zp_ck_key_tries(c);
  zp_status st = ZP_OK;
  for (size_t i = 0; i < n->nrr && st == ZP_OK; i++) {
    const zp_ck_rr *x = &n->rrs[i];
    const uint8_t *rd = zp_ck_rdata(n, x);
    uint16_t bits = x->rtype == ZP_TYPE_CDS || x->rtype == ZP_TYPE_CDNSKEY
                        ? zp_ck_key_bits(x->rtype, rd, x->rdlen) : 0;
    bool cds = x->rtype == ZP_TYPE_CDS;
    if (!(bits & ZP_CK_KEY_KNOWN) || (bits & ZP_CK_KEY_DELETE) || (cds && x->rdlen < 5) ||
        (cds && ds_digest(rd[3]) == ZP_DIGEST_NONE))
      continue;   /* (a digest type zonepuny does not compute: not judged) */
    uint8_t alg = (uint8_t)(bits & 0xff);
    uint16_t tag = cds ? zp_ck_be16(rd) : zp_sig_key_tag(rd, x->rdlen);
    size_t end, alg_at = zp_ck_keys_find(keys, nkeys, alg, 0, &end);
    if (alg_at == nkeys || keys[alg_at].alg != alg)
      continue;   /* (no DNSKEY of its algorithm: told as the record came in) */
    int match = 0;
    size_t k = zp_ck_keys_find(keys, nkeys, alg, tag, &end);
    for (size_t tried = 0; k < end && !match && tried < tries; k++, tried++) {
      const zp_ck_rr *y = &n->rrs[keys[k].order];
      match = names_key(n, cds, rd, x->rdlen, zp_ck_rdata(n, y), y->rdlen);
    }
    size_t left = end - k;
    if (match < 0)
      st = ZP_ENOMEM;
    else if (!match && left)
      zp_ck_report(c, ZP_CK_CDS, &x->at, "%s (key tag %u, algorithm %u): none of the first %u "
                   "apex DNSKEYs of its key tag and algorithm is the key it names, and %zu more "
                   "share them, left untried (--max-key-tries %u)", cds ? "CDS" : "CDNSKEY",
                   tag, alg, tries, left, tries);
    else if (!match && cds)
      zp_ck_report(c, ZP_CK_CDS, &x->at, "CDS %u %u %u: the digest of no DNSKEY at the apex; "
                   "a parent that takes it breaks the chain of trust", tag, alg, rd[3]);
    else if (!match)
      zp_ck_report(c, ZP_CK_CDS, &x->at, "CDNSKEY (key tag %u, algorithm %u): no DNSKEY at "
                   "the apex; a parent that takes it breaks the chain of trust", tag, alg);
  }
  free(keys);
  return st;
}
