/* sig.c -- DNSSEC's cryptography for the checks: key tags, public keys from DNSKEY RDATA
 * (RFC 3110, RFC 6605, RFC 8080), signatures verified through OpenSSL's libcrypto */
#include "sig.h"

#include "record/dnssec_params.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#if defined(__GNUC__)
#define ZP_SIG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ZP_SIG_PRINTF(f, a)
#endif

struct zp_sig_key {
  EVP_PKEY *pkey;
  const EVP_MD *md;      /* NULL: EdDSA, which hashes on its own */
  uint8_t alg;
  size_t half;           /* ECDSA: octets of r and of s */
};

uint16_t zp_sig_key_tag(const uint8_t *rdata, size_t rdlen)
{
  if (rdlen >= 4 && rdata[3] == 1)   /* RSAMD5: the key's last octets but one */
    return rdlen >= 6 ? (uint16_t)(rdata[rdlen - 3] << 8 | rdata[rdlen - 2]) : 0;
  uint32_t ac = 0;
  for (size_t i = 0; i < rdlen; i++)
    ac += i & 1 ? rdata[i] : (uint32_t)rdata[i] << 8;
  ac += ac >> 16 & 0xffff;
  return (uint16_t)ac;
}

bool zp_sig_alg_supported(uint8_t alg)
{
  switch (alg) {
#define VERIFIED(num, mnemonic, verified, retired) case num: return verified;
  ZP_DNSSEC_ALGORITHMS(VERIFIED)
#undef VERIFIED
  default: return false;
  }
}

const char *zp_sig_alg_deprecated(uint8_t alg)
{
  switch (alg) {
#define RETIRED(num, mnemonic, verified, retired) case num: return retired ? mnemonic : NULL;
  ZP_DNSSEC_ALGORITHMS(RETIRED)
#undef RETIRED
  default: return NULL;
  }
}

/* A key made from OpenSSL parameters: RSA's n and e, or an EC group and point. */
static EVP_PKEY *from_params(const char *type, OSSL_PARAM_BLD *b)
{
  EVP_PKEY *pkey = NULL;
  OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(b);
  EVP_PKEY_CTX *ctx = params ? EVP_PKEY_CTX_new_from_name(NULL, type, NULL) : NULL;
  if (ctx && EVP_PKEY_fromdata_init(ctx) == 1)
    (void)EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params);
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  return pkey;
}

/* Why a key is not one: into why[0..cap), NULL returned for the caller. */
ZP_SIG_PRINTF(3, 4) static EVP_PKEY *refuse(char *why, size_t cap, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (cap)
    vsnprintf(why, cap, fmt, ap);
  va_end(ap);
  return NULL;
}

/* RFC 3110 section 2: an exponent length (one octet, or 0 and two), the exponent, the modulus.
 * Only keys validators take: an odd exponent from 3 to 35 bits (BIND's RSA_MAX_PUBEXP_BITS;
 * RFC 3110 section 2 asks for a small one, and a verification costs the exponent's bits), an
 * odd modulus of min_bits to 4096 bits (RFC 3110 section 2, RFC 5702 section 2, RFC 8624
 * section 3.1; BIND refuses the rest at once) */
