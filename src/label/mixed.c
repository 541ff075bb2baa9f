/* mixed.c -- a label whose characters come from more scripts than UTS #39 section 5.2 allows at
 * "Moderately Restrictive": the look-alike names (Latin "paypal" with a Cyrillic a) that
 * registries refuse at registration and nothing checks below it */
#include "mixed.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "idna/idna.h"
#include "idna/punycode.h"
#include "idna/utf8.h"
#include "idna/uts39.h"
#include "explain.h"

enum { SHOWN_MAX = 4 };   /* characters named per script */

/* The first script of s, or -1. */
static int first_script(const zp_script_set *s)
{
  for (size_t i = 0; i < zp_uts39_scripts_n; i++)
    if (zp_script_has(s, (int)i))
      return (int)i;
  return -1;
}

/* cp's own script for a message: its first Script_Extensions entry that is neither Common nor
 * Inherited, or -1. */
static int script_of(uint32_t cp)
{
  static int common = -2, inherited;
  if (common == -2) {
    inherited = zp_uts39_script_index("Zinh");
    common = zp_uts39_script_index("Zyyy");
  }
  zp_script_set s = zp_uts39_script_extensions(cp);
  int i = first_script(&s);
  return i == common || i == inherited ? -1 : i;
}

/* Appends to msg[0..cap) at *w, cut at cap. */
__attribute__((format(printf, 4, 5)))
static void put(char *msg, size_t cap, size_t *w, const char *fmt, ...)
{
  if (*w >= cap)
    return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(msg + *w, cap - *w, fmt, ap);
  va_end(ap);
  if (k > 0)
    *w += (size_t)k < cap - *w ? (size_t)k : cap - *w - 1;
}

/* "Latin with Cyrillic (U+0430 "а")": the script of the label's first character that has one,
 * then each other script and its characters (those not also of the first script). */
static void explain(const uint32_t *cp, size_t n, char *msg, size_t cap, size_t *at)
{
  int first = -1;
  for (size_t i = 0; i < n && first < 0; i++)
    first = script_of(cp[i]);
  size_t w = *at;
  put(msg, cap, &w, "%s", first < 0 ? "no script" : zp_uts39_script_names[first]);
  bool told[ZP_SCRIPT_WORDS * 64] = {false}, more = false;
  for (size_t i = 0; i < n; i++) {
    zp_script_set own = zp_uts39_scripts(cp[i]);
    int s = script_of(cp[i]);
    if (s < 0 || (first >= 0 && zp_script_has(&own, first)) || told[s])
      continue;
    told[s] = true;
    put(msg, cap, &w, "%s %s (", more ? " and" : " with", zp_uts39_script_names[s]);
    more = true;
    size_t shown = 0;
    for (size_t j = i; j < n; j++) {
      bool again = false;
      for (size_t k = i; k < j && !again; k++)
        again = cp[k] == cp[j];
      if (again || script_of(cp[j]) != s)
        continue;
      if (shown++ == SHOWN_MAX) {
        put(msg, cap, &w, ", ...");
        break;
      }
      uint8_t u[4];
      size_t ulen = sizeof u;
      if (zp_utf8_encode(&cp[j], 1, u, &ulen) != ZP_OK)
        ulen = 0;
      put(msg, cap, &w, "%sU+%04X \"%.*s\"", shown > 1 ? ", " : "", (unsigned)cp[j], (int)ulen,
          (const char *)u);
    }
    put(msg, cap, &w, ")");
  }
  *at = w;
}

bool zp_mixed_script(const uint8_t *in, size_t inlen, const char *ace, size_t len, char *msg,
                     size_t cap)
{
  uint32_t cp[ZP_LABEL_MAX];
  size_t n = sizeof cp / sizeof *cp;
  if (!zp_idna_ace_prefix(ace, len) || zp_puny_decode(ace + 4, len - 4, cp, &n, NULL) != ZP_OK)
    return false;
  if (zp_uts39_restriction(cp, n) != ZP_RESTRICT_MINIMALLY)
    return false;
  /* the label as written, then its other form: the ACE form, or what an ACE label decodes to */
  char shown[4 * 4 * ZP_LABEL_MAX + 1];
  uint8_t u[4 * ZP_LABEL_MAX];
  size_t ulen = sizeof u;
  bool written_ace = inlen == len && zp_idna_ace_prefix((const char *)in, inlen);
  if (written_ace && zp_utf8_encode(cp, n, u, &ulen) != ZP_OK)
    ulen = 0;
  zp_explain_show(in, inlen, shown, sizeof shown);
  size_t w = 0;
  put(msg, cap, &w, "label \"%s\" (%.*s) mixes ", shown, written_ace ? (int)ulen : (int)len,
      written_ace ? (const char *)u : ace);
  explain(cp, n, msg, cap, &w);
  put(msg, cap, &w, ", more scripts than UTS #39 section 5.2 allows in one label at "
      "\"Moderately Restrictive\"");
  return true;
}
