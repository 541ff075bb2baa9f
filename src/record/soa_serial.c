/* soa_serial.c -- the SOA serial's arithmetic (RFC 1982) and the policies that raise it */
#include "soa_serial.h"

#include <time.h>

int zp_serial_order(uint32_t a, uint32_t b)
{
  uint32_t d = b - a;
  return d == 0 ? 0 : d == 0x80000000u ? ZP_SERIAL_UNDEFINED : d < 0x80000000u ? -1 : 1;
}

uint32_t zp_serial_today(int64_t t)
{
  time_t tt = (time_t)t;
  struct tm tm;
  if (!gmtime_r(&tt, &tm))
    return 0;
  return (uint32_t)(tm.tm_year + 1900) * 10000 + (uint32_t)(tm.tm_mon + 1) * 100 +
         (uint32_t)tm.tm_mday;
}

/* Days in month m (1 to 12) of year y. */
static unsigned month_days(unsigned y, unsigned m)
{
  static const unsigned char days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return days[m - 1] + (m == 2 && leap);
}

uint32_t zp_serial_date(uint32_t serial)
{
  unsigned y = serial / 1000000, m = serial / 10000 % 100, d = serial / 100 % 100;
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1 || d > month_days(y, m))
    return 0;
  return serial / 100;
}

uint32_t zp_serial_bump(uint32_t old, zp_serial_policy policy, int64_t now)
{
  uint32_t next = old + 1, want = 0;
  if (policy == ZP_BUMP_DATE)
    want = zp_serial_today(now) * 100;
  else if (policy == ZP_BUMP_UNIXTIME && now > 0 && now <= UINT32_MAX)
    want = (uint32_t)now;
  return want && zp_serial_order(old, want) < 0 ? want : next;
}
