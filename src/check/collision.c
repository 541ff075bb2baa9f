/* collision.c -- two spellings in the file that are one name after IDNA ToASCII (straße and
 * strasse under IDNA2003): their records merge, which the messages about them say */
#include <stdio.h>

#include "check_int.h"

/* Spellings differ in more than ASCII case, which DNS ignores (RFC 4343). */
bool zp_ck_same_spelling(const zp_ck_rep *a, const zp_ck_tuple *t, const uint8_t *spell)
{
  if (a->t.extra_len != t->extra_len)
    return false;
  for (size_t i = 0; i < t->extra_len; i++) {
    uint8_t x = a->spell[i], y = spell[i];
    if (x != y && !((x | 0x20) == (y | 0x20) && (x | 0x20) >= 'a' && (x | 0x20) <= 'z'))
      return false;
  }
  return true;
}

/* How a record's owner was written, for people: its spelling, or the name shown through
 * ToUnicode (what a Unicode spelling that IDNA keeps looks like). */
static const char *spelled(const zp_checker *c, const zp_ck_rep *r)
{
  static char bufs[2][ZP_NAME_UNICODE_MAX + 1];
  static unsigned next;
  char *b = bufs[next++ % 2];
  uint8_t wire[ZP_NAME_MAX];
  if (!r->t.extra_len)
    zp_name_from_sort_key(c->g.key, c->g.key_len, wire);
  b[zp_name_text_unicode(b, r->t.extra_len ? r->spell : wire, c->opt.idna2008)] = '\0';
  return b;
}

/* "; written 'straße' (a:3) and 'strasse' (a:4), one name after IDNA2003 ToASCII" */
const char *zp_ck_collision_note(const zp_checker *c, const zp_ck_rep *x, const zp_ck_rep *y)
{
  static char b[2 * ZP_NAME_TEXT_MAX + 1400];
  b[0] = '\0';
  if (x->set && y->set && !zp_ck_same_spelling(x, &y->t, y->spell))
    snprintf(b, sizeof b, "; written '%s' (%s) and '%s' (%s), one name after IDNA%s ToASCII",
             spelled(c, x), zp_ck_where(c, &x->t), spelled(c, y), zp_ck_where(c, &y->t),
             c->opt.idna2008 ? "2008" : "2003");
  return b;
}

void zp_ck_collision(zp_checker *c)
{
  zp_ck_group *g = &c->g;
  if (g->spell2.set && zp_ck_on(c, ZP_CK_COLLISION))
    zp_ck_report(c, ZP_CK_COLLISION, &g->spell2.t, "'%s' here and '%s' at %s are one name "
                 "after IDNA%s ToASCII, %s: their records merge", spelled(c, &g->spell2),
                 spelled(c, &g->spell1), zp_ck_where(c, &g->spell1.t),
                 c->opt.idna2008 ? "2008" : "2003", zp_ck_owner_text(g));
}
