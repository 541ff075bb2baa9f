/* pass.c -- the pass over the sorted tuples: a name's records (its RRsets, what it holds), then
 * its target marker and the references to it; each name's rules run once its records are all
 * seen, and the references logged in the order read are judged after the pass */
#include "check_int.h"
#include "reverse.h"

/* Types BIND allows beside a CNAME: the DNSSEC records about the name itself. */
static bool beside_cname(uint16_t type)
{
  return type == ZP_TYPE_RRSIG || type == ZP_TYPE_NSEC || type == ZP_TYPE_KEY ||
         type == ZP_TYPE_SIG || type == ZP_TYPE_NXT;
}

static void keep(zp_ck_rep *r, const zp_ck_tuple *t, const uint8_t *spell)
{
  r->set = true;
  r->t = *t;
  if (t->extra_len)
    memcpy(r->spell, spell, t->extra_len);
}


static void group_begin(zp_checker *c, const uint8_t *key, size_t len)
{
  zp_ck_group *g = &c->g;
  memset(g, 0, offsetof(zp_ck_group, rrset));
  g->rrset.set = g->cname.set = g->other.set = g->spell1.set = g->spell2.set = false;
  g->glue_other.set = g->occ.set = g->dname_rec.set = g->ns.set = g->ds.set = false;
  g->mx_null_rec.set = false;
  memcpy(g->key, key, len);
  g->key_len = len;
  g->in_zone = !c->have_apex || zp_ck_is_prefix(c->apex_key, c->apex_len, key, len);
  g->apex = c->have_apex && len == c->apex_len && g->in_zone;
  zp_ck_cuts_enter(c);
}

static zp_status record_in(zp_checker *c, const zp_ck_tuple *t, const uint8_t *spell)
{
  zp_ck_group *g = &c->g;
  /* an RRset: the tuples of one class and type (and type covered: RRSIG, SIG), in input order */
  if (!g->rrset.set || g->rrset.t.rclass != t->rclass || g->rrset.t.rtype != t->rtype ||
      (zp_ck_is_sig(t) && g->rrset.t.covered != t->covered)) {
    keep(&g->rrset, t, spell);
    zp_ck_rrset_first(c, t);
  } else {
    zp_ck_rrset_more(c, t, spell);
  }
  if (!g->spell1.set)
    keep(&g->spell1, t, spell);
  else if (!g->spell2.set && !zp_ck_same_spelling(&g->spell1, t, spell))
    keep(&g->spell2, t, spell);
  switch (t->rtype) {
  case ZP_TYPE_A: case ZP_TYPE_AAAA: g->has_a = true; break;
  case ZP_TYPE_NS: g->has_ns = true; if (!g->ns.set) keep(&g->ns, t, spell); break;
  case ZP_TYPE_CNAME: g->has_cname = true; if (!g->cname.set) keep(&g->cname, t, spell); break;
  case ZP_TYPE_DNAME:
    g->has_dname = true;
    if (!g->dname_rec.set)
      keep(&g->dname_rec, t, spell);
    break;
  case ZP_TYPE_SOA: g->has_soa = true; break;
  case ZP_TYPE_DS: g->has_ds = true; if (!g->ds.set) keep(&g->ds, t, spell); break;
  case ZP_TYPE_DNSKEY: case ZP_TYPE_CDS: case ZP_TYPE_CDNSKEY: zp_ck_cds_record(c, t, spell); break;
  case ZP_TYPE_MX:
    if (t->flags & F_NULL_MX) {
      if (!g->mx_null_rec.set)
        keep(&g->mx_null_rec, t, spell);
    } else {
      g->mx_other = true;
    }
    break;
  default: break;
  }
  if (t->rtype != ZP_TYPE_CNAME && !beside_cname(t->rtype) &&
      (!g->other.set || t->seq < g->other.t.seq))
    keep(&g->other, t, spell);
  /* what a delegation point may hold, and glue below it */
  bool at_cut_ok = t->rtype == ZP_TYPE_NS || t->rtype == ZP_TYPE_DS || t->rtype == ZP_TYPE_RRSIG ||
                   t->rtype == ZP_TYPE_NSEC || t->rtype == ZP_TYPE_A || t->rtype == ZP_TYPE_AAAA ||
                   t->rtype == ZP_TYPE_DNAME;   /* (dname-and-ns tells of that one) */
  if (!at_cut_ok && (!g->occ.set || t->seq < g->occ.t.seq))
    keep(&g->occ, t, spell);
  if (t->rtype != ZP_TYPE_A && t->rtype != ZP_TYPE_AAAA &&
      (!g->glue_other.set || t->seq < g->glue_other.t.seq))
    keep(&g->glue_other, t, spell);
  bool refers = t->rtype == ZP_TYPE_NS || t->rtype == ZP_TYPE_MX || t->rtype == ZP_TYPE_SRV ||
                t->rtype == ZP_TYPE_CNAME;
  return refers ? zp_ck_served(c, t) : ZP_OK;
}