static EVP_PKEY *rsa_key(const uint8_t *k, size_t n, unsigned min_bits, char *why, size_t cap)
{
  size_t elen, at;
  if (n >= 1 && k[0] != 0) {
    elen = k[0];
    at = 1;
  } else if (n >= 3) {
    elen = (size_t)k[1] << 8 | k[2];
    at = 3;
  } else {
    return refuse(why, cap, "its exponent length is cut short (RFC 3110 section 2)");
  }
  if (elen == 0 || at + elen >= n)
    return refuse(why, cap, "its exponent length (%zu) leaves no modulus (RFC 3110 section 2)",
                  elen);
  const uint8_t *e = k + at, *m = k + at + elen;
  size_t mlen = n - at - elen;
  while (elen > 0 && *e == 0)
    e++, elen--;
  while (mlen > 0 && *m == 0)
    m++, mlen--;
  unsigned ebits = elen ? (unsigned)(8 * elen - (size_t)__builtin_clz(e[0]) + 24) : 0;
  size_t mbits = mlen ? 8 * mlen - (size_t)__builtin_clz(m[0]) + 24 : 0;
  if (ebits > ZP_RSA_EXPONENT_BITS_MAX)
    return refuse(why, cap, "its RSA exponent has %u bits, more than the %u validators take "
                  "(RFC 3110 section 2)", ebits, (unsigned)ZP_RSA_EXPONENT_BITS_MAX);
  if (ebits <= 1 || !(e[elen - 1] & 1))
    return refuse(why, cap, "its RSA exponent is %s", ebits <= 1 ? "0 or 1" : "even");
  if (mbits < min_bits || mbits > 4096)
    return refuse(why, cap, "its RSA modulus has %zu bits, not %u to 4096 (%s)", mbits,
                  min_bits, min_bits == 1024 ? "RFC 5702 section 2" : "RFC 3110 section 2");
  if (!(m[mlen - 1] & 1))
    return refuse(why, cap, "its RSA modulus is even");
  EVP_PKEY *pkey = NULL;
  BIGNUM *be = BN_bin2bn(e, (int)elen, NULL), *bm = BN_bin2bn(m, (int)mlen, NULL);
  OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
  if (be && bm && b && OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, bm) == 1 &&
      OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, be) == 1)
    pkey = from_params("RSA", b);
  OSSL_PARAM_BLD_free(b);
  BN_free(be);
  BN_free(bm);
  return pkey ? pkey : refuse(why, cap, "libcrypto takes no RSA key of it");
}

/* RFC 6605 section 4: the point's x and y, each half the key, uncompressed. */
static EVP_PKEY *ec_key(const char *group, const char *curve, const uint8_t *k, size_t n,
                        size_t half, char *why, size_t cap)
{
  if (n != 2 * half)
    return refuse(why, cap, "its key is %zu octets, not the %zu of x and y on %s (RFC 6605 "
                  "section 4)", n, 2 * half, curve);
  uint8_t point[1 + 2 * 48];
  point[0] = 4;   /* POINT_CONVERSION_UNCOMPRESSED (SEC 1 section 2.3.3) */
  memcpy(point + 1, k, n);
  EVP_PKEY *pkey = NULL;
  OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
  if (b && OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) == 1 &&
      OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, point, n + 1) == 1)
    pkey = from_params("EC", b);
  OSSL_PARAM_BLD_free(b);
  /* (libcrypto decodes the point: coordinates below the field's prime, on the curve) */
  return pkey ? pkey : refuse(why, cap, "its (x, y) is not a point of %s", curve);
}

/* RFC 8032 sections 5.1.3 and 5.2.3: whether the key k[0..n) (y little-endian, x's sign in the
 * top bit) decodes to a point of the curve (x^2 = (y^2 - 1) / (d y^2 - a), a = -1 for
 * Ed25519, 1 for Ed448) that is not of small order (the identity's neighbours: with such a
 * key one signature verifies for any RRset). Into why when not. */
