/* conf_parse.c -- named.conf's grammar as BIND 9.18 reads it: words, quoted strings, { } ;,
 * three kinds of comment, blocks to any depth, include spliced into the stream of tokens */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf_int.h"
#include "core/buf.h"

enum {
  MAX_DEPTH = 64,      /* blocks inside blocks: the parser recurses once a block */
  MAX_INCLUDES = 32,   /* files including files; a loop is found before it */
  CHUNK = 1 << 14,
  SHOW_MAX = 40,       /* octets of a token quoted in a message */
};

struct conf_chunk {
  conf_chunk *next;
  size_t used, cap;
  max_align_t data[];
};

void *zp_conf_alloc(conf_tree *t, size_t n)
{
  const size_t align = sizeof(max_align_t);
  if (n > SIZE_MAX / 2)
    return NULL;
  n = (n + align - 1) / align * align;
  conf_chunk *c = t->chunks;
  if (!c || c->cap - c->used < n) {
    size_t cap = n > CHUNK ? n : CHUNK;
    conf_chunk *fresh = malloc(sizeof *fresh + cap);
    if (!fresh)
      return NULL;
    *fresh = (conf_chunk){.cap = cap};
    /* one larger than a chunk (a file's text) goes behind the chunk being filled */
    if (c && n > CHUNK) {
      fresh->next = c->next;
      c->next = fresh;
    } else {
      fresh->next = c;
      t->chunks = fresh;
    }
    c = fresh;
  }
  void *p = (char *)c->data + c->used;
  c->used += n;
  return p;
}

void zp_conf_tree_free(conf_tree *t)
{
  for (conf_chunk *c = t->chunks, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  t->chunks = NULL;
  t->top = NULL;
}

char *zp_conf_join(conf_tree *t, const char *dir, const char *path)
{
  size_t ld = path[0] == '/' ? 0 : strlen(dir), lp = strlen(path);
  size_t slash = ld > 0 && dir[ld - 1] != '/';
  char *s = zp_conf_alloc(t, ld + slash + lp + 1);
  if (!s)
    return NULL;
  memcpy(s, dir, ld);
  s[ld] = '/';
  memcpy(s + ld + slash, path, lp + 1);
  return s;
}

/* A file being read. */
typedef struct input {
  zp_source src;
  const char *p, *end;
  uint32_t line, col;
  uint64_t line_off;
  dev_t dev;
  ino_t ino;
  unsigned depth;               /* files including it */
  const struct input *includer;
  struct input *below;          /* read again once this one ends */
} input;

typedef enum tkind { T_EOF, T_WORD, T_STRING, T_OPEN, T_CLOSE, T_SEMI } tkind;

typedef struct tok {
  tkind kind;
  const char *text;
  zp_loc loc;
} tok;

/* Where named reads clauses (a map, in BIND's words) and so a statement's name must be a word
 * and include may stand: the top level, options, view and zone; elsewhere lists and maps alike
 * are read for their structure only. */
typedef enum ctx { CTX_TOP, CTX_OPTIONS, CTX_VIEW, CTX_ZONE, CTX_CATALOG, CTX_OTHER } ctx;

typedef struct parser {
  conf_tree *t;
  zp_diag *diag;
  input *in;                    /* the file being read, those to read after it below */
  zp_status st;
  unsigned long files;
  zp_buf scratch;
  zp_loc last_end;              /* just past the last token */
} parser;

static zp_loc here(const input *in)
{
  return (zp_loc){.src = &in->src, .line = in->line, .col = in->col, .line_off = in->line_off};
}

/* One octet on; columns count characters, so a UTF-8 continuation octet adds none. */
static void step(input *in)
{
  unsigned char c = (unsigned char)*in->p++;
  if (c == '\n') {
    in->line++;
    in->col = 1;
    in->line_off = (uint64_t)(in->p - in->src.data);
  } else if ((c & 0xC0) != 0x80) {
    in->col++;
  }
}

static bool at(const input *in, const char *two)
{
  return in->end - in->p >= 2 && in->p[0] == two[0] && in->p[1] == two[1];
}

ZP_PRINTF(3, 4) static void fail(parser *p, const zp_loc *loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  zp_diag_vreport(p->diag, loc, ZP_ERROR, fmt, ap);
  va_end(ap);
  if (p->st == ZP_OK)
    p->st = ZP_ZONE_SYNTAX;
}

static bool oom(parser *p)
{
  p->st = ZP_ENOMEM;
  return false;
}

static const char *show(const tok *t, char buf[SHOW_MAX + 8])
{
  if (t->kind == T_EOF)
    return "the end of the file";
  snprintf(buf, SHOW_MAX + 8, t->kind == T_STRING ? "'\"%.*s\"'" : "'%.*s'", SHOW_MAX, t->text);
  return buf;
}

static char *copy(parser *p, const char *s, size_t n)
{
  char *c = zp_conf_alloc(p->t, n + 1);
  if (!c)
    return NULL;
  memcpy(c, s, n);
  c[n] = '\0';
  return c;
}

/* Blanks and comments: #, // to the end of the line, and C's. */
static bool skip(parser *p, input *in)
{
  while (in->p < in->end) {
    char c = *in->p;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      step(in);
    } else if (c == '#' || at(in, "//")) {
      while (in->p < in->end && *in->p != '\n')
        step(in);
    } else if (at(in, "/*")) {
      zp_loc open = here(in);
      step(in);
      step(in);
      while (in->p < in->end && !at(in, "*/"))
        step(in);
      if (in->p == in->end) {
        fail(p, &open, "comment '/*' not closed: the file ends before its '*/'");
        return false;
      }
      step(in);
      step(in);
    } else {
      break;
    }
  }
  return true;
}

