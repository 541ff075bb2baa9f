/* conf_grammar.c -- named.conf read as BIND 9.18.49's parser reads it (lib/isccfg/parser.c,
 * namedconf.c): each block's clauses looked up in named's clause tables (conf_int.h), each
 * clause's value read as its table entry types it, so that what named-checkconf refuses before
 * it looks at the conf's meaning -- a clause it does not know, a missing ';', a value not of its
 * type, a clause given twice -- is refused here too, at the token named stops at. */
#include <string.h>
#include <strings.h>

#define CONF_GRAMMAR   /* the clause tables are this file's */
#include "conf_int.h"

/* One clause: its name, the terms of its value, how named takes it, and its bit in a block's
 * record of the clauses given there. */
struct conf_clause {
  const char *name, *type;
  size_t len;
  unsigned id, flags;
};

typedef conf_clause clause;
typedef conf_reader reader;
typedef conf_tok tok;

enum { C_MULTI = 1, C_ANCIENT = 2, C_NOTBUILT = 4 };

/* The clause tables, split into their entries once a parse. */
static bool index_sets(reader *p)
{
  unsigned id = 0;
  for (size_t i = 0; i < CONF_GRAMMAR_SETS; i++) {
    size_t n = 0;
    for (const char *s = grammar_sets[i]; (s = strchr(s, ':')); s++)
      n++;
    clause *c = p->sets[i] = zp_conf_alloc(p->t, n * sizeof *c);
    if (!c)
      return zp_conf_oom(p);
    for (const char *s = grammar_sets[i]; *(s += strspn(s, " ")); ) {
      unsigned flags = 0;
      for (const char *f; *s && (f = strchr("+!#", *s)); s++)
        flags |= 1u << (f - "+!#");
      const char *colon = strchr(s, ':');
      c[p->nsets[i]++] = (clause){.name = s, .len = (size_t)(colon - s), .type = colon + 1,
                                  .id = id++, .flags = flags};
      s = colon + 1 + strcspn(colon + 1, " ");
    }
  }
  return true;
}

/* The clause named w in block kind m (grammar_blocks), or NULL. */
static const clause *lookup(const reader *p, char m, const char *w)
{
  size_t len = strlen(w);
  const char *sets = strchr(grammar_blocks, m) + 1;
  for (; *sets && *sets != ' '; sets++)
    for (size_t k = 0, i = (size_t)(*sets - 'A'); k < p->nsets[i]; k++)
      if (p->sets[i][k].len == len && strncasecmp(p->sets[i][k].name, w, len) == 0)
        return &p->sets[i][k];
  return NULL;
}

static bool seq(reader *p, const char **ty, conf_stmt *s, unsigned depth);
static bool term(reader *p, const char **ty, conf_stmt *s, unsigned depth);
static bool map(reader *p, char m, conf_stmt **out, unsigned depth);

/* Past one term of the grammar (conf_int.h), or past a sequence of them. */
static const char *past_seq(const char *ty);
static const char *past(const char *ty)
{
  switch (*ty++) {
  case '{':
    return past_seq(ty) + 1;
  case '(':
    return strchr(ty, ')') + 1;
  case '[': case '<':
    return past_seq(strchr(ty, ':') + 1) + 1;
  case '*':
    for (ty = past(ty); *ty == '['; ty = past(ty)) {
    }
    return ty + 1;
  case 'M':
    return ty + 1;
  default:
    return ty;
  }
}

static const char *past_seq(const char *ty)
{
  while (*ty && !strchr(" ]>}", *ty))
    ty = past(ty);
  return ty;
}

/* The terms of a literal, as if they stood in the tables. */
static bool sub(reader *p, const char *ty, conf_stmt *s, unsigned depth)
{
  return seq(p, &ty, s, depth);
}

