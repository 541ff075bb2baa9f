/* b32hex.h -- base32hex without padding (RFC 4648 section 7), the alphabet of NSEC3's hashed
 * owner names and next hashed owner field (RFC 5155 section 3.3) */
#ifndef ZP_B32HEX_H
#define ZP_B32HEX_H

#include <stddef.h>
#include <stdint.h>

/* The text of d[0..n) in lower case, as BIND writes it; out holds (8 * n + 4) / 5 octets,
 * which is the length returned. No NUL is added. */
size_t zp_b32hex(char *out, const uint8_t *d, size_t n);

#endif