static bool eddsa_point(bool ed448, const uint8_t *k, size_t n, char *why, size_t cap)
{
  const char *curve = ed448 ? "Ed448" : "Ed25519";
  uint8_t y[57];
  bool sign = k[n - 1] & 0x80;
  for (size_t i = 0; i < n; i++)   /* (big-endian for BN_bin2bn) */
    y[i] = k[n - 1 - i];
  y[0] &= 0x7f;
  if (ed448 && y[0] != 0) {
    refuse(why, cap, "its last octet is not 0 or 0x80 (RFC 8032 section 5.2.3)");
    return false;
  }
  bool ok = false, done = false;
  BN_CTX *ctx = BN_CTX_new();
  BIGNUM *p = BN_new(), *by = BN_bin2bn(y, (int)n, NULL), *d = BN_new(), *u = BN_new(),
         *v = BN_new(), *t = BN_new();
  if (!ctx || !p || !by || !d || !u || !v || !t)
    goto out;
  /* p: 2^255 - 19, or 2^448 - 2^224 - 1; d: -121665/121666, or -39081 */
  if (ed448) {
    if (!BN_set_bit(p, 448) || !BN_set_bit(t, 224) || !BN_sub(p, p, t) ||
        !BN_sub_word(p, 1) || !BN_set_word(d, 39081) || !BN_mod_sub(d, p, d, p, ctx))
      goto out;
  } else {
    if (!BN_set_bit(p, 255) || !BN_sub_word(p, 19) || !BN_set_word(t, 121666) ||
        !BN_mod_inverse(t, t, p, ctx) || !BN_set_word(d, 121665) ||
        !BN_mod_mul(d, d, t, p, ctx) || !BN_mod_sub(d, p, d, p, ctx))
      goto out;
  }
  done = true;
  if (BN_cmp(by, p) >= 0) {
    refuse(why, cap, "its y is not below the prime of %s: not canonical (RFC 8032)", curve);
    goto out;
  }
  /* the points of small order: y = 0, 1 or -1 (x = 0 or a fourth root of 1), and for
   * Ed25519 the two y of order 8 */
  static const uint8_t order8[32] = {
    0x7a, 0x03, 0xac, 0x92, 0x77, 0xfd, 0xc7, 0x4e, 0xc6, 0xcc, 0x39, 0x2c, 0xfa, 0x53, 0x20,
    0x2a, 0x0f, 0x67, 0x10, 0x0d, 0x76, 0x0b, 0x3c, 0xba, 0x4f, 0xd8, 0x4d, 0x3d, 0x70, 0x6a,
    0x17, 0xc7};
  if (!BN_sub(t, p, by))
    goto out;
  bool small = BN_is_zero(by) || BN_is_one(by) || BN_is_one(t);
  if (!ed448) {
    BIGNUM *o = BN_bin2bn(order8, 32, NULL);
    if (!o)
      goto out;
    small |= BN_cmp(by, o) == 0 || BN_cmp(t, o) == 0;
    BN_free(o);
  }
  if (small) {
    refuse(why, cap, "it is a point of small order of %s: any RRset would verify", curve);
    goto out;
  }
  /* u = y^2 - 1, v = d y^2 - a: x^2 = u/v must be a square, and x = 0 has no sign */
  if (!BN_mod_sqr(t, by, p, ctx) || !BN_mod_sub(u, t, BN_value_one(), p, ctx) ||
      !BN_mod_mul(v, d, t, p, ctx) ||
      !(ed448 ? BN_mod_sub(v, v, BN_value_one(), p, ctx)
              : BN_mod_add(v, v, BN_value_one(), p, ctx)) ||
      !BN_mod_inverse(v, v, p, ctx) || !BN_mod_mul(u, u, v, p, ctx))
    goto out;
  int q = BN_is_zero(u) ? 0 : BN_kronecker(u, p, ctx);
  if (q == 1 || (q == 0 && !sign))
    ok = true;
  else
    refuse(why, cap, "it is not a point of %s (RFC 8032 section 5.%u.3)", curve, ed448 ? 2 : 1);
out:
  if (!done)
    refuse(why, cap, "libcrypto failed on it");
  BN_free(t);
  BN_free(v);
  BN_free(u);
  BN_free(d);
  BN_free(by);
  BN_free(p);
  BN_CTX_free(ctx);
  return ok;
}

/* RFC 8080 section 3: the public key as RFC 8032 encodes it. */
static EVP_PKEY *eddsa_key(bool ed448, const uint8_t *k, size_t n, char *why, size_t cap)
{
  size_t want = ed448 ? 57 : 32;
  if (n != want)
    return refuse(why, cap, "its key is %zu octets, not the %zu of %s (RFC 8080 section 3)", n,
                  want, ed448 ? "Ed448" : "Ed25519");
  if (!eddsa_point(ed448, k, n, why, cap))
    return NULL;
  EVP_PKEY *pkey = EVP_PKEY_new_raw_public_key(ed448 ? EVP_PKEY_ED448 : EVP_PKEY_ED25519, NULL,
                                               k, n);
  return pkey ? pkey : refuse(why, cap, "libcrypto takes no key of it");
}

