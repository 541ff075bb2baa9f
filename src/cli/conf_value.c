/* conf_value.c -- the values of named.conf as BIND 9.18.49 reads them (lib/isccfg/parser.c,
 * namedconf.c, lib/isccfg/duration.c, lib/dns/ttl.c, lib/isc/lex.c's numbers): numbers,
 * durations, sizes, percentages, addresses and prefixes, socket addresses, query sources;
 * words checked, and taken off the stream of tokens onto a statement (conf_grammar.c says
 * which, from named's clause tables). */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf_int.h"

int zp_conf_number(const char *w, bool c, uint32_t *v)
{
  /* isc_lex's number: digits, or with C's forms "0x" and digits; else a string */
  if (!isdigit((unsigned char)w[0]))
    return 0;
  for (size_t i = 1; w[i]; i++)
    if (!isdigit((unsigned char)w[i]) && !(c && i == 1 && w[0] == '0' && (w[1] | 0x20) == 'x'))
      return 0;
  char *e;
  errno = 0;
  unsigned long long n = strtoull(w, &e, c ? 0 : 10);
  if (*e)
    return 0;   /* (08, 0x: isc_parse_uint32's bad number, which the lexer makes a string) */
  if (errno == ERANGE || n > UINT32_MAX)
    return -1;
  *v = (uint32_t)n;
  return 1;
}

/* One part of an ISO 8601 duration: the number from just after *str up to its letter x. */
static bool part(const char **str, const char *x, uint64_t *out)
{
  char *e;
  errno = 0;
  long long n = strtoll(*str + 1, &e, 10);
  if (*e != *x || errno != 0 || n < 0 || n > UINT32_MAX)
    return false;
  *out = (uint64_t)n;
  *str = x;
  return true;
}

/* isccfg_duration_fromtext, step by step: P, years, months (an M before any T), days, T,
 * hours, minutes (an M after T), seconds; or weeks alone. */
static bool iso8601(const char *s, uint64_t *secs)
{
  static const uint64_t unit[7] = {365 * 86400, 31 * 86400, 7 * 86400, 86400, 3600, 60, 1};
  uint64_t n[7] = {0};
  const char *str = s, *t = strpbrk(s, "Tt"), *x, *w;
  bool weeks_ok = true;
  if ((x = strpbrk(str, "Yy")) && !part(&str, x, &n[0]))
    return false;
  weeks_ok = !x;
  if ((x = strpbrk(str, "Mm")) && (!t || x < t)) {
    if (!part(&str, x, &n[1]))
      return false;
    weeks_ok = false;
  }
  if ((x = strpbrk(str, "Dd"))) {
    if (!part(&str, x, &n[3]))
      return false;
    weeks_ok = false;
  }
  if (t) {
    str = t;
    weeks_ok = false;
    if ((x = strpbrk(str, "Hh")) && !part(&str, x, &n[4]))
      return false;
    if ((x = strpbrk(str, "Mm")) && x > t && !part(&str, x, &n[5]))
      return false;
    if ((x = strpbrk(str, "Ss")) && !part(&str, x, &n[6]))
      return false;
  }
  if ((w = strpbrk(s, "Ww")) && (!weeks_ok || !part(&str, w, &n[2])))
    return false;
  if (str[1] != '\0')
    return false;
  *secs = 0;
  for (int i = 0; i < 7; i++)
    *secs += n[i] * unit[i];
  return true;
}

int zp_conf_duration(const char *w, uint32_t *secs)
{
  uint64_t total = 0;
  if ((w[0] | 0x20) == 'p' && strlen(w) < 80 && iso8601(w, &total)) {
    *secs = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
    return 1;
  }
  /* else dns_ttl_fromtext: numbers each with its unit (w d h m s), or one bare number */
  if (strlen(w) > 63)
    return 0;
  do {
    char digits[64];
    size_t k = 0;
    uint32_t n;
    while (isdigit((unsigned char)*w))
      digits[k++] = *w++;
    digits[k] = '\0';
    if (zp_conf_number(digits, false, &n) != 1)
      return 0;
    const char *u = *w ? strchr("wdhms", tolower((unsigned char)*w)) : NULL;
    static const uint32_t mult[] = {604800, 86400, 3600, 60, 1};
    if (!*w && total != 0)
      return 0;
    if (*w && !u)
      return 0;
    total += (uint64_t)n * (u ? mult[u - "wdhms"] : 1);
    w += *w != '\0';
  } while (*w);
  if (total > UINT32_MAX)
    return -1;
  *secs = (uint32_t)total;
  return 1;
}

