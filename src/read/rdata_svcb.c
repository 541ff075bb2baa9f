/* rdata_svcb.c -- SVCB and HTTPS service parameters (RFC 9460): presentation form and RFC 3597
 * octets to checked wire form. One set of rules for both: each value as the document its key is
 * registered with defines it, keys once each and in increasing order, and what RFC 9460 asks of
 * the record as a whole. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idna/utf8.h"
#include "rdata_int.h"

/* RFC 9461 section 5: a URI template (RFC 6570) for a path on the server, so starting with '/',
 * in UTF-8, with an expression that names a variable "dns". */
static bool dohpath_ok(const uint8_t *v, size_t n)
{
  size_t bad;
  if (n == 0 || v[0] != '/' || zp_utf8_validate(v, n, &bad) != ZP_OK)
    return false;
  for (size_t i = 0; i < n; i++) {
    if (v[i] != '{')
      continue;
    const uint8_t *close = memchr(v + i, '}', n - i);
    if (!close)
      return false;
    size_t end = (size_t)(close - v), j = i + 1;
    if (j < end && strchr("+#./;?&=,!@|", v[j]))   /* an operator, RFC 6570 section 2.2 */
      j++;
    while (j < end) {   /* varspecs, each with an optional modifier (section 2.4) */
      size_t start = j;
      while (j < end && v[j] != ',' && v[j] != ':' && v[j] != '*')
        j++;
      if (j - start == 3 && memcmp(v + start, "dns", 3) == 0)
        return true;
      while (j < end && v[j] != ',')
        j++;
      j++;
    }
    i = end;
  }
  return false;
}

/* What is wrong with the value v[0..n) of key in wire form, or NULL: the formats of RFC 9460
 * section 7 and of the documents of the keys registered since (record/rrtype.h); keys not registered
 * take any octets. */
static const char *value_bad(uint16_t key, const uint8_t *v, size_t n)
{
  switch (key) {
  case ZP_SVC_MANDATORY:
    if (n == 0 || n % 2)
      return "mandatory lists one or more keys (RFC 9460 section 8)";
    for (size_t i = 0; i < n; i += 2) {
      unsigned k = (unsigned)v[i] << 8 | v[i + 1];
      if (k == ZP_SVC_MANDATORY)
        return "mandatory may not list itself (RFC 9460 section 8)";
      if (i > 0 && k <= ((unsigned)v[i - 2] << 8 | v[i - 1]))
        return "mandatory lists each key once, in increasing order (RFC 9460 section 8)";
    }
    return NULL;
  case ZP_SVC_ALPN:
    if (n == 0)
      return "alpn lists one or more protocol ids (RFC 9460 section 7.1.1)";
    for (size_t i = 0; i < n; i += 1u + v[i])
      if (v[i] == 0 || v[i] > n - i - 1)
        return "an alpn protocol id is 1 to 255 octets (RFC 9460 section 7.1.1)";
    return NULL;
  case ZP_SVC_NO_DEFAULT_ALPN:
    return n ? "no-default-alpn has no value (RFC 9460 section 7.1.1)" : NULL;
  case ZP_SVC_OHTTP:
    return n ? "ohttp has no value (RFC 9540 section 4)" : NULL;
  case ZP_SVC_PORT:
    return n != 2 ? "port is a number from 0 to 65535 (RFC 9460 section 7.2)" : NULL;
  case ZP_SVC_IPV4HINT:
    return n == 0 || n % 4 ? "ipv4hint lists one or more IPv4 addresses (RFC 9460 section 7.3)"
                           : NULL;
  case ZP_SVC_IPV6HINT:
    return n == 0 || n % 16 ? "ipv6hint lists one or more IPv6 addresses (RFC 9460 section 7.3)"
                            : NULL;
  case ZP_SVC_ECH:
    return n == 0 ? "ech holds an ECHConfigList in base64, not empty (RFC 9460 section 9)" : NULL;
  case ZP_SVC_DOHPATH:
    return dohpath_ok(v, n) ? NULL
                            : "dohpath is a URI template in UTF-8 that starts with '/' and "
                              "has a variable \"dns\" (RFC 9461 section 5)";
  case ZP_SVC_TLS_GROUPS: {
    /* codepoints in the order of the server's preference, which is kept */
    uint8_t seen[65536 / 8] = {0};
    if (n == 0 || n % 2)
      return "tls-supported-groups lists one or more TLS named groups, numbers from 0 to 65535 "
             "(draft-ietf-tls-key-share-prediction section 3.1)";
    for (size_t i = 0; i < n; i += 2) {
      unsigned g = (unsigned)v[i] << 8 | v[i + 1];
      if (seen[g >> 3] & (0x80 >> (g & 7)))
        return "tls-supported-groups lists each group once (draft-ietf-tls-key-share-prediction "
               "section 3.1)";
      seen[g >> 3] |= (uint8_t)(0x80 >> (g & 7));
    }
    return NULL;
  }
  case ZP_SVC_DOCPATH:
    /* none at all is the root path "/" */
    for (size_t i = 0; i < n; i += 1u + v[i])
      if (v[i] == 0 || v[i] > n - i - 1)
        return "docpath holds path segments of 1 to 255 octets, each after its length octet "
               "(RFC 9953 section 3)";
    return NULL;
  case ZP_SVC_PVD:
    return n ? "pvd has no value (draft-ietf-intarea-proxy-config section 2.1)" : NULL;
  default:
    return NULL;
  }
}

