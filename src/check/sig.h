/* sig.h -- DNSSEC's cryptography for the checks, through OpenSSL's libcrypto: key tags (RFC 4034
 * appendix B), a signature checked against a DNSKEY's public key, and the digests of NSEC3
 * (RFC 5155 section 5), ZONEMD (RFC 8976) and CDS (RFC 4034 section 5.1.4) */
#ifndef ZP_SIG_H
#define ZP_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The key tag of a DNSKEY's RDATA (RFC 4034 appendix B; algorithm 1 has its own). */
uint16_t zp_sig_key_tag(const uint8_t *rdata, size_t rdlen);

/* Whether zonepuny verifies signatures of the algorithm: RSASHA1 (5), RSASHA1-NSEC3-SHA1 (7),
 * RSASHA256 (8), RSASHA512 (10), ECDSAP256SHA256 (13), ECDSAP384SHA384 (14), ED25519 (15) and
 * ED448 (16). The others (RSAMD5, DSA, ECC-GOST, private) are not: RFC 8624 says no validator
 * need, so a zone signed with them alone is insecure, not bogus. */
bool zp_sig_alg_supported(uint8_t alg);

/* RFC 8624 section 3.1: the algorithm MUST NOT or NOT RECOMMENDED for signing (RSAMD5, DSA,
 * RSASHA1, DSA-NSEC3-SHA1, RSASHA1-NSEC3-SHA1, ECC-GOST); its mnemonic, else NULL. */
const char *zp_sig_alg_deprecated(uint8_t alg);

typedef struct zp_sig_key zp_sig_key;

/* The largest RSA public exponent taken, in bits: BIND's (RSA_MAX_PUBEXP_BITS), whose
 * dnssec-verify refuses a key of a larger one. */
enum { ZP_RSA_EXPONENT_BITS_MAX = 35 };

/* The public key of a DNSKEY's RDATA (flags, protocol, algorithm, key) for the algorithm, or
 * NULL when the algorithm is not supported, the key is malformed or one validators refuse
 * (why[0..cap) then says why, as "its RSA exponent is even"; empty when memory is short or the
 * algorithm unsupported). Caller frees with zp_sig_key_free. */
zp_sig_key *zp_sig_key_new(const uint8_t *rdata, size_t rdlen, char *why, size_t cap);
void zp_sig_key_free(zp_sig_key *k);

/* Whether sig[0..sig_len), the signature field of an RRSIG (RFC 4034 section 3.1.8; for ECDSA
 * r and s, RFC 6605 section 4), is key's signature over data[0..len). */
bool zp_sig_verify(const zp_sig_key *key, const uint8_t *data, size_t len, const uint8_t *sig,
                   size_t sig_len);

/* A digest made in parts; ZP_DIGEST_NONE names one not computed (record/dnssec_params.h). */
typedef enum zp_digest_alg {
  ZP_DIGEST_NONE, ZP_DIGEST_SHA1, ZP_DIGEST_SHA256, ZP_DIGEST_SHA384, ZP_DIGEST_SHA512
} zp_digest_alg;
enum { ZP_DIGEST_MAX = 64 };
typedef struct zp_digest zp_digest;

/* NULL when memory is short (or alg is ZP_DIGEST_NONE). Caller frees with zp_digest_free. */
zp_digest *zp_digest_new(zp_digest_alg alg);
/* Starts a digest over, then takes in parts; false when libcrypto fails. */
bool zp_digest_begin(zp_digest *d);
bool zp_digest_put(zp_digest *d, const void *p, size_t n);
/* The digest's octets into out (ZP_DIGEST_MAX at most), its length; 0 when libcrypto fails. */
size_t zp_digest_end(zp_digest *d, uint8_t *out);
void zp_digest_free(zp_digest *d);

#endif
