/* sig.c -- DNSSEC's cryptography for the checks: key tags, public keys from DNSKEY RDATA
 * (RFC 3110, RFC 6605, RFC 8080), signatures verified through OpenSSL's libcrypto */
#include "sig.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

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
  return alg == 5 || alg == 7 || alg == 8 || alg == 10 || (alg >= 13 && alg <= 16);
}

const char *zp_sig_alg_deprecated(uint8_t alg)
{
  switch (alg) {
  case 1: return "RSAMD5";
  case 3: return "DSA";
  case 5: return "RSASHA1";
  case 6: return "DSA-NSEC3-SHA1";
  case 7: return "RSASHA1-NSEC3-SHA1";
  case 12: return "ECC-GOST";
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

/* RFC 3110 section 2: an exponent length (one octet, or 0 and two), the exponent, the modulus. */
static EVP_PKEY *rsa_key(const uint8_t *k, size_t n)
{
  size_t elen, at;
  if (n >= 1 && k[0] != 0) {
    elen = k[0];
    at = 1;
  } else if (n >= 3) {
    elen = (size_t)k[1] << 8 | k[2];
    at = 3;
  } else {
    return NULL;
  }
  if (elen == 0 || at + elen >= n)
    return NULL;
  EVP_PKEY *pkey = NULL;
  BIGNUM *e = BN_bin2bn(k + at, (int)elen, NULL), *m = BN_bin2bn(k + at + elen,
                                                                  (int)(n - at - elen), NULL);
  OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
  if (e && m && b && OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, m) == 1 &&
      OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, e) == 1)
    pkey = from_params("RSA", b);
  OSSL_PARAM_BLD_free(b);
  BN_free(e);
  BN_free(m);
  return pkey;
}

/* RFC 6605 section 4: the point's x and y, each half the key, uncompressed. */
static EVP_PKEY *ec_key(const char *group, const uint8_t *k, size_t n, size_t half)
{
  if (n != 2 * half)
    return NULL;
  uint8_t point[1 + 2 * 48];
  point[0] = 4;   /* POINT_CONVERSION_UNCOMPRESSED (SEC 1 section 2.3.3) */
  memcpy(point + 1, k, n);
  EVP_PKEY *pkey = NULL;
  OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
  if (b && OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) == 1 &&
      OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, point, n + 1) == 1)
    pkey = from_params("EC", b);
  OSSL_PARAM_BLD_free(b);
  return pkey;
}

zp_sig_key *zp_sig_key_new(const uint8_t *rdata, size_t rdlen)
{
  if (rdlen < 5 || !zp_sig_alg_supported(rdata[3]))
    return NULL;
  zp_sig_key *key = calloc(1, sizeof *key);
  if (!key)
    return NULL;
  const uint8_t *k = rdata + 4;
  size_t n = rdlen - 4;
  key->alg = rdata[3];
  switch (key->alg) {
  case 5: case 7: key->md = EVP_sha1(); key->pkey = rsa_key(k, n); break;
  case 8: key->md = EVP_sha256(); key->pkey = rsa_key(k, n); break;
  case 10: key->md = EVP_sha512(); key->pkey = rsa_key(k, n); break;
  case 13:
    key->md = EVP_sha256();
    key->half = 32;
    key->pkey = ec_key("prime256v1", k, n, 32);
    break;
  case 14:
    key->md = EVP_sha384();
    key->half = 48;
    key->pkey = ec_key("secp384r1", k, n, 48);
    break;
  case 15:   /* RFC 8080 section 3: the public key as RFC 8032 encodes it */
    key->pkey = n == 32 ? EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, k, n) : NULL;
    break;
  case 16:
    key->pkey = n == 57 ? EVP_PKEY_new_raw_public_key(EVP_PKEY_ED448, NULL, k, n) : NULL;
    break;
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
  static const char *const names[] = {"SHA1", "SHA256", "SHA384", "SHA512"};
  zp_digest *d = calloc(1, sizeof *d);
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
