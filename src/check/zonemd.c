/* zonemd.c -- the zone's digest (RFC 8976), where its apex holds a ZONEMD record of the SIMPLE
 * scheme with SHA-384 or SHA-512: computed over every record at or below the apex, glue and
 * occluded data included, in canonical form and order (RFC 8976 section 3.3.1), as the walk
 * hands the names over; the apex ZONEMD RRset and the RRSIGs over it left out. Its RRSIG is
 * verified as any other (dnssec.c). */
#include <stdlib.h>

#include "record/dnssec_params.h"
#include "sig.h"
#include "signed.h"

enum { SIMPLE = 1 };   /* the scheme (RFC 8976 section 2.2.2) */
/* the hash algorithms, by number (record/dnssec_params.h) */
#define HASH(num, name, octets, hash) [num] = ZP_DIGEST_##hash,
static const zp_digest_alg hashes[] = {ZP_ZONEMD_HASHES(HASH)};
#undef HASH
enum { HASHES = sizeof hashes / sizeof *hashes - 1 };

struct zp_ck_zonemd {
  zp_digest *dg[HASHES];      /* NULL: no ZONEMD of the hash to check */
  uint32_t serial;            /* the SOA's */
  bool have_soa;
  zp_ck_rr *md;               /* the apex ZONEMD records, their RDATA in mdata */
  size_t nmd, md_cap;
  zp_buf mdata;
};

zp_ck_zonemd *zp_ck_zonemd_new(void)
{
  return calloc(1, sizeof(zp_ck_zonemd));
}

void zp_ck_zonemd_free(zp_ck_zonemd *z)
{
  if (!z)
    return;
  for (int h = 0; h < HASHES; h++)
    zp_digest_free(z->dg[h]);
  free(z->md);
  zp_buf_free(&z->mdata);
  free(z);
}

/* The apex: its SOA serial, its ZONEMD records, and the digests they ask for begun. */
static zp_status apex(zp_ck_zonemd *z, const zp_ck_name *n)
{
  for (size_t i = 0; i < n->nrr; i++) {
    const zp_ck_rr *x = &n->rrs[i];
    const uint8_t *rd = zp_ck_rdata(n, x);
    if (x->rtype == ZP_TYPE_SOA && x->rdlen >= 20 && !z->have_soa) {
      z->have_soa = true;
      z->serial = zp_ck_be32(rd + x->rdlen - 20);
    }
    if (x->rtype != ZP_TYPE_ZONEMD)
      continue;
    if (!zp_array_room(&z->md, z->nmd, &z->md_cap, sizeof *z->md, 2))
      return ZP_ENOMEM;
    z->md[z->nmd] = *x;
    z->md[z->nmd++].rd = z->mdata.len;
    if (!zp_buf_put(&z->mdata, rd, x->rdlen))
      return ZP_ENOMEM;
    unsigned h = x->rdlen >= 6 ? rd[5] : 0;
    if (rd[4] == SIMPLE && h >= 1 && h <= HASHES && !z->dg[h - 1] &&
        (!(z->dg[h - 1] = zp_digest_new(hashes[h])) ||
         !zp_digest_begin(z->dg[h - 1])))
      return ZP_ENOMEM;
  }
  return ZP_OK;
}

zp_status zp_ck_zonemd_name(zp_ck_zonemd *z, const zp_ck_name *n)
{
  zp_status st;
  if (n->apex && (st = apex(z, n)) != ZP_OK)
    return st;
  size_t owner_len = zp_name_wire_len(n->owner);
  for (size_t i = 0; i < n->nrr; i++) {
    const zp_ck_rr *x = &n->rrs[i];
    const uint8_t *rd = zp_ck_rdata(n, x);
    if (n->apex && (x->rtype == ZP_TYPE_ZONEMD || (x->rtype == ZP_TYPE_RRSIG && x->rdlen >= 2 &&
                                             zp_ck_be16(rd) == ZP_TYPE_ZONEMD)))
      continue;
    uint8_t head[10] = {(uint8_t)(x->rtype >> 8), (uint8_t)x->rtype, (uint8_t)(x->rclass >> 8),
                        (uint8_t)x->rclass, (uint8_t)(x->ttl >> 24), (uint8_t)(x->ttl >> 16),
                        (uint8_t)(x->ttl >> 8), (uint8_t)x->ttl, (uint8_t)(x->rdlen >> 8),
                        (uint8_t)x->rdlen};
    for (int h = 0; h < HASHES; h++)
      if (z->dg[h] && (!zp_digest_put(z->dg[h], n->owner, owner_len) ||
                       !zp_digest_put(z->dg[h], head, 10) ||
                       !zp_digest_put(z->dg[h], rd, x->rdlen)))
        return ZP_ENOMEM;
  }
  return ZP_OK;
}

/* RFC 8976 section 4: the zone verifies when one ZONEMD of a scheme and hash algorithm it
 * knows has the SOA's serial and the digest; none of them known is no verdict. */
void zp_ck_zonemd_end(zp_checker *c, zp_ck_zonemd *z)
{
  uint8_t digest[HASHES][ZP_DIGEST_MAX];
  size_t len[HASHES] = {0};
  for (int h = 0; h < HASHES; h++)
    if (z->dg[h])
      len[h] = zp_digest_end(z->dg[h], digest[h]);
  const zp_ck_rr *known = NULL;
  bool verified = false, serial_right = false;
  for (size_t i = 0; i < z->nmd && !verified; i++) {
    const zp_ck_rr *x = &z->md[i];
    const uint8_t *rd = (const uint8_t *)z->mdata.p + x->rd;
    unsigned h = x->rdlen >= 6 ? rd[5] : 0;
    if (rd[4] != SIMPLE || h < 1 || h > HASHES)
      continue;
    known = known ? known : x;
    serial_right |= zp_ck_be32(rd) == z->serial;
    verified = zp_ck_be32(rd) == z->serial && len[h - 1] && x->rdlen - 6u == len[h - 1] &&
               memcmp(rd + 6, digest[h - 1], len[h - 1]) == 0;
  }
  if (z->nmd > 0 && !known)
    zp_ck_report(c, ZP_CK_DNSSEC_ALGORITHM, &z->md[0].at,
                 "ZONEMD: no record of a scheme and hash algorithm zonepuny computes (SIMPLE "
                 "with SHA-384 or SHA-512): the zone's digest is not verified");
  else if (known && !verified)
    zp_ck_report(c, ZP_CK_ZONEMD, &known->at,
                 !serial_right
                     ? "ZONEMD: its serial is not the SOA's, %u: the digest is of another "
                       "version of the zone"
                     : "ZONEMD: the digest of the zone (RFC 8976, SOA serial %u) is not the one "
                       "the record holds",
                 z->serial);
}
