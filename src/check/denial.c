/* denial.c -- a signed zone's denial of existence, as validating resolvers rely on it: the NSEC
 * chain through every name the zone is authoritative for, in canonical order and back to the
 * apex (RFC 4034 section 4, RFC 4035 section 2.3), or the NSEC3 chain through the hashes of
 * those names and of the empty non-terminals between them (RFC 5155 section 7.1); each record's
 * bitmap the types at its name.
 *
 * The NSEC chain is judged as the names come. The NSEC3 chain runs in hash order, not in name
 * order: every name's hash and every NSEC3 record go through a sorter of their own, in
 * --check-memory, and the chain is walked there once the names are done. */
#include <stdio.h>
#include <stdlib.h>

#include "core/b32hex.h"
#include "signed.h"
#include "record/sort.h"
#include "sig.h"

/* RFC 9276 section 3.2: validators may treat a zone of more iterations as insecure; BIND's
 * validator does past 150 (since 9.16.16), Unbound past 150 and dnssec-signzone makes no
 * chain of more. Above this no NSEC3 hash is computed. */
enum { ZP_NSEC3_ITERATIONS_MAX = 150 };

/* A name of the zone in the NSEC3 sorter, beside the NSEC3 records: type 0, below every type
 * a record has (RFC 6895 section 3.1 reserves it). Its RDATA: flags, the name in wire form,
 * then the types at it, big-endian. */
enum { T_HASHED_NAME = 0 };
enum { OPTIONAL = 1 };   /* an insecure delegation or an empty non-terminal: an opt-out NSEC3
                            may cover its hash instead (RFC 5155 section 7.1) */

struct zp_ck_denial {
  bool nsec, nsec3;                  /* the chains the apex announces */
  bool nsec3_skipped;                /* an NSEC3PARAM past ZP_NSEC3_ITERATIONS_MAX, told */
  uint8_t apex[ZP_NAME_MAX];
  /* NSEC: the last one's next name, as a sort key */
  bool expect;
  uint8_t next[ZP_NAME_KEY_MAX];
  size_t next_len;
  uint8_t last[ZP_NAME_MAX];         /* its owner */
  zp_ck_tuple last_at;
  /* NSEC3: the apex NSEC3PARAM's hash algorithm, flags, iterations, salt length and salt */
  uint8_t param[5 + 255];
  zp_digest *sha1;
  zp_sorter sort;
  uint8_t prev[ZP_NAME_MAX];         /* the name before, for the empty non-terminals */
  bool have_prev;
  uint16_t *types;                   /* the types at a name, in order */
  size_t ntypes, types_cap;
  zp_buf entry;
};

zp_ck_denial *zp_ck_denial_new(size_t mem)
{
  zp_ck_denial *dn = calloc(1, sizeof *dn);
  if (dn)
    zp_sort_init(&dn->sort, mem);
  return dn;
}

void zp_ck_denial_free(zp_ck_denial *dn)
{
  if (!dn)
    return;
  zp_sort_free(&dn->sort);
  zp_digest_free(dn->sha1);
  free(dn->types);
  zp_buf_free(&dn->entry);
  free(dn);
}

static bool same_key(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
  return a_len == b_len && memcmp(a, b, a_len) == 0;
}

/* The types at n, in order, into dn->types: at a delegation point only those the parent is
 * authoritative for (RFC 4035 section 2.3); for NSEC3, never NSEC3 itself. */
static bool types_at(zp_ck_denial *dn, const zp_ck_name *n, bool nsec3)
{
  dn->ntypes = 0;
  for (size_t i = 0; i < n->nrr; i++) {
    uint16_t t = n->rrs[i].rtype;
    if ((n->deleg && t != ZP_TYPE_NS && t != ZP_TYPE_DS && t != ZP_TYPE_NSEC &&
         t != ZP_TYPE_RRSIG) || (nsec3 && t == ZP_TYPE_NSEC3))
      continue;
    size_t k = dn->ntypes;
    while (k > 0 && dn->types[k - 1] > t)   /* (another class's types come after) */
      k--;
    if (k > 0 && dn->types[k - 1] == t)
      continue;
    if (!zp_array_room(&dn->types, dn->ntypes, &dn->types_cap, sizeof *dn->types, 16))
      return false;
    memmove(dn->types + k + 1, dn->types + k, (dn->ntypes - k) * sizeof *dn->types);
    dn->types[k] = t;
    dn->ntypes++;
  }
  return true;
}

