/* nameprep.h -- RFC 3491 Nameprep: the stringprep (RFC 3454) profile for IDNA, Unicode 3.2 */
#ifndef ZP_NAMEPREP_H
#define ZP_NAMEPREP_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#define ZP_NAMEPREP_ALLOW_UNASSIGNED 0x1u

/* Runs Nameprep on in[0..inlen): map (B.1, B.2), NFKC (Unicode 3.2), prohibit (C.1.2, C.2.2,
 * C.3-C.9), bidi (RFC 3454 section 6), unassigned (A.1) unless ZP_NAMEPREP_ALLOW_UNASSIGNED.
 * *outlen: capacity of out on entry, code points written on return; ZP_EBUFFER if too small.
 * out also holds the decomposed form before recomposition, so it needs room for that: up to 18
 * code points per input code point (U+FDFA), far fewer for real labels.
 * ZP_EINVAL (with *bad_cp) for an input value above U+10FFFF; surrogates are C.5, prohibited.
 * On ZP_IDNA_PROHIBITED / ZP_IDNA_UNASSIGNED / ZP_IDNA_BIDI_*, *bad_cp (may be NULL) names the
 * offending code point. No allocation. */
ZP_NODISCARD zp_status zp_nameprep(const uint32_t *in, size_t inlen, uint32_t *out,
                                   size_t *outlen, unsigned flags, uint32_t *bad_cp);

/* Nameprep's step 2 alone: NFKC under Unicode 3.2, no mapping and no checks. Same buffer rules
 * as zp_nameprep; ZP_EINVAL with *bad_cp (may be NULL) for a value above U+10FFFF. */
ZP_NODISCARD zp_status zp_nfkc(const uint32_t *in, size_t inlen, uint32_t *out, size_t *outlen,
                               uint32_t *bad_cp);

#endif
