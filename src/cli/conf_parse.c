/* conf_parse.c -- named.conf's tokens as BIND 9.18.49's lexer makes them (lib/isc/lex.c, as
 * lib/isccfg/parser.c sets it up): words, quoted strings, the specials { } ; / ! and three kinds
 * of comment; include spliced into the stream of tokens, and options' directory; bracketed
 * text; the tree's memory. conf_grammar.c reads the tokens as named's clause tables type them. */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "conf_int.h"

enum {
  MAX_INCLUDES = 32,   /* files including files; a loop is found before it */
  CHUNK = 1 << 14,
  SHOW_MAX = 40,       /* octets of a token quoted in a message */
};

/* What messages about a file show (doc/safety.md), as for a zone's files (read/zone_int.h): a
 * file the conf includes, or one the operator named through a symlink, may be anything the
 * conf's author points at (/etc/shadow, a key); its text (lines, and tokens in messages) shows
 * only once it reads as named.conf: with no error before it, a clause's name named knows where
 * it stands, or a ';' (zp_conf_reads). An error until then is told by its location alone, and
 * the reading stops there as at any error. */
enum { IN_SHOWN, IN_UNDECIDED, IN_HIDDEN };

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
struct conf_input {
  zp_source src;                /* src.data NULL once the file is hidden */
  const char *text, *p, *end;
  uint32_t line, col;
  uint64_t line_off;
  dev_t dev;
  ino_t ino;
  unsigned depth;               /* files including it */
  int show;                     /* IN_* */
  const struct conf_input *includer;
  struct conf_input *below;          /* read again once this one ends */
};

static zp_loc here(const conf_input *in)
{
  return (zp_loc){.src = &in->src, .line = in->line, .col = in->col, .line_off = in->line_off};
}

/* One octet on; columns count characters, so a UTF-8 continuation octet adds none. */
static void step(conf_input *in)
{
  unsigned char c = (unsigned char)*in->p++;
  if (c == '\n') {
    in->line++;
    in->col = 1;
    in->line_off = (uint64_t)(in->p - in->text);
  } else if ((c & 0xC0) != 0x80) {
    in->col++;
  }
}

static bool at(const conf_input *in, const char *two)
{
  return in->end - in->p >= 2 && in->p[0] == two[0] && in->p[1] == two[1];
}

/* The file a location of the conf is in: every zp_source of the conf's files is the first
 * member of its conf_input (push). */
static conf_input *input_of(const zp_loc *loc)
{
  return loc && loc->src ? (conf_input *)(void *)(uintptr_t)loc->src : NULL;
}

void zp_conf_reads(const zp_loc *loc)
{
  conf_input *in = input_of(loc);
  if (in && in->show == IN_UNDECIDED)
    in->show = IN_SHOWN;
}

void zp_conf_vtell(zp_diag *diag, const zp_loc *loc, zp_severity sev, const char *fmt,
                   va_list ap)
{
  conf_input *in = input_of(loc);
  if (!in || in->show == IN_SHOWN) {
    zp_diag_vreport(diag, loc, sev, fmt, ap);
    return;
  }
  if (in->show == IN_HIDDEN || sev != ZP_ERROR)
    return;   /* (a warning lost is safer than a secret shown) */
  in->show = IN_HIDDEN;
  in->src.data = NULL;   /* diag quotes no line of it */
  zp_diag_report(diag, loc, ZP_ERROR, "the file's first statement is an error: not read as "
                 "named.conf, and none of its text is shown");
}

void zp_conf_tell(zp_diag *diag, const zp_loc *loc, zp_severity sev, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  zp_conf_vtell(diag, loc, sev, fmt, ap);
  va_end(ap);
}

bool zp_conf_fail(conf_reader *p, const zp_loc *loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  zp_conf_vtell(p->diag, loc, ZP_ERROR, fmt, ap);
  va_end(ap);
  if (p->st == ZP_OK)
    p->st = ZP_ZONE_SYNTAX;
  return false;
}