/* Appends " TYPE" to a list in text[0..cap), "..." once it is full. */
static void list_add(char *text, size_t cap, uint16_t t)
{
  size_t len = strlen(text);
  if (len + 5 >= cap)
    return;
  const char *name = zp_ck_type_text(t);
  if (len + strlen(name) + 5 >= cap)
    snprintf(text + len, cap - len, " ...");
  else
    snprintf(text + len, cap - len, " %s", name);
}

/* Whether the type bitmap bm[0..n) (RFC 4034 section 4.1.2) holds exactly want[0..nwant); if
 * not, what it lacks and what it has beyond them, in why[0..cap). */
static bool bitmap_equal(const uint8_t *bm, size_t n, const uint16_t *want, size_t nwant,
                         char *why, size_t cap)
{
  char lacks[200] = "", extra[200] = "";
  size_t k = 0;
  int window = -1;
  bool bad = false;
  for (size_t i = 0; i < n && !bad; ) {
    if (i + 2 > n || bm[i] <= window || bm[i + 1] < 1 || bm[i + 1] > 32 ||
        i + 2 + bm[i + 1] > n) {
      bad = true;
      break;
    }
    window = bm[i];
    for (size_t j = 0; j < bm[i + 1]; j++)
      for (unsigned b = 0; b < 8; b++) {
        if (!(bm[i + 2 + j] & 0x80 >> b))
          continue;
        uint16_t t = (uint16_t)(window << 8 | (j * 8 + b));
        for (; k < nwant && want[k] < t; k++)
          list_add(lacks, sizeof lacks, want[k]);
        if (k < nwant && want[k] == t)
          k++;
        else
          list_add(extra, sizeof extra, t);
      }
    i += 2u + bm[i + 1];
  }
  for (; k < nwant && !bad; k++)
    list_add(lacks, sizeof lacks, want[k]);
  if (bad)
    snprintf(why, cap, "is not a well-formed type bitmap");
  else if (*lacks || *extra)
    snprintf(why, cap, "%s%s%s%s%s", *lacks ? "lacks" : "", lacks, *lacks && *extra ? "; " : "",
             *extra ? "lists" : "", extra);
  return !bad && !*lacks && !*extra;
}

/* ---- NSEC ---- */

static void nsec_name(zp_checker *c, zp_ck_denial *dn, const zp_ck_name *n)
{
  const zp_ck_rr *nsec = NULL;
  for (size_t i = 0; i < n->nrr; i++) {
    if (n->rrs[i].rtype != ZP_TYPE_NSEC)
      continue;
    if (nsec)
      zp_ck_report(c, ZP_CK_NSEC_CHAIN, &n->rrs[i].at, "a second NSEC record at %s",
                   zp_ck_name_text(n->owner));
    else
      nsec = &n->rrs[i];
  }
  if (n->below && !nsec)
    return;   /* (glue and occluded names are in no chain) */
  if (dn->expect && !same_key(dn->next, dn->next_len, n->key, n->key_len))
    zp_ck_report(c, ZP_CK_NSEC_CHAIN, &dn->last_at,
                 "the NSEC at %s names %s as the next name, but the next name of the zone is %s",
                 zp_ck_name_text(dn->last), zp_ck_key_text(dn->next, dn->next_len),
                 zp_ck_name_text(n->owner));
  dn->expect = false;
  if (!nsec) {
    zp_ck_report(c, ZP_CK_NSEC_CHAIN, &n->rrs[0].at, "%s has no NSEC record: no chain reaches it",
                 zp_ck_name_text(n->owner));
    return;
  }
  const uint8_t *rd = zp_ck_rdata(n, nsec);
  size_t next = zp_name_wire_len(rd);   /* (the reader checked the RDATA, \# form too) */
  dn->next_len = zp_name_sort_key(rd, dn->next);
  dn->expect = true;
  memcpy(dn->last, n->owner, zp_name_wire_len(n->owner));
  dn->last_at = nsec->at;
  char why[480];
  if (types_at(dn, n, false) &&
      !bitmap_equal(rd + next, nsec->rdlen - next, dn->types, dn->ntypes, why, sizeof why))
    zp_ck_report(c, ZP_CK_NSEC_BITMAP, &nsec->at,
                 "the NSEC at %s %s: its bitmap must list the types at the name",
                 zp_ck_name_text(n->owner), why);
}

