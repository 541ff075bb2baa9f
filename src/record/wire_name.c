/* wire_name.c -- names in wire form: length, text, sort keys (RFC 4034 section 6.1) */
#include "wire_name.h"

#include <string.h>

#include "idna/idna.h"
#include "idna/idna2008.h"
#include "idna/utf8.h"

size_t zp_name_wire_len(const uint8_t *wire)
{
  size_t n = 0;
  while (wire[n] != 0)
    n += wire[n] + 1u;
  return n + 1;
}

/* The bytes written bare in a name's text: letters, digits,
 * '-', '_', '*' and '/'. Printable bytes but these are written "\X": Knot's scanner reads no
 * other byte unescaped in a name (it refuses "a!b"), an unescaped '"' opens a quoted string for
 * BIND and for our own scanner, '$' at the start of a line is read as a directive, and ldns
 * reads "@.example." as the origin itself; "\X" is RFC 1035's, which every reader takes, but for
 * three: BIND reads "\[" opening a label as an RFC 2673 bitstring label, Knot "\#" there as
 * RFC 3597's marker, and NSD "\\." ending a label as an escaped dot; so '[', '#' and '\' are
 * written "\DDD". A table rather than comparisons: every name written passes through here. */
static const uint8_t BARE[256] = {   /* (0x80 on: 0) */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* 0x00 */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* 0x10 */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1,   /* 0x20 */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,   /* 0x30 */
  0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,   /* 0x40 */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,   /* 0x50 */
  0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,   /* 0x60 */
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,   /* 0x70 */
};

static inline bool bare(uint8_t c)
{
  return BARE[c];
}

size_t zp_name_text(char *out, const uint8_t *wire)
{
  size_t n = 0;
  if (*wire == 0) {
    out[n++] = '.';
    return n;
  }
  for (const uint8_t *p = wire; *p; p += *p + 1) {
    size_t len = *p, i = 0;
    const uint8_t *s = p + 1;
    while (i < len && bare(s[i]))
      i++;
    memcpy(out + n, s, i);
    n += i;
    for (; i < len; i++) {
      uint8_t c = s[i];
      if (bare(c)) {
        out[n++] = (char)c;
      } else if (c > 0x20 && c < 0x7F && c != '[' && c != '#' && c != '\\') {
        out[n++] = '\\';
        out[n++] = (char)c;
      } else {
        out[n++] = '\\';
        out[n++] = (char)('0' + c / 100);
        out[n++] = (char)('0' + c / 10 % 10);
        out[n++] = (char)('0' + c % 10);
      }
    }
    out[n++] = '.';
  }
  return n;
}

size_t zp_name_text_unicode(char *out, const uint8_t *wire, bool idna2008)
{
  size_t n = 0;
  if (*wire == 0) {
    out[n++] = '.';
    return n;
  }
  for (const uint8_t *p = wire; *p; p += *p + 1) {
    char text[4 * ZP_LABEL_MAX + 1];
    size_t len = sizeof text;
    bool high = false;
    for (unsigned i = 1; i <= *p; i++)
      high |= p[i] >= 0x80;
    if (high && zp_utf8_validate(p + 1, *p, NULL) == ZP_OK) {
      /* (a spelling as written: converted names hold no such label) */
      memcpy(out + n, p + 1, *p);
      n += *p;
      out[n++] = '.';
      continue;
    }
    if (zp_idna_is_ace((const char *)p + 1, *p) &&
        (idna2008 ? zp_idna2008_label_to_unicode : zp_idna_label_to_unicode)(
            (const char *)p + 1, *p, text, &len, 0) == ZP_OK &&
        (len != *p || memcmp(text, p + 1, len) != 0)) {
      memcpy(out + n, text, len);
      n += len;
      out[n++] = '.';
      continue;
    }
    uint8_t one[ZP_LABEL_MAX + 2];
    memcpy(one, p, *p + 1u);
    one[*p + 1] = 0;
    n += zp_name_text(out + n, one);
  }
  return n;
}

/* Whether one of the eight octets of x is below 2 or an ASCII capital (high bits set aside,
 * which can only add false alarms). */
static bool special8(uint64_t x)
{
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  x &= ~highs;
  uint64_t below2 = (x - 2 * ones) & ~x & highs;
  uint64_t capital = ((127 + 'Z' + 1) * ones - x) & ~x & (x + (127 - ('A' - 1)) * ones) & highs;
  return (below2 | capital) != 0;
}

/* The first m (1-8) octets of x as they lie in memory, the others made 'a'. */
static uint64_t first_octets(uint64_t x, size_t m)
{
  if (m == 8)
    return x;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t keep = ((uint64_t)1 << (8 * m)) - 1;
#else
  uint64_t keep = ~(UINT64_MAX >> (8 * m));
#endif
  return (x & keep) | (0x6161616161616161u & ~keep);
}

size_t zp_name_sort_key(const uint8_t *wire, uint8_t *key)
{
  /* the name where eight octets can be read past any label's start (a memcpy of unknown
   * length per label costs more than the label) */
  uint8_t name[ZP_NAME_MAX + 8];
  size_t offs[128], n = 0, len = 0;
  for (const uint8_t *p = wire; *p && n < 128; p += *p + 1) {
    offs[n++] = (size_t)(p - wire);
    len = (size_t)(p - wire) + *p + 1u;
  }
  memcpy(name, wire, len);
  memset(name + len, 0, 8);
  size_t k = 0;
  while (n > 0) {
    const uint8_t *l = name + offs[--n];
    /* a label without capitals or octets 0 and 1 is copied as it is, a word at a time (what
     * is written past its end is written over next) */
    bool plain = k + *l + 8 <= ZP_NAME_KEY_MAX;
    for (size_t i = 0; plain && i < *l; i += 8) {
      uint64_t w;
      memcpy(&w, l + 1 + i, sizeof w);
      plain = !special8(first_octets(w, *l - i < 8 ? *l - i : 8));
      memcpy(key + k + i, &w, sizeof w);
    }
    if (plain) {
      k += *l;
    } else {
      for (unsigned i = 1; i <= *l; i++) {
        uint8_t c = l[i] >= 'A' && l[i] <= 'Z' ? (uint8_t)(l[i] + 32) : l[i];
        if (c <= 1) {
          key[k++] = 1;
          key[k++] = (uint8_t)(c + 1);
        } else {
          key[k++] = c;
        }
      }
    }
    key[k++] = 0;
  }
  return k;
}

void zp_name_from_sort_key(const uint8_t *key, size_t len, uint8_t *wire)
{
  /* labels come root first: each is written at the end of what is left, moving leftwards */
  uint8_t tmp[ZP_NAME_MAX];
  size_t at = ZP_NAME_MAX;
  tmp[--at] = 0;
  for (size_t i = 0; i < len;) {
    uint8_t label[ZP_LABEL_MAX];
    size_t n = 0;
    for (; key[i] != 0; i++)
      label[n++] = key[i] == 1 ? (uint8_t)(key[++i] - 1) : key[i];
    i++;
    at -= n;
    memcpy(tmp + at, label, n);
    tmp[--at] = (uint8_t)n;
  }
  memcpy(wire, tmp + at, ZP_NAME_MAX - at);
}

