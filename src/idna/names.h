/* names.h -- what the IDNA2003 and IDNA2008 halves of the library share, inside it: the walk
 * over a name's labels (names.c), the ASCII labels' fast path, and the detail of an ACE label
 * (idna.c) */
#ifndef ZP_IDNA_NAMES_H
#define ZP_IDNA_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idna.h"

/* A label converter: idna.h's ToASCII with the label's Bidi bits (idna2008.h) besides. */
typedef zp_status (*zp_idna_label_fn)(const char *in, size_t inlen, char *out, size_t *outlen,
                                      unsigned flags, zp_idna_detail *det, unsigned *bidi);
typedef zp_status (*zp_idna_unicode_fn)(const char *in, size_t inlen, char *out,
                                        size_t *outlen, unsigned flags);

/* The name functions of idna.h over any label converter; ToASCII also holds the labels to the
 * Bidi rule of RFC 5893 where a label says the name is a Bidi domain name. */
ZP_NODISCARD zp_status zp_idna_name_walk(const char *in, size_t inlen, char *out,
                                         size_t *outlen, unsigned flags, zp_idna_detail *det,
                                         zp_idna_label_fn fn);
ZP_NODISCARD zp_status zp_idna_name_walk_unicode(const char *in, size_t inlen, char *out,
                                                 size_t *outlen, unsigned flags,
                                                 zp_idna_unicode_fn fn);

/* The common case of both ToASCII functions, in one pass: an ASCII label of 1..63 octets that
 * needs no check (no ZP_IDNA_USE_STD3, not "xn--" under ZP_IDNA_CHECK_ACE) is copied to out;
 * true then. Else false, with *hi the OR of the label's octets (0x80 set: not ASCII) and out
 * perhaps written. */
static inline bool zp_idna_ascii_label(const char *in, size_t inlen, char *out,
                                       size_t *outlen, unsigned flags, unsigned char *hi)
{
  unsigned char h = 0;
  if (inlen - 1 < ZP_LABEL_MAX && inlen <= *outlen && !(flags & ZP_IDNA_USE_STD3)) {
    for (size_t i = 0; i < inlen; i++) {
      h |= (unsigned char)in[i];
      out[i] = in[i];
    }
    *hi = h;
    if (!(h & 0x80) && !((flags & ZP_IDNA_CHECK_ACE) && zp_idna_ace_prefix(in, inlen))) {
      *outlen = inlen;
      return true;
    }
    return false;
  }
  for (size_t i = 0; i < inlen; i++)
    h |= (unsigned char)in[i];
  *hi = h;
  return false;
}

/* det->decoded = the UTF-8 of s[0..n), cut at a code point boundary (det may be NULL). */
void zp_idna_ace_decoded(zp_idna_detail *det, const uint32_t *s, size_t n);

#endif
