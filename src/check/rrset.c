/* rrset.c -- what one name's RRsets must be: one TTL per RRset (RFC 2181 section 5.2; the
 * RRSIGs of one type covered are an RRset, RFC 4034 section 3, as BIND keeps them), no larger
 * than a DNS message holds (named's count), one CNAME, DNAME or SOA at a name, a CNAME alone (RFC
 * 1034 section 3.6.2), a null MX alone (RFC 7505), no record written twice (RFC 2181 section 5) */
#include <stdlib.h>

#include "check_int.h"
#include "record/record.h"

void zp_ck_rrset_first(zp_checker *c, const zp_ck_tuple *t)
{
  zp_ck_group *g = &c->g;
  g->rrset_ttl_told = g->rrset_single_told = g->rrset_size_told = false;
  g->rrset_size = (uint32_t)zp_rdata_load_cost(t->rtype, t->rdlen);
  zp_ck_load_first(c, t);
  zp_ck_kset_clear(&c->rdatas);
}

/* Whether t's RDATA is not one of its RRset's before it (BIND keeps one of a record written
 * twice); when it is, *first is the record that had it. The digests, and the tuples they came
 * with, are kept from the RRset's second record on. */
static bool new_rdata(zp_checker *c, const zp_ck_tuple *t, const zp_ck_tuple **first)
{
  zp_ck_keyset *s = &c->rdatas;
  zp_buf *recs = &c->rdata_recs;
  /* (out of memory, a record counts as a new one: a message too many, never one too few) */
  if (s->n == 0) {
    recs->len = 0;
    if (zp_buf_put(recs, &c->g.rrset.t, sizeof *t))
      (void)zp_ck_kset_add(s, c->g.rrset.t.digest, 0);
  }
  const zp_ck_kentry *e = zp_ck_kset_find(s, t->digest);
  if (e) {
    *first = (const zp_ck_tuple *)(const void *)(recs->p + (size_t)e->val * sizeof *t);
    return false;
  }
  uint32_t at = (uint32_t)(recs->len / sizeof *t);
  if (zp_buf_put(recs, t, sizeof *t))
    (void)zp_ck_kset_add(s, t->digest, at);
  return true;
}

/* The same record (owner, class, type, RDATA) twice: every server keeps it once (RFC 2181
 * section 5), so the file says more than is served; told at the later line, naming the first. */
static void duplicate(zp_checker *c, const zp_ck_tuple *t, const zp_ck_tuple *first)
{
  zp_ck_tuple was = *first;   /* (a copy: the report may grow what first points into) */
  const zp_ck_tuple *later = t->seq > was.seq ? t : &was, *earlier = later == t ? &was : t;
  bool rrsig = zp_ck_is_sig(t);
  zp_ck_report(c, ZP_CK_DUPLICATE, later, "%s %s%s%s is written twice, here and at %s: the "
               "same record is one (RFC 2181 section 5), which every server keeps once",
               zp_ck_owner_text(&c->g), zp_ck_type_text(t->rtype), rrsig ? " covering " : "",
               rrsig ? zp_ck_type_text(t->covered) : "", zp_ck_where(c, earlier));
}

/* named's count of an RRset (read/rdata.h), each record's RDATA and its length, the same record
 * twice once: past ZP_RRSET_LOAD_MAX, BIND refuses the zone. (A record alone never passes it:
 * the reader holds each to it.) */
static void rrset_size(zp_checker *c, const zp_ck_tuple *t)
{
  zp_ck_group *g = &c->g;
  g->rrset_size += (uint32_t)zp_rdata_load_cost(t->rtype, t->rdlen);
  if (g->rrset_size <= ZP_RRSET_LOAD_MAX)
    return;
  bool rrsig = zp_ck_is_sig(t);
  zp_ck_report(c, ZP_CK_RRSET_SIZE, t, "the %s RRset%s%s at %s counts %u octets with this "
               "record (the same record twice once): " ZP_RRSET_LOAD_WHY "; BIND refuses the "
               "zone (\"ran out of space\")", zp_ck_type_text(t->rtype),
               rrsig ? " covering " : "", rrsig ? zp_ck_type_text(t->covered) : "",
               zp_ck_owner_text(g), g->rrset_size);
  g->rrset_size_told = true;
}