/* The rules of a name in the zone once its records are in, in the order their messages must
 * keep (the pass tells a name's messages in this order, whatever the input's). */
static void (*const name_rules[])(zp_checker *) = {
  zp_ck_collision,     /* two spellings, one name after IDNA */
  zp_ck_cname_other,   /* a CNAME beside other data */
  zp_ck_apex,          /* an SOA below the apex; the apex's SOA and NS */
  zp_ck_delegation,    /* a delegation's NS, glue and DS */
  zp_ck_null_mx,       /* a null MX beside other MX */
  zp_ck_occlusion,     /* data at or below a delegation or DNAME */
  zp_ck_alike_name,    /* a candidate for a name that looks like another */
  zp_ck_brand_name,    /* a name that looks like one of --confusable-with */
};

/* Everything about the name's own records, once they are all seen: the rules of each subject,
 * in an order that keeps the messages about one record in the order they have always had. */
static void records_done(zp_checker *c)
{
  zp_ck_group *g = &c->g;
  if (g->refs_started)
    return;
  g->refs_started = true;
  if (!g->spell1.set)
    return;   /* only references: a name with no records */
  if (!g->in_zone) {
    zp_ck_out_of_zone(c);
    return;
  }
  for (size_t i = 0; i < sizeof name_rules / sizeof *name_rules; i++)
    name_rules[i](c);
}

/* The name is done: a delegation or a DNAME goes on the stack for the names below it; a name
 * with records is the last one for the names without records that follow. */
static void group_end(zp_checker *c)
{
  zp_ck_group *g = &c->g;
  records_done(c);
  zp_ck_cuts_leave(c);
  if (g->spell1.set) {
    memcpy(c->prev_key, g->key, g->key_len);
    c->prev_len = g->key_len;
  }
}