bool zp_conf_oom(conf_reader *p)
{
  p->st = ZP_ENOMEM;
  return false;
}

/* The '/' ending a comment glued to a word, as named reads it: a token. */
static const char glued_slash[] = "/";

const char *zp_conf_show(const conf_tok *t, char buf[CONF_SHOW])
{
  if (t->kind == TK_EOF)
    return "the end of the file";
  if (t->text == glued_slash)
    return "'/' (named reads the last '/' of a comment glued to a word as a token: put a blank "
           "before the comment)";
  snprintf(buf, CONF_SHOW, t->kind == TK_STRING ? "'\"%.*s\"'" : "'%.*s'", SHOW_MAX, t->text);
  return buf;
}

static char *copy(conf_reader *p, const char *s, size_t n)
{
  char *c = zp_conf_alloc(p->t, n + 1);
  if (!c)
    return NULL;
  memcpy(c, s, n);
  c[n] = '\0';
  return c;
}

/* A C comment from its '/' on, the '*' and '/' closing it read. */
static bool comment(conf_reader *p, conf_input *in)
{
  zp_loc open = here(in);
  step(in);
  step(in);
  while (in->p < in->end && !at(in, "*/"))
    step(in);
  if (in->p == in->end)
    return zp_conf_fail(p, &open, "comment '/*' not closed: the file ends before its '*/'");
  step(in);
  step(in);
  return true;
}

/* Blanks (named's lexer has four) and comments: #, // to the end of the line, and C's. */
static bool skip(conf_reader *p, conf_input *in)
{
  while (in->p < in->end) {
    char c = *in->p;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      step(in);
    } else if (c == '#' || at(in, "//")) {
      while (in->p < in->end && *in->p != '\n')
        step(in);
    } else if (at(in, "/*")) {
      if (!comment(p, in))
        return false;
    } else {
      break;
    }
  }
  return true;
}

/* A quoted string. named keeps the backslash of every escape but \", which stands for '"'; a
 * string may run over lines. */
static bool string(conf_reader *p, conf_input *in, conf_tok *t)
{
  p->scratch.len = 0;
  step(in);
  for (;;) {
    if (in->p == in->end)
      return zp_conf_fail(p, &t->loc, "string not closed: the file ends before its closing '\"'");
    char c = *in->p;
    if (c == '"')
      break;
    if (c == '\\' && in->end - in->p >= 2) {
      if (in->p[1] != '"' && !zp_buf_put(&p->scratch, "\\", 1))
        return zp_conf_oom(p);
      step(in);
      c = *in->p;
    }
    if (c == '\0') {
      zp_loc nul = here(in);
      return zp_conf_fail(p, &nul, "a NUL octet, which no named.conf holds");
    }
    if (!zp_buf_put(&p->scratch, &c, 1))
      return zp_conf_oom(p);
    step(in);
  }
  step(in);
  t->kind = TK_STRING;
  t->text = copy(p, p->scratch.p ? p->scratch.p : "", p->scratch.len);
  return t->text || zp_conf_oom(p);
}

/* Anything else up to a blank, a special or a comment. A C comment glued to a word's end is
 * named's quirk: its lexer pushes back one octet too few there, so the comment's closing '/'
 * is read again, as the start of the next token (a '/' of its own, or another comment). */
static bool word(conf_reader *p, conf_input *in, conf_tok *t)
{
  const char *start = in->p;
  for (; in->p < in->end && (!*in->p || !strchr(" \t\n\r{};/\"!#", *in->p)); step(in))
    if (*in->p == '\0') {
      zp_loc nul = here(in);
      return zp_conf_fail(p, &nul, "a NUL octet, which no named.conf holds");
    }
  t->kind = TK_WORD;
  t->text = copy(p, start, (size_t)(in->p - start));
  t->end = here(in);
  if (!t->text)
    return zp_conf_oom(p);
  if (!at(in, "/*"))
    return true;
  if (!comment(p, in))
    return false;
  in->p--;   /* (the '/' is no newline: line and column stay right, one back) */
  in->col--;
  p->glued = in->p;
  return true;
}

