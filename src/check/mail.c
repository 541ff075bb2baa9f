/* mail.c -- -W mail (off by default): the TXT records mail receivers read, as they read them.
 * SPF (RFC 7208): one record a name, its terms' syntax, "ptr" and "+all", and the DNS lookups
 * it costs, those of the SPF records it includes inside the zone added in (past 10 receivers
 * fail it); DMARC (RFC 7489) at _dmarc names: its tags and their values; DKIM key records
 * (RFC 6376 section 3.6.1) at SELECTOR._domainkey names: one a selector, p= base64 holding a
 * key receivers take (RSA of 1024 bits at least, RFC 8301; Ed25519's 32 octets, RFC 8463). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <arpa/inet.h>
#include <sys/socket.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "check_int.h"

enum { LOOKUPS_MAX = 10, TARGETS_MAX = LOOKUPS_MAX + 1 };

/* A mail record kept: its kind, its owner's hash, where it is; an SPF record's lookups of its
 * own terms and the names it includes or redirects to (their hashes), counted at the end. */
enum { SPF, DMARC, DKIM };
struct zp_ck_spf {
  uint64_t owner;
  uint8_t name[ZP_NAME_MAX];   /* (an SPF record's, for the count's message) */
  zp_ck_tuple at;
  uint8_t kind, own, ntargets;
  uint64_t target[TARGETS_MAX];
};
typedef struct zp_ck_spf zp_ck_spf;

/* A domain-spec's text (no macros, at most 253 octets) in wire form; false when it is none. */
static bool text_wire(const char *s, size_t n, uint8_t *wire)
{
  if (n && s[n - 1] == '.')
    n--;
  if (n == 0 || n > 253 || memchr(s, '%', n))
    return false;
  size_t w = 0, start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && s[i] != '.')
      continue;
    if (i == start || i - start > ZP_LABEL_MAX)
      return false;
    wire[w++] = (uint8_t)(i - start);
    memcpy(wire + w, s + start, i - start);
    w += i - start;
    start = i + 1;
  }
  wire[w] = 0;
  return true;
}

/* Whether s[0..n) is an IPv4 (v6: IPv6) address with an optional /prefix in range. */
static bool ip_cidr(const char *s, size_t n, bool v6)
{
  char text[64];
  if (n >= sizeof text)
    return false;
  memcpy(text, s, n);
  text[n] = '\0';
  char *slash = strchr(text, '/');
  if (slash) {
    char *end;
    long p = strtol(slash + 1, &end, 10);
    if (end == slash + 1 || *end || p < 0 || p > (v6 ? 128 : 32) ||
        (slash[1] == '0' && slash[2]))
      return false;
    *slash = '\0';
  }
  unsigned char buf[16];
  return inet_pton(v6 ? AF_INET6 : AF_INET, text, buf) == 1;
}

/* a and mx: [":" domain-spec] [ip4-cidr-length] ["//" ip6-cidr-length] (RFC 7208 5.3, 5.4). */
static bool dual_cidr(const char *s, size_t n)
{
  const char *slash = memchr(s, '/', n);
  if (!slash)
    return true;
  size_t k = (size_t)(slash - s);
  int parts = 0;
  while (k < n) {
    if (s[k] != '/')
      return false;
    bool v6 = k + 1 < n && s[k + 1] == '/';
    k += v6 ? 2 : 1;
    size_t digits = 0;
    long p = 0;
    while (k < n && s[k] >= '0' && s[k] <= '9' && digits < 4)
      p = p * 10 + (s[k++] - '0'), digits++;
    if (!digits || p > (v6 ? 128 : 32) || (v6 && parts & 2) || (!v6 && parts))
      return false;
    parts |= v6 ? 2 : 1;
  }
  return true;
}