/* ---- NSEC3 ---- */

/* The NSEC3 hash of a name in wire form, lowercased (RFC 5155 section 5), into out; its
 * length, 0 when libcrypto fails. */
static size_t nsec3_hash(zp_ck_denial *dn, const uint8_t *name, uint8_t *out)
{
  const uint8_t *salt = dn->param + 5;
  size_t salt_len = dn->param[4], n = 0;
  if (!zp_digest_begin(dn->sha1) || !zp_digest_put(dn->sha1, name, zp_name_wire_len(name)) ||
      !zp_digest_put(dn->sha1, salt, salt_len) || (n = zp_digest_end(dn->sha1, out)) == 0)
    return 0;
  for (unsigned k = zp_ck_be16(dn->param + 2); k > 0; k--)
    if (!zp_digest_begin(dn->sha1) || !zp_digest_put(dn->sha1, out, n) ||
        !zp_digest_put(dn->sha1, salt, salt_len) || (n = zp_digest_end(dn->sha1, out)) == 0)
      return 0;
  return n;
}

/* Holds a name of the zone (its types those in dn->types) under its hashed owner. */
static zp_status hold_name(zp_ck_denial *dn, const uint8_t *name, uint8_t flags, uint16_t rclass,
                           const zp_ck_tuple *at)
{
  uint8_t h[ZP_DIGEST_MAX], owner[ZP_NAME_MAX + 2 * ZP_DIGEST_MAX];
  size_t hn = nsec3_hash(dn, name, h), apex_len = zp_name_wire_len(dn->apex);
  if (hn == 0)
    return ZP_ENOMEM;
  owner[0] = (uint8_t)zp_b32hex((char *)owner + 1, h, hn);
  if (owner[0] > 63 || 1u + owner[0] + apex_len > ZP_NAME_MAX)
    return ZP_OK;   /* (no NSEC3 can be there: a name of the zone too long for the chain) */
  memcpy(owner + 1 + owner[0], dn->apex, apex_len);
  dn->entry.len = 0;
  bool ok = zp_buf_put(&dn->entry, &flags, 1) &&
            zp_buf_put(&dn->entry, name, zp_name_wire_len(name));
  for (size_t i = 0; i < dn->ntypes && ok && dn->entry.len < UINT16_MAX - 2; i++) {
    uint8_t t[2] = {(uint8_t)(dn->types[i] >> 8), (uint8_t)dn->types[i]};
    ok = zp_buf_put(&dn->entry, t, 2);
  }
  if (!ok)
    return ZP_ENOMEM;
  zp_record r = {.owner = owner, .rclass = rclass, .rtype = T_HASHED_NAME,
                 .rdata = (const uint8_t *)dn->entry.p, .rdlen = dn->entry.len};
  return zp_sort_hold(&dn->sort, &r, at, sizeof *at);
}

static zp_status nsec3_name(zp_ck_denial *dn, const zp_ck_name *n)
{
  zp_status st;
  bool hashed_owner = !n->apex, ds = false;
  for (size_t i = 0; i < n->nrr; i++) {
    const zp_ck_rr *x = &n->rrs[i];
    hashed_owner &= x->rtype == ZP_TYPE_NSEC3 || x->rtype == ZP_TYPE_RRSIG;
    ds |= x->rtype == ZP_TYPE_DS;
    if (x->rtype != ZP_TYPE_NSEC3)
      continue;
    zp_record r = {.owner = n->owner, .rclass = x->rclass, .rtype = ZP_TYPE_NSEC3,
                   .rdata = zp_ck_rdata(n, x), .rdlen = x->rdlen};
    if ((st = zp_sort_hold(&dn->sort, &r, &x->at, sizeof x->at)) != ZP_OK)
      return st;
  }
  size_t labels = zp_ck_labels(n->owner), apex_labels = zp_ck_labels(dn->apex);
  if ((hashed_owner && labels == apex_labels + 1) || n->below)
    return ZP_OK;
  /* the empty non-terminals above n: its ancestors below the apex that are not the name
   * before's (those came before it, or were made for it) */
  size_t common = 0;
  if (dn->have_prev) {
    uint8_t a[ZP_NAME_KEY_MAX], b[ZP_NAME_KEY_MAX];
    size_t a_len = zp_name_sort_key(dn->prev, a), b_len = zp_name_sort_key(n->owner, b);
    for (size_t i = 0; i < a_len && i < b_len && a[i] == b[i]; i++)
      common += a[i] == 0;   /* (each label of a key ends in a 0 octet) */
  }
  dn->ntypes = 0;
  const uint8_t *p = n->owner;
  for (size_t at = labels; at > apex_labels; at--, p += *p + 1)
    if (at < labels && at > common && (st = hold_name(dn, p, OPTIONAL, n->rrs[0].rclass,
                                                      &n->rrs[0].at)) != ZP_OK)
      return st;
  if (!types_at(dn, n, true))
    return ZP_ENOMEM;
  return hold_name(dn, n->owner, n->deleg && !ds ? OPTIONAL : 0, n->rrs[0].rclass,
                   &n->rrs[0].at);
}

