/* serial.c -- the SOA serial in date form (YYYYMMDDnn, the convention RFC 1912 section 2.2
 * suggests): one dated in the future, and one at the last change of its day. RFC 1982 lets a
 * serial only rise, so both leave the next changes no date-form serial that works. */
#include <stdio.h>
#include <time.h>

#include "check_int.h"

/* Days in month m (1 to 12) of year y. */
static unsigned month_days(unsigned y, unsigned m)
{
  static const unsigned char days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return days[m - 1] + (m == 2 && leap);
}

/* The date a serial reads as (YYYYMMDD, a year from 1990 to 2100), or 0 for none. */
static uint32_t date_of(uint32_t serial)
{
  unsigned y = serial / 1000000, m = serial / 10000 % 100, d = serial / 100 % 100;
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1 || d > month_days(y, m))
    return 0;
  return serial / 100;
}

/* The date (YYYYMMDD, UTC) of t, seconds since 1970. */
static uint32_t date_at(int64_t t)
{
  time_t tt = (time_t)t;
  struct tm tm;
  if (!gmtime_r(&tt, &tm))
    return 0;
  return (uint32_t)(tm.tm_year + 1900) * 10000 + (uint32_t)(tm.tm_mon + 1) * 100 +
         (uint32_t)tm.tm_mday;
}

void zp_ck_serial(zp_checker *c, const zp_record *r, const zp_ck_tuple *t)
{
  if (r->rtype != ZP_TYPE_SOA || c->soa_read || !zp_ck_on(c, ZP_CK_SERIAL_DATE))
    return;   /* (the first SOA is the zone's) */
  const uint8_t *d = r->rdata;
  d += zp_name_wire_len(d);
  d += zp_name_wire_len(d);
  uint32_t serial = (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3];
  uint32_t date = date_of(serial);
  int64_t now = c->opt.now ? c->opt.now : (int64_t)time(NULL);
  /* a day of slack: the serial's author may be a day ahead of UTC */
  uint32_t today = date_at(now), tomorrow = date_at(now + 86400);
  if (!date || !today)
    return;
  zp_ck_tuple at = zp_ck_at_field(r, t, 2);
  if (date > tomorrow)
    zp_ck_report(c, ZP_CK_SERIAL_DATE, &at, "the SOA serial %u reads as a date, %04u-%02u-%02u, "
                 "in the future: every change until then must raise it further, a serial of "
                 "today's date being below it; to bring it back to today's date, raise it by at "
                 "most 2147483647 at a time, letting every secondary transfer the zone between "
                 "steps, until it wraps round to it (RFC 1982 section 3.1)",
                 serial, date / 10000, date / 100 % 100, date % 100);
  else if (serial % 100 == 99 && date >= today)
    zp_ck_report(c, ZP_CK_SERIAL_DATE, &at, "the SOA serial %u is the last in date form "
                 "(YYYYMMDDnn) of %04u-%02u-%02u: the next change takes %u, the next day's "
                 "first, and date form fits again once that day comes", serial, date / 10000,
                 date / 100 % 100, date % 100, serial + 1);
}