/* parse_unitstring: a number, or a number and k, m or g (named takes what strtoull does). */
static bool size_ok(const char *s)
{
  char *e;
  uint64_t v = strtoull(s, &e, 10);
  const char *u = strchr("kKmMgG", *e);
  if (*e == '\0')
    return true;
  if (strlen(s) < 2 || e[1] != '\0' || !u || !*u)
    return false;
  return v <= UINT64_MAX >> (10 * (1 + (u - "kKmMgG") / 2));
}

static bool percent_ok(const char *s)
{
  char *e;
  (void)strtoull(s, &e, 10);
  return e[0] == '%' && e[1] == '\0';
}

/* Up to 5 digits, a '.', up to 2 digits; one digit at least. */
static bool fixed_ok(const char *s)
{
  size_t n1 = strspn(s, "0123456789"), n2 = strspn(s + n1, "."),
         n3 = strspn(s + n1 + n2, "0123456789");
  return s[n1 + n2 + n3] == '\0' && n1 + n3 > 0 && n1 <= 5 && n2 <= 1 && n3 <= 2;
}

/* token_addr: 1 an address (its octets to a, its length in bits to *bits), 2 the start of an
 * IPv4 prefix ("10", "10.1": its length must follow), 0 none, -1 an IPv6 scope named refuses. */
int zp_conf_address(const char *s, unsigned flags, uint8_t a[16], unsigned *bits)
{
  char buf[130];
  memset(a, 0, 16);
  *bits = flags & CONF_A4 ? 32 : 128;
  if ((flags & CONF_AWILD) && strcmp(s, "*") == 0)
    return 1;
  if ((flags & (CONF_A4 | CONF_APREFIX)) && inet_pton(AF_INET, s, a) == 1)
    return *bits = 32, 1;
  for (int i = 0; (flags & CONF_APREFIX) && strlen(s) <= 15 && i < 3; i++) {
    snprintf(buf, sizeof buf, "%s%.*s", s, 2 * (i + 1), ".0.0.0");
    if (inet_pton(AF_INET, buf, a) == 1)
      return *bits = 32, 2;
  }
  if (!(flags & CONF_A6) || strlen(s) > 127)
    return 0;
  strcpy(buf, s);
  char *scope = strchr(buf, '%'), *e;
  if (scope)
    *scope++ = '\0';
  if (inet_pton(AF_INET6, buf, a) != 1)
    return 0;
  *bits = 128;
  if (!scope || (a[0] == 0xfe && (a[1] & 0xc0) == 0x80 && if_nametoindex(scope) != 0))
    return 1;
  unsigned long long z = strtoull(scope, &e, 10);   /* isc_netscope_pton: digits first */
  return e != scope && z <= UINT32_MAX ? 1 : -1;
}

/* A number as cfg_parse_uint32 takes it (c: C's forms too), at most max. */
bool zp_conf_take_number(conf_reader *p, conf_stmt *s, bool c, uint32_t max, const char *what)
{
  conf_tok t;
  uint32_t v = 0;
  if (!zp_conf_take(p, &t))
    return false;
  int n = t.kind == TK_WORD ? zp_conf_number(t.text, c, &v) : 0;
  if (n > 0 && v > max)
    return zp_conf_fail(p, &t.loc, "'%s' is out of range (at most %u)", t.text, max);
  if (n < 0)
    return zp_conf_fail(p, &t.loc, "'%s' is out of range (at most 4294967295)", t.text);
  return n > 0 ? zp_conf_put(p, s, &t) != NULL : zp_conf_want(p, &t, what);
}

