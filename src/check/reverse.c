/* reverse.c -- -W reverse (off by default): forward-confirmed reverse DNS across the zones of one
 * run (--check of many files, a directory, --named-conf), which large mail receivers require:
 * an A or AAAA whose address has its PTR name in a reverse zone of the run (in-addr.arpa,
 * ip6.arpa) and no PTR there back to the name; a PTR to a name in a zone of the run that holds
 * no such address. Both kinds of record are filed, zone after zone, in two sorts of bounded
 * memory by (address, name), walked side by side at the end of the run. */
#include "reverse.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "check_int.h"

struct zp_reverse {
  zp_spill *fwd, *ptr;   /* A and AAAA records; PTR records */
  zp_ck_nameset zones;   /* the zones' names, by their hashes (ASCII case folded) */
  char **paths;          /* the files records came from, each once */
  size_t npaths;
  zp_status err;
};

/* An entry's order, [address 16][key length 2][the name's sort key] (an A's owner, a PTR's
 * target), then where the record is. */
typedef struct place {
  uint32_t path, line, col;
} place;

/* An entry's octets at most (less than spill's default: a merge reads more runs at once). */
enum { ENTRY_MAX = 1024 };

static size_t order_len(const uint8_t *e)
{
  return 16 + 2 + (size_t)(e[16] << 8 | e[17]);
}

static int order_cmp(const uint8_t *a, const uint8_t *b)
{
  return zp_spill_cmp_n(a, order_len(a), b, order_len(b));
}

static bool by_order(const uint8_t *e, size_t len, size_t window, uint8_t out[ZP_SPILL_PREFIX],
                     void *ctx)
{
  (void)len, (void)ctx;
  return zp_spill_window(e, order_len(e), window, out);
}

zp_status zp_reverse_new(size_t mem, zp_reverse **out)
{
  zp_reverse *r = calloc(1, sizeof *r);
  if (!r)
    return ZP_ENOMEM;
  zp_status st = zp_spill_new(mem / 2, ENTRY_MAX, order_cmp, by_order, NULL, &r->fwd);
  if (st == ZP_OK)
    st = zp_spill_new(mem / 2, ENTRY_MAX, order_cmp, by_order, NULL, &r->ptr);
  if (st != ZP_OK) {
    zp_reverse_free(r);
    return st;
  }
  *out = r;
  return ZP_OK;
}

void zp_reverse_free(zp_reverse *r)
{
  if (!r)
    return;
  zp_spill_free(r->fwd);
  zp_spill_free(r->ptr);
  free(r->zones.e);
  for (size_t i = 0; i < r->npaths; i++)
    free(r->paths[i]);
  free(r->paths);
  free(r);
}

zp_status zp_reverse_zone(zp_reverse *r, const uint8_t *apex)
{
  return zp_ck_set_add(&r->zones, zp_ck_name_hash(apex), 1);
}

/* Whether wire is at or below a zone of the run. */
static bool in_run(const zp_reverse *r, const uint8_t *wire)
{
  for (const uint8_t *p = wire;; p += *p + 1) {
    if (zp_ck_set_get(&r->zones, zp_ck_name_hash(p)))
      return true;
    if (!*p)
      return false;
  }
}

static bool label_is(const uint8_t *p, const char *s)
{
  size_t n = strlen(s);
  if (*p != n)
    return false;
  for (size_t i = 0; i < n; i++)
    if ((p[1 + i] | 0x20) != s[i])
      return false;
  return true;
}

/* The address a PTR owner names: d.c.b.a.in-addr.arpa. (as ::ffff:a.b.c.d) or 32 nibbles
 * .ip6.arpa.; false for any other name (a network's, RFC 2317's delegated names). */