zp_sig_key *zp_sig_key_new(const uint8_t *rdata, size_t rdlen, char *why, size_t cap)
{
  if (cap)
    why[0] = '\0';
  if (rdlen < 4 || !zp_sig_alg_supported(rdata[3]))
    return NULL;
  if (rdlen < 5) {
    refuse(why, cap, "it holds no key");
    return NULL;
  }
  zp_sig_key *key = calloc(1, sizeof *key);
  if (!key)
    return NULL;
  const uint8_t *k = rdata + 4;
  size_t n = rdlen - 4;
  key->alg = rdata[3];
  switch (key->alg) {
  case 5: case 7: key->md = EVP_sha1(); key->pkey = rsa_key(k, n, 512, why, cap); break;
  case 8: key->md = EVP_sha256(); key->pkey = rsa_key(k, n, 512, why, cap); break;
  case 10: key->md = EVP_sha512(); key->pkey = rsa_key(k, n, 1024, why, cap); break;
  case 13:
    key->md = EVP_sha256();
    key->half = 32;
    key->pkey = ec_key("prime256v1", "P-256", k, n, 32, why, cap);
    break;
  case 14:
    key->md = EVP_sha384();
    key->half = 48;
    key->pkey = ec_key("secp384r1", "P-384", k, n, 48, why, cap);
    break;
  case 15: key->pkey = eddsa_key(false, k, n, why, cap); break;
  case 16: key->pkey = eddsa_key(true, k, n, why, cap); break;
  default: break;
  }
  if (!key->pkey) {
    free(key);
    return NULL;
  }
  return key;
}

void zp_sig_key_free(zp_sig_key *k)
{
  if (!k)
    return;
  EVP_PKEY_free(k->pkey);
  free(k);
}

/* ECDSA's r and s, as DNSSEC writes them, in the DER OpenSSL reads; its length, 0 when the
 * signature is not two halves of the key's size. */
static size_t ecdsa_der(const zp_sig_key *key, const uint8_t *sig, size_t len, uint8_t *out,
                        size_t cap)
{
  if (len != 2 * key->half)
    return 0;
  size_t n = 0;
  ECDSA_SIG *es = ECDSA_SIG_new();
  BIGNUM *r = BN_bin2bn(sig, (int)key->half, NULL), *s = BN_bin2bn(sig + key->half,
                                                                   (int)key->half, NULL);
  if (es && r && s && ECDSA_SIG_set0(es, r, s) == 1) {
    r = s = NULL;   /* (es owns them) */
    if ((size_t)i2d_ECDSA_SIG(es, NULL) <= cap) {
      unsigned char *p = out;
      int d = i2d_ECDSA_SIG(es, &p);
      n = d > 0 ? (size_t)d : 0;
    }
  }
  BN_free(r);
  BN_free(s);
  ECDSA_SIG_free(es);
  return n;
}

bool zp_sig_verify(const zp_sig_key *key, const uint8_t *data, size_t len, const uint8_t *sig,
                   size_t sig_len)
{
  uint8_t der[2 * 48 + 16];
  if (key->half) {
    sig_len = ecdsa_der(key, sig, sig_len, der, sizeof der);
    sig = der;
    if (sig_len == 0)
      return false;
  }
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  bool ok = ctx && EVP_DigestVerifyInit(ctx, NULL, key->md, NULL, key->pkey) == 1 &&
            EVP_DigestVerify(ctx, sig, sig_len, data, len) == 1;
  EVP_MD_CTX_free(ctx);
  return ok;
}

struct zp_digest {
  EVP_MD *md;
  EVP_MD_CTX *ctx;
};

zp_digest *zp_digest_new(zp_digest_alg alg)
{
  static const char *const names[] = {NULL, "SHA1", "SHA256", "SHA384", "SHA512"};
  zp_digest *d = alg != ZP_DIGEST_NONE ? calloc(1, sizeof *d) : NULL;
  if (!d)
    return NULL;
  /* (fetched once: an EVP_sha1() would be looked up again at every start) */
  d->md = EVP_MD_fetch(NULL, names[alg], NULL);
  d->ctx = EVP_MD_CTX_new();
  if (!d->md || !d->ctx) {
    zp_digest_free(d);
    return NULL;
  }
  return d;
}

bool zp_digest_begin(zp_digest *d)
{
  return EVP_DigestInit_ex(d->ctx, d->md, NULL) == 1;
}

bool zp_digest_put(zp_digest *d, const void *p, size_t n)
{
  return EVP_DigestUpdate(d->ctx, p, n) == 1;
}

size_t zp_digest_end(zp_digest *d, uint8_t *out)
{
  unsigned n = 0;
  return EVP_DigestFinal_ex(d->ctx, out, &n) == 1 ? n : 0;
}

void zp_digest_free(zp_digest *d)
{
  if (!d)
    return;
  EVP_MD_CTX_free(d->ctx);
  EVP_MD_free(d->md);
  free(d);
}
