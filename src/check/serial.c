/* serial.c -- the SOA serial in date form (YYYYMMDDnn, the convention RFC 1912 section 2.2
 * suggests): one dated in the future, and one at the last change of its day. RFC 1982 lets a
 * serial only rise, so both leave the next changes no date-form serial that works. */
#include <time.h>

#include "check_int.h"
#include "record/soa_serial.h"

void zp_ck_serial(zp_checker *c, const zp_record *r, const zp_ck_tuple *t)
{
  if (r->rtype != ZP_TYPE_SOA || c->soa_read || !zp_ck_on(c, ZP_CK_SERIAL_DATE))
    return;   /* (the first SOA is the zone's) */
  uint32_t serial = zp_soa_serial(r->rdata), date = zp_serial_date(serial);
  int64_t now = c->opt.now ? c->opt.now : (int64_t)time(NULL);
  /* a day of slack: the serial's author may be a day ahead of UTC */
  uint32_t today = zp_serial_today(now), tomorrow = zp_serial_today(now + 86400);
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