void zp_ck_rrset_more(zp_checker *c, const zp_ck_tuple *t, const uint8_t *spell)
{
  zp_ck_group *g = &c->g;
  bool size = !g->rrset_size_told && zp_ck_on(c, ZP_CK_RRSET_SIZE),
       dup = zp_ck_on(c, ZP_CK_DUPLICATE);
  if (size || dup || zp_ck_load_counting(c)) {
    const zp_ck_tuple *first = NULL;
    bool fresh = new_rdata(c, t, &first);
    if (size && fresh)
      rrset_size(c, t);
    if (dup && !fresh)
      duplicate(c, t, first);
    zp_ck_load_more(c, t, fresh);
  }
  if (t->ttl != g->rrset.t.ttl && !g->rrset_ttl_told && zp_ck_on(c, ZP_CK_TTL)) {
    zp_ck_rep r = {.set = true, .t = *t};
    memcpy(r.spell, spell, t->extra_len);
    bool rrsig = zp_ck_is_sig(t);
    zp_ck_report(c, ZP_CK_TTL, t, "%s %s%s%s has TTL %u here and %u at %s: one RRset has one "
                 "TTL (RFC 2181 section 5.2), and servers pick differently (BIND the first of "
                 "each run of lines and then the last run's, Knot the last line's, NSD each "
                 "line's own)%s", zp_ck_owner_text(g), zp_ck_type_text(t->rtype),
                 rrsig ? " covering " : "", rrsig ? zp_ck_type_text(t->covered) : "",
                 t->ttl, g->rrset.t.ttl, zp_ck_where(c, &g->rrset.t),
                 zp_ck_collision_note(c, &g->rrset, &r));
    g->rrset_ttl_told = true;
  }
  bool single = t->rtype == ZP_TYPE_CNAME || t->rtype == ZP_TYPE_DNAME || t->rtype == ZP_TYPE_SOA;
  if (single && t->digest != g->rrset.t.digest && !g->rrset_single_told &&
      zp_ck_on(c, ZP_CK_SINGLETON)) {
    zp_ck_rep r = {.set = true, .t = *t};
    memcpy(r.spell, spell, t->extra_len);
    zp_ck_report(c, ZP_CK_SINGLETON, t, "a second %s record at %s, beside the one at %s: a "
                 "name holds one %s (RFC %s)%s", zp_ck_type_text(t->rtype),
                 zp_ck_owner_text(g), zp_ck_where(c, &g->rrset.t), zp_ck_type_text(t->rtype),
                 t->rtype == ZP_TYPE_CNAME   ? "2181 section 10.1"
                 : t->rtype == ZP_TYPE_DNAME ? "6672 section 2.4"
                                       : "1035 section 5.2",
                 zp_ck_collision_note(c, &g->rrset, &r));
    g->rrset_single_told = true;
  }
}

void zp_ck_cname_other(zp_checker *c)
{
  zp_ck_group *g = &c->g;
  if (!g->has_cname || !g->other.set || !zp_ck_on(c, ZP_CK_CNAME_OTHER))
    return;
  const zp_ck_rep *later = g->cname.t.seq > g->other.t.seq ? &g->cname : &g->other;
  const zp_ck_rep *earlier = later == &g->cname ? &g->other : &g->cname;
  zp_ck_report(c, ZP_CK_CNAME_OTHER, &later->t, "CNAME and other data at %s: %s here, %s at %s "
               "(RFC 1034 section 3.6.2; BIND, NSD and Knot refuse the zone)%s",
               zp_ck_owner_text(g), zp_ck_type_text(later->t.rtype),
               zp_ck_type_text(earlier->t.rtype), zp_ck_where(c, &earlier->t),
               zp_ck_collision_note(c, earlier, later));
}

void zp_ck_null_mx(zp_checker *c)
{
  zp_ck_group *g = &c->g;
  if (g->mx_null_rec.set && g->mx_other && zp_ck_on(c, ZP_CK_NULL_MX))
    zp_ck_report(c, ZP_CK_NULL_MX, &g->mx_null_rec.t, "a null MX (\"0 .\") beside other MX "
                 "records at %s: a domain that accepts no mail has only the null MX (RFC 7505 "
                 "section 3)", zp_ck_owner_text(g));
}
