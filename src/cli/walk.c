/* walk.c -- the zone files of --check's arguments: directories walked, each file's origin from
 * its name, and the fragments other zones $INCLUDE, found by reading their $INCLUDE lines */
#define _GNU_SOURCE   /* strndup, fstatat's flags */
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/hash.h"

enum { WALK_DEPTH = 64 };   /* directories below a tree walked: deeper is reported, not walked */

static bool ends_with(const char *s, size_t len, const char *end)
{
  size_t n = strlen(end);
  return len > n && strcmp(s + len - n, end) == 0;
}

/* The stem of a zone file's name: name[*off..*off + *len) less ".zone", ".db" or "db."; false
 * when it has none of them. */
static bool zone_stem(const char *name, size_t *off, size_t *len)
{
  size_t n = strlen(name);
  *off = 0;
  if (ends_with(name, n, ".zone"))
    *len = n - 5;
  else if (ends_with(name, n, ".db"))
    *len = n - 3;
  else if (strncmp(name, "db.", 3) == 0 && name[3])
    *off = 3, *len = n - 3;
  else
    return false;
  return true;
}

char *zp_origin_from_name(const char *path)
{
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t off, len;
  if (!zone_stem(base, &off, &len))
    return NULL;
  base += off;
  /* letters, digits, '-', '_', '.' and UTF-8 (converted as any name is); no empty label, as
   * a name typed by hand would not have; a trailing dot is the root's and allowed */
  if (len == 0 || base[0] == '.' || memmem(base, len, "..", 2))
    return NULL;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)base[i];
    if (!(c >= 0x80 || c == '-' || c == '_' || c == '.' || (c >= '0' && c <= '9') ||
          ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')))
      return NULL;
  }
  bool dot = base[len - 1] == '.';
  char *origin = malloc(len + 2);
  if (!origin)
    return NULL;
  memcpy(origin, base, len);
  memcpy(origin + len, ".", dot ? 1 : 2);
  origin[len + !dot] = '\0';
  return origin;
}

/* *.zone, *.db and db.*, but not what sits beside zones in a server's directory: BIND's journals
 * (db.example.com.jnl) and the copies editors and tools leave (~, .bak, .orig, .swp, .tmp) */
static bool zone_named(const char *name)
{
  size_t len = strlen(name);
  static const char *const not_zones[] = {".jnl", "~", ".bak", ".orig", ".swp", ".tmp"};
  for (size_t i = 0; i < sizeof not_zones / sizeof *not_zones; i++)
    if (ends_with(name, len, not_zones[i]))
      return false;
  size_t off;
  return zone_stem(name, &off, &len);
}

static zp_status add_file(zp_walk *w, char *path, const char *tree, bool by_name)
{
  if (w->n == w->cap) {
    size_t cap = zp_grown_cap(w->cap, w->n + 1, 16);
    zp_zone_file *f = cap ? realloc(w->files, cap * sizeof *f) : NULL;
    if (!f) {
      free(path);
      return ZP_ENOMEM;
    }
    w->files = f;
    w->cap = cap;
  }
  char *origin = NULL;
  errno = 0;
  if (by_name && strcmp(path, "-") != 0 && !(origin = zp_origin_from_name(path)) && errno == ENOMEM) {
    free(path);
    return ZP_ENOMEM;
  }
  w->files[w->n++] = (zp_zone_file){.path = path, .origin = origin, .tree = tree};
  return ZP_OK;
}