/* A quoted string. named keeps the backslash of every escape but \", which stands for '"'; a
 * string may run over lines. */
static bool string(parser *p, input *in, tok *t)
{
  p->scratch.len = 0;
  step(in);
  for (;;) {
    if (in->p == in->end) {
      fail(p, &t->loc, "string not closed: the file ends before its closing '\"'");
      return false;
    }
    char c = *in->p;
    if (c == '"')
      break;
    if (c == '\\' && in->end - in->p >= 2) {
      if (in->p[1] != '"' && !zp_buf_put(&p->scratch, "\\", 1))
        return oom(p);
      step(in);
      c = *in->p;
    }
    if (c == '\0') {
      zp_loc nul = here(in);
      fail(p, &nul, "a NUL octet, which no named.conf holds");
      return false;
    }
    if (!zp_buf_put(&p->scratch, &c, 1))
      return oom(p);
    step(in);
  }
  step(in);
  t->kind = T_STRING;
  t->text = copy(p, p->scratch.p ? p->scratch.p : "", p->scratch.len);
  return t->text || oom(p);
}

/* Anything else up to a blank, { } ; " or a comment. */
static bool word(parser *p, input *in, tok *t)
{
  const char *start = in->p;
  while (in->p < in->end) {
    char c = *in->p;
    if (c == '\0') {
      zp_loc nul = here(in);
      fail(p, &nul, "a NUL octet, which no named.conf holds");
      return false;
    }
    if (strchr(" \t\n\r\f\v{};\"#", c) || at(in, "//"))
      break;
    if (at(in, "/*")) {
      /* named's lexer takes that '/' as a token of its own, and refuses it */
      zp_loc slash = here(in);
      fail(p, &slash, "'/*' right after '%.*s': named reads this '/' as a token, not as a "
           "comment's start; put a blank before the comment", (int)(in->p - start), start);
      return false;
    }
    step(in);
  }
  t->kind = T_WORD;
  t->text = copy(p, start, (size_t)(in->p - start));
  return t->text || oom(p);
}

static bool lex(parser *p, tok *t)
{
  input *in;
  for (;;) {
    in = p->in;
    if (!skip(p, in))
      return false;
    if (in->p < in->end || !in->below)
      break;
    p->in = in->below;   /* an included file ends: back to what was read before it */
  }
  t->loc = here(in);
  if (in->p == in->end) {
    t->kind = T_EOF;
    t->text = "";
    return true;
  }
  char c = *in->p;
  if (c == '{' || c == '}' || c == ';') {
    t->kind = c == '{' ? T_OPEN : c == '}' ? T_CLOSE : T_SEMI;
    t->text = c == '{' ? "{" : c == '}' ? "}" : ";";
    step(in);
  } else if (!(c == '"' ? string(p, in, t) : word(p, in, t))) {
    return false;
  }
  p->last_end = here(in);
  return true;
}

/* The whole of the file open at fd (sb its fstat), read as a new input on top; ZP_EIO
 * (errno), ZP_ENOMEM. */