static bool has(const uint8_t *seen, uint16_t key)
{
  return seen[key >> 3] & (0x80 >> (key & 7));
}

/* What RFC 9460 asks of the parameters p[0..n) (wire form, in order) as a whole, or NULL; *key
 * is then the key at fault. */
static const char *rules_bad(uint16_t priority, const uint8_t *p, size_t n, uint16_t *key, char *msg,
                             size_t size)
{
  uint8_t seen[65536 / 8] = {0};
  const uint8_t *mandatory = NULL;
  size_t mlen = 0;
  if (priority == 0 && n > 0) {
    *key = (uint16_t)(p[0] << 8 | p[1]);
    return "an SVCB record in AliasMode (priority 0) has no parameters: every client ignores "
           "them (RFC 9460 section 2.4.2)";
  }
  for (size_t i = 0; i < n; i += 4u + (p[i + 2] << 8 | p[i + 3])) {
    uint16_t k = (uint16_t)(p[i] << 8 | p[i + 1]);
    seen[k >> 3] |= (uint8_t)(0x80 >> (k & 7));
    if (k == ZP_SVC_MANDATORY) {
      mandatory = p + i + 4;
      mlen = (size_t)(p[i + 2] << 8 | p[i + 3]);
    }
  }
  for (size_t i = 0; i < mlen; i += 2) {
    uint16_t k = (uint16_t)(mandatory[i] << 8 | mandatory[i + 1]);
    char kb[ZP_RRTYPE_TEXT_MAX];
    if (!has(seen, k)) {
      *key = ZP_SVC_MANDATORY;
      snprintf(msg, size, "mandatory lists %s, which this record does not have (RFC 9460 "
               "section 8)", zp_svckey_name(k, kb));
      return msg;
    }
  }
  if (has(seen, ZP_SVC_NO_DEFAULT_ALPN) && !has(seen, ZP_SVC_ALPN)) {
    *key = ZP_SVC_NO_DEFAULT_ALPN;
    return "no-default-alpn needs alpn in the same record (RFC 9460 section 7.1.1)";
  }
  return NULL;
}

/* ---- presentation form ---- */

typedef struct param {
  uint16_t key;
  uint32_t off;      /* of its key in the wire form, from the first parameter */
  uint32_t len;      /* of key, length and value */
  uint32_t field;    /* where it is written */
} param;

typedef struct svc {
  zp_rd *r;
  size_t base;                  /* r->out offset of the first parameter */
  uint8_t seen[65536 / 8];
  uint8_t value[ZP_RDATA_MAX];  /* a value with escapes resolved; then a copy for the sort */
  size_t n;
  param params[];               /* one per field at most */
} svc;

static int by_key(const void *a, const void *b)
{
  return (int)((const param *)a)->key - (int)((const param *)b)->key;
}

static int by_u16(const void *a, const void *b)
{
  const uint8_t *x = a, *y = b;
  return (x[0] << 8 | x[1]) - (y[0] << 8 | y[1]);
}

/* A comma-separated list without escapes (mandatory, ipv4hint, ipv6hint: RFC 9460 appendix
 * A.1 simple-comma-separated), each item through one(); reported at field fi, offset at. */
