/* uts39.c -- UTS #39's script sets, restriction levels and skeletons over the generated tables */
#include "uts39.h"

#include <string.h>

#include "uts39_tables.h"

static const zp_u_table tables = {zp_u39_stage1, zp_u39_stage2, zp_u39_recs, zp_u39_data};

static unsigned set_of(uint32_t cp)
{
  if (cp > 0x10FFFF)
    cp = 0x10FFFF;   /* (a noncharacter: Unknown, as any value no table holds) */
  return zp_u39_scx[zp_u39_stage2[(unsigned)zp_u39_stage1[cp >> ZP_U_SHIFT] << ZP_U_SHIFT |
                                  (cp & ZP_U_MASK)]];
}

zp_script_set zp_uts39_scripts(uint32_t cp)
{
  return zp_u39_augmented[set_of(cp)];
}

zp_script_set zp_uts39_script_extensions(uint32_t cp)
{
  return zp_u39_sets[set_of(cp)];
}

int zp_uts39_script_index(const char *code)
{
  for (size_t i = 0; i < zp_uts39_scripts_n; i++)
    if (strcmp(zp_uts39_script_codes[i], code) == 0)
      return (int)i;
  return -1;
}

static void intersect(zp_script_set *a, const zp_script_set *b)
{
  for (int w = 0; w < ZP_SCRIPT_WORDS; w++)
    a->w[w] &= b->w[w];
}

static bool empty(const zp_script_set *s)
{
  for (int w = 0; w < ZP_SCRIPT_WORDS; w++)
    if (s->w[w])
      return false;
  return true;
}

static bool has(const zp_script_set *s, enum zp_u39_name n)
{
  return zp_script_has(s, zp_u39_named[n]);
}

zp_restriction zp_uts39_restriction(const uint32_t *cp, size_t n)
{
  bool ascii = true;
  zp_script_set all, but_latin;
  memset(&all, 0xff, sizeof all);
  but_latin = all;
  for (size_t i = 0; i < n; i++) {
    ascii &= cp[i] < 0x80;
    zp_script_set s = zp_uts39_scripts(cp[i]);
    intersect(&all, &s);
    /* (step 5: the resolved set of the characters that are not Latin) */
    if (!has(&s, ZP_U39_LATN))
      intersect(&but_latin, &s);
  }
  if (ascii)
    return ZP_RESTRICT_ASCII;
  if (!empty(&all))
    return ZP_RESTRICT_SINGLE;
  if (has(&but_latin, ZP_U39_HANB) || has(&but_latin, ZP_U39_JPAN) ||
      has(&but_latin, ZP_U39_KORE))
    return ZP_RESTRICT_HIGHLY;
  if (!empty(&but_latin) && !has(&but_latin, ZP_U39_CYRL) && !has(&but_latin, ZP_U39_GREK) &&
      !has(&but_latin, ZP_U39_CHER))
    return ZP_RESTRICT_MODERATELY;
  return ZP_RESTRICT_MINIMALLY;
}

zp_status zp_uts39_skeleton(const uint32_t *in, size_t n, uint32_t *out, size_t *outlen)
{
  /* the common case: code points whose skeletons go end to end (ZP_U39_ALONE) */
  size_t w = 0, i = 0;
  for (; i < n && in[i] <= 0x10FFFF; i++) {
    const struct zp_u_rec *r = zp_u_rec_of(&tables, in[i]);
    if (!(r->flags & ZP_U39_ALONE))
      break;
    if (!r->comp) {
      if (w == *outlen)
        return ZP_EBUFFER;
      out[w++] = in[i];
      continue;
    }
    const uint32_t *seq = &zp_u39_data[r->comp];
    if (w + seq[0] > *outlen)
      return ZP_EBUFFER;
    for (uint32_t k = 1; k <= seq[0]; k++)
      out[w++] = seq[k];
  }
  if (i == n) {
    *outlen = w;
    return ZP_OK;
  }
  /* NFD of in first: a decomposed character's parts are each replaced by their prototypes */
  uint32_t nfd[4 * 256];
  size_t len = sizeof nfd / sizeof *nfd;
  zp_status st = zp_u_nfd(&tables, in, n, nfd, &len, false);
  if (st != ZP_OK)
    return st;
  return zp_u_nfd(&tables, nfd, len, out, outlen, true);
}