/* Takes the next token, of kind k, onto s. */
static bool expect(reader *p, conf_tkind k, conf_stmt *s, const char *what, tok *t)
{
  if (!zp_conf_take(p, t))
    return false;
  if (t->kind != k)
    return zp_conf_want(p, t, what);
  return zp_conf_put(p, s, t) != NULL;
}

static bool semicolon(reader *p, conf_stmt *s)
{
  tok t;
  char buf[CONF_SHOW];
  if (!zp_conf_take(p, &t))
    return false;
  if (t.kind == TK_SEMI) {
    s->end = t.loc;
    zp_conf_reads(&t.loc);
    return true;
  }
  if (t.kind == TK_EOF && p->open)
    return zp_conf_want(p, &t, "';'");
  if (t.kind == TK_EOF)
    return zp_conf_fail(p, &p->last_end, "missing ';' at the end of the file");
  return zp_conf_fail(p, &t.loc, "missing ';' before %s", zp_conf_show(&t, buf));
}

/* { elements ; ... } or, with m, { clauses ; ... }: its block onto s, p->open its '{'. */
static bool block(reader *p, const char **ty, char m, conf_stmt *s, unsigned depth)
{
  tok t;
  if (!expect(p, TK_OPEN, s, "'{'", &t))
    return false;
  if (depth + 1 > CONF_MAX_DEPTH)
    return zp_conf_fail(p, &t.loc, "blocks nested deeper than %d", CONF_MAX_DEPTH);
  conf_val *blk = s->vals;
  while (blk->next)
    blk = blk->next;
  const zp_loc *outer = p->open;
  p->open = &blk->loc;
  conf_stmt **tail = &blk->body;
  if (m && !map(p, m, tail, depth + 1))
    return false;
  for (;;) {
    if (!zp_conf_peek(p, &t))
      return false;
    if (t.kind == TK_CLOSE || m)
      break;
    conf_stmt *e = zp_conf_stmt(p);
    const char *et = *ty;
    if (!e || !seq(p, &et, e, depth + 1) || !semicolon(p, e))
      return false;
    *tail = e;
    tail = &e->next;
  }
  if (!zp_conf_take(p, &t))
    return false;
  if (t.kind == TK_STRING)
    return zp_conf_fail(p, &t.loc, "a clause's name is a word, not a quoted string");
  if (t.kind == TK_SEMI)
    return zp_conf_fail(p, &t.loc, "';' with no clause before it");
  if (t.kind != TK_CLOSE)
    return zp_conf_want(p, &t, m ? "a clause's name or '}'" : "'}'");
  p->open = outer;
  if (!m)
    *ty = past_seq(*ty) + 1;
  return true;
}

/* (a|b|c) one of the words; (a|b|=T) one of them, or else T (= alone: nothing). */
static bool choice(reader *p, const char **ty, conf_stmt *s, unsigned depth)
{
  const char *alts = *ty, *end = strchr(alts, ')'), *other = strchr(alts, '=');
  tok t;
  *ty = end + 1;
  if (!zp_conf_peek(p, &t))
    return false;
  size_t len = strlen(t.text);
  for (const char *a = alts; t.kind == TK_WORD && a < end && *a != '='; a += strcspn(a, "|)") + 1)
    if (strcspn(a, "|)") == len && strncasecmp(a, t.text, len) == 0)
      return zp_conf_take(p, &t) && zp_conf_put(p, s, &t);
  if (other && other < end)
    return other + 1 == end || term(p, &(const char *){other + 1}, s, depth);
  char what[320] = "one of ";
  for (size_t i = 0, n = strlen(what); alts + i < end && n + 3 < sizeof what; i++)
    n += (size_t)snprintf(what + n, sizeof what - n, alts[i] == '|' ? ", " : "%c", alts[i]);
  return zp_conf_take(p, &t) && zp_conf_want(p, &t, what);
}