/* The number just read, the last value of s. */
uint32_t zp_conf_last_number(const conf_stmt *s, bool c)
{
  const conf_val *v = s->vals;
  uint32_t n = 0;
  while (v->next)
    v = v->next;
  zp_conf_number(v->text, c, &n);
  return n;
}

/* Whether the next token is a number, and not one out of range (which named refuses there). */
int zp_conf_number_ahead(conf_reader *p, bool c)
{
  conf_tok t;
  uint32_t v;
  if (!zp_conf_peek(p, &t))
    return -1;
  int n = t.kind == TK_WORD ? zp_conf_number(t.text, c, &v) : 0;
  if (n < 0)
    zp_conf_fail(p, &t.loc, "'%s' is out of range (at most 4294967295)", t.text);
  return n;
}

/* An address as cfg_parse_rawaddr takes it. */
int zp_conf_take_address(conf_reader *p, conf_stmt *s, unsigned flags, uint8_t a[16],
                         unsigned *bits)
{
  static const char *const what[] = {"", "an IPv4 address", "an IPv6 address", "an IP address"};
  conf_tok t;
  char buf[64];
  if (!zp_conf_take(p, &t))
    return 0;
  int r = t.kind == TK_WORD ? zp_conf_address(t.text, flags, a, bits) : 0;
  if (r > 0)
    return zp_conf_put(p, s, &t) ? r : 0;
  snprintf(buf, sizeof buf, "%s%s", what[flags & (CONF_A4 | CONF_A6)],
           flags & CONF_AWILD ? " or '*'" : "");
  zp_conf_want(p, &t, buf);
  return 0;
}

/* address[/length], as cfg_parse_netprefix: the length fits, no bits set past it. */
bool zp_conf_take_prefix(conf_reader *p, conf_stmt *s)
{
  uint8_t a[16];
  unsigned bits;
  uint32_t len;
  conf_tok t, addr = {0};
  zp_conf_peek(p, &addr);
  int r = zp_conf_take_address(p, s, CONF_A4 | CONF_A6 | CONF_APREFIX, a, &bits);
  if (!r || !zp_conf_peek(p, &t))
    return false;
  if (t.kind != TK_SLASH)
    return r == 1 || zp_conf_fail(p, &t.loc, "'%s' is no whole IPv4 address: a prefix wants "
                                  "its /length", addr.text);
  if (!zp_conf_take(p, &t) || !zp_conf_put(p, s, &t) ||
      !zp_conf_take_number(p, s, false, bits, "a prefix length"))
    return false;
  len = zp_conf_last_number(s, false);
  for (unsigned i = len; i < bits; i++)
    if (a[i / 8] & (0x80 >> (i % 8)))
      return zp_conf_fail(p, &addr.loc, "'%s/%u': address/prefix length mismatch (bits set "
                          "past the length)", addr.text, len);
  return true;
}

/* A port number or '*' (cfg_parse_rawport with CFG_ADDR_WILDOK: a number in base 10). */
static bool port_or_wild(conf_reader *p, conf_stmt *s)
{
  conf_tok t;
  if (zp_conf_peek(p, &t) && t.kind == TK_WORD && strcmp(t.text, "*") == 0)
    return zp_conf_take(p, &t) && zp_conf_put(p, s, &t);
  return p->st == ZP_OK && zp_conf_take_number(p, s, false, 65535, "a port number or '*'");
}

/* cfg_parse_sockaddr: an address, then port and (with CONF_ADSCP) dscp, each at most once. */
bool zp_conf_take_sockaddr(conf_reader *p, conf_stmt *s, unsigned flags)
{
  uint8_t a[16];
  unsigned bits, ports = 0, dscps = 0;
  conf_tok t;
  if (!zp_conf_take_address(p, s, flags, a, &bits))
    return false;
  while (zp_conf_peek(p, &t) && t.kind == TK_WORD) {
    bool port = strcasecmp(t.text, "port") == 0;
    if (!port && !((flags & CONF_ADSCP) && strcasecmp(t.text, "dscp") == 0))
      break;
    if ((port ? ports++ : dscps++) > 0)
      return zp_conf_fail(p, &t.loc, "expected at most one %s", t.text);
    if (!zp_conf_take(p, &t) || !zp_conf_put(p, s, &t))
      return false;
    if (port && (flags & CONF_AWILD) ? !port_or_wild(p, s)
                                     : !zp_conf_take_number(p, s, !port, port ? 65535 : UINT32_MAX,
                                                             port ? "a port number" : "a number"))
      return false;
  }
  return p->st == ZP_OK;
}