static int by_bytes(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void dir_error(zp_diag *d, const char *path, const char *what, int err)
{
  zp_source src = {.path = path};
  zp_loc loc = {.src = &src};
  zp_diag_report(d, &loc, ZP_ERROR, "%s %s: %s", what, path, strerror(err));
}

/* The zone files below the directory at path, in byte order of their names level by level
 * (the order a sorted listing shows, so messages come in an order a reader can follow). */
static zp_status walk_dir(zp_walk *w, const char *tree, const char *path, bool by_name,
                          zp_diag *d, unsigned depth, bool *read)
{
  DIR *dir = opendir(path);
  if (!dir) {
    dir_error(d, path, "cannot read directory", errno);
    *read = false;
    return ZP_OK;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  zp_status st = ZP_OK;
  struct dirent *e;
  errno = 0;
  while (st == ZP_OK && (e = readdir(dir)) != NULL) {
    if (e->d_name[0] == '.')   /* ".", "..", and hidden: .git, editors' files */
      continue;
    if (n == cap) {
      cap = zp_grown_cap(cap, n + 1, 16);
      char **g = cap ? realloc(names, cap * sizeof *g) : NULL;
      if (!g) {
        st = ZP_ENOMEM;
        break;
      }
      names = g;
    }
    if (!(names[n] = strdup(e->d_name)))
      st = ZP_ENOMEM;
    else
      n++;
  }
  if (st == ZP_OK && errno)
    dir_error(d, path, "cannot read directory", errno);
  if (n)   /* (qsort wants an array, even of none) */
    qsort(names, n, sizeof *names, by_bytes);
  int dfd = dirfd(dir);
  for (size_t i = 0; i < n; i++) {
    struct stat lsb, sb;
    char *sub = NULL;
    if (st == ZP_OK && fstatat(dfd, names[i], &lsb, AT_SYMLINK_NOFOLLOW) == 0) {
      bool dir_here = S_ISDIR(lsb.st_mode);
      /* a symlink that leads nowhere is taken, for the reader to say so: a zone gone missing */
      bool file_here = S_ISREG(lsb.st_mode) ||
                       (S_ISLNK(lsb.st_mode) && (fstatat(dfd, names[i], &sb, 0) != 0 ||
                                                 S_ISREG(sb.st_mode)));
      if (dir_here && depth >= WALK_DEPTH) {
        zp_diag_report(d, NULL, ZP_ERROR, "%s/%s: more than %d directories below %s: not "
                       "walked", path, names[i], WALK_DEPTH, tree);
        dir_here = false;
      }
      if (dir_here || (file_here && zone_named(names[i]))) {
        size_t lp = strlen(path);
        if ((sub = malloc(lp + strlen(names[i]) + 2)) == NULL)
          st = ZP_ENOMEM;
        else
          sprintf(sub, "%s%s%s", path, lp && path[lp - 1] == '/' ? "" : "/", names[i]);
      }
      if (sub && dir_here) {
        st = walk_dir(w, tree, sub, by_name, d, depth + 1, read);
        free(sub);
      } else if (sub) {
        st = add_file(w, sub, tree, by_name);
      }
    }
    free(names[i]);
  }
  free(names);
  closedir(dir);
  return st;
}

/* ---- fragments: which files of the list others $INCLUDE ---- */

/* A file met in the scan, by identity: a zone of the list, or a file one includes. */
typedef struct node {
  dev_t dev;
  ino_t ino;
  char *path;        /* to read it and resolve its own $INCLUDEs */
  char *root;        /* the real path of the include root its $INCLUDEs stay below, or NULL:
                        they are not followed */
  size_t file;       /* its index in the walk's files, or SIZE_MAX */
  bool included, reached;
} node;

typedef struct graph {
  node *nodes;
  size_t n, cap;
  size_t *slot;      /* index + 1 of each node by the hash of its device and inode; 0: free */
  size_t nslots;     /* a power of two, at least twice n */
  size_t *edges;     /* pairs: includer, included (indexes into nodes) */
  size_t ne, ecap;
} graph;

static size_t slot_of(const graph *g, dev_t dev, ino_t ino)
{
  uint64_t key[2] = {(uint64_t)dev, (uint64_t)ino};
  size_t at = zp_hash((const uint8_t *)key, sizeof key) & (g->nslots - 1);
  while (g->slot[at] && (g->nodes[g->slot[at] - 1].dev != dev ||
                         g->nodes[g->slot[at] - 1].ino != ino))
    at = (at + 1) & (g->nslots - 1);
  return at;
}

/* Room in the table for one more node: a tree of a million files is looked up in each. */
static bool slots_room(graph *g)
{
  if ((g->n + 1) * 2 <= g->nslots)
    return true;
  size_t n = g->nslots ? g->nslots * 2 : 64;
  size_t *s = calloc(n, sizeof *s), *old = g->slot;
  if (!s)
    return false;
  g->slot = s;
  g->nslots = n;
  for (size_t i = 0; i < g->n; i++)
    s[slot_of(g, g->nodes[i].dev, g->nodes[i].ino)] = i + 1;
  free(old);
  return true;
}

/* The node of the file at path (taking path), made when new with a copy of root; SIZE_MAX
 * when it cannot be stat'ed (the zone's reader says why when it gets there) or out of memory
 * (*st set). */
static size_t node_of(graph *g, char *path, size_t file, const char *root, zp_status *st)
{
  struct stat sb;
  char *r = NULL;
  if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || (root && !(r = strdup(root)))) {
    if (root && S_ISREG(sb.st_mode) && !r)
      *st = ZP_ENOMEM;
    free(path);
    return SIZE_MAX;
  }
  if (!slots_room(g)) {
    free(path);
    free(r);
    *st = ZP_ENOMEM;
    return SIZE_MAX;
  }
  size_t at = slot_of(g, sb.st_dev, sb.st_ino);
  if (g->slot[at]) {
    size_t i = g->slot[at] - 1;
    if (g->nodes[i].file == SIZE_MAX)
      g->nodes[i].file = file;
    free(path);
    free(r);
    return i;
  }
  if (g->n == g->cap) {
    size_t cap = zp_grown_cap(g->cap, g->n + 1, 16);
    node *nn = cap ? realloc(g->nodes, cap * sizeof *nn) : NULL;
    if (!nn) {
      free(path);
      free(r);
      *st = ZP_ENOMEM;
      return SIZE_MAX;
    }
    g->nodes = nn;
    g->cap = cap;
  }
  g->nodes[g->n] = (node){.dev = sb.st_dev, .ino = sb.st_ino, .path = path, .root = r,
                          .file = file};
  g->slot[at] = g->n + 1;
  return g->n++;
}

static zp_status add_edge(graph *g, size_t from, size_t to)
{
  if (g->ne + 2 > g->ecap) {
    size_t cap = zp_grown_cap(g->ecap, g->ne + 2, 16);
    size_t *e = cap ? realloc(g->edges, cap * sizeof *e) : NULL;
    if (!e)
      return ZP_ENOMEM;
    g->edges = e;
    g->ecap = cap;
  }
  g->edges[g->ne++] = from;
  g->edges[g->ne++] = to;
  return ZP_OK;
}

/* The state of reading one file's entries as the zone's reader splits them: tokens between
 * blanks, parentheses that continue an entry over lines, quotes, comments. */
typedef struct scan {
  graph *g;
  size_t from;          /* the node read */
  unsigned depth;       /* open parentheses */
  bool quote, escape, comment;
  bool line_start;      /* nothing yet on this line */
  bool col1;            /* the token began a line, outside parentheses */
  bool in_token, overflow;
  unsigned tokens;      /* tokens of the entry so far */
  bool want_name;       /* the entry is an $INCLUDE: its next token is the file */
  size_t len;
  char tok[4096];
} scan;

/* An $INCLUDE target (the token as the reader takes it: no escape undone), relative to the
 * including file's directory; followed only below the include root, as the reader would. */
static zp_status include_edge(scan *sc)
{
  graph *g = sc->g;
  const char *path = g->nodes[sc->from].path, *slash = strrchr(path, '/');
  const char *root = g->nodes[sc->from].root;
  if (!root)
    return ZP_OK;
  size_t dl = sc->tok[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
  char *target = malloc(dl + sc->len + 1);
  if (!target)
    return ZP_ENOMEM;
  memcpy(target, path, dl);
  memcpy(target + dl, sc->tok, sc->len + 1);
  char *real = realpath(target, NULL);
  size_t rl = strlen(root);
  bool below = real && (strcmp(root, "/") == 0 ||
                        (strncmp(real, root, rl) == 0 && (real[rl] == '/' || !real[rl])));
  free(real);
  if (!below) {
    free(target);
    return ZP_OK;
  }
  zp_status st = ZP_OK;
  size_t to = node_of(g, target, SIZE_MAX, root, &st);
  if (to != SIZE_MAX)
    st = add_edge(g, sc->from, to);
  return st;
}

/* The token ends: the first of an entry, at the start of its line, may be $INCLUDE (a control
 * entry); the token after it is the file. */
static zp_status token_end(scan *sc)
{
  if (!sc->in_token)
    return ZP_OK;
  sc->in_token = false;
  sc->tok[sc->len] = '\0';
  zp_status st = ZP_OK;
  if (sc->overflow)
    sc->want_name = false;
  else if (sc->want_name) {
    sc->want_name = false;
    if (sc->len)
      st = include_edge(sc);
  } else if (sc->tokens == 0 && sc->col1 && sc->len == 8 && strcasecmp(sc->tok, "$include") == 0)
    sc->want_name = true;
  sc->tokens++;
  return st;
}

static void token_begin(scan *sc)
{
  if (!sc->in_token) {
    sc->in_token = true;
    sc->overflow = false;
    sc->len = 0;
    sc->col1 = sc->line_start && sc->depth == 0;
  }
}

static void token_byte(scan *sc, char c)
{
  token_begin(sc);
  if (sc->len + 1 < sizeof sc->tok)
    sc->tok[sc->len++] = c;
  else
    sc->overflow = true;
}

static zp_status scan_bytes(scan *sc, const char *p, size_t n)
{
  zp_status st = ZP_OK;
  for (size_t i = 0; i < n && st == ZP_OK; i++) {
    char c = p[i];
    if (sc->comment) {
      if (c != '\n')
        continue;
      sc->comment = false;
    }
    if (sc->escape) {
      token_byte(sc, c);
      sc->escape = sc->line_start = false;
      continue;
    }
    if (sc->quote) {
      if (c != '"' && c != '\n') {
        sc->escape = c == '\\';
        token_byte(sc, c);
        continue;
      }
      sc->quote = false;   /* (a line end in quotes is the reader's error) */
      st = token_end(sc);
      if (c == '"')
        continue;
    }
    switch (c) {
    case '\n':
      st = token_end(sc);
      if (sc->depth == 0) {
        sc->tokens = 0;
        sc->want_name = false;
      }
      sc->line_start = true;
      continue;
    case ' ': case '\t': case '\r': st = token_end(sc); break;
    case ';': st = token_end(sc); sc->comment = true; break;
    case '(': st = token_end(sc); sc->depth++; break;
    case ')': st = token_end(sc); sc->depth -= sc->depth > 0; break;
    case '"':
      st = token_end(sc);
      token_begin(sc);   /* ("" is a token too) */
      sc->quote = true;
      break;
    case '\\': token_byte(sc, c); sc->escape = true; break;
    default: token_byte(sc, c); break;
    }
    sc->line_start = false;
  }
  return st;
}

/* The $INCLUDEs of node i's file, read in blocks. A file found in a directory with a NUL octet
 * in its first block is no zone but binary (a BIND journal, a database): marked, not read. */
static zp_status scan_file(graph *g, size_t i, zp_walk *w)
{
  int fd = open(g->nodes[i].path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return ZP_OK;   /* (the reader says why when it reads the zone) */
  scan *sc = malloc(sizeof *sc);
  char *block = malloc(1 << 16);
  zp_status st = sc && block ? ZP_OK : ZP_ENOMEM;
  if (sc)
    *sc = (scan){.g = g, .from = i, .line_start = true};
  ssize_t got;
  bool first = true;
  while (st == ZP_OK && (got = read(fd, block, 1 << 16)) > 0) {
    size_t file = g->nodes[i].file;
    if (first && file != SIZE_MAX && w->files[file].tree && memchr(block, '\0', (size_t)got)) {
      w->files[file].binary = true;
      break;
    }
    first = false;
    st = scan_bytes(sc, block, (size_t)got);
  }
  if (st == ZP_OK)
    st = scan_bytes(sc, "\n", 1);
  free(block);
  free(sc);
  close(fd);
  return st;
}

/* The real path of the directory $INCLUDEs of file f stay below, as the reader fences them
 * (--include-root, else the tree f was found in, else f's directory); NULL when it has none. */
static char *root_of(const zp_zone_file *f, const char *include_root)
{
  if (include_root || f->tree)
    return realpath(include_root ? include_root : f->tree, NULL);
  const char *slash = strrchr(f->path, '/');
  char *dir = slash ? strndup(f->path, slash == f->path ? 1 : (size_t)(slash - f->path))
                    : strdup(".");
  char *real = dir ? realpath(dir, NULL) : NULL;
  free(dir);
  return real;
}

/* Marks the files of the list met before (the same file, with the same origin: given twice, or
 * a directory and a file in it; the first takes the other's tree, so the verdict does not hang
 * on the order) and the fragments: files of the list that a file of the list includes, through
 * any chain. A file that only a loop of $INCLUDEs reaches is no fragment: checked as it is, its
 * reader reports the loop. With --no-include no $INCLUDE is followed. */
static zp_status find_fragments(zp_walk *w, const char *include_root, bool no_include)
{
  graph g = {0};
  zp_status st = ZP_OK;
  for (size_t i = 0; i < w->n && st == ZP_OK; i++) {
    zp_zone_file *f = &w->files[i];
    if (strcmp(f->path, "-") == 0)
      continue;
    char *p = strdup(f->path);
    size_t k = p ? node_of(&g, p, i, NULL, &st) : SIZE_MAX;
    if (!p)
      st = ZP_ENOMEM;
    /* two links with names of their own are two zones, as one file may serve several */
    zp_zone_file *first = k != SIZE_MAX && g.nodes[k].file != i ? &w->files[g.nodes[k].file] : NULL;
    if (first && (first->origin && f->origin ? !strcmp(first->origin, f->origin)
                                             : first->origin == f->origin)) {
      f->again = true;
      if (!first->tree)
        first->tree = f->tree;
    }
  }
  for (size_t i = 0; i < g.n && st == ZP_OK && !no_include; i++)
    if (!(g.nodes[i].root = root_of(&w->files[g.nodes[i].file], include_root)) && errno == ENOMEM)
      st = ZP_ENOMEM;
  for (size_t i = 0; i < g.n && st == ZP_OK && !no_include; i++)   /* (g.n grows) */
    st = scan_file(&g, i, w);
  for (size_t e = 0; e < g.ne && st == ZP_OK; e += 2)
    g.nodes[g.edges[e + 1]].included = true;
  /* reach from every file of the list that nothing includes, through each node's edges: first[i]
   * to first[i + 1] in to[], the edges in order of their includer */
  size_t *queue = st == ZP_OK ? malloc((g.n ? g.n : 1) * sizeof *queue) : NULL;
  size_t *first = st == ZP_OK ? calloc(g.n + 1, sizeof *first) : NULL;
  size_t *to = st == ZP_OK ? malloc((g.ne / 2 + 1) * sizeof *to) : NULL;
  if (st == ZP_OK && (!queue || !first || !to))
    st = ZP_ENOMEM;
  for (size_t e = 0; st == ZP_OK && e < g.ne; e += 2)
    first[g.edges[e] + 1]++;
  for (size_t i = 0; st == ZP_OK && i < g.n; i++)
    first[i + 1] += first[i];
  for (size_t e = 0; st == ZP_OK && e < g.ne; e += 2)
    to[first[g.edges[e]]++] = g.edges[e + 1];
  for (size_t i = g.n; st == ZP_OK && i > 0; i--)   /* (each first[i] was moved to first[i + 1]) */
    first[i] = first[i - 1];
  if (st == ZP_OK)
    first[0] = 0;
  size_t qn = 0;
  for (size_t i = 0; st == ZP_OK && i < g.n; i++)
    if (g.nodes[i].file != SIZE_MAX && !g.nodes[i].included) {
      g.nodes[i].reached = true;
      queue[qn++] = i;
    }
  for (size_t q = 0; st == ZP_OK && q < qn; q++)
    for (size_t e = first[queue[q]]; e < first[queue[q] + 1]; e++)
      if (!g.nodes[to[e]].reached) {
        g.nodes[to[e]].reached = true;
        queue[qn++] = to[e];
      }
  for (size_t i = 0; st == ZP_OK && i < g.n; i++) {
    node *nd = &g.nodes[i];
    if (nd->file != SIZE_MAX && nd->included && nd->reached) {
      w->files[nd->file].fragment = true;
      w->fragments++;
    }
  }
  free(queue);
  free(first);
  free(to);
  free(g.slot);
  for (size_t i = 0; i < g.n; i++) {
    free(g.nodes[i].path);
    free(g.nodes[i].root);
  }
  free(g.nodes);
  free(g.edges);
  return st;
}

zp_status zp_walk_args(char **args, int n, const zp_walk_options *opt, zp_diag *diag, zp_walk *w)
{
  *w = (zp_walk){0};
  zp_status st = ZP_OK;
  int stdin_given = 0;
  for (int i = 0; i < n && st == ZP_OK; i++) {
    struct stat sb;
    if (strcmp(args[i], "-") != 0 && stat(args[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
      size_t before = w->n;
      bool read = true;
      st = walk_dir(w, args[i], args[i], opt->by_name, diag, 0, &read);
      if (st == ZP_OK && read && w->n == before) {
        zp_source src = {.path = args[i]};
        zp_loc loc = {.src = &src};
        zp_diag_report(diag, &loc, ZP_ERROR, "%s: no zone file below it (named *.zone, *.db or "
                       "db.*)", args[i]);
      }
    } else if (strcmp(args[i], "-") == 0 && stdin_given++) {
      zp_diag_report(diag, NULL, ZP_ERROR, "standard input (-) given twice: it is read once");
    } else {
      char *p = strdup(args[i]);
      st = p ? add_file(w, p, NULL, opt->by_name) : ZP_ENOMEM;
    }
  }
  /* a file given alone is nobody's fragment, and its reader is the one to open it: the zone is
   * read from one open file, whatever is renamed over its name meanwhile */
  if (st == ZP_OK && !(w->n == 1 && !w->files[0].tree))
    st = find_fragments(w, opt->include_root, opt->no_include);
  return st;
}

void zp_walk_free(zp_walk *w)
{
  for (size_t i = 0; i < w->n; i++) {
    free(w->files[i].path);
    free(w->files[i].origin);
  }
  free(w->files);
  *w = (zp_walk){0};
}
