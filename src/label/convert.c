/* convert.c -- the label policy: ASCII pass-through, ACE checks, ToASCII for UTF-8 labels */
#include "convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/registry.h"
#include "core/buf.h"
#include "core/hash.h"
#include "diverge.h"
#include "explain.h"
#include "mixed.h"
#include "idna/idna.h"
#include "idna/idna2008.h"
#include "idna/utf8.h"

/* Flags of every IDNA call here: the host-name rules apply to non-ASCII labels always. */
enum { FLAGS = ZP_IDNA_STD3_NON_ASCII };

static uint8_t lower(uint8_t c)
{
  return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* A label's hash, ASCII case folded in. */
static uint32_t label_hash(const uint8_t *in, size_t inlen)
{
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < inlen; i++)
    h = (h ^ lower(in[i])) * 16777619u;
  return h;
}

/* The cache's slot for in[0..inlen) (ASCII case folded into the hash, not the comparison). */
static zp_label_seen *slot(zp_label_cache *c, const uint8_t *in, size_t inlen)
{
  return &c->seen[label_hash(in, inlen) & 255];
}

static bool hit(const zp_label_seen *e, const uint8_t *in, size_t inlen)
{
  return e->len == inlen && memcmp(e->label, in, inlen) == 0;
}

/* e for the label in[0..inlen) whose ACE form is ace[0..acelen) (NULL for an ACE label, which
 * stays as written): whether IDNA keeps it (ToUnicode of the ACE form is the label, ASCII case
 * aside). */
static void remember(const zp_convert *c, zp_label_seen *e, const uint8_t *in, size_t inlen,
                     const char *ace, size_t acelen)
{
  char back[4 * ZP_LABEL_MAX + 1];
  size_t backlen = sizeof back;
  e->len = (uint8_t)inlen;
  e->ace_len = ace ? (uint8_t)acelen : 0;
  memcpy(e->label, in, inlen);
  if (!ace) {
    e->kept = true;
    return;
  }
  memcpy(e->ace, ace, acelen);
  e->kept = (c->idna2008 ? zp_idna2008_label_to_unicode : zp_idna_label_to_unicode)(
                ace, acelen, back, &backlen, FLAGS) == ZP_OK &&
            backlen == inlen;
  for (size_t i = 0; e->kept && i < inlen; i++)
    e->kept = (uint8_t)back[i] == lower(in[i]);
}

/* The divergence d of in[0..inlen) as a warning in msg, the first time the label has one. */
static void tell(zp_convert *c, zp_divergence d, const zp_idna_both *b, const uint8_t *in,
                 size_t inlen, char *msg, size_t cap)
{
  bool added = true;
  if (zp_label_set_add(c->diverged, in, inlen, &added) == ZP_OK && !added)
    return;   /* (out of memory: told again rather than never) */
  zp_divergence_explain(d, b, in, inlen, FLAGS | ZP_IDNA_CHECK_ACE, msg, cap);
  size_t n = strlen(msg);
  snprintf(msg + n, cap - n, " [-W%s]", zp_check_name(ZP_CK_IDNA_DIVERGENCE));
}

/* A label of more scripts than UTS #39 allows, told once a label (by its ACE form), after a
 * divergence already in msg: a warning, or the label refused when the check is an error. */
static zp_status mixed(zp_convert *c, const char *a, size_t alen, const uint8_t *in, size_t inlen,
                       char *msg, size_t cap)
{
  char why[1024];
  uint8_t key[ZP_LABEL_MAX];
  bool added = true;
  if (alen > sizeof key || !zp_mixed_script(in, inlen, a, alen, why, sizeof why))
    return ZP_OK;
  for (size_t i = 0; i < alen; i++)
    key[i] = lower((uint8_t)a[i]);
  if (zp_label_set_add(c->mixed, key, alen, &added) == ZP_OK && !added)
    return ZP_OK;   /* (out of memory: told again rather than never) */
  size_t n = strlen(msg);
  snprintf(msg + n, cap - n, "%s%s [-W%s]", n ? "; " : "", why, zp_check_name(ZP_CK_MIXED_SCRIPT));
  return c->mixed_fatal ? ZP_EINVAL : ZP_OK;
}

