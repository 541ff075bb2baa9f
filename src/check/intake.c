/* intake.c -- the checker made, fed and freed: each record becomes a tuple (and a reference per
 * target it names), and the checks of a record alone are told as it comes in */
#include <stdlib.h>

#include "check_int.h"
#include "reverse.h"

/* The index of the copy of rec's source, made on first sight. */
static zp_status intern_source(zp_checker *c, const zp_source *s, uint32_t *index)
{
  /* records come file by file: the last copy is nearly always the one */
  for (size_t i = c->nsrcs; i-- > 0 && i + 4 >= c->nsrcs;) {
    const zp_ck_source *k = c->srcs[i];
    if (k->orig == s && k->src.serial == s->serial) {
      *index = (uint32_t)i;
      return ZP_OK;
    }
  }
  /* the parent first: it may add copies of its own */
  uint32_t parent = UINT32_MAX;
  zp_status st = s->parent ? intern_source(c, s->parent, &parent) : ZP_OK;
  if (st != ZP_OK)
    return st;
  zp_ck_source *k = calloc(1, sizeof *k);
  zp_ck_source **grown = realloc(c->srcs, (c->nsrcs + 1) * sizeof *grown);
  char *path = strdup(s->path);
  if (grown)
    c->srcs = grown;
  if (!k || !grown || !path) {
    free(k);
    free(path);
    return ZP_ENOMEM;
  }
  k->src = *s;
  k->src.path = path;
  /* the parser closes its descriptor once the file is read; messages after the pass quote
   * lines through this copy, never by opening the path again */
  k->fd = c->fds < ZP_CK_FDS_MAX ? zp_source_keep(s) : -1;
  k->src.fd = k->fd >= 0 ? &k->fd : NULL;
  c->fds += k->fd >= 0;
  k->orig = s;
  k->src.parent = parent == UINT32_MAX ? NULL : &c->srcs[parent]->src;
  c->srcs[c->nsrcs] = k;
  *index = (uint32_t)c->nsrcs++;
  return ZP_OK;
}

/* Whether a label of the name is "*" (a wildcard's, at any depth: RFC 4592 section 2.1.1). */
static bool star_label(const uint8_t *wire)
{
  for (; *wire; wire += *wire + 1)
    if (*wire == 1 && wire[1] == '*')
      return true;
  return false;
}

/* The wildcards an owner (sort key key[0..len)) shows to exist: *.NAME for each label "*" in
 * it (one not its first makes *.NAME an empty non-terminal, RFC 4592 section 2.2.2), with what
 * the owner's record of type ty adds where it is *.NAME itself. */
static zp_status note_wildcards(zp_checker *c, const uint8_t *key, size_t len, uint16_t ty)
{
  for (size_t at = 0; at + 2 <= len; at++) {
    if (key[at] != '*' || key[at + 1] != 0 || (at > 0 && key[at - 1] != 0))
      continue;
    uint8_t f = N_WILD;
    if (at + 2 == len)
      f |= ty == ZP_TYPE_A || ty == ZP_TYPE_AAAA ? N_ADDR : ty == ZP_TYPE_CNAME ? N_CNAME : 0;
    zp_status st = zp_ck_set_add(&c->wild, zp_hash(key, at), f);
    if (st != ZP_OK)
      return st;
  }
  return ZP_OK;
}

/* How many labels of the target to (field f) were written before the origin that completed it,
 * when that is two or more: "mail" written relative is usual, "mail.example.net" most likely
 * lacks its final dot (RFC 1035 section 5.1); an IPv4 address is told as such. Else 0. */
static uint16_t written_relative(const zp_record *r, const uint8_t *to, size_t f)
{
  if (!r->relative || !r->origin || f >= r->nfields)
    return 0;
  size_t n = zp_ck_labels(to) - zp_ck_labels(r->origin);
  return n >= 2 && !zp_ck_ipv4_text(&r->fields[f]) ? (uint16_t)n : 0;
}

/* A record on its way to the intake: its tuple and (where it names a target) its reference's,
 * then its owner, spelling (t.extra_len octets) and target, in wire form. */
typedef struct intake {
  zp_ck_tuple t, at;           /* t.key_len is the intake's to fill */
  bool ref;
  bool shrink;           /* DNSSEC verification has just taken its share of the tuples' */
} intake;

/* A sixty-fourth of the memory, at least what holds a few entries (each of three names at
 * most), at most what holds a few thousand. */
size_t zp_ck_handoff_block(const zp_checker *c)
{
  size_t b = zp_ck_mem(c) / 64;
  return b < 4096 ? 4096 : b > 256 * 1024 ? 256 * 1024 : b;
}

/* The tuples' share of the memory: a half, less the handoff's blocks, and less a quarter that
 * DNSSEC verification takes when it is on (spill takes a floor of its own where this leaves
 * less). */