static zp_status push(parser *p, int fd, const struct stat *sb, const char *path,
                      input *includer, const zp_loc *kw)
{
  zp_buf b = {0};
  for (;;) {
    if (!zp_buf_reserve(&b, 1 << 16)) {
      zp_buf_free(&b);
      return ZP_ENOMEM;
    }
    ssize_t n = read(fd, b.p + b.len, b.cap - b.len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int e = errno;
      zp_buf_free(&b);
      errno = e;
      return ZP_EIO;
    }
    if (n == 0)
      break;
    b.len += (size_t)n;
  }
  size_t len = b.len;
  char *text = copy(p, b.p ? b.p : "", len);
  zp_buf_free(&b);
  input *in = zp_conf_alloc(p->t, sizeof *in);
  const char *name = copy(p, path, strlen(path));
  if (!text || !in || !name)
    return ZP_ENOMEM;
  *in = (input){
    .src = {.path = name, .data = text, .len = len, .serial = p->files++},
    .p = text, .end = text + len, .line = 1, .col = 1, .dev = sb->st_dev, .ino = sb->st_ino,
    .below = p->in,
  };
  if (includer) {
    in->src.parent = &includer->src;
    in->src.line = kw->line;
    in->src.col = kw->col;
    in->includer = includer;
    in->depth = includer->depth + 1;
  }
  p->in = in;
  return ZP_OK;
}

/* One file of an include: opened, or why not said at the name's place. */
static bool include_one(parser *p, const char *path, input *includer, const zp_loc *kw,
                        const zp_loc *name)
{
  if (includer->depth + 1 > MAX_INCLUDES) {
    fail(p, name, "include %s: files include files deeper than %d", path, MAX_INCLUDES);
    return false;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) {
    fail(p, name, "include: cannot read %s: %s", path, strerror(errno));
    if (fd >= 0)
      close(fd);
    return false;
  }
  for (const input *a = includer; a; a = a->includer)
    if (a->dev == sb.st_dev && a->ino == sb.st_ino) {
      fail(p, name, "include %s: that file is being read already (an include loop)", path);
      close(fd);
      return false;
    }
  zp_status st = push(p, fd, &sb, path, includer, kw);
  int e = errno;
  close(fd);
  if (st == ZP_EIO)
    fail(p, name, "include: cannot read %s: %s", path, strerror(e));
  else if (st != ZP_OK)
    return oom(p);
  return st == ZP_OK;
}

/* include "file"; -- named reads the ';' first, then the file's tokens as if they stood in
 * its place (a block opened in one file may close in another). The name is a glob(3) pattern,
 * relative to the directory option read so far; named stacks the matches and so reads them
 * last first. */
static bool include(parser *p, const tok *kw)
{
  input *includer = p->in;
  tok name, semi;
  char buf[SHOW_MAX + 8];
  if (!lex(p, &name))
    return false;
  if (name.kind != T_STRING) {
    fail(p, &name.loc, "include takes a quoted file name, not %s", show(&name, buf));
    return false;
  }
  if (!lex(p, &semi))
    return false;
  if (semi.kind != T_SEMI) {
    fail(p, &semi.loc, "missing ';' before %s", show(&semi, buf));
    return false;
  }
  const char *path = zp_conf_join(p->t, p->t->dir, name.text);
  if (!path)
    return oom(p);
  glob_t g;
  int rc = glob(path, GLOB_NOCHECK, NULL, &g);
  if (rc == GLOB_NOSPACE)
    return oom(p);
  if (rc != 0) {
    fail(p, &name.loc, "include: cannot read %s: %s", path, strerror(errno));
    return false;
  }
  bool ok = true;
  for (size_t i = 0; ok && i < g.gl_pathc; i++)
    ok = include_one(p, g.gl_pathv[i], includer, &kw->loc, &name.loc);
  globfree(&g);
  return ok;
}

/* options { directory "dir"; }: named-checkconf changes into it as soon as it reads it, so
 * it is what later includes, and every relative zone file, are relative to. */
static bool directory(parser *p, const conf_stmt *s)
{
  const conf_val *v = s->vals->next;
  if (!v || v->kind != CONF_STRING || v->next) {
    fail(p, v && v->kind == CONF_STRING ? &v->next->loc : v ? &v->loc : &s->end,
         "directory takes one quoted path");
    return false;
  }
  char *dir = zp_conf_join(p->t, p->t->dir, v->text);
  if (!dir)
    return oom(p);
  struct stat sb;
  int rc = stat(dir, &sb);
  if (rc != 0 || !S_ISDIR(sb.st_mode)) {
    fail(p, &v->loc, "directory %s: %s", dir, strerror(rc != 0 ? errno : ENOTDIR));
    return false;
  }
  p->t->dir = dir;
  return true;
}

static bool body(parser *p, ctx c, const zp_loc *open, unsigned depth, conf_stmt **out);

static ctx inner(ctx c, const char *name)
{
  if (c == CTX_TOP && strcasecmp(name, "options") == 0)
    return CTX_OPTIONS;
  if (c == CTX_TOP && strcasecmp(name, "view") == 0)
    return CTX_VIEW;
  if ((c == CTX_TOP || c == CTX_VIEW) && strcasecmp(name, "zone") == 0)
    return CTX_ZONE;
  return strcasecmp(name, "catalog-zones") == 0 ? CTX_CATALOG : CTX_OTHER;
}

