/* fragment.c -- which files of --check's list other files of it $INCLUDE, through any chain,
 * found by reading their $INCLUDE lines: a fragment is checked through the zones that include
 * it, never alone */
#define _GNU_SOURCE   /* strndup */
#include "walk.h"

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
zp_status zp_walk_fragments(zp_walk *w, const char *include_root, bool no_include)
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
  size_t *via = st == ZP_OK ? malloc((g.n ? g.n : 1) * sizeof *via) : NULL;   /* (by node) */
  if (st == ZP_OK && (!queue || !first || !to || !via))
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
      via[i] = g.nodes[i].file;
      queue[qn++] = i;
    }
  for (size_t q = 0; st == ZP_OK && q < qn; q++)
    for (size_t e = first[queue[q]]; e < first[queue[q] + 1]; e++)
      if (!g.nodes[to[e]].reached) {
        g.nodes[to[e]].reached = true;
        via[to[e]] = via[queue[q]];
        queue[qn++] = to[e];
      }
  for (size_t i = 0; st == ZP_OK && i < g.n; i++) {
    node *nd = &g.nodes[i];
    if (nd->file != SIZE_MAX && nd->included && nd->reached) {
      w->files[nd->file].fragment = true;
      w->files[nd->file].via = via[i];
      w->fragments++;
    }
  }
  free(queue);
  free(first);
  free(to);
  free(via);
  free(g.slot);
  for (size_t i = 0; i < g.n; i++) {
    free(g.nodes[i].path);
    free(g.nodes[i].root);
  }
  free(g.nodes);
  free(g.edges);
  return st;
}

