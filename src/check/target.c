/* target.c -- the names NS, MX, SRV and CNAME records point to: each is a target, known by
 * number, whose marker tuple the pass reaches after the target's own records; what the pass
 * found there judges every reference to it (an alias, no address, no glue: RFC 1034 section
 * 4.2.1, RFC 2181 section 10.3, RFC 2782; a CNAME to no name at all: RFC 1034 section 4.3.2) */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>

#include "check_int.h"

/* The sort key of a target. */
static const uint8_t *target_key(const zp_checker *c, const zp_ck_target *t, size_t *len)
{
  const uint8_t *p = (const uint8_t *)c->target_keys.p + t->key_off;
  uint16_t n;
  memcpy(&n, p, sizeof n);
  *len = n;
  return p + sizeof n;
}

static bool tmap_grow(zp_checker *c)
{
  size_t cap = c->tmap_cap ? 2 * c->tmap_cap : 1024;
  uint32_t *m = calloc(cap, sizeof *m);
  if (!m)
    return false;
  for (size_t i = 0; i < c->ntargets; i++) {
    size_t k = c->targets[i].hash & (cap - 1);
    while (m[k])
      k = (k + 1) & (cap - 1);
    m[k] = (uint32_t)i + 1;
  }
  free(c->tmap);
  c->tmap = m;
  c->tmap_cap = cap;
  return true;
}

/* Whether one more target, its key of len octets, fits in targets_max: the arrays as they would
 * grow, each old one beside its new while it is copied, and room for each target's number
 * while it waits for a wildcard (the pass's pending, doubling too). */
static bool target_room(const zp_checker *c, size_t len)
{
  size_t n = c->ntargets + 1, t = zp_grown_cap(c->targets_cap, n, 256);
  size_t m = zp_grown_cap(c->tmap_cap, 2 * n, 1024);
  size_t k = zp_grown_cap(c->target_keys.cap, c->target_keys.len + 2 + len, ZP_BUF_FIRST_CAP);
  size_t bytes = t * sizeof(zp_ck_target) + m * sizeof *c->tmap + k +
                 3 * zp_grown_cap(0, n, 64) * sizeof *c->pending;
  bytes += (t > c->targets_cap ? c->targets_cap * sizeof(zp_ck_target) : 0) +
           (m > c->tmap_cap ? c->tmap_cap * sizeof *c->tmap : 0) +
           (k > c->target_keys.cap ? c->target_keys.cap : 0);
  return bytes <= c->targets_max;
}

/* The number of the target whose sort key is key[0..len), made on first sight with its marker
 * (rec's place); UINT32_MAX past the bound on targets kept. */
static zp_status target_of(zp_checker *c, const zp_ck_tuple *rec, const uint8_t *key, size_t len,
                           uint32_t *id)
{
  uint64_t h = zp_hash(key, len);
  size_t k = c->tmap_cap ? h & (c->tmap_cap - 1) : 0;
  for (; c->tmap_cap && c->tmap[k]; k = (k + 1) & (c->tmap_cap - 1)) {
    const zp_ck_target *t = &c->targets[c->tmap[k] - 1];
    size_t n;
    const uint8_t *tk = target_key(c, t, &n);
    if (t->hash == h && n == len && memcmp(tk, key, len) == 0) {
      *id = c->tmap[k] - 1;
      return ZP_OK;
    }
  }
  *id = UINT32_MAX;
  if (!target_room(c, len))
    return ZP_OK;
  if (!zp_array_room(&c->targets, c->ntargets, &c->targets_cap, sizeof *c->targets, 256))
    return ZP_ENOMEM;
  uint16_t n = (uint16_t)len;
  zp_ck_target *t = &c->targets[c->ntargets];
  *t = (zp_ck_target){.hash = h, .key_off = c->target_keys.len};
  if (!zp_buf_put(&c->target_keys, &n, sizeof n) || !zp_buf_put(&c->target_keys, key, len))
    return ZP_ENOMEM;
  uint32_t made = (uint32_t)c->ntargets++;
  if (2 * c->ntargets > c->tmap_cap) {
    if (!tmap_grow(c))
      return ZP_ENOMEM;
  } else {
    c->tmap[k] = made + 1;
  }
  zp_ck_tuple m = *rec;
  m.kind = K_TARGET;
  m.key_len = n;
  m.extra_len = sizeof made;
  *id = made;
  return zp_ck_add(c, c->sp, &m, key, (const uint8_t *)&made, 0);
}