static bool simple_list(zp_rd *r, const char *t, size_t n, size_t fi, size_t at,
                        bool (*one)(zp_rd *, const char *, size_t, size_t, size_t))
{
  size_t start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && t[i] != ',')
      continue;
    if (i == start)
      return zp_rd_fail(r, fi, at + i, "empty item in a comma-separated list (RFC 9460 "
                        "appendix A.1)");
    if (!one(r, t + start, i - start, fi, at + start))
      return false;
    start = i + 1;
  }
  return true;
}

static bool one_key(zp_rd *r, const char *t, size_t n, size_t fi, size_t at)
{
  uint16_t k;
  if (!zp_svckey_from_text(t, n, &k))
    return zp_rd_fail(r, fi, at, "mandatory lists \"%.*s\", which is not a parameter key (RFC "
                      "9460 section 8)", (int)n, t);
  return zp_rd_put_u16(r, k);
}

static bool one_address(zp_rd *r, const char *t, size_t n, size_t fi, size_t at, int af)
{
  char text[INET6_ADDRSTRLEN + 1];
  uint8_t a[16];
  if (n >= sizeof text || memchr(t, '\0', n))
    n = sizeof text;
  else
    memcpy(text, t, n), text[n] = '\0';
  if (n == sizeof text || inet_pton(af, text, a) != 1)
    return zp_rd_fail(r, fi, at, "invalid %s address \"%.*s\" in %s RDATA",
                      af == AF_INET ? "IPv4" : "IPv6", (int)(n == sizeof text ? 0 : n), t,
                      r->tname);
  return zp_rd_put(r, a, af == AF_INET ? 4 : 16);
}

static bool one_v4(zp_rd *r, const char *t, size_t n, size_t fi, size_t at)
{
  return one_address(r, t, n, fi, at, AF_INET);
}

static bool one_v6(zp_rd *r, const char *t, size_t n, size_t fi, size_t at)
{
  return one_address(r, t, n, fi, at, AF_INET6);
}

static bool one_group(zp_rd *r, const char *t, size_t n, size_t fi, size_t at)
{
  zp_field f = {t, n, false, false, {0}};
  uint64_t v;
  if (!zp_rd_digits(&f, 65535, &v))
    return zp_rd_fail(r, fi, at, "a TLS named group is a number from 0 to 65535 "
                      "(draft-ietf-tls-key-share-prediction section 3.1)");
  return zp_rd_put_u16(r, (uint32_t)v);
}

/* The lists of length-prefixed items: their words for what is wrong. */
typedef struct id_list {
  const char *ends, *longer, *empty;
} id_list;

static const id_list alpn_ids = {
  "alpn value ends in an escape (RFC 9460 appendix A.1)",
  "an alpn protocol id is 1 to 255 octets (RFC 9460 section 7.1.1)",
  "empty alpn protocol id (RFC 9460 section 7.1.1)",
};
/* RFC 9953 section 3: the segments of the path, escaped as alpn's ids */
static const id_list docpath_segments = {
  "docpath value ends in an escape (RFC 9460 appendix A.1)",
  "a docpath segment is 1 to 255 octets (RFC 9953 section 3)",
  "empty docpath segment (RFC 9953 section 3)",
};

/* alpn, docpath: a comma-separated list whose items escape ',' and '\' with '\' (RFC 9460
 * appendix A.1), decoded after the character-string escapes (v[0..n)); each item its length
 * and octets. */
static bool items(zp_rd *r, const id_list *words, const uint8_t *v, size_t n, size_t fi)
{
  uint8_t item[256];
  size_t len = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && v[i] != ',') {
      if (v[i] == '\\' && ++i == n)
        return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "%s", words->ends);
      if (len == 255)
        return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "%s", words->longer);
      item[len++] = v[i];
      continue;
    }
    if (len == 0)
      return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "%s", words->empty);
    if (!zp_rd_put_u8(r, (uint32_t)len) || !zp_rd_put(r, item, len))
      return false;
    len = 0;
  }
  return true;
}

/* The value of key written t[0..n) (quoted or not; field fi, from offset at), in wire form.
 * Under keyNNNNN (generic) any key's value is its octets, as BIND and dnspython read it; so are
 * those of the keys that have no list, number or base64. */