static bool owner_address(const uint8_t *wire, uint8_t addr[16])
{
  const uint8_t *lab[40];
  size_t n = 0;
  for (const uint8_t *p = wire; *p && n < 40; p += *p + 1)
    lab[n++] = p;
  if (n == 6 && label_is(lab[4], "in-addr") && label_is(lab[5], "arpa")) {
    memset(addr, 0, 10);
    addr[10] = addr[11] = 0xff;
    for (size_t i = 0; i < 4; i++) {
      unsigned v = 0;
      if (*lab[i] == 0 || *lab[i] > 3 || (*lab[i] > 1 && lab[i][1] == '0'))
        return false;
      for (size_t k = 1; k <= *lab[i]; k++) {
        if (lab[i][k] < '0' || lab[i][k] > '9')
          return false;
        v = v * 10 + (lab[i][k] - '0');
      }
      if (v > 255)
        return false;
      addr[15 - i] = (uint8_t)v;
    }
    return true;
  }
  if (n == 34 && label_is(lab[32], "ip6") && label_is(lab[33], "arpa")) {
    memset(addr, 0, 16);
    for (size_t i = 0; i < 32; i++) {
      int c = *lab[i] == 1 ? lab[i][1] | 0x20 : -1, v;
      if (c >= '0' && c <= '9')
        v = c - '0';
      else if (c >= 'a' && c <= 'f')
        v = c - 'a' + 10;
      else
        return false;
      addr[15 - i / 2] |= (uint8_t)(i % 2 ? v << 4 : v);
    }
    return true;
  }
  return false;
}

static uint32_t path_index(zp_reverse *r, const char *path)
{
  for (size_t i = r->npaths; i-- > 0;)
    if (strcmp(r->paths[i], path) == 0)
      return (uint32_t)i;
  char **p = realloc(r->paths, (r->npaths + 1) * sizeof *p);
  char *copy = strdup(path);
  if (!p || !copy) {
    free(copy);
    if (p)
      r->paths = p;
    r->err = ZP_ENOMEM;
    return 0;
  }
  r->paths = p;
  r->paths[r->npaths] = copy;
  return (uint32_t)r->npaths++;
}

static void file(zp_reverse *r, zp_spill *sp, const uint8_t addr[16], const uint8_t *name,
                 const zp_record *rec)
{
  uint8_t key[ZP_NAME_KEY_MAX], len[2];
  size_t n = zp_name_sort_key(name, key);
  len[0] = (uint8_t)(n >> 8);
  len[1] = (uint8_t)n;
  place at = {rec->loc.src ? path_index(r, rec->loc.src->path) : UINT32_MAX, rec->loc.line,
              rec->loc.col};
  struct iovec parts[4] = {{(void *)addr, 16}, {len, 2}, {key, n}, {&at, sizeof at}};
  zp_status st = zp_spill_add(sp, parts, 4);
  if (st != ZP_OK && r->err == ZP_OK)
    r->err = st;
}

void zp_reverse_record(zp_reverse *r, const zp_record *rec)
{
  if (!rec->rdata || rec->generic || rec->rclass != ZP_CLASS_IN || r->err != ZP_OK)
    return;
  uint8_t addr[16] = {0};
  if (rec->rtype == ZP_TYPE_A && rec->rdlen == 4) {
    addr[10] = addr[11] = 0xff;
    memcpy(addr + 12, rec->rdata, 4);
    file(r, r->fwd, addr, rec->owner, rec);
  } else if (rec->rtype == ZP_TYPE_AAAA && rec->rdlen == 16) {
    file(r, r->fwd, rec->rdata, rec->owner, rec);
  } else if (rec->rtype == ZP_TYPE_PTR && owner_address(rec->owner, addr)) {
    file(r, r->ptr, addr, rec->rdata, rec);
  }
}