/* [kw:T] and <kw:T>: the word kw and T after it; [ ] when it may be left out. */
static bool keyvalue(reader *p, const char **ty, bool required, conf_stmt *s, unsigned depth)
{
  const char *kw = *ty, *colon = strchr(kw, ':'), *inner = colon + 1;
  char what[64];
  tok t;
  *ty = past(kw - 1);
  if (!zp_conf_peek(p, &t))
    return false;
  if (t.kind == TK_WORD && strlen(t.text) == (size_t)(colon - kw) &&
      strncasecmp(t.text, kw, (size_t)(colon - kw)) == 0)
    return zp_conf_take(p, &t) && zp_conf_put(p, s, &t) && seq(p, &inner, s, depth);
  snprintf(what, sizeof what, "'%.*s'", (int)(colon - kw), kw);
  return !required || zp_conf_want(p, &t, what);
}

/* *F[k1:T1][k2:T2]...*: F, then the k in any order, each once (cfg_parse_kv_tuple). */
static bool kvtuple(reader *p, const char **ty, conf_stmt *s, unsigned depth)
{
  const char *f = *ty, *fields;
  uint32_t used = 0;
  tok t;
  char buf[CONF_SHOW];
  if (!term(p, &f, s, depth))
    return false;
  fields = f;
  *ty = past(*ty - 1);
  while (zp_conf_peek(p, &t) && t.kind == TK_WORD) {
    unsigned i = 0;
    for (f = fields; *f == '['; f = past(f), i++) {
      size_t len = strcspn(f + 1, ":");
      if (!(used >> i & 1) && strlen(t.text) == len && strncasecmp(t.text, f + 1, len) == 0)
        break;
    }
    if (*f != '[')
      return zp_conf_fail(p, &t.loc, "unexpected %s here", zp_conf_show(&t, buf));
    used |= 1u << i;
    f += strcspn(f, ":") + 1;
    if (!zp_conf_take(p, &t) || !zp_conf_put(p, s, &t) || !seq(p, &f, s, depth))
      return false;
  }
  return p->st == ZP_OK;
}

/* An element of an address match list (parse_addrmatchelt): ! element, a nested list, key
 * NAME, geoip ..., an address or prefix, or an acl's name. */
static bool match_element(reader *p, conf_stmt *s, unsigned depth)
{
  tok t;
  uint8_t a[16];
  unsigned bits;
  if (!zp_conf_peek(p, &t))
    return false;
  if (depth > CONF_MAX_DEPTH)
    return zp_conf_fail(p, &t.loc, "blocks nested deeper than %d", CONF_MAX_DEPTH);
  if (t.kind == TK_OPEN)
    return sub(p, "{a}", s, depth);
  if (t.kind == TK_BANG)
    return zp_conf_take(p, &t) && zp_conf_put(p, s, &t) && match_element(p, s, depth + 1);
  if (t.kind == TK_WORD && strcasecmp(t.text, "key") == 0)
    return sub(p, "<key:s>", s, depth);
  if (t.kind == TK_WORD && strcasecmp(t.text, "geoip") == 0)
    return zp_conf_take(p, &t) && zp_conf_put(p, s, &t) &&
           sub(p, "[db:s](area|areacode|asnum|city|continent|country|country3|countryname|"
               "domain|isp|metro|metrocode|netspeed|org|postal|postalcode|region|regionname|"
               "timezone|tz)s", s, depth);
  if (t.kind == TK_WORD && zp_conf_address(t.text, CONF_A4 | CONF_A6 | CONF_APREFIX, a,
                                            &bits) > 0)
    return zp_conf_take_prefix(p, s);
  if (!zp_conf_take(p, &t))
    return false;
  if (t.kind != TK_WORD && t.kind != TK_STRING)
    return zp_conf_want(p, &t, "an address match list element");
  return zp_conf_put(p, s, &t) != NULL;
}

