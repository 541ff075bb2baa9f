/* idna.h -- IDNA2003 ToASCII and ToUnicode (draft-ietf-idn-idna-04, RFC 3490; ACE prefix "xn--") */
#ifndef ZP_IDNA_H
#define ZP_IDNA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "wire.h"

#define ZP_IDNA_ALLOW_UNASSIGNED 0x1u  /* AllowUnassigned */
/* UseSTD3ASCIIRules as RFC 3490 has it: step 3's host restrictions (LDH only, no leading or
 * trailing hyphen) on every label, ASCII or not. Without it no label gets them (libidn, Python). */
#define ZP_IDNA_USE_STD3         0x2u
/* Step 3 as draft-ietf-idn-idna-04 has it for labels that hold a non-ASCII code point: the host
 * restrictions apply to them (after Nameprep) even without ZP_IDNA_USE_STD3. zonepuny passes
 * this always and adds ZP_IDNA_USE_STD3 for --std3 (doc/dialect.md). */
#define ZP_IDNA_STD3_NON_ASCII   0x4u
/* zonepuny's rule for ASCII labels that start with "xn--" (any case): the to_ascii functions
 * run zp_idna_ace_check on them and fail with its status. Plain ToASCII passes them through. */
#define ZP_IDNA_CHECK_ACE        0x8u
/* Says that IDNA2008 (idna2008.h) judged the label, for the explanation of a refusal
 * (explain.h); the conversion functions ignore it. */
#define ZP_IDNA_2008             0x10u

/* What a failure was about: the code point (for prohibited, unassigned, bidi, not-LDH, hyphen)
 * and the byte offset in the input where it starts (for a code point that only Nameprep's
 * mapping produced: the input code point it came from, else 0; for a UTF-8 error: the bad
 * sequence); for ACE checks, the decoded text (UTF-8, NUL-terminated, cut at a code point
 * boundary if longer), and then cp/offset refer to that text. The name functions set offset and
 * label_len to the failing label's place in the input instead. */
typedef struct zp_idna_detail {
  uint32_t cp;
  size_t offset;
  size_t label_len;
  char decoded[256];
} zp_idna_detail;

/* Whether label[0..len) starts with the ACE prefix "xn--", recognised in any case; inline as
 * zp_idna_ace_prefix for callers that ask it of every label. */
bool zp_idna_is_ace(const char *label, size_t len);
static inline bool zp_idna_ace_prefix(const char *s, size_t n)
{
  return n >= 4 && (s[0] | 0x20) == 'x' && (s[1] | 0x20) == 'n' && s[2] == '-' && s[3] == '-';
}

/* Whether c is a letter, digit or hyphen (the host-name rules of RFC 1123). */
bool zp_idna_is_ldh(uint32_t c);

/* ToASCII of one label given as UTF-8 in[0..inlen). Writes the ASCII label (no NUL) to out;
 * *outlen is the capacity on entry and the length on return. A pure-ASCII label skips Nameprep.
 * det may be NULL. */
ZP_NODISCARD zp_status zp_idna_label_to_ascii(const char *in, size_t inlen, char *out,
                                              size_t *outlen, unsigned flags,
                                              zp_idna_detail *det);

/* ToUnicode of one label: never fails in the IDNA sense; when a step fails the input is copied
 * to out unchanged. Only ZP_EBUFFER (out too small), ZP_UTF8_* (input not UTF-8) and, for a
 * label so long that its scratch space comes from the heap, ZP_ENOMEM are returned as errors.
 * Output is UTF-8, at most max(inlen, 236) bytes (decoded text of a 63-octet ACE label). */
ZP_NODISCARD zp_status zp_idna_label_to_unicode(const char *in, size_t inlen, char *out,
                                                size_t *outlen, unsigned flags);

/* The strict check zonepuny applies to a label that starts with "xn--" (any case): its
 * Punycode decodes (ZP_IDNA_ACE_DECODE), the result holds a non-ASCII code point
 * (ZP_IDNA_ACE_ASCII) and ToASCII of the result gives the label back, compared
 * case-insensitively (ZP_IDNA_ACE_NOT_CANONICAL, or ToASCII's own status). det->decoded holds
 * the decoded text when decoding succeeded. */
ZP_NODISCARD zp_status zp_idna_ace_check(const char *label, size_t len, unsigned flags,
                                         zp_idna_detail *det);

/* The end of the label of a dotted name in[0..inlen) that starts at start, and the length of the
 * separator after it in *seplen (U+002E, U+3002, U+FF0E or U+FF61; 0 at the end). */
size_t zp_idna_label_end(const char *in, size_t inlen, size_t start, size_t *seplen);

/* Whole dotted names (label separators U+002E, U+3002, U+FF0E, U+FF61; every separator is
 * written as "."; one trailing separator is kept; "" and a lone separator are the root).
 * to_ascii also fails with ZP_IDNA_EMPTY for an empty label and ZP_IDNA_NAME_TOO_LONG past 255
 * octets in wire form, checked before the output capacity, so 256 bytes of out always do.
 * On failure det->offset and det->label_len locate the failing label in the input.
 * to_unicode converts each label with zp_idna_label_to_unicode (ZP_EBUFFER when out is too
 * small; 4 * inlen + 256 bytes suffice for any name of real labels). */
ZP_NODISCARD zp_status zp_idna_name_to_ascii(const char *in, size_t inlen, char *out,
                                             size_t *outlen, unsigned flags,
                                             zp_idna_detail *det);
ZP_NODISCARD zp_status zp_idna_name_to_unicode(const char *in, size_t inlen, char *out,
                                               size_t *outlen, unsigned flags);

#endif