/* Keeps rec (past a sixteenth of --check-memory, not: told once at the end). */
static void keep(zp_checker *c, const zp_ck_spf *rec)
{
  if (c->nspf == c->spf_cap) {
    size_t cap = c->spf_cap ? 2 * c->spf_cap : 64;
    zp_ck_spf *s = cap * sizeof *s <= zp_ck_mem(c) / 16 ? realloc(c->spf, cap * sizeof *s) : NULL;
    if (!s) {
      c->spf_uncounted = true;
      return;
    }
    c->spf = s;
    c->spf_cap = cap;
  }
  if (zp_ck_kset_add(&c->mail_names, rec->owner ^ rec->kind, (uint32_t)c->nspf))
    c->spf[c->nspf++] = *rec;
  else
    c->spf_uncounted = true;
}

/* Whether a record of kind is at owner already (told, naming it, with what receivers do). */
static bool again(zp_checker *c, const zp_record *r, const zp_ck_tuple *t, int kind)
{
  uint64_t owner = zp_ck_name_hash(r->owner);
  const zp_ck_kentry *e = zp_ck_kset_find(&c->mail_names, owner ^ (uint64_t)kind);
  if (!e) {
    if (kind != SPF)
      keep(c, &(zp_ck_spf){.owner = owner, .at = *t, .kind = (uint8_t)kind});
    return false;
  }
  char first[600];
  snprintf(first, sizeof first, "%s", zp_ck_where(c, &c->spf[e->val].at));
  const char *name = zp_ck_name_text(r->owner);
  if (kind == SPF)
    zp_ck_report(c, ZP_CK_MAIL, t, "a second SPF record at %s (the first at %s): receivers "
                 "find two and fail SPF for it with a permanent error (RFC 7208 section 4.5)",
                 name, first);
  else if (kind == DMARC)
    zp_ck_report(c, ZP_CK_MAIL, t, "a second DMARC record at %s (the first at %s): receivers "
                 "find two and apply no policy (RFC 7489 section 6.6.3)", name, first);
  else
    zp_ck_report(c, ZP_CK_MAIL, t, "a second TXT record at the DKIM selector %s (the first at "
                 "%s): a key is one record, its strings joined (RFC 6376 section 3.6.2.2); "
                 "receivers take neither, or the wrong one", name, first);
  return true;
}

static const char *const mechanisms[] = {"all", "include", "a", "mx", "ptr", "ip4", "ip6",
                                         "exists"};
enum { ALL, INCLUDE, A, MX, PTR, IP4, IP6, EXISTS, MECHANISMS };