/* The address as text, and as the name its PTR has. */
static void address_texts(const uint8_t addr[16], char *text, uint8_t *rev)
{
  static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  size_t w = 0;
  if (memcmp(addr, mapped, 12) == 0) {
    inet_ntop(AF_INET, addr + 12, text, INET6_ADDRSTRLEN);
    for (int i = 15; i >= 12; i--) {
      int n = snprintf((char *)rev + w + 1, 4, "%u", addr[i]);
      rev[w] = (uint8_t)n;
      w += 1 + (size_t)n;
    }
    memcpy(rev + w, "\7in-addr\4arpa", 14);
    return;
  }
  inet_ntop(AF_INET6, addr, text, INET6_ADDRSTRLEN);
  for (int i = 31; i >= 0; i--) {
    rev[w++] = 1;
    rev[w++] = "0123456789abcdef"[addr[i / 2] >> (i % 2 ? 4 : 0) & 15];
  }
  memcpy(rev + w, "\3ip6\4arpa", 10);
}

static void tell(const zp_reverse *r, zp_diag *diag, zp_severity sev, const uint8_t *e,
                 const char *fmt, ...) ZP_PRINTF(5, 6);
static void tell(const zp_reverse *r, zp_diag *diag, zp_severity sev, const uint8_t *e,
                 const char *fmt, ...)
{
  place at;
  memcpy(&at, e + order_len(e), sizeof at);
  zp_source src = {.path = at.path < r->npaths ? r->paths[at.path] : "-"};
  zp_loc loc = {.src = &src, .line = at.line, .col = at.col};
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  zp_diag_report(diag, &loc, sev, "%s [-Wreverse]", msg);
}

zp_status zp_reverse_end(zp_reverse *r, zp_diag *diag, bool error)
{
  if (r->err != ZP_OK)
    return r->err;
  zp_severity sev = error ? ZP_ERROR : ZP_WARNING;
  const uint8_t *f, *p;
  size_t fl, pl;
  zp_status st;
  if ((st = zp_spill_next(r->fwd, &f, &fl)) != ZP_OK ||
      (st = zp_spill_next(r->ptr, &p, &pl)) != ZP_OK)
    return st;
  /* each entry's order copied out: the next call of its spill may take the memory */
  uint8_t fo[16 + 2 + ZP_NAME_KEY_MAX], po[16 + 2 + ZP_NAME_KEY_MAX];
  while (f || p) {
    int d = !f ? 1 : !p ? -1 : order_cmp(f, p);
    char text[INET6_ADDRSTRLEN];
    uint8_t rev[ZP_NAME_MAX], name[ZP_NAME_MAX];
    char rev_text[ZP_NAME_TEXT_MAX + 1], name_text[ZP_NAME_TEXT_MAX + 1];
    const uint8_t *e = d <= 0 ? f : p;
    address_texts(e, text, rev);
    zp_name_from_sort_key(e + 18, order_len(e) - 18, name);
    rev_text[zp_name_text(rev_text, rev)] = '\0';
    name_text[zp_name_text(name_text, name)] = '\0';
    if (d < 0 && in_run(r, rev))
      tell(r, diag, sev, f, "%s %s at %s: no PTR at %s names it, though that name is in a zone "
           "checked with it (forward-confirmed reverse DNS, which mail receivers ask for, fails)",
           memchr(text, ':', strlen(text)) ? "AAAA" : "A", text, name_text, rev_text);
    else if (d > 0 && in_run(r, name))
      tell(r, diag, sev, p, "PTR at %s names %s, which has no address %s though it is in a zone "
           "checked with it (forward-confirmed reverse DNS fails)", rev_text, name_text, text);
    /* past every entry of this (address, name) on the sides it is on */
    size_t n = order_len(e);
    memcpy(d <= 0 ? fo : po, e, n);
    const uint8_t *o = d <= 0 ? fo : po;
    while (f && order_cmp(f, o) == 0)
      if ((st = zp_spill_next(r->fwd, &f, &fl)) != ZP_OK)
        return st;
    while (p && order_cmp(p, o) == 0)
      if ((st = zp_spill_next(r->ptr, &p, &pl)) != ZP_OK)
        return st;
  }
  return ZP_OK;
}