static bool value(svc *s, uint16_t key, bool generic, const char *t, size_t n, size_t fi,
                  size_t at)
{
  zp_rd *r = s->r;
  bool plain = !generic && (key == ZP_SVC_MANDATORY || key == ZP_SVC_PORT ||
                            key == ZP_SVC_IPV4HINT || key == ZP_SVC_ECH ||
                            key == ZP_SVC_IPV6HINT || key == ZP_SVC_TLS_GROUPS);
  if (plain && memchr(t, '\\', n))
    return zp_rd_fail(r, fi, at + (size_t)((const char *)memchr(t, '\\', n) - t),
                      "this value is written without escapes (RFC 9460 appendix A)");
  if (plain) {
    switch (key) {
    case ZP_SVC_MANDATORY: {
      size_t from = r->n;
      if (!simple_list(r, t, n, fi, at, one_key))
        return false;
      qsort(r->out + from, (r->n - from) / 2, 2, by_u16);
      return true;
    }
    case ZP_SVC_PORT: {
      zp_field f = {t, n, false, false, {0}};
      uint64_t v;
      if (!zp_rd_digits(&f, 65535, &v))
        return zp_rd_fail(r, fi, at, "port is a number from 0 to 65535 (RFC 9460 section 7.2)");
      return zp_rd_put_u16(r, (uint32_t)v);
    }
    case ZP_SVC_IPV4HINT: return simple_list(r, t, n, fi, at, one_v4);
    case ZP_SVC_IPV6HINT: return simple_list(r, t, n, fi, at, one_v6);
    case ZP_SVC_TLS_GROUPS: return simple_list(r, t, n, fi, at, one_group);
    default: {   /* ZP_SVC_ECH */
      zp_b64 b = {0};
      return zp_rd_b64_feed(r, &b, t, n, fi, at) && zp_rd_b64_end(r, &b, fi, at + n);
    }
    }
  }
  size_t vn = zp_rd_unescape(t, n, s->value, sizeof s->value);
  if (vn > sizeof s->value)
    return zp_rd_too_long(r, fi);
  if (key == ZP_SVC_ALPN && !generic)
    return items(r, &alpn_ids, s->value, vn, fi);
  if (key == ZP_SVC_DOCPATH && !generic)
    return items(r, &docpath_segments, s->value, vn, fi);
  return zp_rd_put(r, s->value, vn);
}

/* One parameter, key or key=value (the value quoted in the field right after "key=" or not);
 * its wire form appended. */
static bool param_text(svc *s)
{
  zp_rd *r = s->r;
  const zp_field *f;
  if (!zp_rd_next(r, &f))
    return false;
  size_t fi = r->fi - 1;
  if (f->quoted)
    return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "a parameter is key or key=value, with only the "
                      "value quoted: key=\"value\" (RFC 9460 section 2.1)");
  const char *eq = memchr(f->text, '=', f->len);
  size_t klen = eq ? (size_t)(eq - f->text) : f->len;
  uint16_t key;
  if (!zp_svckey_from_text(f->text, klen, &key))
    return zp_rd_fail(r, fi, 0, "unknown parameter key \"%.*s\" in %s RDATA: mandatory, alpn, "
                      "no-default-alpn, port, ipv4hint, ech, ipv6hint, dohpath, ohttp, "
                      "tls-supported-groups, docpath, pvd, or keyNNNNN (RFC 9460 section 2.1)",
                      (int)klen, f->text, r->tname);
  if (has(s->seen, key))
    return zp_rd_fail(r, fi, 0, "parameter key \"%.*s\" given twice (RFC 9460 section 2.2)",
                      (int)klen, f->text);
  s->seen[key >> 3] |= (uint8_t)(0x80 >> (key & 7));
  const char *t = "";
  size_t n = 0, vfi = fi, at = klen + 1;
  if (eq && klen + 1 < f->len) {
    t = eq + 1;
    n = f->len - klen - 1;
  } else if (eq) {
    const zp_field *q = r->fi < r->in->nfields ? &r->in->fields[r->fi] : NULL;
    if (!q || !q->quoted || !q->joined)
      return zp_rd_fail(r, fi, klen, "a value follows '=' with no blank (RFC 9460 section "
                        "2.1)");
    t = q->text;
    n = q->len;
    vfi = r->fi++;
    at = 0;
  }
  size_t start = r->n;
  if (!zp_rd_put_u16(r, key) || !zp_rd_put_u16(r, 0))
    return false;
  /* no registered name starts with "key" */
  bool generic = klen > 3 && memcmp(f->text, "key", 3) == 0;
  /* a key named for a list or a number has a value (the others' are checked below); docpath's
   * may be empty, the root path (RFC 9953 section 3) */
  if (n == 0 && !generic && (key == ZP_SVC_MANDATORY || key == ZP_SVC_ALPN ||
                             key == ZP_SVC_PORT || key == ZP_SVC_IPV4HINT ||
                             key == ZP_SVC_IPV6HINT || key == ZP_SVC_TLS_GROUPS))
    return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "parameter \"%.*s\" needs a value (%s)",
                      (int)klen, f->text, key == ZP_SVC_TLS_GROUPS
                      ? "draft-ietf-tls-key-share-prediction section 3.1" : "RFC 9460 section 7");
  if (n > 0 && !value(s, key, generic, t, n, vfi, at))
    return false;
  size_t vlen = r->n - start - 4;
  r->out[start + 2] = (uint8_t)(vlen >> 8);
  r->out[start + 3] = (uint8_t)vlen;
  const char *bad = value_bad(key, r->out + start + 4, vlen);
  if (bad)
    return zp_rd_fail(r, vfi, ZP_RDATA_FIELD, "%s", bad);
  s->params[s->n++] = (param){key, (uint32_t)(start - s->base), (uint32_t)(r->n - start),
                              (uint32_t)fi};
  return true;
}