/* The terms that stand for one of named's parse functions of their own. */
static bool leaf(reader *p, char c, conf_stmt *s, unsigned depth)
{
  static const unsigned sockaddrs[] = {
    CONF_A4 | CONF_A6 | CONF_APORT, CONF_A4 | CONF_A6 | CONF_APORT | CONF_ADSCP,
    CONF_A4 | CONF_AWILD | CONF_ADSCP, CONF_A6 | CONF_AWILD | CONF_ADSCP,
    CONF_A4 | CONF_A6 | CONF_AWILD | CONF_APORT};
  tok t;
  uint32_t low;
  int n;
  switch (c) {
  case 'u':
    return zp_conf_take_number(p, s, true, UINT32_MAX, "a number");
  case 'i':   /* an optional number */
    n = zp_conf_number_ahead(p, true);
    return n == 0 || (n == 1 && zp_conf_take_number(p, s, true, UINT32_MAX, ""));
  case 'r':   /* a port, or range LOW HIGH, LOW not above HIGH */
    if ((n = zp_conf_number_ahead(p, true)) != 0)
      return n == 1 && zp_conf_take_number(p, s, true, 65535, "");
    if (!sub(p, "<range:#>", s, depth) || !zp_conf_peek(p, &t))
      return false;
    low = zp_conf_last_number(s, true);
    if (!zp_conf_take_number(p, s, true, 65535, "a port number"))
      return false;
    return low <= zp_conf_last_number(s, true) ||
           zp_conf_fail(p, &t.loc, "low port '%u' must not be larger than high port", low);
  case '#':
    return zp_conf_take_number(p, s, true, 65535, "a port number");
  case 'n': case '6': {
    uint8_t a[16];
    unsigned bits;
    return zp_conf_take_address(p, s, c == 'n' ? CONF_A4 | CONF_A6 : CONF_A6, a, &bits) != 0;
  }
  case 'p':
    return zp_conf_take_prefix(p, s);
  case 'S': case 'T': case 'X': case 'Y': case 'C':
    return zp_conf_take_sockaddr(p, s, sockaddrs[strchr("STXYC", c) - "STXYC"]);
  case 'Q': case 'R':
    return zp_conf_take_querysource(p, s, sockaddrs[c == 'Q' ? 2 : 3]);
  case 'a':
    return match_element(p, s, depth);
  case 't':
    return zp_conf_btext(p, s);
  case 'o':   /* optional bracketed text */
    return !zp_conf_peek(p, &t) ? false : t.kind != TK_OPEN || zp_conf_btext(p, s);
  case 'c': case 'y':   /* an optional class (a word); an optional syslog facility */
    if (!zp_conf_peek(p, &t))
      return false;
    return !(t.kind == TK_WORD || (c == 'y' && t.kind == TK_STRING)) || (zp_conf_take(p, &t) &&
                                                                       zp_conf_put(p, s, &t));
  case 'E': case 'N': {  /* a remote server, or dual-stack server: an address, else a name */
    uint8_t a[16];
    unsigned bits;
    if (!zp_conf_peek(p, &t))
      return false;
    if (t.kind == TK_WORD && zp_conf_address(t.text, CONF_A4 | CONF_A6, a, &bits) == 1)
      return zp_conf_take_sockaddr(p, s, sockaddrs[0]);
    if (!zp_conf_take(p, &t))
      return false;
    if (t.kind != TK_WORD && t.kind != TK_STRING)
      return zp_conf_want(p, &t, c == 'E' ? "an IP address or a primaries list's name"
                                          : "an IP address or a host name");
    return zp_conf_put(p, s, &t) && (c == 'E' || sub(p, "[port:u][dscp:u]", s, depth));
  }
  case 'k': {  /* server's keys: one key, braces and a ';' inside them optional */
    if (!zp_conf_peek(p, &t))
      return false;
    bool braces = t.kind == TK_OPEN;
    if (braces && (!zp_conf_take(p, &t) || !zp_conf_put(p, s, &t)))
      return false;
    if (!sub(p, "s", s, depth) || !braces)
      return p->st == ZP_OK;
    if (zp_conf_peek(p, &t) && t.kind == TK_SEMI &&
        (!zp_conf_take(p, &t) || !zp_conf_put(p, s, &t)))
      return false;
    return p->st == ZP_OK && expect(p, TK_CLOSE, s, "'}'", &t);
  }
  case 'V':   /* a log severity, or debug [level] */
    if (!zp_conf_peek(p, &t))
      return false;
    if (t.kind != TK_WORD || strcasecmp(t.text, "debug") != 0)
      return sub(p, "(critical|error|warning|notice|info|dynamic)", s, depth);
    if (!zp_conf_take(p, &t) || !zp_conf_put(p, s, &t) ||
        (n = zp_conf_number_ahead(p, false)) < 0)
      return false;
    return n == 0 || zp_conf_take_number(p, s, true, UINT32_MAX, "a number");
  case 'L': case 'O': {  /* a log file; dnstap's output: mode and file, then options */
    static const char *const kw[] = {"versions", "size", "suffix"};
    static const char *const ty[] = {"(unlimited|=u)", "(unlimited|=z)", "(increment|timestamp)"};
    bool seen[3] = {false};
    if (!sub(p, c == 'L' ? "q" : "(file|unix)q", s, depth))
      return false;
    while (zp_conf_peek(p, &t) && t.kind == TK_WORD) {
      int k = 0;
      while (k < 3 && (seen[k] || strcasecmp(t.text, kw[k]) != 0))
        k++;
      if (!zp_conf_take(p, &t) || !zp_conf_put(p, s, &t))
        return false;
      if (k == 3)   /* parse_logfile drops a word it does not know; parse_dtout refuses it */
        return c == 'L' || zp_conf_fail(p, &t.loc, "unexpected '%s' here", t.text);
      seen[k] = true;
      if (!sub(p, k == 1 && c == 'L' ? "(default|unlimited|=z)" : ty[k], s, depth))
        return false;
    }
    return p->st == ZP_OK;
  }
  case 'P':   /* a policy; cname's with its target */
    if (!sub(p, "(cname|disabled|drop|given|no-op|nodata|nxdomain|passthru|tcp-only)", s, depth))
      return false;
    conf_val *last = s->vals;
    while (last->next)
      last = last->next;
    return strcasecmp(last->text, "cname") != 0 || sub(p, "s", s, depth);
  case 'U':   /* update-policy local, or { grant ...; ... } */
    if (!zp_conf_peek(p, &t))
      return false;
    if (t.kind == TK_OPEN)
      return sub(p, "{G}", s, depth);
    if (t.kind == TK_WORD && strcasecmp(t.text, "local") == 0)
      return zp_conf_take(p, &t) && zp_conf_put(p, s, &t);
    return zp_conf_take(p, &t) && zp_conf_want(p, &t, "'local' or '{'");
  case 'G':   /* grant|deny identity matchtype [name] types...: zonesub takes no name */
    if (!sub(p, "(deny|grant)s", s, depth) || !zp_conf_peek(p, &t))
      return false;
    bool zonesub = t.kind == TK_WORD && strcasecmp(t.text, "zonesub") == 0;
    if (!sub(p, "(6to4-self|external|krb5-self|krb5-selfsub|krb5-subdomain|"
             "krb5-subdomain-self-rhs|ms-self|ms-selfsub|ms-subdomain|ms-subdomain-self-rhs|"
             "name|self|selfsub|selfwild|subdomain|tcp-self|wildcard|zonesub)", s, depth) ||
        (!zonesub && !sub(p, "s", s, depth)))
      return false;
    while (zp_conf_peek(p, &t) && t.kind != TK_SEMI)
      if (!sub(p, "s", s, depth))
        return false;
    return p->st == ZP_OK;
  default:
    break;
  }
  return zp_conf_take_value(p, c, s);
}

