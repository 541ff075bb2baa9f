/* cds.c -- CDS and CDNSKEY at the apex (RFC 7344), as named holds them against the apex's
 * DNSKEYs before it loads a zone: a delete record (RFC 8078 section 4) stands alone in its
 * RRset, any other needs a DNSKEY of its algorithm at the apex. (named 9.18 compares
 * algorithms only, not digests or keys: so does zonepuny, but in a signed zone, where each
 * must also be the digest of an apex DNSKEY, or one of them.) */
#include "dnssec.h"

/* The delete records of RFC 8078 section 4: CDS 0 0 0 00, CDNSKEY 0 3 0 AA==. */
static const uint8_t cds_delete[5] = {0, 0, 0, 0, 0}, cdnskey_delete[5] = {0, 0, 3, 0, 0};

uint16_t zp_ck_key_bits(uint16_t type, const uint8_t *rdata, size_t rdlen)
{
  size_t at = type == T_CDS ? 2 : 3;   /* the algorithm octet (RFC 4034 sections 2.1, 5.1) */
  if (rdlen <= at)
    return 0;
  uint16_t d = ZP_CK_KEY_KNOWN | rdata[at];
  if (type != T_DNSKEY && rdlen == 5 &&
      memcmp(rdata, type == T_CDS ? cds_delete : cdnskey_delete, 5) == 0)
    d |= ZP_CK_KEY_DELETE;
  return d;
}

void zp_ck_cds_record(zp_checker *c, const tuple *t, const uint8_t *spell)
{
  (void)spell;
  group *g = &c->g;
  if (!(t->covered & ZP_CK_KEY_KNOWN))
    return;
  unsigned alg = t->covered & 0xff;
  if (t->rtype == T_DNSKEY) {
    g->dnskey_algs[alg / 8] |= (uint8_t)(1u << (alg % 8));
    g->has_dnskey = true;
    return;
  }
  int k = t->rtype == T_CDNSKEY;
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

zp_status zp_ck_cds_keys(zp_checker *c, const zp_ck_name *n)
{
  static const zp_digest_alg by_type[5] = {0, ZP_SHA1, ZP_SHA256, 0, ZP_SHA384};
  for (size_t i = 0; i < n->nrr; i++) {
    const zp_ck_rr *x = &n->rrs[i];
    const uint8_t *rd = zp_ck_rdata(n, x);
    uint16_t bits = x->rtype == T_CDS || x->rtype == T_CDNSKEY
                        ? zp_ck_key_bits(x->rtype, rd, x->rdlen) : 0;
    bool cds = x->rtype == T_CDS;
    if (!(bits & ZP_CK_KEY_KNOWN) || (bits & ZP_CK_KEY_DELETE) || (cds && x->rdlen < 5) ||
        (cds && (rd[3] >= 5 || by_type[rd[3]] == 0)))
      continue;   /* (a digest type zonepuny does not compute: not judged) */
    bool alg_seen = false, match = false;
    for (size_t k = 0; k < n->nrr && !match; k++) {
      const zp_ck_rr *y = &n->rrs[k];
      const uint8_t *key = zp_ck_rdata(n, y);
      if (y->rtype != T_DNSKEY || y->rdlen < 4 || key[3] != (bits & 0xff))
        continue;
      alg_seen = true;
      if (!cds) {
        match = x->rdlen == y->rdlen && memcmp(rd, key, y->rdlen) == 0;
        continue;
      }
      if (zp_ck_be16(rd) != zp_sig_key_tag(key, y->rdlen))
        continue;
      uint8_t h[ZP_DIGEST_MAX];
      size_t h_len = 0;
      zp_digest *dg = zp_digest_new(by_type[rd[3]]);
      if (dg && zp_digest_begin(dg) && zp_digest_put(dg, n->owner, zp_name_wire_len(n->owner)) &&
          zp_digest_put(dg, key, y->rdlen))
        h_len = zp_digest_end(dg, h);
      zp_digest_free(dg);
      if (h_len == 0)
        return ZP_ENOMEM;
      match = x->rdlen == 4 + h_len && memcmp(rd + 4, h, h_len) == 0;
    }
    if (alg_seen && !match && cds)
      zp_ck_report(c, ZP_CK_CDS, &x->at, "CDS %u %u %u: the digest of no DNSKEY at the apex; "
                   "a parent that takes it breaks the chain of trust", zp_ck_be16(rd), rd[2],
                   rd[3]);
    else if (alg_seen && !match)
      zp_ck_report(c, ZP_CK_CDS, &x->at, "CDNSKEY (key tag %u, algorithm %u): no DNSKEY at "
                   "the apex; a parent that takes it breaks the chain of trust",
                   zp_sig_key_tag(rd, x->rdlen), rd[3]);
  }
  return ZP_OK;
}