/* The SPF record v[0..n) of r: its terms judged, its lookups kept for the end. */
static void spf(zp_checker *c, const zp_record *r, const zp_ck_tuple *t, const char *v, size_t n)
{
  const char *name = zp_ck_name_text(r->owner);
  zp_ck_spf rec = {.owner = zp_ck_name_hash(r->owner), .at = *t, .kind = SPF};
  memcpy(rec.name, r->owner, zp_name_wire_len(r->owner));
  bool redirect = false, exp = false;
  for (size_t i = 6; i < n;) {
    while (i < n && v[i] == ' ')
      i++;
    size_t start = i;
    while (i < n && v[i] != ' ')
      i++;
    if (i == start)
      break;
    const char *term = v + start;
    size_t len = i - start;
    const char *eq = memchr(term, '=', len), *colon = memchr(term, ':', len);
    size_t nlen = strcspn(term, "=:/ ");
    nlen = nlen < len ? nlen : len;
    if (eq && (!colon || eq < colon) && (size_t)(eq - term) == nlen) {   /* a modifier */
      bool is_redirect = nlen == 8 && strncasecmp(term, "redirect", 8) == 0;
      bool is_exp = nlen == 3 && strncasecmp(term, "exp", 3) == 0;
      if ((is_redirect && redirect) || (is_exp && exp))
        zp_ck_report(c, ZP_CK_MAIL, t, "SPF at %s: \"%.*s\" twice: receivers fail it with a "
                     "permanent error (RFC 7208 section 6)", name, (int)nlen, term);
      redirect |= is_redirect;
      exp |= is_exp;
      uint8_t wire[ZP_NAME_MAX];
      if (is_redirect) {
        rec.own++;
        if (rec.ntargets < TARGETS_MAX && text_wire(eq + 1, len - nlen - 1, wire))
          rec.target[rec.ntargets++] = zp_ck_name_hash(wire);
      }
      continue;
    }
    char q = term[0];
    bool qualified = q == '+' || q == '-' || q == '~' || q == '?';
    const char *mech = term + qualified;
    size_t mlen = strcspn(mech, ":/ ");
    mlen = mlen < len - qualified ? mlen : len - qualified;
    size_t k;
    for (k = 0; k < MECHANISMS; k++)
      if (strlen(mechanisms[k]) == mlen && strncasecmp(mech, mechanisms[k], mlen) == 0)
        break;
    const char *arg = mech + mlen;
    size_t alen = len - qualified - mlen;
    const char *why = NULL;
    uint8_t wire[ZP_NAME_MAX];
    switch (k) {
    case ALL:
      if (alen)
        why = "\"all\" takes nothing after it";
      else if (q == '+' || !qualified)
        zp_ck_report(c, ZP_CK_MAIL, t, "SPF at %s: \"%.*s\" lets every host on the Internet "
                     "send mail as %s (RFC 7208 section 5.1: use \"-all\" or \"~all\")", name,
                     (int)len, term, name);
      break;
    case INCLUDE: case EXISTS:
      if (alen < 2 || arg[0] != ':')
        why = k == INCLUDE ? "\"include\" needs \":\" and a domain (RFC 7208 section 5.2)"
                           : "\"exists\" needs \":\" and a domain (RFC 7208 section 5.7)";
      rec.own++;
      if (!why && k == INCLUDE && rec.ntargets < TARGETS_MAX && text_wire(arg + 1, alen - 1, wire))
        rec.target[rec.ntargets++] = zp_ck_name_hash(wire);
      break;
    case A: case MX: case PTR:
      rec.own++;
      if (alen && arg[0] != ':' && arg[0] != '/')
        why = "a mechanism is followed by \":\" and a domain, or \"/\" and a prefix length";
      else if (k != PTR && !dual_cidr(arg, alen))
        why = "its prefix lengths are \"/N\" (IPv4, at most 32) and \"//N\" (IPv6, at most 128)";
      if (k == PTR)
        zp_ck_report(c, ZP_CK_MAIL, t, "SPF at %s: \"ptr\" is slow and unreliable, and "
                     "receivers may skip it (RFC 7208 section 5.5: it SHOULD NOT be used)", name);
      break;
    case IP4: case IP6:
      if (alen < 2 || arg[0] != ':' || !ip_cidr(arg + 1, alen - 1, k == IP6))
        why = k == IP4 ? "\"ip4:\" takes an IPv4 address and an optional /prefix (at most 32)"
                       : "\"ip6:\" takes an IPv6 address and an optional /prefix (at most 128)";
      break;
    default:
      why = "no mechanism or modifier of RFC 7208 (all, include, a, mx, ptr, ip4, ip6, exists; "
            "redirect=, exp=)";
    }
    if (why)
      zp_ck_report(c, ZP_CK_MAIL, t, "SPF at %s: \"%.*s\": %s: receivers fail it with a "
                   "permanent error", name, (int)len, term, why);
  }
  keep(c, &rec);
}

/* The lookups of SPF record i, those of the records it includes in the zone added in, counted
 * until they pass 10 (what receivers allow): a record whose count passes 10 is not followed
 * further, so a zone of records that include one another in loops and fans costs a bounded walk
 * a record, not one exponential in its depth; depth bounds a chain. */
static unsigned lookups(const zp_checker *c, size_t i, unsigned depth)
{
  unsigned n = c->spf[i].own;
  for (size_t k = 0; k < c->spf[i].ntargets && n <= LOOKUPS_MAX && depth < LOOKUPS_MAX; k++) {
    const zp_ck_kentry *e = zp_ck_kset_find(&c->mail_names, c->spf[i].target[k] ^ SPF);
    if (e)
      n += lookups(c, e->val, depth + 1);
  }
  return n;
}