static bool lex(conf_reader *p, conf_tok *t)
{
  conf_input *in;
  for (;;) {
    in = p->in;
    if (!skip(p, in))
      return false;
    if (in->p < in->end || !in->below)
      break;
    p->in = in->below;   /* an included file ends: back to what was read before it */
  }
  t->loc = here(in);
  static const char specials[] = "{};/!", texts[][2] = {"{", "}", ";", "/", "!"};
  const char *sp = in->p < in->end && *in->p ? strchr(specials, *in->p) : NULL;
  bool glued = in->p == p->glued;   /* (the '/' word() left to be read again) */
  if (in->p == in->end) {
    t->kind = TK_EOF;
    t->text = "";
  } else if (sp) {
    t->kind = (conf_tkind)(TK_OPEN + (sp - specials));
    t->text = glued ? glued_slash : texts[sp - specials];
    step(in);
  } else if (!(*in->p == '"' ? string(p, in, t) : word(p, in, t))) {
    return false;
  }
  if (t->kind != TK_WORD)
    t->end = here(in);
  return true;
}

bool zp_conf_peek(conf_reader *p, conf_tok *t)
{
  if (!p->have_ahead && !lex(p, &p->ahead))
    return false;
  p->have_ahead = true;
  *t = p->ahead;
  return true;
}

bool zp_conf_take(conf_reader *p, conf_tok *t)
{
  if (!zp_conf_peek(p, t))
    return false;
  p->have_ahead = false;
  if (t->kind != TK_EOF)
    p->last_end = t->end;
  return true;
}

/* t, taken, as the next value of s; NULL when out of memory. */
conf_val *zp_conf_put(conf_reader *p, conf_stmt *s, const conf_tok *t)
{
  conf_val *v = zp_conf_alloc(p->t, sizeof *v), **tail = &s->vals;
  if (!v)
    return zp_conf_oom(p), NULL;
  *v = (conf_val){.kind = t->kind == TK_STRING ? CONF_STRING : t->kind == TK_OPEN ? CONF_BLOCK
                                                                                  : CONF_WORD,
                  .text = t->text, .loc = t->loc};
  while (*tail)
    tail = &(*tail)->next;
  *tail = v;
  return v;
}

conf_stmt *zp_conf_stmt(conf_reader *p)
{
  conf_stmt *s = zp_conf_alloc(p->t, sizeof *s);
  if (!s)
    return zp_conf_oom(p), NULL;
  *s = (conf_stmt){0};
  return s;
}

/* What named wanted where t stands: said at t, or at the open '{' when the file ends. */
bool zp_conf_want(conf_reader *p, const conf_tok *t, const char *what)
{
  char buf[CONF_SHOW];
  if (t->kind == TK_EOF && p->open)
    return zp_conf_fail(p, p->open, "'{' not closed: the file ends before its '}'");
  return zp_conf_fail(p, &t->loc, "expected %s, not %s", what, zp_conf_show(t, buf));
}

/* The whole of the regular file open at fd (sb its fstat), read as a new input on top: ZP_EIO
 * (errno), ZP_ELIMIT when the conf's files would pass CONF_OCTETS_MAX with it, ZP_ENOMEM. A
 * file that grows while it is read (or a /proc file, whose size says nothing) is read only so
 * far. */