/* What the chain walk keeps of an NSEC3 record. */
typedef struct chain_link {
  char label[64];              /* its owner's first label: the hash */
  size_t label_len;
  char next[64];               /* its next hashed owner, in base32hex */
  size_t next_len;
  bool opt_out;
  zp_ck_tuple at;
} chain_link;

typedef struct walk {
  uint8_t owner[ZP_NAME_MAX];  /* the hashed owner walked */
  bool have_name, have_nsec3;
  zp_ck_tuple name_at;
  chain_link cur, prev, first;
  bool have_prev;
  bool head_missing;           /* an optional name before the first NSEC3, not covered by one */
  zp_ck_tuple head_at;
  uint8_t head_name[ZP_NAME_MAX];
} walk;

static void name_missing(zp_checker *c, const uint8_t *name, const uint8_t *owner,
                         const zp_ck_tuple *at)
{
  zp_ck_report(c, ZP_CK_NSEC_CHAIN, at, "%s has no NSEC3 record (its hash is %.*s)",
               zp_ck_name_text(name), owner[0], (const char *)owner + 1);
}

/* The hashed owner w->owner, once its entries are all seen. */
static void owner_end(zp_checker *c, zp_ck_denial *dn, walk *w)
{
  const uint8_t *rd = (const uint8_t *)dn->entry.p, *name = rd + 1;
  if (w->have_name && !w->have_nsec3) {
    if (!(rd[0] & OPTIONAL) || (w->have_prev && !w->prev.opt_out))
      name_missing(c, name, w->owner, &w->name_at);
    else if (!w->have_prev && !w->head_missing) {
      w->head_missing = true;   /* (the chain's last NSEC3 covers it: known at the end) */
      w->head_at = w->name_at;
      memcpy(w->head_name, name, zp_name_wire_len(name));
    }
  } else if (w->have_nsec3 && !w->have_name) {
    zp_ck_report(c, ZP_CK_NSEC_CHAIN, &w->cur.at,
                 "the NSEC3 at %s is the hash of no name of the zone",
                 zp_ck_name_text(w->owner));
  }
}

/* An NSEC3 record of the chain's parameters at w->owner: a chain_link of the chain. */
static void nsec3_link(zp_checker *c, zp_ck_denial *dn, walk *w, const zp_record *r,
                       const zp_ck_tuple *at)
{
  const uint8_t *rd = r->rdata;
  size_t salt_end = 5u + rd[4], bm = salt_end + 1 + rd[salt_end];
  if (w->have_nsec3) {
    zp_ck_report(c, ZP_CK_NSEC_CHAIN, at, "a second NSEC3 record at %s",
                 zp_ck_name_text(w->owner));
    return;
  }
  w->have_nsec3 = true;
  chain_link *l = &w->cur;
  l->label_len = w->owner[0];
  memcpy(l->label, w->owner + 1, l->label_len);
  l->next_len = rd[salt_end] > 39 ? 0 : zp_b32hex(l->next, rd + salt_end + 1, rd[salt_end]);
  l->opt_out = rd[1] & 1;
  l->at = *at;
  if (w->have_prev && (w->prev.next_len != l->label_len ||
                       memcmp(w->prev.next, l->label, l->label_len) != 0))
    zp_ck_report(c, ZP_CK_NSEC_CHAIN, &w->prev.at,
                 "the NSEC3 at %.*s names %.*s as the next hashed owner, but the next of the "
                 "chain is %.*s", (int)w->prev.label_len, w->prev.label,
                 (int)w->prev.next_len, w->prev.next, (int)l->label_len, l->label);
  if (!w->have_prev)
    w->first = *l;
  w->prev = *l;
  w->have_prev = true;
  char why[480];
  const uint8_t *e = (const uint8_t *)dn->entry.p;
  if (!w->have_name)
    return;
  size_t name_len = zp_name_wire_len(e + 1), ntypes = (dn->entry.len - 1 - name_len) / 2;
  const uint8_t *tp = e + 1 + name_len;
  dn->ntypes = 0;
  for (size_t i = 0; i < ntypes && dn->ntypes < dn->types_cap; i++)
    dn->types[dn->ntypes++] = zp_ck_be16(tp + 2 * i);
  if (!bitmap_equal(rd + bm, r->rdlen - bm, dn->types, dn->ntypes, why, sizeof why))
    zp_ck_report(c, ZP_CK_NSEC_BITMAP, at,
                 "the NSEC3 at %s (the hash of %s) %s: its bitmap must list the types at %s",
                 zp_ck_name_text(w->owner), zp_ck_name_text(e + 1), why,
                 zp_ck_name_text(e + 1));
}

