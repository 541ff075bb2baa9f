/* utf8.h -- strict UTF-8 decoding and encoding */
#ifndef ZP_UTF8_H
#define ZP_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* Decodes in[0..inlen) into code points. *outlen is the capacity of out on entry and the number
 * of code points written on return. Overlong forms, surrogates, values above U+10FFFF, stray
 * continuation bytes and truncated sequences fail with a ZP_UTF8_* status and *erroff set to the
 * byte offset of the offending sequence (erroff may be NULL). ZP_EBUFFER if out is too small. */
ZP_NODISCARD zp_status zp_utf8_decode(const uint8_t *in, size_t inlen, uint32_t *out,
                                      size_t *outlen, size_t *erroff);

/* Checks in[0..inlen) is valid UTF-8 without decoding; same statuses and *erroff as above. */
ZP_NODISCARD zp_status zp_utf8_validate(const uint8_t *in, size_t inlen, size_t *erroff);

/* Encodes code points as UTF-8. *outlen is capacity in bytes on entry, bytes written on return.
 * ZP_UTF8_SURROGATE / ZP_UTF8_RANGE for a value that is not a Unicode scalar value. */
ZP_NODISCARD zp_status zp_utf8_encode(const uint32_t *in, size_t inlen, uint8_t *out,
                                      size_t *outlen);

/* Characters in text[0..len): the bytes that do not continue a UTF-8 sequence. Columns in
 * messages count these, whether or not the text is valid UTF-8. */
size_t zp_utf8_chars(const char *text, size_t len);

#endif
