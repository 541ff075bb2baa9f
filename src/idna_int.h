/* idna_int.h -- what the IDNA2003 and IDNA2008 halves of the library share, inside it */
#ifndef ZP_IDNA_INT_H
#define ZP_IDNA_INT_H

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

/* det->decoded = the UTF-8 of s[0..n), cut at a code point boundary (det may be NULL). */
void zp_idna_ace_decoded(zp_idna_detail *det, const uint32_t *s, size_t n);

#endif
