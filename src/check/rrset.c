/* rrset.c -- what one name's RRsets must be: one TTL per RRset (RFC 2181 section 5.2; the
 * RRSIGs of one type covered are an RRset, RFC 4034 section 3, as BIND keeps them), one CNAME,
 * DNAME or SOA at a name, a CNAME alone (RFC 1034 section 3.6.2), a null MX alone (RFC 7505) */
#include "check_int.h"

void zp_ck_rrset_more(zp_checker *c, const tuple *t, const uint8_t *spell)
{
  group *g = &c->g;
  if (t->ttl != g->rrset.t.ttl && !g->rrset_ttl_told && zp_ck_on(c, ZP_CK_TTL)) {
    rep r = {.set = true, .t = *t};
    memcpy(r.spell, spell, t->extra_len);
    bool rrsig = zp_ck_is_rrsig(t);
    zp_ck_report(c, ZP_CK_TTL, t, "%s %s%s%s has TTL %u here and %u at %s: one RRset has one "
                 "TTL (RFC 2181 section 5.2), and servers pick differently (BIND the first of "
                 "each run of lines and then the last run's, Knot the last line's, NSD each "
                 "line's own)%s", zp_ck_owner_text(g), zp_ck_type_text(t->rtype),
                 rrsig ? " covering " : "", rrsig ? zp_ck_type_text((uint16_t)t->digest) : "",
                 t->ttl, g->rrset.t.ttl, zp_ck_where(c, &g->rrset.t),
                 zp_ck_collision_note(c, &g->rrset, &r));
    g->rrset_ttl_told = true;
  }
  bool single = t->rtype == T_CNAME || t->rtype == T_DNAME || t->rtype == T_SOA;
  if (single && t->digest != g->rrset.t.digest && !g->rrset_single_told &&
      zp_ck_on(c, ZP_CK_SINGLETON)) {
    rep r = {.set = true, .t = *t};
    memcpy(r.spell, spell, t->extra_len);
    zp_ck_report(c, ZP_CK_SINGLETON, t, "a second %s record at %s, beside the one at %s: a "
                 "name holds one %s (RFC %s)%s", zp_ck_type_text(t->rtype),
                 zp_ck_owner_text(g), zp_ck_where(c, &g->rrset.t), zp_ck_type_text(t->rtype),
                 t->rtype == T_CNAME   ? "2181 section 10.1"
                 : t->rtype == T_DNAME ? "6672 section 2.4"
                                       : "1035 section 5.2",
                 zp_ck_collision_note(c, &g->rrset, &r));
    g->rrset_single_told = true;
  }
}

void zp_ck_cname_other(zp_checker *c)
{
  group *g = &c->g;
  if (!g->has_cname || !g->other.set || !zp_ck_on(c, ZP_CK_CNAME_OTHER))
    return;
  const rep *later = g->cname.t.seq > g->other.t.seq ? &g->cname : &g->other;
  const rep *earlier = later == &g->cname ? &g->other : &g->cname;
  zp_ck_report(c, ZP_CK_CNAME_OTHER, &later->t, "CNAME and other data at %s: %s here, %s at %s "
               "(RFC 1034 section 3.6.2; BIND, NSD and Knot refuse the zone)%s",
               zp_ck_owner_text(g), zp_ck_type_text(later->t.rtype),
               zp_ck_type_text(earlier->t.rtype), zp_ck_where(c, &earlier->t),
               zp_ck_collision_note(c, earlier, later));
}

void zp_ck_null_mx(zp_checker *c)
{
  group *g = &c->g;
  if (g->mx_null_rec.set && g->mx_other && zp_ck_on(c, ZP_CK_NULL_MX))
    zp_ck_report(c, ZP_CK_NULL_MX, &g->mx_null_rec.t, "a null MX (\"0 .\") beside other MX "
                 "records at %s: a domain that accepts no mail has only the null MX (RFC 7505 "
                 "section 3)", zp_ck_owner_text(g));
}