/* The NSEC3 chain in hash order: every name's hash an NSEC3 (or an optional one covered by an
 * opt-out NSEC3), every NSEC3 a name's, each naming the next and the last the first. */
static zp_status nsec3_chain(zp_checker *c, zp_ck_denial *dn)
{
  walk *w = calloc(1, sizeof *w);
  if (!w)
    return ZP_ENOMEM;
  zp_record r;
  bool more, started = false;
  zp_status st;
  while ((st = zp_sort_next(&dn->sort, &r, &more)) == ZP_OK && more) {
    zp_ck_tuple at;
    memcpy(&at, dn->sort.extra, sizeof at);
    size_t owner_len = zp_name_wire_len(r.owner);
    if (!started || owner_len != zp_name_wire_len(w->owner) ||
        memcmp(r.owner, w->owner, owner_len) != 0) {
      if (started)
        owner_end(c, dn, w);
      started = true;
      memcpy(w->owner, r.owner, owner_len);
      w->have_name = w->have_nsec3 = false;
    }
    if (r.rtype == T_HASHED_NAME) {
      if (!w->have_name) {   /* (two names of one hash: SHA-1 collides, or the zone is huge) */
        w->have_name = true;
        w->name_at = at;
        dn->entry.len = 0;
        if (!zp_buf_put(&dn->entry, r.rdata, r.rdlen)) {
          st = ZP_ENOMEM;
          break;
        }
      }
      continue;
    }
    const uint8_t *rd = r.rdata;
    bool well_formed = r.rdlen >= 6 && 6u + rd[4] <= r.rdlen &&
                       6u + rd[4] + rd[5u + rd[4]] <= r.rdlen;
    if (!well_formed || rd[0] != dn->param[0] || memcmp(rd + 2, dn->param + 2, 3u + rd[4]) != 0)
      zp_ck_report(c, ZP_CK_NSEC_CHAIN, &at,
                   "the NSEC3 at %s has a hash algorithm, iterations or salt other than the "
                   "apex NSEC3PARAM's: it is in no chain", zp_ck_name_text(w->owner));
    else
      nsec3_link(c, dn, w, &r, &at);
  }
  if (st == ZP_OK && started)
    owner_end(c, dn, w);
  if (st == ZP_OK && w->have_prev) {
    if (w->prev.next_len != w->first.label_len ||
        memcmp(w->prev.next, w->first.label, w->first.label_len) != 0)
      zp_ck_report(c, ZP_CK_NSEC_CHAIN, &w->prev.at,
                   "the last NSEC3, at %.*s, names %.*s as the next hashed owner; the chain "
                   "ends at the first, %.*s", (int)w->prev.label_len, w->prev.label,
                   (int)w->prev.next_len, w->prev.next, (int)w->first.label_len,
                   w->first.label);
    if (w->head_missing && !w->prev.opt_out)
      zp_ck_report(c, ZP_CK_NSEC_CHAIN, &w->head_at,
                   "%s has no NSEC3 record, and no opt-out NSEC3 covers it",
                   zp_ck_name_text(w->head_name));
  }
  free(w);
  return st;
}

/* ---- the apex, and the walk ---- */

/* Which chains the apex announces: an NSEC record, an NSEC3PARAM of SHA-1 (RFC 5155 section
 * 4.1.2: flags 0; the only hash algorithm defined). */