/* A reference from the record whose owner has the sort key from to the name at to (rec:
 * the record's tuple, placed at the target's field). A target outside the zone is no matter
 * for any rule (BIND looks it up in the DNS, and a CNAME loop through it is no loop of the
 * zone's); the others are logged against their target's number, or past the bound filed as a
 * tuple under the target's name. */
zp_status zp_ck_add_ref(zp_checker *c, const zp_ck_tuple *rec, const uint8_t *from, size_t from_len,
                        const uint8_t *to)
{
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t len = zp_name_sort_key(to, key);
  if (c->have_apex && !zp_ck_is_prefix(c->apex_key, c->apex_len, key, len))
    return ZP_OK;
  uint32_t id;
  zp_status st = target_of(c, rec, key, len, &id);
  if (st != ZP_OK)
    return st;
  zp_ck_tuple t = *rec;
  t.kind = K_REF;
  t.extra_len = (uint16_t)from_len;
  if (id != UINT32_MAX && rec->rtype == ZP_TYPE_CNAME)
    c->targets[id].asked = true;
  if (id != UINT32_MAX) {
    t.digest = id;
    t.key_len = 0;
    return zp_ck_add(c, c->log, &t, key, from, 0);
  }
  t.key_len = (uint16_t)len;
  return zp_ck_add(c, c->sp, &t, key, from, 0);
}

/* BIND's own test: the target's text as written is an IPv4 address ("192.0.2.1" read as a
 * name relative to the origin). Asked of most targets, which start with a letter: inet_pton
 * only for those that start with a digit, as an address does. */
bool zp_ck_ipv4_text(const zp_field *fd)
{
  char text[64];
  struct in_addr a;
  if (fd->len >= sizeof text || fd->len == 0 || fd->text[0] < '0' || fd->text[0] > '9')
    return false;
  memcpy(text, fd->text, fd->len);
  text[fd->len] = '\0';
  return inet_pton(AF_INET, text, &a) == 1;
}

void zp_ck_address_target(zp_checker *c, const zp_record *r, const zp_ck_tuple *t)
{
  if (r->rtype != ZP_TYPE_NS && r->rtype != ZP_TYPE_MX && r->rtype != ZP_TYPE_SRV)
    return;
  size_t f = r->rtype == ZP_TYPE_NS ? 0 : r->rtype == ZP_TYPE_MX ? 1 : 3;
  if (!zp_ck_on(c, ZP_CK_ADDRESS_TARGET) || !r->rdata || r->generic || f >= r->nfields ||
      !zp_ck_ipv4_text(&r->fields[f]))
    return;
  zp_ck_tuple at = zp_ck_at_field(r, t, f);
  zp_ck_report(c, ZP_CK_ADDRESS_TARGET, &at, "%s target '%.*s' is an IPv4 address, read as the "
               "name %s: %s takes a host name (RFC 1035 section 3.3)", zp_ck_type_text(r->rtype),
               (int)r->fields[f].len, r->fields[f].text,
               zp_ck_name_text(r->rdata + (r->rtype == ZP_TYPE_NS   ? 0
                                           : r->rtype == ZP_TYPE_MX ? 2
                                                                    : 6)),
               zp_ck_type_text(r->rtype));
}

/* How many octets of the sort keys a and b make their deepest common ancestor's key (labels
 * end in 0, which no label holds). */
static size_t common_ancestor(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
  size_t n = an < bn ? an : bn, at = 0;
  for (size_t i = 0; i < n && a[i] == b[i]; i++)
    if (a[i] == 0)
      at = i + 1;
  return at;
}

/* The closest encloser of a name without records, key[0..len), that the names with records
 * before it show: the deepest ancestor it shares with the last of them, the apex at least. */
static size_t encloser_before(const zp_checker *c, const uint8_t *key, size_t len)
{
  size_t ce = common_ancestor(key, len, c->prev_key, c->prev_len);
  return ce > c->apex_len ? ce : c->apex_len;
}