static zp_status push(conf_reader *p, int fd, const struct stat *sb, const char *path,
                      conf_input *includer, const zp_loc *kw, bool linked)
{
  zp_buf b = {0};
  uint64_t room = CONF_OCTETS_MAX - p->octets;
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
    if (b.len > room) {
      zp_buf_free(&b);
      return ZP_ELIMIT;
    }
  }
  size_t len = b.len;
  p->octets += len;
  char *text = copy(p, b.p ? b.p : "", len);
  zp_buf_free(&b);
  conf_input *in = zp_conf_alloc(p->t, sizeof *in);
  const char *name = copy(p, path, strlen(path));
  if (!text || !in || !name)
    return ZP_ENOMEM;
  *in = (conf_input){
    .src = {.path = name, .data = text, .len = len, .serial = p->files++},
    .text = text, .p = text, .end = text + len, .line = 1, .col = 1, .dev = sb->st_dev,
    .ino = sb->st_ino, .below = p->in, .show = includer || linked ? IN_UNDECIDED : IN_SHOWN,
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

/* One file of an include: opened, or why not said at the name's place. Only a regular file
 * is read: /dev/zero would be read until memory ran out, and a FIFO with no writer waited on
 * for ever, as named-checkconf waits (O_NONBLOCK: opening one does not wait either). */
static bool include_one(conf_reader *p, const char *path, conf_input *includer,
                        const zp_loc *kw, const zp_loc *name)
{
  if (includer->depth + 1 > MAX_INCLUDES)
    return zp_conf_fail(p, name, "include %s: files include files deeper than %d", path,
                        MAX_INCLUDES);
  /* n files that each include the next twice would read 2^n files: bounded as $INCLUDE's
   * files are (doc/limits.md) */
  if (p->files >= CONF_FILES_MAX)
    return zp_conf_fail(p, name, "include %s: the conf and its includes would read more than "
                        "%d files, zonepuny's limit (files that include others more than "
                        "once read them again each time)", path, CONF_FILES_MAX);
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) {
    zp_conf_fail(p, name, "include: cannot read %s: %s", path, strerror(errno));
    if (fd >= 0)
      close(fd);
    return false;
  }
  const char *kind = zp_conf_not_regular(&sb);
  if (kind) {
    close(fd);
    return zp_conf_fail(p, name, "include %s: %s, " ZP_CONF_NOT_REGULAR, path, kind);
  }
  for (const conf_input *a = includer; a; a = a->includer)
    if (a->dev == sb.st_dev && a->ino == sb.st_ino) {
      close(fd);
      return zp_conf_fail(p, name, "include %s: that file is being read already (an include "
                          "loop)", path);
    }
  zp_status st = push(p, fd, &sb, path, includer, kw, false);
  int e = errno;
  close(fd);
  if (st == ZP_EIO)
    return zp_conf_fail(p, name, "include: cannot read %s: %s", path, strerror(e));
  if (st == ZP_ELIMIT)
    return zp_conf_fail(p, name, "include %s: the conf and its includes would hold more than "
                        "%d MiB with it, zonepuny's limit", path, CONF_OCTETS_MAX >> 20);
  return st == ZP_OK || zp_conf_oom(p);
}

/* include "file"; -- named takes it wherever a block of clauses is read: the ';' first, then
 * the file's tokens as if they stood in its place (a block opened in one file may close in
 * another). The name is a glob(3) pattern, relative to the directory option read so far;
 * named stacks the matches and so reads them last first. */
bool zp_conf_include(conf_reader *p, const conf_tok *kw)
{
  conf_input *includer = p->in;
  conf_tok name, semi;
  char buf[CONF_SHOW];
  if (!zp_conf_take(p, &name))
    return false;
  if (name.kind != TK_STRING)
    return zp_conf_fail(p, &name.loc, "include takes a quoted file name, not %s",
                        zp_conf_show(&name, buf));
  if (!zp_conf_take(p, &semi))
    return false;
  if (semi.kind != TK_SEMI)
    return zp_conf_fail(p, &semi.loc, "missing ';' before %s", zp_conf_show(&semi, buf));
  zp_conf_reads(&semi.loc);   /* (what it includes is told at it, its name shown) */
  const char *path = zp_conf_join(p->t, p->t->dir, name.text);
  if (!path)
    return zp_conf_oom(p);
  glob_t g;
  int rc = glob(path, GLOB_NOCHECK, NULL, &g);
  if (rc == GLOB_NOSPACE)
    return zp_conf_oom(p);
  if (rc != 0)
    return zp_conf_fail(p, &name.loc, "include: cannot read %s: %s", path, strerror(errno));
  bool ok = true;
  for (size_t i = 0; ok && i < g.gl_pathc; i++)
    ok = include_one(p, g.gl_pathv[i], includer, &kw->loc, &name.loc);
  globfree(&g);
  return ok;
}

