/* idna.h -- IDNA2003 ToASCII and ToUnicode (the seed IDNA text, ACE prefix "xn--") */
#ifndef ZP_IDNA_H
#define ZP_IDNA_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#define ZP_IDNA_ALLOW_UNASSIGNED 0x1u  /* AllowUnassigned */
#define ZP_IDNA_USE_STD3         0x2u  /* UseSTD3ASCIIRules */

#define ZP_IDNA_LABEL_MAX 63

/* What a failure was about: the code point (for prohibited, unassigned, bidi, not-LDH) and the
 * byte offset in the input where it starts; for ACE checks, the decoded text (UTF-8). */
typedef struct zp_idna_detail {
  uint32_t cp;
  size_t offset;
  char decoded[256];
} zp_idna_detail;

/* ToASCII of one label given as UTF-8 in[0..inlen). Writes the ASCII label (no NUL) to out;
 * *outlen is the capacity on entry and the length on return. A pure-ASCII label skips Nameprep.
 * det may be NULL. */
ZP_NODISCARD zp_status zp_idna_label_to_ascii(const char *in, size_t inlen, char *out,
                                              size_t *outlen, unsigned flags,
                                              zp_idna_detail *det);

/* ToUnicode of one label: never fails in the IDNA sense; when a step fails the input is copied
 * to out unchanged. Only ZP_EBUFFER (out too small) and ZP_UTF8_* (input not UTF-8) are
 * returned as errors. Output is UTF-8. */
ZP_NODISCARD zp_status zp_idna_label_to_unicode(const char *in, size_t inlen, char *out,
                                                size_t *outlen, unsigned flags);

/* The strict check zonepuny applies to a label that starts with "xn--" (any case): its
 * Punycode decodes (ZP_IDNA_ACE_DECODE), the result holds a non-ASCII code point
 * (ZP_IDNA_ACE_ASCII) and ToASCII of the result gives the label back, compared
 * case-insensitively (ZP_IDNA_ACE_NOT_CANONICAL, or ToASCII's own status). det->decoded holds
 * the decoded text when decoding succeeded. */
ZP_NODISCARD zp_status zp_idna_ace_check(const char *label, size_t len, unsigned flags,
                                         zp_idna_detail *det);

/* Whole dotted names (label separators U+002E, U+3002, U+FF0E, U+FF61; one trailing dot kept).
 * On failure det->offset is the byte offset of the failing label in the input. */
ZP_NODISCARD zp_status zp_idna_name_to_ascii(const char *in, size_t inlen, char *out,
                                             size_t *outlen, unsigned flags,
                                             zp_idna_detail *det);
ZP_NODISCARD zp_status zp_idna_name_to_unicode(const char *in, size_t inlen, char *out,
                                               size_t *outlen, unsigned flags);

#endif