/* What the name without records key[0..len) is to a resolver, next[0..next_len) being the first
 * name with records after it (NULL: none): an empty non-terminal where that name is below it
 * (RFC 4592 section 2.2.2); else answered by the wildcard of its closest encloser (RFC 4592
 * section 3.3.1) as that wildcard holds; else no name (NXDOMAIN). */
static void wildcard_answer(const zp_checker *c, const uint8_t *key, size_t len,
                            const uint8_t *next, size_t next_len, zp_ck_target *f)
{
  f->has_a = f->has_cname = false;
  f->exists = next && zp_ck_is_prefix(key, len, next, next_len);
  if (f->exists)
    return;
  size_t ce = encloser_before(c, key, len);
  size_t after = next ? common_ancestor(key, len, next, next_len) : 0;
  if (after > ce)
    ce = after;
  uint8_t w = ce < len ? zp_ck_set_get(&c->wild, zp_hash(key, ce)) : 0;
  if (w & N_WILD) {
    f->exists = true;
    f->has_a = w & N_ADDR;
    f->has_cname = w & N_CNAME;
  }
}

/* Whether the name being looked at, which has no records, may be answered by a wildcard with
 * an address or an alias: whether one is at its closest encloser, whichever of its ancestors
 * from the one the names before show down to its parent that is. If none is, it has neither. */
static bool may_be_covered(const zp_checker *c)
{
  const zp_ck_group *g = &c->g;
  if (!c->wild.n || !c->have_apex || g->key_len <= c->apex_len)
    return false;
  size_t lo = encloser_before(c, g->key, g->key_len);
  for (size_t end = g->key_len; end-- > lo;)
    if ((end == 0 || g->key[end - 1] == 0) &&
        (zp_ck_set_get(&c->wild, zp_hash(g->key, end)) & (N_ADDR | N_CNAME)))
      return true;
  return false;
}

/* Where a target is an alias: its CNAME, or a wildcard's. */
static const char *alias(const zp_checker *c, const zp_ck_target *f)
{
  static char b[700];
  if (!f->own_cname)
    return "a wildcard CNAME";
  snprintf(b, sizeof b, "CNAME at %s", zp_ck_where(c, &f->cname));
  return b;
}

/* The name being looked at as a target, its own records all seen. A wildcard stands in for a
 * name without records, not at or below a delegation (no glue comes from a wildcard) or a DNAME;
 * which one is known once the next name with records is (*wait), and so is whether a name
 * without records exists, when that is asked. */
zp_ck_target zp_ck_facts(zp_checker *c, bool asked, bool *wait)
{
  zp_ck_group *g = &c->g;
  zp_ck_target f = {.asked = asked, .exists = g->spell1.set, .in_zone = g->in_zone,
              .below_dname = g->dname >= 0, .glue_zone = g->cut >= 0 || (g->has_ns && !g->apex),
              .own_cname = g->cname.set, .cname = g->cname.t, .has_a = g->has_a,
              .has_cname = g->has_cname};
  *wait = !g->spell1.set && f.in_zone && !f.glue_zone && !f.below_dname &&
          (asked || may_be_covered(c));
  return f;
}

zp_status zp_ck_target_wait(zp_checker *c, uint32_t id)
{
  /* (at most one per target kept: bounded as they are) */
  if (!zp_array_room(&c->pending, c->npending, &c->pending_cap, sizeof *c->pending, 64))
    return ZP_ENOMEM;
  c->pending[c->npending++] = id;
  return ZP_OK;
}

zp_status zp_ck_ref_wait(zp_checker *c, const zp_ck_tuple *t, const uint8_t *from)
{
  zp_status st;
  if (!c->deferred) {
    /* (rare: a reference past the bound to a name a wildcard may answer; a spill, as the log) */
    if ((st = zp_spill_new(zp_ck_mem(c) / 32, ZP_SPILL_ENTRY_MAX, NULL, NULL, NULL,
                           &c->deferred)) != ZP_OK)
      return st;
  }
  zp_ck_tuple w = *t;
  w.flags &= (uint8_t)~(F_KEY_REL | F_EXTRA_REL);
  w.key_len = (uint16_t)c->g.key_len;
  return zp_ck_add(c, c->deferred, &w, c->g.key, from, 0);
}