void zp_ck_mail_end(zp_checker *c)
{
  for (size_t i = 0; i < c->nspf; i++) {
    if (c->spf[i].kind != SPF)
      continue;
    unsigned n = lookups(c, i, 0);
    if (n > LOOKUPS_MAX)
      zp_ck_report(c, ZP_CK_MAIL, &c->spf[i].at, "SPF at %s needs %u or more DNS lookups "
                   "(include, a, mx, ptr, exists, redirect, with those of the SPF records it "
                   "includes in the zone): past 10, receivers fail it with a permanent error (RFC "
                   "7208 section 4.6.4)", zp_ck_name_text(c->spf[i].name), n);
  }
  if (c->spf_uncounted && c->nspf)
    zp_ck_report(c, ZP_CK_MAIL, &c->spf[0].at, "SPF lookups not counted: the zone's SPF records "
                 "need more than a sixteenth of --check-memory");
  zp_ck_mail_free(c);
}

void zp_ck_mail_free(zp_checker *c)
{
  free(c->spf);
  c->spf = NULL;
  c->nspf = c->spf_cap = 0;
  zp_ck_kset_free(&c->mail_names);
}

/* The tags of a tag list (RFC 6376 section 3.2, RFC 7489 section 6.4): name "=" value, split
 * by ";", blanks around each trimmed. Calls fn with each; the number of tags. */
typedef void tag_fn(zp_checker *c, const zp_ck_tuple *t, const char *name, size_t tag_index,
                    const char *tag, size_t tn, const char *val, size_t vn, void *user);
static size_t tags(zp_checker *c, const zp_ck_tuple *t, const char *owner, const char *v,
                   size_t n, tag_fn *fn, void *user)
{
  size_t count = 0;
  for (size_t i = 0; i < n; i++) {
    size_t start = i;
    while (i < n && v[i] != ';')
      i++;
    const char *s = v + start, *e = v + i;
    while (s < e && (*s == ' ' || *s == '\t'))
      s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
      e--;
    if (s == e)
      continue;
    const char *eq = memchr(s, '=', (size_t)(e - s));
    const char *tn_end = eq ? eq : e;
    while (tn_end > s && (tn_end[-1] == ' ' || tn_end[-1] == '\t'))
      tn_end--;
    const char *val = eq ? eq + 1 : e;
    while (val < e && (*val == ' ' || *val == '\t'))
      val++;
    fn(c, t, owner, count++, s, (size_t)(tn_end - s), val, (size_t)(e - val), user);
  }
  return count;
}

static bool tag_is(const char *tag, size_t tn, const char *want)
{
  return strlen(want) == tn && strncasecmp(tag, want, tn) == 0;
}

static bool word_in(const char *v, size_t n, const char *const *words)
{
  for (; *words; words++)
    if (tag_is(v, n, *words))
      return true;
  return false;
}