static size_t tuple_share(const zp_checker *c, bool dnssec)
{
  size_t mem = zp_ck_mem(c),
         share = mem / 2 - (dnssec ? mem / 4 : 0),
         blocks = c->intake ? zp_handoff_bytes(c->intake) : 0;
  return share > blocks ? share - blocks : 0;
}

/* The intake of one record: its tuple filed (and its reference), the zone's bounds noted. */
static zp_status take(void *ctx, const uint8_t *entry, size_t len)
{
  zp_checker *c = ctx;
  intake in;
  (void)len;
  memcpy(&in, entry, sizeof in);
  if (in.shrink)
    zp_spill_shrink(c->sp, tuple_share(c, true));
  const uint8_t *owner = entry + sizeof in, *spell = owner + zp_name_wire_len(owner);
  const uint8_t *to = spell + in.t.extra_len;
  uint8_t key[ZP_NAME_KEY_MAX];
  in.t.key_len = (uint16_t)zp_name_sort_key(owner, key);
  if (!c->have_skip) {
    memcpy(c->skip, key, in.t.key_len);
    c->skip_len = in.t.key_len;
    c->have_skip = true;
  }
  if (in.t.rtype == ZP_TYPE_SOA && !c->have_apex) {
    memcpy(c->apex_key, key, in.t.key_len);
    c->apex_len = in.t.key_len;
    c->have_apex = true;
  }
  uint64_t alike;
  zp_status st = zp_ck_alike_owner(c, owner, key, in.t.key_len, &alike);
  if (st == ZP_OK)
    st = zp_ck_add(c, c->sp, &in.t, key, in.t.extra_len ? spell : NULL, alike);
  if (st != ZP_OK)
    return st;
  /* (told at the target, where a message about it belongs) */
  return in.ref ? zp_ck_add_ref(c, &in.at, key, in.t.key_len, to) : ZP_OK;
}

zp_status zp_check_new(const zp_check_options *opt, const uint8_t *zone, zp_diag *diag,
                       zp_checker **out)
{
  *out = NULL;
  zp_checker *c = calloc(1, sizeof *c);
  if (!c)
    return ZP_ENOMEM;
  c->opt = *opt;
  c->diag = diag;
  if (zone) {
    c->apex_len = zp_name_sort_key(zone, c->apex_key);
    c->have_apex = true;
    memcpy(c->skip, c->apex_key, c->apex_len);
    c->skip_len = c->apex_len;
    c->have_skip = true;
  }
  /* the shares of check_int.h */
  size_t mem = zp_ck_mem(c);
  c->targets_max = mem / 16;
  c->links_max = mem / 16;
  c->wild.max = mem / 16 * 3;
  zp_status st = zp_handoff_new(zp_ck_handoff_block(c), opt->threads >= 2 && !opt->off, take, c,
                                &c->intake);
  if (st == ZP_OK)
    st = zp_spill_new(tuple_share(c, opt->dnssec == ZP_DNSSEC_ON), ZP_SPILL_ENTRY_MAX,
                      zp_ck_tuple_cmp, zp_ck_key_prefix, c, &c->sp);
  if (st == ZP_OK)
    st = zp_ck_dnssec_new(c, mem / 4);
  if (st == ZP_OK)
    st = zp_spill_new(mem / 16, ZP_SPILL_ENTRY_MAX, NULL, NULL, NULL, &c->log);
  if (st == ZP_OK)
    st = zp_spill_new(mem / 32, ZP_SPILL_ENTRY_MAX, NULL, zp_ck_held_order, NULL, &c->held);
  if (st == ZP_OK)
    st = zp_spill_new(mem / 32, ZP_SPILL_ENTRY_MAX, NULL, zp_ck_seq_order, NULL, &c->unserved);
  if (st == ZP_OK)
    st = zp_ck_brands_new(c);
  if (st != ZP_OK) {
    zp_check_free(c);
    return st;
  }
  *out = c;
  return ZP_OK;
}

/* The checks of one record alone, told as the record comes in, in this order; each asks
 * whether the record is one it judges. */
static void (*const record_rules[])(zp_checker *, const zp_record *, const zp_ck_tuple *) = {
  zp_ck_check_names,      /* host names where named's check-names wants them */
  zp_ck_serial,           /* the first SOA's serial in date form */
  zp_ck_zone_name,        /* the first SOA against the file's name (and now read) */
  zp_ck_address_target,   /* an NS, MX or SRV target written as an IPv4 address */
  zp_ck_caa,              /* a CAA record as CAs read it */
  zp_ck_mail,             /* SPF, DMARC and DKIM records as mail receivers read them */
};