zp_status zp_ck_answer_waiting(zp_checker *c, const uint8_t *next, size_t next_len)
{
  for (size_t i = 0; i < c->npending; i++) {
    zp_ck_target *f = &c->targets[c->pending[i]];
    size_t n;
    const uint8_t *k = target_key(c, f, &n);
    wildcard_answer(c, k, n, next, next_len, f);
  }
  c->npending = 0;
  if (!c->deferred)
    return ZP_OK;
  const uint8_t *e;
  size_t len;
  zp_status st;
  uint8_t key[ZP_NAME_KEY_MAX], from[ZP_NAME_KEY_MAX];
  while ((st = zp_spill_next(c->deferred, &e, &len)) == ZP_OK && e) {
    zp_ck_tuple t;
    memcpy(&t, e, sizeof t);
    size_t skip = t.flags & F_KEY_REL ? c->skip_len : 0;
    memcpy(key, c->skip, skip);
    memcpy(key + skip, e + sizeof t, t.key_len);
    size_t key_len = skip + t.key_len;
    t.extra_len = (uint16_t)zp_ck_whole_extra(c, &t, e + sizeof t + t.key_len, from);
    zp_ck_target f = {.asked = t.rtype == ZP_TYPE_CNAME, .in_zone = true,
                      .hash = zp_hash(key, key_len)};
    wildcard_answer(c, key, key_len, next, next_len, &f);
    zp_ck_ref_check(c, &f, key, key_len, &t, from);
  }
  zp_spill_free(c->deferred);
  c->deferred = NULL;
  return st;
}

/* For a message about a target that is wanting: where it was written relative with two labels
 * or more before the origin (t->covered, intake.c), the final dot most likely forgotten (RFC 1035
 * section 5.1), the name as written and the origin that completed it (ACE labels shown in
 * Unicode, as a zone in UTF-8 writes them); else "". */
static const char *dot_hint(const zp_checker *c, const zp_ck_tuple *t, const uint8_t *key,
                            size_t key_len)
{
  static char b[2 * ZP_NAME_UNICODE_MAX + 128], as_written[ZP_NAME_UNICODE_MAX],
      completed[ZP_NAME_UNICODE_MAX + 1];
  if (!t->covered)
    return "";
  uint8_t wire[ZP_NAME_MAX], written[ZP_NAME_MAX];
  zp_name_from_sort_key(key, key_len, wire);
  const uint8_t *origin = wire;
  for (unsigned i = 0; i < t->covered && *origin; i++)
    origin += *origin + 1;
  size_t n = (size_t)(origin - wire);
  memcpy(written, wire, n);
  written[n] = 0;
  size_t wlen = zp_name_text_unicode(as_written, written, c->opt.idna2008);
  completed[zp_name_text_unicode(completed, origin, c->opt.idna2008)] = '\0';
  snprintf(b, sizeof b, "; missing trailing dot? '%.*s' was written relative to the origin %s "
           "(RFC 1035 section 5.1)", (int)wlen - 1, as_written, completed);
  return b;
}

/* A record at the name whose sort key is from (t->extra_len octets) points to the target f,
 * whose sort key is key[0..key_len). Names are made text only for a message: most references
 * are fine. A message is told only if the record is ever served (a record never served is told
 * as occluded or below a DNAME), which the pass knows by the time messages are told. */