/* The Bidi bits of the ACE label a[0..n) (valid: every label of a converted name is). */
static unsigned ace_bidi(zp_convert *c, const uint8_t *a, size_t n)
{
  zp_ace_bidi *e = NULL;
  if (c->cache) {
    e = &c->cache->bidi[(uint8_t)zp_hash(a, n)];   /* (exact octets: no case folded in) */
    if (e->len == n && memcmp(e->ace, a, n) == 0)
      return e->bits;
  }
  unsigned bits = zp_idna2008_ace_bidi((const char *)a, n);
  if (e) {
    e->len = (uint8_t)n;
    e->bits = (uint8_t)bits;
    memcpy(e->ace, a, n);
  }
  return bits;
}

/* A label IDNA judges, non-ASCII or ACE (ace: then it is checked, and out left as the caller
 * wrote it): ToASCII under c's standard, and under the other too when c tells divergences. */
static zp_status idna_label(zp_convert *c, const uint8_t *in, size_t inlen, bool ace,
                            uint8_t *out, size_t *outlen, char *msg, size_t cap, size_t *at)
{
  zp_label_seen *e = NULL;
  if (c && c->cache && inlen <= sizeof e->label) {
    e = slot(c->cache, in, inlen);
    if (hit(e, in, inlen) && (ace || *outlen >= e->ace_len)) {
      if (!ace) {
        memcpy(out, e->ace, e->ace_len);
        *outlen = e->ace_len;
      }
      c->mapped |= !e->kept;
      c->bidi_due |= e->bidi != 0;
      return ZP_OK;
    }
  }
  int k = c && c->idna2008;
  unsigned flags = FLAGS | ZP_IDNA_CHECK_ACE;
  zp_idna_both b;
  zp_divergence d = ZP_DIV_NONE;
  zp_status st = zp_utf8_validate(in, inlen, NULL);
  if (st != ZP_OK) {
    memset(&b.det[k], 0, sizeof b.det[k]);
  } else if (c && c->diverged) {
    d = zp_idna_diverge(in, inlen, flags, k, &b);
    st = b.st[k];
  } else {
    st = zp_idna_label_alone(in, inlen, flags, k, &b);
  }
  if (st == ZP_OK && ace && inlen > ZP_LABEL_MAX)
    st = ZP_IDNA_TOO_LONG;
  if (st == ZP_OK && !ace && b.len[k] > *outlen)
    st = ZP_EBUFFER;
  if (st != ZP_OK) {
    /* (the detail of an ACE label, or of one that maps to an ACE label, is about what that
     * decodes to) */
    *at = ace || b.det[k].decoded[0] ? 0 : b.det[k].offset;
    zp_explain_label(st, in, inlen, &b.det[k], FLAGS | (k ? ZP_IDNA_2008 : 0), msg, cap);
    if (d == (k ? ZP_DIV_ONLY_2003 : ZP_DIV_ONLY_2008)) {
      char hint[160];
      zp_divergence_hint(d, &b, in, inlen, hint, sizeof hint);
      size_t n = strlen(msg);
      snprintf(msg + n, cap - n, "; %s", hint);
    }
    return st;
  }
  if (!ace) {
    memcpy(out, b.ace[k], b.len[k]);
    *outlen = b.len[k];
  }
  if (c) {
    unsigned bits = ace ? ace_bidi(c, in, inlen) : ace_bidi(c, out, *outlen);
    c->bidi_due |= bits != 0;
    if (e) {
      remember(c, e, in, inlen, ace ? NULL : b.ace[k], b.len[k]);
      e->bidi = (uint8_t)bits;
      c->mapped |= !e->kept;
    }
  }
  if (d != ZP_DIV_NONE)
    tell(c, d, &b, in, inlen, msg, cap);
  return c && c->mixed ? mixed(c, ace ? (const char *)in : b.ace[k], ace ? inlen : b.len[k], in,
                               inlen, msg, cap)
                       : ZP_OK;
}

/* RFC 1123 host names, as IDNA's UseSTD3ASCIIRules states them; *at: the octet that breaks them. */
static zp_status std3(const uint8_t *in, size_t inlen, size_t *at)
{
  for (size_t i = 0; i < inlen; i++)
    if (!zp_idna_is_ldh(in[i])) {
      *at = i;
      return ZP_IDNA_NOT_LDH;
    }
  if (inlen > 0 && (in[0] == '-' || in[inlen - 1] == '-')) {
    *at = in[0] == '-' ? 0 : inlen - 1;
    return ZP_IDNA_HYPHEN;
  }
  return ZP_OK;
}