/* options { directory "dir"; }: named-checkconf changes into it as soon as it reads it, so
 * it is what later includes, and every relative zone file, are relative to. */
bool zp_conf_directory(conf_reader *p, const conf_stmt *s)
{
  const conf_val *v = s->vals->next;
  char *dir = zp_conf_join(p->t, p->t->dir, v->text);
  if (!dir)
    return zp_conf_oom(p);
  struct stat sb;
  int rc = stat(dir, &sb);
  if (rc != 0 || !S_ISDIR(sb.st_mode))
    return zp_conf_fail(p, &v->loc, "directory %s: %s", dir,
                        strerror(rc != 0 ? errno : ENOTDIR));
  p->t->dir = dir;
  return true;
}

/* Bracketed text, kept whole: braces counted, a backslash escaping the next octet, neither
 * comments nor quotes read (named's lexer in its BTEXT mode). */
bool zp_conf_btext(conf_reader *p, conf_stmt *s)
{
  conf_tok t;
  if (!zp_conf_take(p, &t))
    return false;
  if (t.kind != TK_OPEN)
    return zp_conf_want(p, &t, "'{'");
  if (!zp_conf_put(p, s, &t))
    return false;
  conf_input *in = p->in;
  for (unsigned open = 1; open > 0; step(in)) {
    if (in->p == in->end)
      return zp_conf_fail(p, &t.loc, "'{' not closed: the file ends before its '}'");
    if (*in->p == '\\' && in->end - in->p > 1)
      step(in);
    else if (*in->p == '{')
      open++;
    else if (*in->p == '}')
      open--;
  }
  p->last_end = here(in);
  return true;
}

zp_status zp_conf_begin(conf_reader *r, const char *path, zp_diag *diag, conf_tree *t)
{
  *t = (conf_tree){.dir = ""};
  *r = (conf_reader){.t = t, .diag = diag};
  struct stat sb;
  /* a conf reached through a symlink (a repository's named.conf may link to /etc/shadow) shows
   * its text only once it reads as one, as a zone file so reached does (read/include.c) */
  bool linked = false;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
  if (fd < 0 && errno == ELOOP) {
    linked = true;
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  }
  if (fd < 0)
    return ZP_EIO;
  zp_status st = fstat(fd, &sb) == 0 ? ZP_OK : ZP_EIO;
  const char *kind = st == ZP_OK ? zp_conf_not_regular(&sb) : NULL;
  zp_source src = {.path = path};
  zp_loc loc = {.src = &src};
  if (kind) {
    zp_diag_report(diag, &loc, ZP_ERROR, "%s is %s, " ZP_CONF_NOT_REGULAR, path, kind);
    st = ZP_EIO;
    errno = 0;
  } else if (st == ZP_OK) {
    st = push(r, fd, &sb, path, NULL, NULL, linked);
  }
  if (st == ZP_ELIMIT) {
    zp_diag_report(diag, &loc, ZP_ERROR, "%s holds more than %d MiB, zonepuny's limit for a "
                   "conf and its includes", path, CONF_OCTETS_MAX >> 20);
    st = ZP_EIO;
    errno = 0;
  }
  int e = errno;
  close(fd);
  errno = e;
  return st;
}

void zp_conf_end(conf_reader *r)
{
  zp_buf_free(&r->scratch);
}