/* RFC 7489 section 6.3's tags of a DMARC record. */
static void dmarc_tag(zp_checker *c, const zp_ck_tuple *t, const char *name, size_t index,
                      const char *tag, size_t tn, const char *val, size_t vn, void *user)
{
  size_t *p_at = user;   /* (the index of the p tag; 0: none) */
  static const char *const policies[] = {"none", "quarantine", "reject", NULL};
  static const char *const modes[] = {"r", "s", NULL};
  static const char *const others[] = {"v", "p", "sp", "adkim", "aspf", "pct", "fo", "rf",
                                       "ri", "rua", "ruf", NULL};
  const char *why = NULL;
  if (tag_is(tag, tn, "p") && index != 1 && !*p_at)
    zp_ck_report(c, ZP_CK_MAIL, t, "DMARC at %s: \"p\" comes right after \"v\" (RFC 7489 "
                 "section 6.4)", name);
  if (tag_is(tag, tn, "p"))
    *p_at = index;
  if (tag_is(tag, tn, "p") || tag_is(tag, tn, "sp")) {
    if (!word_in(val, vn, policies))
      why = "a policy is none, quarantine or reject";
  } else if (tag_is(tag, tn, "adkim") || tag_is(tag, tn, "aspf")) {
    if (!word_in(val, vn, modes))
      why = "an alignment mode is r (relaxed) or s (strict)";
  } else if (tag_is(tag, tn, "pct")) {
    size_t d = 0;
    unsigned p = 0;
    while (d < vn && val[d] >= '0' && val[d] <= '9' && p <= 100)
      p = p * 10 + (unsigned)(val[d++] - '0');
    if (!vn || d != vn || p > 100)
      why = "pct is a percentage, 0 to 100";
  } else if (tag_is(tag, tn, "rua") || tag_is(tag, tn, "ruf")) {
    for (size_t i = 0; i < vn && !why; i++) {
      size_t s = i;
      while (i < vn && val[i] != ',')
        i++;
      while (s < i && val[s] == ' ')
        s++;
      if (i - s < 8 || strncasecmp(val + s, "mailto:", 7) != 0 || !memchr(val + s, '@', i - s))
        why = "reports go to mailto: addresses, separated by commas (RFC 7489 section 6.2)";
    }
  } else if (tag_is(tag, tn, "fo")) {
    for (size_t i = 0; i < vn && !why; i += 2)
      if (!strchr("01ds", val[i]) || (i + 1 < vn && val[i + 1] != ':'))
        why = "fo is 0, 1, d or s, separated by colons";
  } else if (tag_is(tag, tn, "rf")) {
    if (!tag_is(val, vn, "afrf"))
      why = "the one report format is afrf";
  } else if (tag_is(tag, tn, "ri")) {
    if (!vn || strspn(val, "0123456789") < vn)
      why = "ri is a number of seconds";
  } else if (!word_in(tag, tn, others)) {
    why = "no tag of RFC 7489 section 6.3: receivers ignore it";
  }
  if (why)
    zp_ck_report(c, ZP_CK_MAIL, t, "DMARC at %s: \"%.*s=%.*s\": %s", name, (int)tn, tag, (int)vn,
                 val, why);
}

/* A DKIM key record's tags (RFC 6376 section 3.6.1): what p= and k= hold. */
typedef struct dkim {
  const char *p, *k;
  size_t pn, kn;
  bool has_p, version_late;
} dkim;

static void dkim_tag(zp_checker *c, const zp_ck_tuple *t, const char *name, size_t index,
                     const char *tag, size_t tn, const char *val, size_t vn, void *user)
{
  (void)c, (void)t, (void)name;
  dkim *d = user;
  if (tag_is(tag, tn, "p")) {
    d->p = val;
    d->pn = vn;
    d->has_p = true;
  } else if (tag_is(tag, tn, "k")) {
    d->k = val;
    d->kn = vn;
  } else if (tag_is(tag, tn, "v") && index > 0) {
    d->version_late = true;
  }
}