static void missing_semi(parser *p, const tok *t, const zp_loc *open)
{
  char buf[SHOW_MAX + 8];
  if (t->kind != T_EOF)
    fail(p, &t->loc, "missing ';' before %s", show(t, buf));
  else if (open)
    fail(p, open, "'{' not closed: the file ends before its '}'");
  else
    fail(p, &p->last_end, "missing ';' at the end of the file");
}

/* name value... ; with blocks among the values. A block ends its statement but where named's
 * grammar goes on after one: controls' inet and unix, response-policy, a catalog zone. */
static conf_stmt *statement(parser *p, ctx c, const tok *first, const zp_loc *open,
                            unsigned depth)
{
  conf_stmt *s = zp_conf_alloc(p->t, sizeof *s);
  if (!s)
    return oom(p), NULL;
  *s = (conf_stmt){0};
  conf_val **tail = &s->vals;
  bool goes_on = c == CTX_CATALOG || strcasecmp(first->text, "inet") == 0 ||
                 strcasecmp(first->text, "unix") == 0 ||
                 strcasecmp(first->text, "response-policy") == 0;
  for (tok t = *first;;) {
    if (t.kind == T_SEMI) {
      s->end = t.loc;
      break;
    }
    if (t.kind == T_CLOSE || t.kind == T_EOF) {
      missing_semi(p, &t, open);
      return NULL;
    }
    conf_val *v = zp_conf_alloc(p->t, sizeof *v);
    if (!v)
      return oom(p), NULL;
    *v = (conf_val){.kind = t.kind == T_WORD ? CONF_WORD : t.kind == T_STRING ? CONF_STRING
                                                                               : CONF_BLOCK,
                    .text = t.text, .loc = t.loc};
    *tail = v;
    tail = &v->next;
    if (t.kind == T_OPEN) {
      if (depth + 1 > MAX_DEPTH) {
        fail(p, &t.loc, "blocks nested deeper than %d", MAX_DEPTH);
        return NULL;
      }
      if (!body(p, inner(c, s->vals->text), &v->loc, depth + 1, &v->body) || !lex(p, &t))
        return NULL;
      if (!goes_on && t.kind != T_SEMI) {
        missing_semi(p, &t, open);
        return NULL;
      }
      continue;
    }
    if (!lex(p, &t))
      return NULL;
  }
  if (c == CTX_OPTIONS && strcasecmp(s->vals->text, "directory") == 0 && !directory(p, s))
    return NULL;
  return s;
}

/* Statements up to the '}' closing the block opened at open, or to the end of the file. */
static bool body(parser *p, ctx c, const zp_loc *open, unsigned depth, conf_stmt **out)
{
  bool map = c <= CTX_ZONE;
  for (;;) {
    tok t;
    if (!lex(p, &t))
      return false;
    if (t.kind == T_EOF && !open)
      return true;
    if (t.kind == T_CLOSE && open)
      return true;
    if (t.kind == T_EOF) {
      missing_semi(p, &t, open);
      return false;
    }
    if (t.kind == T_CLOSE || t.kind == T_SEMI) {
      fail(p, &t.loc, t.kind == T_CLOSE ? "'}' with no '{' before it to close"
                                        : "';' with no statement before it");
      return false;
    }
    if (map && t.kind != T_WORD) {
      fail(p, &t.loc, t.kind == T_OPEN ? "a block with no statement's name before it"
                                       : "a statement's name is a word, not a quoted string");
      return false;
    }
    if (t.kind == T_WORD && strcasecmp(t.text, "include") == 0) {
      if (!map) {
        fail(p, &t.loc, "include inside this block: zonepuny reads include at the top level "
             "and in options, view and zone only");
        return false;
      }
      if (!include(p, &t))
        return false;
      continue;
    }
    conf_stmt *s = statement(p, c, &t, open, depth);
    if (!s)
      return false;
    *out = s;
    out = &s->next;
  }
}

zp_status zp_conf_parse(const char *path, zp_diag *diag, conf_tree *t)
{
  *t = (conf_tree){.dir = ""};
  parser p = {.t = t, .diag = diag};
  struct stat sb;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return ZP_EIO;
  zp_status st = fstat(fd, &sb) == 0 ? push(&p, fd, &sb, path, NULL, NULL) : ZP_EIO;
  int e = errno;
  close(fd);
  errno = e;
  if (st == ZP_OK && !body(&p, CTX_TOP, NULL, 0, &t->top) && p.st == ZP_OK)
    p.st = ZP_ZONE_SYNTAX;
  zp_buf_free(&p.scratch);
  return st != ZP_OK ? st : p.st;
}