/* A non-ASCII label in a file the server reads itself (zp_convert.as_served), at octet i. */
static zp_status served_as_is(const uint8_t *in, size_t inlen, size_t i, char *msg, size_t msgcap,
                              size_t *at)
{
  snprintf(msg, msgcap, "label \"%.*s\" is not ASCII: named reads this file as it is and would "
           "serve these UTF-8 octets, never the label's ACE form; serve the zone zonepuny writes",
           (int)inlen, (const char *)in);
  *at = i;
  return ZP_EINVAL;
}

zp_status zp_convert_label(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out,
                           size_t *outlen, char *msg, size_t msgcap, size_t *at)
{
  zp_convert *c = ctx;
  bool keep = c && c->keep_case, fits = inlen <= ZP_LABEL_MAX && inlen <= *outlen;
  /* ASCII, the common case, is copied (lowercased) as it is looked at */
  for (size_t i = 0; i < inlen; i++) {
    if (in[i] >= 0x80)
      return c && c->as_served ? served_as_is(in, inlen, i, msg, msgcap, at)
                               : idna_label(c, in, inlen, false, out, outlen, msg, msgcap, at);
    if (fits)
      out[i] = keep ? in[i] : lower(in[i]);
  }
  if (zp_idna_is_ace((const char *)in, inlen)) {
    zp_status st = idna_label(c, in, inlen, true, out, outlen, msg, msgcap, at);
    if (st == ZP_OK)
      *outlen = inlen;
    return st;
  }
  zp_status st = c && c->std3 ? std3(in, inlen, at) : ZP_OK;
  if (st == ZP_OK && !fits)
    st = ZP_IDNA_TOO_LONG;
  if (st != ZP_OK) {
    zp_explain_label(st, in, inlen, NULL, FLAGS, msg, msgcap);
    return st;
  }
  *outlen = inlen;
  return ZP_OK;
}

/* A non-ASCII label is the same name before and after ToASCII when ToUnicode gives it back:
 * "münchen" is "xn--mnchen-3ya" whichever is written, while "straße" (ss), "BÜCHER" (case) or
 * fullwidth letters are spellings that ToASCII maps onto another label's name. Such a label is
 * kept as written, ASCII case and all, for messages; spellings are compared ignoring it. */
static zp_status spell_label(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out,
                             size_t *outlen, char *msg, size_t msgcap, size_t *at)
{
  const zp_convert *c = ctx;
  /* (the owner was read with the zone's policy first, which told its labels' divergences) */
  zp_convert plain = {.cache = c->cache, .idna2008 = c->idna2008};
  bool high = false;
  for (size_t i = 0; i < inlen; i++)
    high |= in[i] >= 0x80;
  zp_status st = zp_convert_label(&plain, in, inlen, out, outlen, msg, msgcap, at);
  if (st != ZP_OK || !high || !plain.mapped)
    return st;
  /* the label as written; past 63 octets only its start, cut at a character */
  size_t n = inlen <= ZP_LABEL_MAX ? inlen : ZP_LABEL_MAX;
  while (n < inlen && n > 0 && (in[n] & 0xC0) == 0x80)
    n--;
  memcpy(out, in, n);
  *outlen = n;
  return ZP_OK;
}

zp_label_conv zp_convert_spelling(zp_convert *c)
{
  return (zp_label_conv){spell_label, c, NULL, NULL};
}

/* The message for the label broken of a name that breaks the Bidi rule (apart from name_bidi,
 * which runs for every name, so that its buffers are paid for only here); under IDNA2003 the
 * name's divergence, told once (the set of labels told holds the name as its wire form behind
 * a NUL octet, which no label holds). */
static zp_status bidi_broken(zp_convert *c, const uint8_t *wire, const uint8_t *broken,
                             char *msg, size_t cap)
{
  if (!c->idna2008) {
    uint8_t key[ZP_NAME_MAX];
    size_t n = zp_name_wire_len(wire);
    bool added = true;
    key[0] = 0;
    memcpy(key + 1, wire, n - 1);
    if (zp_label_set_add(c->diverged, key, n, &added) == ZP_OK && !added)
      return ZP_OK;   /* (out of memory: told again rather than never) */
  }
  char u[4 * ZP_LABEL_MAX];
  size_t ulen = sizeof u;
  if (zp_idna2008_label_to_unicode((const char *)broken + 1, *broken, u, &ulen, FLAGS) != ZP_OK)
    ulen = 0;
  snprintf(msg, cap, "label \"%.*s\" (%.*s) breaks the Bidi rule of a name with right-to-left "
           "labels (RFC 5893 section 2)%s", (int)ulen, u, (int)*broken, (const char *)broken + 1,
           c->idna2008 ? "" : ": " ZP_DIV_BIDI_NAME);
  if (c->idna2008)
    return ZP_IDNA_BIDI_RULE;
  size_t n = strlen(msg);
  snprintf(msg + n, cap - n, " [-W%s]", zp_check_name(ZP_CK_IDNA_DIVERGENCE));
  return ZP_OK;
}