static bool term(reader *p, const char **ty, conf_stmt *s, unsigned depth)
{
  char c = *(*ty)++;
  switch (c) {
  case '{':
    return block(p, ty, 0, s, depth);
  case '(':
    return choice(p, ty, s, depth);
  case '[': case '<':
    return keyvalue(p, ty, c == '<', s, depth);
  case '*':
    return kvtuple(p, ty, s, depth);
  case 'M':
    return block(p, ty, *(*ty)++, s, depth);
  default:
    return leaf(p, c, s, depth);
  }
}

static bool seq(reader *p, const char **ty, conf_stmt *s, unsigned depth)
{
  while (**ty && !strchr(" ]>}", **ty))
    if (!term(p, ty, s, depth))
      return false;
  return true;
}

/* The clauses of a block of kind m, up to the first token that is no word (named's
 * cfg_parse_mapbody); include read wherever they are. */
static bool map(reader *p, char m, conf_stmt **out, unsigned depth)
{
  uint64_t seen[(GRAMMAR_CLAUSES + 63) / 64] = {0};
  conf_stmt *const *first = out;
  tok t;
  while (zp_conf_peek(p, &t) && t.kind == TK_WORD) {
    if (!zp_conf_take(p, &t))
      return false;
    if (strcasecmp(t.text, "include") == 0) {
      if (!zp_conf_include(p, &t))
        return false;
      continue;
    }
    const clause *c = lookup(p, m, t.text);
    if (c)   /* a word named.conf's grammar knows just here: no key or shadow file starts so */
      zp_conf_reads(&t.loc);
    if (!c)
      return zp_conf_fail(p, &t.loc, m == '^' ? "unknown statement '%s'"
                                              : "unknown option '%s'", t.text);
    if (c->flags & C_ANCIENT)
      return zp_conf_fail(p, &t.loc, "option '%s' no longer exists", t.text);
    if (c->flags & C_NOTBUILT)
      return zp_conf_fail(p, &t.loc, "option '%s' was not enabled at compile time (BIND 9.18 "
                          "as Debian builds it)", t.text);
    if (!(c->flags & C_MULTI) && (seen[c->id / 64] >> (c->id % 64) & 1)) {
      const conf_stmt *f = *first;
      while (strcasecmp(f->vals->text, t.text) != 0)
        f = f->next;
      return zp_conf_fail(p, &t.loc, "'%s' redefined (first at %s:%u:%u)", t.text,
                          f->vals->loc.src->path, f->vals->loc.line, f->vals->loc.col);
    }
    seen[c->id / 64] |= (uint64_t)1 << (c->id % 64);
    conf_stmt *s = zp_conf_stmt(p);
    const char *ty = c->type;
    if (!s || !zp_conf_put(p, s, &t) || !seq(p, &ty, s, depth) || !semicolon(p, s))
      return false;
    if (m == 'o' && strcasecmp(t.text, "directory") == 0 && !zp_conf_directory(p, s))
      return false;
    *out = s;
    out = &s->next;
  }
  return p->st == ZP_OK;
}

zp_status zp_conf_parse(const char *path, zp_diag *diag, conf_tree *t)
{
  reader r;
  tok end;
  zp_status st = zp_conf_begin(&r, path, diag, t);
  if (st == ZP_OK && index_sets(&r) && map(&r, '^', &t->top, 0) && zp_conf_take(&r, &end) &&
      end.kind != TK_EOF) {
    if (end.kind == TK_CLOSE)
      zp_conf_fail(&r, &end.loc, "'}' with no '{' before it to close");
    else if (end.kind == TK_SEMI)
      zp_conf_fail(&r, &end.loc, "';' with no statement before it");
    else if (end.kind == TK_STRING)
      zp_conf_fail(&r, &end.loc, "a statement's name is a word, not a quoted string");
    else
      zp_conf_want(&r, &end, "a statement");
  }
  zp_conf_end(&r);
  return st != ZP_OK ? st : r.st;
}
