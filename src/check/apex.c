/* apex.c -- the zone's bounds and apex: data outside the zone, the SOA and NS records at the
 * apex (RFC 1035 section 5.2, RFC 1034 section 4.2.1) and nowhere else, no DS there (RFC 4034
 * section 5) */
#include "check_int.h"

/* The zone's name, as text. */
static const char *apex_text(const zp_checker *c)
{
  uint8_t apex[ZP_NAME_MAX];
  zp_name_from_sort_key(c->apex_key, c->apex_len, apex);
  return zp_ck_name_text(apex);
}

void zp_ck_out_of_zone(zp_checker *c)
{
  group *g = &c->g;
  if (zp_ck_on(c, ZP_CK_OUT_OF_ZONE))
    zp_ck_report(c, ZP_CK_OUT_OF_ZONE, zp_ck_first(g), "%s is outside the zone %s: BIND and "
                 "Knot leave it out, NSD refuses the zone", zp_ck_owner_text(g), apex_text(c));
}

void zp_ck_apex(zp_checker *c)
{
  group *g = &c->g;
  if (!g->apex) {
    if (g->has_soa && zp_ck_on(c, ZP_CK_APEX_SOA))
      zp_ck_report(c, ZP_CK_APEX_SOA, zp_ck_first(g), "SOA record at %s, below the apex of %s "
                   "(RFC 1035 section 5.2); BIND and NSD refuse the zone", zp_ck_owner_text(g),
                   apex_text(c));
    return;
  }
  c->apex_seen = true;   /* records at the apex, not only references to it */
  if (!g->has_soa && !c->soa_refused && zp_ck_on(c, ZP_CK_APEX_SOA))
    zp_ck_report(c, ZP_CK_APEX_SOA, zp_ck_first(g), "the zone %s has no SOA record at its apex "
                 "(RFC 1035 section 5.2)", zp_ck_owner_text(g));
  if (!g->has_ns && zp_ck_on(c, ZP_CK_APEX_NS))
    zp_ck_report(c, ZP_CK_APEX_NS, zp_ck_first(g), "the zone %s has no NS records at its apex "
                 "(RFC 1034 section 4.2.1); BIND refuses it", zp_ck_owner_text(g));
  if (g->has_ds && zp_ck_on(c, ZP_CK_DS_APEX))
    zp_ck_report(c, ZP_CK_DS_APEX, &g->ds.t, "DS record at the apex of %s: DS belongs in the "
                 "parent zone (RFC 4034 section 5); BIND refuses the zone", zp_ck_owner_text(g));
}

/* Messages about the zone as a whole point at its first record (none: an empty zone), and are
 * told after those about records. */
void zp_check_soa_refused(zp_checker *c)
{
  c->soa_refused = true;
}

void zp_ck_apex_end(zp_checker *c)
{
  if (!zp_ck_on(c, ZP_CK_APEX_SOA) || c->soa_refused || zp_diag_stop(c->diag))
    return;
  tuple first = c->first;
  first.seq = UINT32_MAX;
  const tuple *at = c->seq > 0 ? &first : NULL;
  if (!c->have_apex && !at && c->opt.file)
    zp_ck_report(c, ZP_CK_APEX_SOA, NULL, "%s holds no record: a zone has its SOA record (RFC "
                 "1035 section 5.2)", strcmp(c->opt.file, "-") ? c->opt.file : "standard input");
  else if (!c->have_apex)
    zp_ck_report(c, ZP_CK_APEX_SOA, at, "the zone has no SOA record (RFC 1035 section 5.2); "
                 "give its name with -z, or check a piece of a zone with --fragment");
  else if (!c->apex_seen)
    zp_ck_report(c, ZP_CK_APEX_SOA, at, "the zone %s has no records at its apex: no SOA, no "
                 "NS (RFC 1035 section 5.2)", apex_text(c));
}