/* query-source: [address] addr [port p] [dscp d] in any order (parse_querysource). */
bool zp_conf_take_querysource(conf_reader *p, conf_stmt *s, unsigned flags)
{
  uint8_t a[16];
  unsigned bits, n[3] = {0};
  static const char *const kw[] = {"address", "port", "dscp"};
  conf_tok t;
  while (zp_conf_peek(p, &t) && t.kind == TK_WORD) {
    int k = 0;
    while (k < 3 && strcasecmp(t.text, kw[k]) != 0)
      k++;
    if (k == 3 && !n[0] && !n[1] && !n[2])
      return zp_conf_take_sockaddr(p, s, flags);
    if (k == 3)
      return zp_conf_fail(p, &t.loc, "expected 'address' or 'port', not '%s'", t.text);
    n[k]++;
    if (!zp_conf_take(p, &t) || !zp_conf_put(p, s, &t))
      return false;
    if (k == 0 ? !zp_conf_take_address(p, s, flags, a, &bits)
               : k == 1 ? !port_or_wild(p, s)
                        : !zp_conf_take_number(p, s, true, UINT32_MAX, "a number"))
      return false;
  }
  if (p->st != ZP_OK)
    return false;
  if (n[0] > 1 || n[1] > 1 || n[0] + n[1] == 0)
    return zp_conf_fail(p, &t.loc, "expected one address and/or port");
  return n[2] <= 1 || zp_conf_fail(p, &t.loc, "expected at most one dscp");
}

/* A single token, checked by its kind and text. */
bool zp_conf_take_value(conf_reader *p, char c, conf_stmt *s)
{
  conf_tok t;
  uint32_t v;
  static const char kinds[] = "bdDzZ%fsqw";
  static const char *const what[] = {
    "a boolean (yes or no)", "a duration (such as 1h or P1D)", "a duration or unlimited",
    "a size (a number, with k, m or g)", "a size or a percentage", "a percentage",
    "a number with at most 2 decimals", "a string", "a quoted string", "a word (unquoted)"};
  int k = (int)(strchr(kinds, c) - kinds);
  if (!zp_conf_take(p, &t))
    return false;
  bool ok = t.kind == TK_WORD || (t.kind == TK_STRING && (c == 's' || c == 'q'));
  if (ok && c == 'b')
    ok = strchr("10", t.text[0]) ? strlen(t.text) == 1 : strcasecmp(t.text, "yes") == 0 ||
         strcasecmp(t.text, "no") == 0 || strcasecmp(t.text, "true") == 0 ||
         strcasecmp(t.text, "false") == 0;
  else if (ok && (c == 'd' || (c == 'D' && strcmp(t.text, "unlimited") != 0))) {
    int r = zp_conf_duration(t.text, &v);
    if (r < 0)
      return zp_conf_fail(p, &t.loc, "'%s': duration or TTL out of range", t.text);
    ok = r > 0;
  } else if (ok && (c == 'z' || c == 'Z'))
    ok = size_ok(t.text) || (c == 'Z' && percent_ok(t.text));
  else if (ok && c == '%')
    ok = percent_ok(t.text);
  else if (ok && c == 'f')
    ok = fixed_ok(t.text);
  else if (ok && c == 'q')
    ok = t.kind == TK_STRING;
  else if (ok && c == 'w')
    ok = t.kind == TK_WORD;
  return ok ? zp_conf_put(p, s, &t) != NULL : zp_conf_want(p, &t, what[k]);
}
