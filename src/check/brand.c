/* brand.c -- --confusable-with: names of the zone that look like a name given (a brand), by
 * UTS #39 skeletons. A brand of k labels is compared with every run of k labels of each name,
 * so that "pаypal" is found in login.pаypal.example. and in pаypal.com.example. alike; plain
 * ASCII counts here ("paypa1"), as the list asks for exactly these names. The brand itself, in
 * any run, is no look-alike: the zone may hold its owner's own name. */
#include <stdlib.h>

#include "check_int.h"

/* One brand's hash, in an array sorted by hash. */
struct zp_ck_brand {
  uint64_t hash;
  uint32_t index;        /* in c->opt.brands */
  uint8_t labels;
};
typedef struct zp_ck_brand zp_ck_brand;

static int by_hash(const void *a, const void *b)
{
  const zp_ck_brand *x = a, *y = b;
  return (x->hash > y->hash) - (x->hash < y->hash);
}

zp_status zp_ck_brands_new(zp_checker *c)
{
  if (!c->opt.nbrands || !zp_ck_on(c, ZP_CK_CONFUSABLE))
    return ZP_OK;
  zp_status st = zp_ck_alike_init(c);
  if (st != ZP_OK)
    return st;
  if (!(c->brands = calloc(c->opt.nbrands, sizeof *c->brands)))
    return ZP_ENOMEM;
  for (size_t i = 0; i < c->opt.nbrands; i++) {
    uint8_t key[ZP_NAME_KEY_MAX];
    uint64_t lh[ZP_NAME_MAX / 2];
    size_t nl, len = zp_name_sort_key(c->opt.brands[i].wire, key);
    zp_ck_key_labels(c, key, len, 1, false, lh, &nl, NULL);
    c->brands[i] = (zp_ck_brand){zp_ck_label_fold(lh, nl), (uint32_t)i, (uint8_t)nl};
    if (nl > 0 && nl < 128)
      c->brand_labels[nl / 64] |= (uint64_t)1 << (nl % 64);
  }
  qsort(c->brands, c->opt.nbrands, sizeof *c->brands, by_hash);
  return ZP_OK;
}

void zp_ck_brands_free(zp_checker *c)
{
  free(c->brands);
}

/* The labels of a name (wire form) from the root down, each with its length octet first. */
static size_t root_down(const uint8_t *wire, const uint8_t **lab)
{
  size_t n = 0;
  for (const uint8_t *p = wire; *p; p += *p + 1)
    lab[n++] = p;
  for (size_t i = 0; i < n / 2; i++) {
    const uint8_t *t = lab[i];
    lab[i] = lab[n - 1 - i];
    lab[n - 1 - i] = t;
  }
  return n;
}

/* Whether labels a[0..k) and b[0..k) have one skeleton; *same: they are the same labels (both
 * lowercase: the sort key's and the label policy's). */
static bool alike(const uint8_t *const *a, const uint8_t *const *b, size_t k, bool *same)
{
  *same = true;
  for (size_t i = 0; i < k; i++) {
    *same = *same && *a[i] == *b[i] && memcmp(a[i] + 1, b[i] + 1, *a[i]) == 0;
    uint32_t sa[4 * ZP_LABEL_MAX * 4], sb[4 * ZP_LABEL_MAX * 4];
    size_t na = sizeof sa / sizeof *sa, nb = sizeof sb / sizeof *sb;
    zp_ck_label_skeleton(a[i], sa, &na);
    zp_ck_label_skeleton(b[i], sb, &nb);
    if (na != nb || memcmp(sa, sb, na * sizeof *sa) != 0)
      return false;
  }
  return true;
}

void zp_ck_brand_name(zp_checker *c)
{
  if (!c->brands)
    return;
  uint64_t lh[ZP_NAME_MAX / 2];
  size_t nl;
  zp_ck_key_labels(c, c->g.key, c->g.key_len, 1, false, lh, &nl, NULL);
  uint8_t wire[ZP_NAME_MAX];
  const uint8_t *lab[ZP_NAME_MAX / 2];
  bool have_labels = false;
  static char text[ZP_CK_SHOWN_MAX];
  for (size_t k = 1; k <= nl && k < 128; k++) {
    if (!(c->brand_labels[k / 64] >> (k % 64) & 1))
      continue;
    for (size_t at = 0; at + k <= nl; at++) {
      zp_ck_brand want = {.hash = zp_ck_label_fold(lh + at, k)};
      const zp_ck_brand *b = bsearch(&want, c->brands, c->opt.nbrands, sizeof *c->brands, by_hash);
      /* (the first of equal hashes, then each) */
      while (b && b > c->brands && b[-1].hash == want.hash)
        b--;
      for (; b && b < c->brands + c->opt.nbrands && b->hash == want.hash; b++) {
        const zp_brand *br = &c->opt.brands[b->index];
        const uint8_t *blab[ZP_NAME_MAX / 2];
        if (b->labels != k || root_down(br->wire, blab) != k)
          continue;
        if (!have_labels) {
          zp_name_from_sort_key(c->g.key, c->g.key_len, wire);
          root_down(wire, lab);
          have_labels = true;
        }
        bool same;
        if (!alike(lab + at, blab, k, &same) || same)
          continue;
        static char brand[ZP_NAME_UNICODE_MAX + 1];
        size_t n = zp_name_text_unicode(brand, br->wire, c->opt.idna2008);
        brand[n > 1 ? n - 1 : n] = '\0';   /* (a run of labels, not a name from the root) */
        zp_ck_report(c, ZP_CK_CONFUSABLE, zp_ck_first(&c->g),
                     "name %s looks like %s of --confusable-with (%s:%u): a run of its labels "
                     "has that name's skeleton (UTS #39 section 4)",
                     zp_ck_alike_shown(c, c->g.key, c->g.key_len, text), brand, br->file,
                     br->line);
        return;   /* (once a name) */
      }
    }
  }
}
