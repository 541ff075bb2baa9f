/* dnssec.h -- the walk of a signed zone (dnssec.c) as its parts see it: a name at a time, in
 * canonical order (RFC 4034 section 6.1), with all its records; the denial of existence
 * (denial.c) and the zone's digest (zonemd.c) are judged from it */
#ifndef ZP_CK_DNSSEC_H
#define ZP_CK_DNSSEC_H

#include "check_int.h"

/* A record of the name; its RDATA at data + rd. */
typedef struct zp_ck_rr {
  uint16_t rclass, rtype;
  uint32_t ttl;
  size_t rd;
  uint16_t rdlen;
  tuple at;
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

/* ---- denial.c: the NSEC or NSEC3 chain, each name's type bitmap ---- */
typedef struct zp_ck_denial zp_ck_denial;
/* mem: octets the NSEC3 chain's hashed owners are sorted in. NULL when memory is short. */
zp_ck_denial *zp_ck_denial_new(size_t mem);
void zp_ck_denial_free(zp_ck_denial *dn);
/* Each name at or below the apex, in order; the apex first. */
ZP_NODISCARD zp_status zp_ck_denial_name(zp_checker *c, zp_ck_denial *dn, const zp_ck_name *n);
/* After the last name: the chains' ends, and the NSEC3 chain in hash order. */
ZP_NODISCARD zp_status zp_ck_denial_end(zp_checker *c, zp_ck_denial *dn);

/* ---- zonemd.c: ZONEMD's digest of the zone (RFC 8976) ---- */
typedef struct zp_ck_zonemd zp_ck_zonemd;
zp_ck_zonemd *zp_ck_zonemd_new(void);
void zp_ck_zonemd_free(zp_ck_zonemd *z);
/* The same names as zp_ck_denial_name. */
ZP_NODISCARD zp_status zp_ck_zonemd_name(zp_checker *c, zp_ck_zonemd *z, const zp_ck_name *n);
void zp_ck_zonemd_end(zp_checker *c, zp_ck_zonemd *z);

#endif