zp_status zp_check_record(zp_checker *c, const zp_record *r)
{
  if (c->opt.off)
    return ZP_OK;
  intake in;
  memset(&in, 0, sizeof in);   /* padding too: the tuple is written to a file */
  zp_ck_tuple *t = &in.t;
  zp_status st = ZP_OK;
  t->src = UINT32_MAX;
  if (r->loc.src && (st = intern_source(c, r->loc.src, &t->src)) != ZP_OK)
    return st;
  t->seq = c->seq++;
  t->ttl = r->ttl;
  t->line = r->loc.line;
  t->col = (uint16_t)(r->loc.col < UINT16_MAX ? r->loc.col : UINT16_MAX);
  t->line_off = r->loc.line_off;
  t->rclass = r->rclass;
  t->rtype = r->rtype;
  t->kind = K_RECORD;
  if (t->seq == 0)
    c->first = *t;
  if (r->rdata) {
    t->digest = zp_hash(r->rdata, r->rdlen);
    t->rdlen = (uint16_t)r->rdlen;
  }
  if ((r->rtype == ZP_TYPE_RRSIG || r->rtype == ZP_TYPE_SIG) && r->rdata && r->rdlen >= 2)
    t->covered = (uint16_t)(r->rdata[0] << 8 | r->rdata[1]);
  else if (r->rtype == ZP_TYPE_DNSKEY || r->rtype == ZP_TYPE_CDS || r->rtype == ZP_TYPE_CDNSKEY)
    t->covered = zp_ck_key_bits(r->rtype, r->rdata, r->rdata ? r->rdlen : 0);
  const uint8_t *spell = r->spelling;
  t->extra_len = spell ? (uint16_t)zp_name_wire_len(spell) : 0;
  /* (here, not in the intake: wildcard names past their share are the zone's doing, and stop
   * the reader at the record that passes it whatever -j is) */
  if (star_label(r->owner)) {
    uint8_t key[ZP_NAME_KEY_MAX];
    size_t len = zp_name_sort_key(r->owner, key);
    if ((st = note_wildcards(c, key, len, r->rtype)) != ZP_OK)
      return st;
  }
  bool parsed = r->rdata && !r->generic;
  const uint8_t *to = NULL;
  size_t to_field = 0;
  if (parsed) {
    switch (r->rtype) {
    case ZP_TYPE_NS: case ZP_TYPE_CNAME: to = r->rdata; break;
    case ZP_TYPE_MX:
      to = r->rdata + 2;
      to_field = 1;
      if (*to == 0)
        t->flags = r->rdata[0] == 0 && r->rdata[1] == 0 ? F_NULL_MX : 0;
      break;
    case ZP_TYPE_SRV:
      to = r->rdata + 6;
      to_field = 3;
      break;
    default: break;
    }
  }
  in.ref = to && *to;
  if (in.ref) {
    in.at = zp_ck_at_field(r, t, to_field);
    in.at.covered = written_relative(r, to, to_field);
  }
  if ((st = zp_ck_load_record(c, r, t)) != ZP_OK ||
      (st = zp_ck_dnssec_record(c, r, t, &in.shrink)) != ZP_OK)
    return st;
  for (size_t i = 0; i < sizeof record_rules / sizeof *record_rules; i++)
    record_rules[i](c, r, t);
  if (c->opt.reverse && zp_ck_on(c, ZP_CK_REVERSE))
    zp_reverse_record(c->opt.reverse, r);
  struct iovec parts[4] = {{&in, sizeof in}, {(void *)r->owner, zp_name_wire_len(r->owner)},
                           {(void *)spell, t->extra_len},
                           {(void *)to, in.ref ? zp_name_wire_len(to) : 0}};
  return zp_handoff_put(c->intake, parts, 4);
}

zp_status zp_ck_intake_end(zp_checker *c)
{
  return zp_handoff_end(c->intake);
}

void zp_check_free(zp_checker *c)
{
  if (!c)
    return;
  zp_handoff_free(c->intake);   /* (first: the intake's thread uses what follows) */
  zp_ck_dnssec_free(c);
  zp_ck_load_free(c->load);
  zp_spill_free(c->sp);
  zp_spill_free(c->log);
  zp_spill_free(c->held);
  zp_spill_free(c->unserved);
  zp_spill_free(c->chain);
  free(c->targets);
  free(c->tmap);
  zp_buf_free(&c->target_keys);
  for (size_t i = 0; i < c->nsrcs; i++) {
    zp_source_release(c->srcs[i]->fd);
    free((char *)c->srcs[i]->src.path);
    free(c->srcs[i]);
  }
  free(c->srcs);
  free(c->links);
  zp_buf_free(&c->link_names);
  zp_ck_kset_free(&c->rdatas);
  zp_buf_free(&c->rdata_recs);
  for (int m = 0; m < 2; m++) {
    zp_ck_kset_free(&c->batch_rdatas[m]);
    zp_ck_kset_free(&c->held_rdatas[m]);
  }
  free(c->wild.e);
  zp_ck_alike_free(c);
  zp_ck_brands_free(c);
  zp_ck_mail_free(c);
  free(c->pending);
  zp_spill_free(c->deferred);
  free(c);
}