static zp_status apex(zp_checker *c, zp_ck_denial *dn, const zp_ck_name *n)
{
  memcpy(dn->apex, n->owner, zp_name_wire_len(n->owner));
  const zp_ck_rr *param = NULL;
  for (size_t i = 0; i < n->nrr; i++) {
    const zp_ck_rr *x = &n->rrs[i];
    const uint8_t *rd = zp_ck_rdata(n, x);
    dn->nsec |= x->rtype == ZP_TYPE_NSEC;
    if (x->rtype != ZP_TYPE_NSEC3PARAM || param)
      continue;
    if (x->rdlen < 5 || 5u + rd[4] != x->rdlen) {
      /* (the reader refuses such RDATA; told here too, for it is never hashed with) */
      zp_ck_report(c, ZP_CK_NSEC_CHAIN, &x->at,
                   "NSEC3PARAM whose salt length (%u) is not what its RDATA holds (%u octets "
                   "after the length, RFC 5155 section 4.2): not a chain zonepuny verifies",
                   x->rdlen >= 5 ? rd[4] : 0u, x->rdlen >= 5 ? x->rdlen - 5u : 0u);
      continue;
    }
    if (rd[0] != 1 || rd[1] != 0) {
      zp_ck_report(c, ZP_CK_DNSSEC_ALGORITHM, &x->at,
                   "NSEC3PARAM with hash algorithm %u and flags %u: not a chain zonepuny "
                   "verifies", rd[0], rd[1]);
      continue;
    }
    if (zp_ck_be16(rd + 2) > ZP_NSEC3_ITERATIONS_MAX) {
      /* the cost of a chain is its names times its iterations, which the zone chooses: past
       * the most validators take, nothing is hashed (a zone of 10 KB asked 65,535 iterations
       * with 255-octet salts for each name) */
      zp_ck_error(c, ZP_CK_NSEC3_ITERATIONS, &x->at,
                  "NSEC3PARAM with %u additional iterations, more than %u: validators treat "
                  "the zone as insecure (RFC 9276 section 3.2), and dnssec-signzone makes no "
                  "such chain; its NSEC3 chain is not verified",
                  zp_ck_be16(rd + 2), ZP_NSEC3_ITERATIONS_MAX);
      dn->nsec3_skipped = true;
      continue;
    }
    param = x;
    memcpy(dn->param, rd, x->rdlen);
    if (zp_ck_be16(rd + 2) > 0)
      zp_ck_report(c, ZP_CK_NSEC3_ITERATIONS, &x->at,
                   "NSEC3PARAM with %u additional iterations: RFC 9276 section 3.1 says 0, and "
                   "validators may treat the zone as insecure (RFC 9276 section 3.2)",
                   zp_ck_be16(rd + 2));
  }
  if (param && !(dn->sha1 = zp_digest_new(ZP_DIGEST_SHA1)))
    return ZP_ENOMEM;
  dn->nsec3 = param != NULL;
  if (!dn->nsec && !dn->nsec3 && !dn->nsec3_skipped)
    zp_ck_report(c, ZP_CK_NSEC_CHAIN, &n->rrs[0].at,
                 "the zone is signed, but its apex has neither an NSEC record nor an "
                 "NSEC3PARAM: no answer that a name or type does not exist can be proved");
  return ZP_OK;
}

zp_status zp_ck_denial_name(zp_checker *c, zp_ck_denial *dn, const zp_ck_name *n)
{
  zp_status st = ZP_OK;
  if (n->apex)
    st = apex(c, dn, n);
  if (st == ZP_OK && dn->nsec)
    nsec_name(c, dn, n);
  if (st == ZP_OK && dn->nsec3)
    st = nsec3_name(dn, n);
  memcpy(dn->prev, n->owner, zp_name_wire_len(n->owner));
  dn->have_prev = true;
  return st;
}

zp_status zp_ck_denial_end(zp_checker *c, zp_ck_denial *dn)
{
  if (dn->nsec && dn->expect && !same_key(dn->next, dn->next_len, c->apex_key, c->apex_len))
    zp_ck_report(c, ZP_CK_NSEC_CHAIN, &dn->last_at,
                 "the last NSEC, at %s, names %s as the next name; the chain ends at the apex, %s",
                 zp_ck_name_text(dn->last), zp_ck_key_text(dn->next, dn->next_len),
                 zp_ck_name_text(dn->apex));
  return dn->nsec3 ? nsec3_chain(c, dn) : ZP_OK;
}
