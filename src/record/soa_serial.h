/* soa_serial.h -- the SOA serial: in RDATA in wire form, the third field after the two names
 * (RFC 1035 section 3.3.13), read and written where the reader left it (well formed); its
 * arithmetic (RFC 1982) and the policies that raise it */
#ifndef ZP_SOA_SERIAL_H
#define ZP_SOA_SERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire_name.h"

/* The offset of the serial in an SOA's RDATA. */
static inline size_t zp_soa_serial_at(const uint8_t *rdata)
{
  size_t n = zp_name_wire_len(rdata);
  return n + zp_name_wire_len(rdata + n);
}

static inline uint32_t zp_soa_serial(const uint8_t *rdata)
{
  const uint8_t *d = rdata + zp_soa_serial_at(rdata);
  return (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3];
}

static inline void zp_soa_set_serial(uint8_t *rdata, uint32_t serial)
{
  uint8_t *d = rdata + zp_soa_serial_at(rdata);
  d[0] = (uint8_t)(serial >> 24), d[1] = (uint8_t)(serial >> 16);
  d[2] = (uint8_t)(serial >> 8), d[3] = (uint8_t)serial;
}

/* RFC 1982 section 3.2 with SERIAL_BITS 32: below 0 when a precedes b, above 0 when it follows,
 * 0 when equal; ZP_SERIAL_UNDEFINED when their order is undefined (2^31 apart). */
enum { ZP_SERIAL_UNDEFINED = 2 };
int zp_serial_order(uint32_t a, uint32_t b);

/* The date of t (seconds since 1970), UTC, as YYYYMMDD; 0 when it has none. */
uint32_t zp_serial_today(int64_t t);
/* The date a serial reads as in date form (YYYYMMDDnn, RFC 1912 section 2.2: a year from 1990
 * to 2100, a real month and day) as YYYYMMDD, or 0 for none. */
uint32_t zp_serial_date(uint32_t serial);

/* --bump-serial's policies: the serial after old, at time now, always above old (RFC 1982):
 * old + 1; today's first YYYYMMDD00, or old + 1 when that is not above old (the day's next, or
 * the next day's first after nn 99); the seconds since 1970, or old + 1. */
typedef enum zp_serial_policy { ZP_BUMP_INCREMENT, ZP_BUMP_DATE, ZP_BUMP_UNIXTIME } zp_serial_policy;
uint32_t zp_serial_bump(uint32_t old, zp_serial_policy policy, int64_t now);

#endif