bool zp_rd_svcparams(zp_rd *r)
{
  svc *s = malloc(sizeof *s + (r->in->nfields - r->fi) * sizeof *s->params);
  if (!s)
    return zp_rd_fail(r, r->fi, ZP_RDATA_FIELD, "out of memory");
  memset(s->seen, 0, sizeof s->seen);
  s->r = r;
  s->base = r->n;
  s->n = 0;
  bool ok = true;
  while (ok && r->fi < r->in->nfields)
    ok = param_text(s);
  if (ok) {
    /* keys in increasing order in wire form (RFC 9460 section 2.2) */
    size_t len = r->n - s->base;
    memcpy(s->value, r->out + s->base, len);
    qsort(s->params, s->n, sizeof *s->params, by_key);
    for (size_t i = 0, at = s->base; i < s->n; at += s->params[i++].len)
      memcpy(r->out + at, s->value + s->params[i].off, s->params[i].len);
    uint16_t key;
    char msg[256];
    const char *bad = rules_bad((uint16_t)(r->out[0] << 8 | r->out[1]), r->out + s->base, len,
                                &key, msg, sizeof msg);
    if (bad) {
      size_t fi = 0;
      for (size_t i = 0; i < s->n; i++)
        if (s->params[i].key == key)
          fi = s->params[i].field;
      ok = zp_rd_fail(r, fi, ZP_RDATA_FIELD, "%s", bad);
    }
  }
  free(s);
  return ok;
}

/* ---- RFC 3597 octets ---- */

bool zp_rd_svcparams_wire(zp_rd *r, const uint8_t *in, size_t end, size_t *pos, size_t fi)
{
  size_t p = *pos;
  long last = -1;
  while (p < end) {
    if (end - p < 4)
      return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "generic RDATA is not valid %s RDATA: a "
                        "parameter is cut short", r->tname);
    uint16_t key = (uint16_t)(in[p] << 8 | in[p + 1]);
    size_t len = (size_t)(in[p + 2] << 8 | in[p + 3]);
    if ((long)key <= last)
      return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "generic RDATA is not valid %s RDATA: keys "
                        "are not in increasing order (RFC 9460 section 2.2)", r->tname);
    if (len > end - p - 4)
      return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "generic RDATA is not valid %s RDATA: a "
                        "parameter is cut short", r->tname);
    const char *bad = value_bad(key, in + p + 4, len);
    if (bad)
      return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "generic RDATA is not valid %s RDATA: %s",
                        r->tname, bad);
    last = key;
    p += 4 + len;
  }
  uint16_t key;
  char msg[256];
  const char *bad = rules_bad((uint16_t)(r->out[0] << 8 | r->out[1]), in + *pos, end - *pos,
                              &key, msg, sizeof msg);
  if (bad)
    return zp_rd_fail(r, fi, ZP_RDATA_FIELD, "%s", bad);
  if (!zp_rd_put(r, in + *pos, end - *pos))
    return false;
  *pos = end;
  return true;
}