/* What is wrong with DKIM key p[0..n) of type k, or NULL; base64 with blanks between. */
static const char *dkim_key(const char *p, size_t n, const char *k, size_t kn, char *why,
                            size_t cap)
{
  unsigned char b64[4096] = {0}, raw[3072];
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == ' ' || p[i] == '\t')
      continue;
    if (m == sizeof b64 ||
        !((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' && p[i] <= 'z') ||
          (p[i] >= '0' && p[i] <= '9') || p[i] == '+' || p[i] == '/' || p[i] == '=')) {
      snprintf(why, cap, "p= holds '%c', which is no base64 (a key split into strings with a "
               "quote or a character too many?)", p[i]);
      return why;
    }
    b64[m++] = (unsigned char)p[i];
  }
  if (m % 4) {
    snprintf(why, cap, "p= is %zu base64 characters, not a multiple of 4: the key is cut short "
             "or split wrongly", m);
    return why;
  }
  int len = EVP_DecodeBlock(raw, b64, (int)m);
  if (len < 0) {
    snprintf(why, cap, "p= is no base64");
    return why;
  }
  if (m)
    len -= (b64[m - 1] == '=') + (m > 1 && b64[m - 2] == '=');
  if (kn && tag_is(k, kn, "ed25519")) {
    if (len != 32)
      snprintf(why, cap, "an Ed25519 key is 32 octets, this one %d (RFC 8463 section 4)", len);
    return len != 32 ? why : NULL;
  }
  if (kn && !tag_is(k, kn, "rsa")) {
    snprintf(why, cap, "k=%.*s is no key type of RFC 6376 or RFC 8463 (rsa, ed25519)", (int)kn, k);
    return why;
  }
  const unsigned char *q = raw;
  EVP_PKEY *key = d2i_PUBKEY(NULL, &q, len);
  if (!key) {
    q = raw;
    key = d2i_PublicKey(EVP_PKEY_RSA, NULL, &q, len);
  }
  if (!key) {
    snprintf(why, cap, "p= decodes to no RSA public key (a key split wrongly, or cut short?)");
    return why;
  }
  int bits = EVP_PKEY_get_bits(key);
  EVP_PKEY_free(key);
  if (bits < 1024) {
    snprintf(why, cap, "an RSA key of %d bits: receivers refuse keys under 1024 bits (RFC 8301 "
             "section 3.2)", bits);
    return why;
  }
  return NULL;
}

/* The label above name's first: "_dmarc" or "_domainkey" at first (DMARC), second (DKIM). */
static bool label_is(const uint8_t *wire, size_t at, const char *want)
{
  for (size_t i = 0; i < at && *wire; i++)
    wire += *wire + 1;
  return *wire == strlen(want) && strncasecmp((const char *)wire + 1, want, *wire) == 0;
}

void zp_ck_mail(zp_checker *c, const zp_record *r, const zp_ck_tuple *t)
{
  if (r->rtype != ZP_TYPE_TXT || !zp_ck_on(c, ZP_CK_MAIL) || !r->rdata || r->generic)
    return;
  /* the strings end to end, as receivers read them (RFC 7208 section 3.3, RFC 6376 3.6.2.2) */
  static char v[65536];
  size_t n = 0;
  for (size_t i = 0; i < r->rdlen; i += 1u + r->rdata[i]) {
    size_t len = r->rdata[i];
    if (i + 1 + len > r->rdlen)
      return;
    memcpy(v + n, r->rdata + i + 1, len);
    n += len;
  }
  const char *name = zp_ck_name_text(r->owner);
  if (n >= 6 && strncasecmp(v, "v=spf1", 6) == 0 && (n == 6 || v[6] == ' ')) {
    if (!again(c, r, t, SPF))
      spf(c, r, t, v, n);
  } else if (label_is(r->owner, 0, "_dmarc") && n >= 8 && strncmp(v, "v=DMARC1", 8) == 0) {
    if (again(c, r, t, DMARC))
      return;
    size_t p_at = 0;
    tags(c, t, name, v, n, dmarc_tag, &p_at);
    if (!p_at)
      zp_ck_report(c, ZP_CK_MAIL, t, "DMARC at %s: no \"p\" tag: the record asks nothing of "
                   "receivers (RFC 7489 section 6.3: p is required)", name);
  } else if (label_is(r->owner, 1, "_domainkey")) {
    if (again(c, r, t, DKIM))
      return;
    dkim d = {0};
    tags(c, t, name, v, n, dkim_tag, &d);
    char why[200];
    if (!d.has_p)
      zp_ck_report(c, ZP_CK_MAIL, t, "DKIM key at %s: no p= tag: receivers find no key here "
                   "(RFC 6376 section 3.6.1; one key is one TXT record, its strings joined)",
                   name);
    else if (d.version_late)
      zp_ck_report(c, ZP_CK_MAIL, t, "DKIM key at %s: v= must be the first tag (RFC 6376 "
                   "section 3.6.1)", name);
    else if (d.pn && dkim_key(d.p, d.pn, d.k, d.kn, why, sizeof why))
      zp_ck_report(c, ZP_CK_MAIL, t, "DKIM key at %s: %s", name, why);
  }
}
