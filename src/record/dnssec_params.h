/* dnssec_params.h -- DNSSEC's numbers, one table each, read by the reader (mnemonics, digest
 * lengths), the verifier (which algorithms it verifies, which RFC 8624 retires) and the CDS and
 * ZONEMD checks (which digest each number is) */
#ifndef ZP_DNSSEC_PARAMS_H
#define ZP_DNSSEC_PARAMS_H

/* X(number, mnemonic, verified, retired): DNSSEC algorithms (IANA's registry; RFC 4034 appendix
 * A.1). verified: zonepuny verifies its signatures (check/sig.c has its key); retired: RFC 8624
 * section 3.1 says MUST NOT or NOT RECOMMENDED for signing. */
#define ZP_DNSSEC_ALGORITHMS(X)                                                                 \
  X(1, "RSAMD5", 0, 1) X(2, "DH", 0, 0) X(3, "DSA", 0, 1) X(5, "RSASHA1", 1, 1)                  \
  X(6, "DSA-NSEC3-SHA1", 0, 1) X(7, "RSASHA1-NSEC3-SHA1", 1, 1) X(8, "RSASHA256", 1, 0)          \
  X(10, "RSASHA512", 1, 0) X(12, "ECC-GOST", 0, 1) X(13, "ECDSAP256SHA256", 1, 0)                \
  X(14, "ECDSAP384SHA384", 1, 0) X(15, "ED25519", 1, 0) X(16, "ED448", 1, 0)                     \
  X(252, "INDIRECT", 0, 0) X(253, "PRIVATEDNS", 0, 0) X(254, "PRIVATEOID", 0, 0)

/* X(number, name, octets, hash): DS and CDS digest types (RFC 4034 section 5.1.4, RFC 4509,
 * RFC 5933, RFC 6605); hash names the digest zonepuny computes for it (check/sig.h's
 * zp_digest_alg, ZP_DIGEST_ pasted before it), NONE for one it does not. */
#define ZP_DS_DIGESTS(X)                                                                        \
  X(1, "SHA-1", 20, SHA1) X(2, "SHA-256", 32, SHA256) X(3, "GOST R 34.11-94", 32, NONE)          \
  X(4, "SHA-384", 48, SHA384)

/* X(number, name, octets, hash): ZONEMD hash algorithms (RFC 8976 section 2.2.3), as above. */
#define ZP_ZONEMD_HASHES(X) X(1, "SHA-384", 48, SHA384) X(2, "SHA-512", 64, SHA512)

#endif
