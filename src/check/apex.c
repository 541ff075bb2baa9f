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

/* Whether the wire name is labels of digits only (a file named after an address block). */
static bool numeric(const uint8_t *wire)
{
  if (!*wire)
    return false;
  for (; *wire; wire += *wire + 1)
    for (unsigned i = 1; i <= *wire; i++)
      if (wire[i] < '0' || wire[i] > '9')
        return false;
  return true;
}

/* The reverse zone of an address block written in order (192.168.1.): its labels reversed
 * under in-addr.arpa. (RFC 1035 section 3.5), as files of reverse zones are named
 * (db.192.168.1); false when it does not fit. */
static bool reverse_of(const uint8_t *wire, uint8_t *out)
{
  const uint8_t *labels[ZP_NAME_MAX / 2];
  size_t n = 0, at = 0;
  for (; *wire; wire += *wire + 1)
    labels[n++] = wire;
  static const uint8_t tail[] = "\7in-addr\4arpa";
  (void)tail;
  static const uint8_t arpa[] = {7, 'i', 'n', '-', 'a', 'd', 'd', 'r', 4, 'a', 'r', 'p', 'a', 0};
  while (n-- > 0) {
    if (at + labels[n][0] + 1 + sizeof arpa > ZP_NAME_MAX)
      return false;
    memcpy(out + at, labels[n], labels[n][0] + 1u);
    at += labels[n][0] + 1u;
  }
  memcpy(out + at, arpa, sizeof arpa);
  return true;
}

static bool same_name(const uint8_t *a, const uint8_t *b)
{
  uint8_t ka[ZP_NAME_KEY_MAX], kb[ZP_NAME_KEY_MAX];
  size_t na = zp_name_sort_key(a, ka), nb = zp_name_sort_key(b, kb);
  return na == nb && memcmp(ka, kb, na) == 0;
}

void zp_ck_zone_name(zp_checker *c, const zp_record *r, const zp_ck_tuple *t)
{
  const uint8_t *named = c->opt.file_zone;
  if (r->rtype != ZP_TYPE_SOA || c->soa_read)
    return;   /* (the first SOA names the zone) */
  c->soa_read = true;
  if (!named || !zp_ck_on(c, ZP_CK_ZONE_NAME) || same_name(r->owner, named))
    return;
  uint8_t rev[ZP_NAME_MAX];
  bool block = numeric(named);
  if (block ? reverse_of(named, rev) && same_name(r->owner, rev) : zp_ck_labels(named) < 2)
    return;
  zp_ck_report(c, ZP_CK_ZONE_NAME, t, "the SOA record is at %s, but the file's name gives the "
               "zone %s%s%s: named-checkzone and named refuse the file as %s zone (its SOA "
               "out of it); correct the name, rename the file, or give the zone with -z",
               zp_ck_name_text(r->owner), zp_ck_name_text(named),
               block ? ", whose reverse zone is " : "", block ? zp_ck_name_text(rev) : "",
               block ? "either" : "that");
}

void zp_ck_out_of_zone(zp_checker *c)
{
  zp_ck_group *g = &c->g;
  if (zp_ck_on(c, ZP_CK_OUT_OF_ZONE))
    zp_ck_report(c, ZP_CK_OUT_OF_ZONE, zp_ck_first(g), "%s is outside the zone %s: BIND and "
                 "Knot leave it out, NSD refuses the zone", zp_ck_owner_text(g), apex_text(c));
}

void zp_ck_apex(zp_checker *c)
{
  zp_ck_group *g = &c->g;
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
void zp_check_soa_refused(zp_checker *c, const uint8_t *owner)
{
  c->soa_refused = true;
  if (owner && !c->refused_len)
    c->refused_len = zp_name_sort_key(owner, c->refused_key);
}

void zp_ck_apex_end(zp_checker *c)
{
  if (!zp_ck_on(c, ZP_CK_APEX_SOA) || c->soa_refused || zp_diag_stop(c->diag))
    return;
  zp_ck_tuple first = c->first;
  first.seq = UINT32_MAX;
  const zp_ck_tuple *at = c->seq > 0 ? &first : NULL;
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
