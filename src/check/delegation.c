/* delegation.c -- zone cuts and DNAMEs: what a delegation point may hold (NS, DS and glue, RFC
 * 1034 section 4.2.1; DS only there, RFC 4034 section 5; no NS at a wildcard, RFC 4592 section
 * 4.2; no DNAME beside NS, RFC 6672 section 2.3), and the data below a cut or a DNAME, which is
 * never served. The pass keeps the cuts and DNAMEs above the name it looks at on a stack. */
#include "check_int.h"

void zp_ck_cuts_enter(zp_checker *c)
{
  zp_ck_group *g = &c->g;
  while (c->depth > 0 && !zp_ck_is_prefix(c->stack[c->depth - 1].key,
                                          c->stack[c->depth - 1].key_len, g->key, g->key_len))
    c->depth--;
  g->cut = g->dname = -1;
  for (size_t i = 0; i < c->depth; i++) {
    if (c->stack[i].cut && g->cut < 0)
      g->cut = (int)i;
    if (c->stack[i].dname && g->dname < 0)
      g->dname = (int)i;
  }
}

void zp_ck_cuts_leave(zp_checker *c)
{
  zp_ck_group *g = &c->g;
  bool cut = g->in_zone && !g->apex && g->has_ns;
  if ((cut || (g->in_zone && g->has_dname)) && c->depth < ZP_CK_DEPTH_MAX) {
    zp_ck_frame *f = &c->stack[c->depth++];
    memcpy(f->key, g->key, g->key_len);
    f->key_len = g->key_len;
    f->cut = cut;
    f->dname = g->has_dname && !cut;   /* a DNAME at a delegation is not the zone's to serve */
    f->t = f->dname ? g->dname_rec.t : g->ns.t;
  }
}

void zp_ck_delegation(zp_checker *c)
{
  zp_ck_group *g = &c->g;
  if (g->apex)
    return;
  if (g->has_ds && !g->has_ns && zp_ck_on(c, ZP_CK_DS_PLACEMENT))
    zp_ck_report(c, ZP_CK_DS_PLACEMENT, &g->ds.t, "DS record at %s, which is no delegation (no "
                 "NS records): DS describes a child zone (RFC 4034 section 5)",
                 zp_ck_owner_text(g));
  if (g->has_ns && zp_ck_is_wildcard(g->key, g->key_len) && zp_ck_on(c, ZP_CK_WILDCARD_NS))
    zp_ck_report(c, ZP_CK_WILDCARD_NS, &g->ns.t, "NS records at the wildcard %s (RFC 4592 "
                 "section 4.2); BIND refuses the zone", zp_ck_owner_text(g));
  if (g->has_ns && g->has_dname && zp_ck_on(c, ZP_CK_DNAME_NS))
    zp_ck_report(c, ZP_CK_DNAME_NS, &g->dname_rec.t, "DNAME beside NS at %s, below the apex "
                 "(RFC 6672 section 2.3); Knot refuses the zone", zp_ck_owner_text(g));
}

/* The name of the cut or DNAME at stack index i, as text. */
static const char *frame_text(const zp_checker *c, int i)
{
  const zp_ck_frame *f = &c->stack[i];
  uint8_t d[ZP_NAME_MAX];
  zp_name_from_sort_key(f->key, f->key_len, d);
  return zp_ck_name_text(d);
}

void zp_ck_occlusion(zp_checker *c)
{
  zp_ck_group *g = &c->g;
  if (g->dname >= 0 && zp_ck_on(c, ZP_CK_BELOW_DNAME))
    zp_ck_report(c, ZP_CK_BELOW_DNAME, zp_ck_first(g), "%s is below the DNAME at %s (%s) and "
                 "is never served (RFC 6672 section 2.4); Knot and NSD refuse the zone",
                 zp_ck_owner_text(g), frame_text(c, g->dname),
                 zp_ck_where(c, &c->stack[g->dname].t));
  else if (g->cut >= 0 && g->glue_other.set && zp_ck_on(c, ZP_CK_OCCLUDED))
    zp_ck_report(c, ZP_CK_OCCLUDED, &g->glue_other.t, "%s record at %s, below the delegation "
                 "at %s (%s), is never served: only address records (glue) belong there (RFC "
                 "1034 section 4.2.1)", zp_ck_type_text(g->glue_other.t.rtype),
                 zp_ck_owner_text(g), frame_text(c, g->cut), zp_ck_where(c, &c->stack[g->cut].t));
  else if (!g->apex && g->has_ns && g->occ.set && zp_ck_on(c, ZP_CK_OCCLUDED))
    zp_ck_report(c, ZP_CK_OCCLUDED, &g->occ.t, "%s record at the delegation %s is never "
                 "served: a delegation holds NS, DS and glue (RFC 1034 section 4.2.1)",
                 zp_ck_type_text(g->occ.t.rtype), zp_ck_owner_text(g));
}

/* As named serves it: a record below a delegation or a DNAME (an ancestor on the stack), or at
 * a delegation point but for its NS. A zone holds one class (the reader refuses a second), in
 * which a name's NS records sort before its CNAME, MX and SRV: has_ns is known by then. */
zp_status zp_ck_served(zp_checker *c, const zp_ck_tuple *t)
{
  const zp_ck_group *g = &c->g;
  if (!g->in_zone || (c->depth == 0 && (t->rtype == ZP_TYPE_NS || !g->has_ns || g->apex)))
    return ZP_OK;
  struct iovec part = {(void *)&t->seq, sizeof t->seq};
  return zp_spill_add(c->unserved, &part, 1);
}
