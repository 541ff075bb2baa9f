/* punycode.h -- RFC 3492 Punycode (Bootstring with base 36, tmin 1, tmax 26, skew 38, damp 700) */
#ifndef ZP_PUNYCODE_H
#define ZP_PUNYCODE_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* Encodes in[0..inlen) (code points) as Punycode, without any ACE prefix.
 * case_flags: NULL, or inlen flags; non-zero asks for the uppercase form of that code point's
 * last digit or basic character (RFC 3492 appendix A mixed-case annotation).
 * *outlen: capacity of out on entry, characters written on return (no NUL is written).
 * ZP_EBUFFER when out is too small, ZP_PUNY_OVERFLOW per section 6.4, ZP_PUNY_BAD_CODE_POINT
 * for a surrogate or a value past U+10FFFF in the input. Never allocates. */
ZP_NODISCARD zp_status zp_puny_encode(const uint32_t *in, size_t inlen,
                                      const unsigned char *case_flags, char *out, size_t *outlen);

/* Decodes Punycode in[0..inlen) (no ACE prefix) into code points.
 * *outlen: capacity of out on entry, code points written on return.
 * case_flags: NULL, or room for *outlen flags; set to 1 where the annotation says uppercase.
 * Fails with ZP_PUNY_BAD_DIGIT, ZP_PUNY_TRUNCATED, ZP_PUNY_OVERFLOW, ZP_PUNY_NON_BASIC,
 * ZP_PUNY_BAD_CODE_POINT (a surrogate or a value past U+10FFFF) or ZP_EBUFFER; out is then
 * unspecified. Section 6.2's "basic code point from a delta" cannot occur: n starts at 0x80
 * and only grows. */
ZP_NODISCARD zp_status zp_puny_decode(const char *in, size_t inlen, uint32_t *out,
                                      size_t *outlen, unsigned char *case_flags);

#endif
