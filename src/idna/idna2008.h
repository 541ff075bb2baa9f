/* idna2008.h -- IDNA2008 ToASCII and ToUnicode (RFC 5890-5893) with UTS #46 non-transitional
 * mapping, at Unicode 15.0.0; the same caller-buffer style as idna.h (IDNA2003) */
#ifndef ZP_IDNA2008_H
#define ZP_IDNA2008_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idna.h"

/* What a label tells the Bidi rule of its name (RFC 5893): a name holding a label with a
 * right-to-left or Arabic digit code point is a Bidi domain name, and then every label that is
 * not plain ASCII must keep the rule. */
enum {
  ZP_IDNA_BIDI_RTL = 1,     /* holds a code point of Bidi class R, AL or AN */
  ZP_IDNA_BIDI_BROKEN = 2   /* breaks the rule (RFC 5893 section 2, rules 1-6) */
};

/* The Bidi bits of what the ACE label ace[0..n) decodes to, for a label already converted or
 * checked: Punycode decoding alone, none of ToASCII's mapping and checks (a tenth of its
 * cost); 0 when it does not decode. */
unsigned zp_idna2008_ace_bidi(const char *ace, size_t n);

/* ToASCII of one label given as UTF-8 in[0..inlen), into out (*outlen: capacity on entry,
 * length on return). A label that is all ASCII passes as it is (no STD3 rules unless
 * ZP_IDNA_USE_STD3 in flags, no hyphen or Bidi rule); with ZP_IDNA_CHECK_ACE an ASCII label that
 * starts with "xn--" must decode to a valid label that encodes back to it. Any other label is
 * mapped (UTS #46, non-transitional, STD3 rules), put in NFC, and must be a valid U-label:
 * every code point PVALID or in its context (RFC 5892), no hyphens in the third and fourth
 * places nor at either end, no leading combining mark, no full stop. *bidi (may be NULL) gets
 * the label's ZP_IDNA_BIDI_* bits: the rule itself is the name's (zp_idna2008_name_to_ascii).
 * det as idna.h has it. */
ZP_NODISCARD zp_status zp_idna2008_label_to_ascii(const char *in, size_t inlen, char *out,
                                                  size_t *outlen, unsigned flags,
                                                  zp_idna_detail *det, unsigned *bidi);

/* ToUnicode of one label: an "xn--" label that decodes to a valid U-label becomes that label; a
 * label with non-ASCII code points becomes its mapped NFC form when that is valid; anything else
 * (and every failure) is copied unchanged. Errors only for ZP_EBUFFER and invalid UTF-8. */
ZP_NODISCARD zp_status zp_idna2008_label_to_unicode(const char *in, size_t inlen, char *out,
                                                    size_t *outlen, unsigned flags);

/* Whole dotted names, as idna.h's name functions (U+002E separates labels; U+3002, U+FF0E and
 * U+FF61 too, as UTS #46 maps them to it), with RFC 5893's Bidi rule across the labels. */
ZP_NODISCARD zp_status zp_idna2008_name_to_ascii(const char *in, size_t inlen, char *out,
                                                 size_t *outlen, unsigned flags,
                                                 zp_idna_detail *det);
ZP_NODISCARD zp_status zp_idna2008_name_to_unicode(const char *in, size_t inlen, char *out,
                                                   size_t *outlen, unsigned flags);

/* Whether cp is one of UTS #46's deviation characters (section 2.3): IDNA2003 maps them away
 * (U+00DF to "ss", U+03C2 to U+03C3, the joiners to nothing), IDNA2008 keeps them. */
bool zp_idna2008_is_deviation(uint32_t cp);

/* Whether IDNA2003 keeps cp (past ASCII) as IDNA2008 does wherever it stands beside other such
 * code points and ASCII letters and digits: valid in both, mapped by neither, left to right, a
 * starter nothing composes with. A label of those alone converts alike under both. */
bool zp_idna2008_alike(uint32_t cp);

#endif