void zp_ck_ref_check(zp_checker *c, const zp_ck_target *f, const uint8_t *key, size_t key_len,
                     const zp_ck_tuple *ref, const uint8_t *from)
{
  zp_ck_tuple at = *ref;
  at.flags |= F_SERVED_ONLY;
  const zp_ck_tuple *t = &at;
  size_t from_len = t->extra_len;
  if (t->rtype == ZP_TYPE_CNAME && f->own_cname && zp_ck_on(c, ZP_CK_CNAME_LOOP))
    zp_ck_chain_link(c, t, from, f->hash);
  if (!f->in_zone || !c->have_apex)
    return;   /* BIND looks such names up in the DNS; zonepuny does not */
  if (!zp_ck_is_prefix(c->apex_key, c->apex_len, from, from_len))
    return;   /* the referring record is out of the zone, and told as such */
#define TARGET zp_ck_key_text(key, key_len)
#define FROM zp_ck_key_text(from, from_len)
#define HINT dot_hint(c, t, key, key_len)
  bool glue_zone = f->glue_zone;
  if (t->rtype == ZP_TYPE_CNAME) {
    /* a name at or below a delegation or below a DNAME is answered from elsewhere */
    if (!f->exists && !glue_zone && !f->below_dname && zp_ck_on(c, ZP_CK_CNAME_TARGET))
      zp_ck_report(c, ZP_CK_CNAME_TARGET, t, "CNAME target %s of %s does not exist in the zone: "
                   "the chain ends in NXDOMAIN (RFC 1034 section 4.3.2)%s", TARGET, FROM, HINT);
    return;
  }
  /* a target with an address, no alias (or glue below a cut), is fine for every rule below */
  if (!f->below_dname && f->has_a && (glue_zone || !f->has_cname))
    return;
  if (t->rtype == ZP_TYPE_NS) {
    /* named asks a name server's own records of it (an address, no alias, not below a DNAME)
     * only in class IN; glue it asks in every class */
    bool in = t->rclass == ZP_CLASS_IN;
    bool apex = from_len == c->apex_len && memcmp(from, c->apex_key, from_len) == 0;
    zp_check_id id = apex ? ZP_CK_APEX_NS : ZP_CK_NS_TARGET;
    const char *refused = apex ? "; BIND refuses the zone" : "";
    if (f->below_dname) {
      if (in && zp_ck_on(c, id))
        zp_ck_report(c, id, t, "NS target %s of %s is below a DNAME%s", TARGET, FROM, refused);
    } else if (glue_zone) {
      bool required = !apex && zp_ck_is_prefix(from, from_len, key, key_len);
      if (!f->has_a && zp_ck_on(c, ZP_CK_GLUE))
        zp_ck_report(c, ZP_CK_GLUE, t, "%s %s: name server %s is %s and needs glue, an A or AAAA "
                     "record for it in this zone (RFC 1034 section 4.2.1)",
                     apex ? "zone" : "delegation", FROM, TARGET,
                     required ? "inside it"
                     : apex   ? "inside a delegation"
                              : "inside another delegation");
    } else if (f->has_cname) {
      if (in && zp_ck_on(c, id))
        zp_ck_report(c, id, t, "NS target %s of %s is an alias (%s): a name server must be "
                     "named by its own name (RFC 2181 section 10.3)%s", TARGET, FROM, alias(c, f),
                     refused);
    } else if (!f->has_a) {
      if (in && zp_ck_on(c, id))
        zp_ck_report(c, id, t, "NS target %s of %s has no A or AAAA record in the zone%s%s",
                     TARGET, FROM, refused, HINT);
    }
    return;
  }
  zp_check_id id = t->rtype == ZP_TYPE_MX ? ZP_CK_MX_TARGET : ZP_CK_SRV_TARGET;
  if (!zp_ck_on(c, id) || glue_zone)
    return;   /* a name below a delegation is the child zone's to answer for */
  if (f->below_dname)
    zp_ck_report(c, id, t, "%s target %s is below a DNAME", zp_ck_type_text(t->rtype), TARGET);
  else if (f->has_cname)
    zp_ck_report(c, id, t, "%s target %s is an alias (%s): it must name a host (RFC 2181 "
                 "section 10.3%s)", zp_ck_type_text(t->rtype), TARGET, alias(c, f),
                 t->rtype == ZP_TYPE_SRV ? ", RFC 2782" : "");
  else if (!f->has_a)
    zp_ck_report(c, id, t, "%s target %s has no A or AAAA record in the zone%s",
                 zp_ck_type_text(t->rtype), TARGET, HINT);
#undef TARGET
#undef FROM
#undef HINT
}

zp_status zp_ck_refs_end(zp_checker *c)
{
  const uint8_t *e;
  size_t len;
  zp_status st;
  uint8_t from[ZP_NAME_KEY_MAX];
  while ((st = zp_spill_next(c->log, &e, &len)) == ZP_OK && e) {
    zp_ck_tuple t;
    memcpy(&t, e, sizeof t);
    t.extra_len = (uint16_t)zp_ck_whole_extra(c, &t, e + sizeof t + t.key_len, from);
    const zp_ck_target *f = &c->targets[(uint32_t)t.digest];
    size_t n;
    const uint8_t *k = target_key(c, f, &n);
    zp_ck_ref_check(c, f, k, n, &t, from);
  }
  return st;
}