/* RFC 5893 across the labels of wire: when one holds a right-to-left code point, each that is
 * not plain ASCII (its ACE form) must keep the Bidi rule. IDNA2003 has no such rule: under it a
 * name that breaks it is a divergence. Asked only of a name one of whose own labels holds a
 * right-to-left code point or breaks the rule (bidi_due): of any other, only the origin's labels
 * may, and the origin, read as a name, has been held to the rule. */
static zp_status name_bidi(void *ctx, const uint8_t *wire, char *msg, size_t cap)
{
  zp_convert *c = ctx;
  unsigned rtl = 0;
  const uint8_t *broken = NULL;
  for (const uint8_t *p = wire; *p; p += *p + 1) {
    if (!zp_idna_ace_prefix((const char *)p + 1, *p))
      continue;
    unsigned bits = ace_bidi(c, p + 1, *p);
    rtl |= bits & ZP_IDNA_BIDI_RTL;
    if ((bits & ZP_IDNA_BIDI_BROKEN) && !broken)
      broken = p;
  }
  return rtl && broken ? bidi_broken(c, wire, broken, msg, cap) : ZP_OK;
}

zp_label_conv zp_convert_policy(zp_convert *c)
{
  /* (under IDNA2003 the rule is a divergence, asked only while those are told) */
  return (zp_label_conv){zp_convert_label, c, c->idna2008 || c->diverged ? name_bidi : NULL,
                         &c->bidi_due};
}

/* Open addressing over the labels' octets, each held in keys as a length octet and the label. */
struct zp_label_set {
  uint32_t *slots;   /* offset + 1 of a label in keys; 0: empty */
  size_t cap, n;
  zp_buf keys;
};

zp_status zp_label_set_new(zp_label_set **s)
{
  *s = calloc(1, sizeof **s);
  return *s ? ZP_OK : ZP_ENOMEM;
}

void zp_label_set_free(zp_label_set *s)
{
  if (!s)
    return;
  free(s->slots);
  zp_buf_free(&s->keys);
  free(s);
}

/* The slot of in[0..len) in s, or of the empty one where it would go. */
static uint32_t *set_slot(const zp_label_set *s, const uint32_t *slots, size_t cap,
                          const uint8_t *in, size_t len)
{
  for (size_t i = label_hash(in, len) & (cap - 1);; i = (i + 1) & (cap - 1)) {
    if (!slots[i])
      return (uint32_t *)&slots[i];
    const uint8_t *k = (const uint8_t *)s->keys.p + slots[i] - 1;
    if (k[0] == len && memcmp(k + 1, in, len) == 0)
      return (uint32_t *)&slots[i];
  }
}

static bool set_grow(zp_label_set *s)
{
  size_t cap = s->cap ? 2 * s->cap : 64;
  uint32_t *slots = calloc(cap, sizeof *slots);
  if (!slots)
    return false;
  for (size_t i = 0; i < s->cap; i++)
    if (s->slots[i]) {
      const uint8_t *k = (const uint8_t *)s->keys.p + s->slots[i] - 1;
      *set_slot(s, slots, cap, k + 1, k[0]) = s->slots[i];
    }
  free(s->slots);
  s->slots = slots;
  s->cap = cap;
  return true;
}

zp_status zp_label_set_add(zp_label_set *s, const uint8_t *in, size_t len, bool *added)
{
  *added = false;
  if (len > 255 || s->keys.len >= UINT32_MAX - 256)
    return ZP_ENOMEM;
  if (s->cap && set_slot(s, s->slots, s->cap, in, len)[0])
    return ZP_OK;
  if (2 * (s->n + 1) > s->cap && !set_grow(s))
    return ZP_ENOMEM;
  uint8_t n = (uint8_t)len;
  size_t off = s->keys.len;
  if (!zp_buf_put(&s->keys, &n, 1) || !zp_buf_put(&s->keys, in, len)) {
    s->keys.len = off;
    return ZP_ENOMEM;
  }
  *set_slot(s, s->slots, s->cap, in, len) = (uint32_t)off + 1;
  s->n++;
  *added = true;
  return ZP_OK;
}
