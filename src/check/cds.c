/* cds.c -- CDS and CDNSKEY at the apex (RFC 7344), as named holds them against the apex's
 * DNSKEYs before it loads a zone: a delete record (RFC 8078 section 4) stands alone in its
 * RRset, any other needs a DNSKEY of its algorithm at the apex. (named 9.18 compares
 * algorithms only, not digests or keys: so does zonepuny.) */
#include "check_int.h"

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