/* One tuple of the sorted stream into the pass: a new name ends the one before it. */
static zp_status tuple_in(void *ctx, const uint8_t *e, size_t len)
{
  zp_checker *c = ctx;
  uint8_t key[ZP_NAME_KEY_MAX], from[ZP_NAME_KEY_MAX];
  zp_status st = ZP_OK;
  zp_ck_tuple t;
  (void)len;
  memcpy(&t, e, sizeof t);
  const uint8_t *stored = e + sizeof t, *extra = stored + t.key_len;
  /* whole keys again: skip, then what was stored */
  size_t skip = t.flags & F_KEY_REL ? c->skip_len : 0;
  memcpy(key, c->skip, skip);
  memcpy(key + skip, stored, t.key_len);
  size_t key_len = skip + t.key_len;
  if (!c->started || key_len != c->g.key_len || memcmp(key, c->g.key, key_len) != 0) {
    if (c->started)
      group_end(c);
    /* (a name's records come first: this one has some, and answers those waiting) */
    if (t.kind == K_RECORD && (c->npending || c->deferred) &&
        (st = zp_ck_answer_waiting(c, key, key_len)) != ZP_OK)
      return st;
    group_begin(c, key, key_len);
    c->started = true;
  }
  bool wait;
  if (t.kind == K_RECORD) {
    if (t.flags & F_ALIKE) {
      memcpy(&c->g.alike, extra + t.extra_len, sizeof c->g.alike);
      t.flags &= (uint8_t)~F_ALIKE;
    }
    return record_in(c, &t, extra);
  }
  if (t.kind == K_TARGET) {
    uint32_t id;
    memcpy(&id, extra, sizeof id);
    records_done(c);
    zp_ck_target f = zp_ck_facts(c, c->targets[id].asked, &wait);
    f.hash = c->targets[id].hash;
    f.key_off = c->targets[id].key_off;
    c->targets[id] = f;
    return wait ? zp_ck_target_wait(c, id) : ZP_OK;
  }
  t.extra_len = (uint16_t)zp_ck_whole_extra(c, &t, extra, from);
  records_done(c);
  zp_ck_target f = zp_ck_facts(c, t.rtype == ZP_TYPE_CNAME, &wait);
  f.hash = zp_hash(c->g.key, c->g.key_len);
  if (wait)
    return zp_ck_ref_wait(c, &t, from);
  zp_ck_ref_check(c, &f, c->g.key, c->g.key_len, &t, from);
  return ZP_OK;
}

zp_status zp_check_finish(zp_checker *c)
{
  if (c->opt.off)
    return ZP_OK;
  zp_status st;
  if ((st = zp_ck_intake_end(c)) != ZP_OK)
    return st;
  zp_ck_alike_intake_end(c);
  if (!c->have_apex && c->refused_len) {
    memcpy(c->apex_key, c->refused_key, c->refused_len);
    c->apex_len = c->refused_len;
    c->have_apex = true;
  }
  if (c->opt.reverse && c->have_apex && zp_ck_on(c, ZP_CK_REVERSE)) {
    uint8_t apex[ZP_NAME_MAX];
    zp_name_from_sort_key(c->apex_key, c->apex_len, apex);
    if ((st = zp_reverse_zone(c->opt.reverse, apex)) != ZP_OK)
      return st;
  }
  c->holding = true;
  /* the runs are merged on this thread and the pass walks the tuples on another, as the
   * intake did: through a handoff of the intake's size, whose memory it takes over */
  zp_handoff *h;
  zp_handoff_free(c->intake);
  c->intake = NULL;
  if ((st = zp_handoff_new(zp_ck_handoff_block(c), c->opt.threads >= 2, tuple_in, c, &h)) !=
      ZP_OK)
    return st;
  const uint8_t *e;
  size_t len;
  while ((st = zp_spill_next(c->sp, &e, &len)) == ZP_OK && e &&
         (st = zp_handoff_put(h, &(struct iovec){(void *)e, len}, 1)) == ZP_OK)
    continue;
  zp_status pass_st = zp_handoff_end(h);
  zp_handoff_free(h);
  if (st == ZP_OK)
    st = pass_st;
  if (st != ZP_OK)
    return st;
  if (c->started)
    group_end(c);
  if ((st = zp_ck_answer_waiting(c, NULL, 0)) != ZP_OK)
    return st;
  /* the references to targets, in the order read */
  if ((st = zp_ck_refs_end(c)) != ZP_OK)
    return st;
  zp_ck_apex_end(c);
  /* what the loops may sort takes the memory of the sort and the log, done with */
  zp_spill_free(c->sp);
  zp_spill_free(c->log);
  c->sp = c->log = NULL;
  /* (the names alike are sorted once the tuples' files are gone) */
  if ((st = zp_ck_alike_end(c)) != ZP_OK)
    return st;
  zp_ck_mail_end(c);
  if (zp_ck_on(c, ZP_CK_CNAME_LOOP) && (st = zp_ck_find_loops(c)) != ZP_OK)
    return st;
  if ((st = zp_ck_dnssec_end(c)) != ZP_OK)
    return st;
  return zp_ck_tell_held(c);
}
