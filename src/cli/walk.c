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

char *zp_origin_from_name(const char *path)
{
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t len = strlen(base);
  if (len > 5 && strcmp(base + len - 5, ".zone") == 0)
    len -= 5;
  else if (len > 3 && strcmp(base + len - 3, ".db") == 0)
    len -= 3;
  else if (strncmp(base, "db.", 3) == 0)
    base += 3, len -= 3;
  else
    return NULL;
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

static bool zone_named(const char *name)
{
  size_t len = strlen(name);
  return (len > 5 && strcmp(name + len - 5, ".zone") == 0) ||
         (len > 3 && strcmp(name + len - 3, ".db") == 0) ||
         (strncmp(name, "db.", 3) == 0 && name[3]);
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
                          zp_diag *d, unsigned depth)
{
  DIR *dir = opendir(path);
  if (!dir) {
    dir_error(d, path, "cannot read directory", errno);
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
      bool file_here = S_ISREG(lsb.st_mode) ||
                       (S_ISLNK(lsb.st_mode) && fstatat(dfd, names[i], &sb, 0) == 0 &&
                        S_ISREG(sb.st_mode));
      if ((dir_here && depth < 64) || (file_here && zone_named(names[i]))) {
        size_t lp = strlen(path);
        if ((sub = malloc(lp + strlen(names[i]) + 2)) == NULL)
          st = ZP_ENOMEM;
        else
          sprintf(sub, "%s%s%s", path, lp && path[lp - 1] == '/' ? "" : "/", names[i]);
      }
      if (sub && dir_here) {
        st = walk_dir(w, tree, sub, by_name, d, depth + 1);
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
  size_t file;       /* its index in the walk's files, or SIZE_MAX */
  bool included, reached;
} node;

typedef struct graph {
  node *nodes;
  size_t n, cap;
  size_t *edges;     /* pairs: includer, included (indexes into nodes) */
  size_t ne, ecap;
} graph;

/* The node of the file at path (taking path), made when new; SIZE_MAX when it cannot be
 * stat'ed (the zone's reader says why when it gets there) or out of memory (*st set). */
static size_t node_of(graph *g, char *path, size_t file, zp_status *st)
{
  struct stat sb;
  if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    free(path);
    return SIZE_MAX;
  }
  /* (a linear search: a repository holds thousands of zones, and each is read in full anyway) */
  for (size_t i = 0; i < g->n; i++)
    if (g->nodes[i].dev == sb.st_dev && g->nodes[i].ino == sb.st_ino) {
      if (g->nodes[i].file == SIZE_MAX)
        g->nodes[i].file = file;
      free(path);
      return i;
    }
  if (g->n == g->cap) {
    size_t cap = zp_grown_cap(g->cap, g->n + 1, 16);
    node *nn = cap ? realloc(g->nodes, cap * sizeof *nn) : NULL;
    if (!nn) {
      free(path);
      *st = ZP_ENOMEM;
      return SIZE_MAX;
    }
    g->nodes = nn;
    g->cap = cap;
  }
  g->nodes[g->n] = (node){.dev = sb.st_dev, .ino = sb.st_ino, .path = path, .file = file};
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

/* The file name of an $INCLUDE line (line[0..len), past "$INCLUDE" and a blank), unescaped as
 * the zone's reader takes a field (\DDD a byte, \X the character X), into name; false when
 * there is none or it does not fit. */
static bool include_name(const char *line, size_t len, char *name, size_t cap)
{
  size_t i = 0, o = 0;
  while (i < len && (line[i] == ' ' || line[i] == '\t'))
    i++;
  bool quoted = i < len && line[i] == '"';
  i += quoted;
  while (i < len && o + 1 < cap) {
    char c = line[i];
    if (quoted ? c == '"' : strchr(" \t\r;()\"", c) != NULL)
      break;
    if (c == '\\' && i + 1 < len) {
      if (i + 3 < len && line[i + 1] >= '0' && line[i + 1] <= '2' && line[i + 2] >= '0' &&
          line[i + 2] <= '9' && line[i + 3] >= '0' && line[i + 3] <= '9') {
        c = (char)((line[i + 1] - '0') * 100 + (line[i + 2] - '0') * 10 + (line[i + 3] - '0'));
        i += 3;
      } else {
        c = line[++i];
      }
    }
    if (c == '\0')
      return false;
    name[o++] = c;
    i++;
  }
  name[o] = '\0';
  return o > 0 && o + 1 < cap;
}

/* One line of a scanned file: an $INCLUDE (a control entry, so at the start of its line)
 * names a file, relative to the including file's directory as the reader resolves it. */
static zp_status scan_line(graph *g, size_t from, const char *line, size_t len)
{
  if (len < 9 || strncasecmp(line, "$include", 8) != 0 || (line[8] != ' ' && line[8] != '\t'))
    return ZP_OK;
  char name[4096];
  if (!include_name(line + 9, len - 9, name, sizeof name))
    return ZP_OK;
  const char *path = g->nodes[from].path, *slash = strrchr(path, '/');
  size_t dl = name[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
  char *target = malloc(dl + strlen(name) + 1);
  if (!target)
    return ZP_ENOMEM;
  memcpy(target, path, dl);
  strcpy(target + dl, name);
  zp_status st = ZP_OK;
  size_t to = node_of(g, target, SIZE_MAX, &st);
  if (to != SIZE_MAX)
    st = add_edge(g, from, to);
  return st;
}

/* The $INCLUDE lines of node i's file: read in blocks, only lines that begin with '$' looked
 * at, so a zone of millions of records costs a memchr over it. */
static zp_status scan_file(graph *g, size_t i)
{
  int fd = open(g->nodes[i].path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return ZP_OK;   /* (the reader says why when it reads the zone) */
  char block[1 << 16], line[4200];
  size_t ll = 0;
  bool at_start = true, keep = false;
  zp_status st = ZP_OK;
  ssize_t got;
  while (st == ZP_OK && (got = read(fd, block, sizeof block)) > 0) {
    for (const char *p = block, *end = block + got; p < end && st == ZP_OK;) {
      if (at_start) {
        keep = *p == '$';
        ll = 0;
      }
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      const char *stop = nl ? nl : end;
      if (keep) {
        size_t take = (size_t)(stop - p) < sizeof line - ll ? (size_t)(stop - p) : sizeof line - ll;
        memcpy(line + ll, p, take);
        ll += take;
        if (nl)
          st = scan_line(g, i, line, ll);
      }
      at_start = nl != NULL;
      p = nl ? nl + 1 : end;
    }
  }
  if (st == ZP_OK && keep && !at_start)
    st = scan_line(g, i, line, ll);
  close(fd);
  return st;
}

/* Marks the walk's fragments: the files of the list that a file of the list includes, through
 * any chain. A file that only a loop of $INCLUDEs reaches is no fragment: checked as it is, its
 * reader reports the loop. */
static zp_status find_fragments(zp_walk *w)
{
  graph g = {0};
  zp_status st = ZP_OK;
  for (size_t i = 0; i < w->n && st == ZP_OK; i++) {
    char *p = strcmp(w->files[i].path, "-") ? strdup(w->files[i].path) : NULL;
    size_t k = p ? node_of(&g, p, i, &st) : SIZE_MAX;
    /* the same file again with the same origin (given twice, or found twice); two links with
     * names of their own are two zones, as named.conf may serve one file under many names */
    zp_zone_file *first = k != SIZE_MAX && g.nodes[k].file != i ? &w->files[g.nodes[k].file] : NULL;
    if (first && (first->origin && w->files[i].origin ? !strcmp(first->origin, w->files[i].origin)
                                                     : first->origin == w->files[i].origin))
      w->files[i].again = true;
    if (p)
      continue;
    if (strcmp(w->files[i].path, "-"))
      st = ZP_ENOMEM;
  }
  for (size_t i = 0; i < g.n && st == ZP_OK; i++)   /* (g.n grows as includes are found) */
    st = scan_file(&g, i);
  for (size_t e = 0; e < g.ne && st == ZP_OK; e += 2)
    g.nodes[g.edges[e + 1]].included = true;
  /* reach from every file of the list that nothing includes; the edges in includer order */
  size_t *queue = st == ZP_OK ? malloc((g.n ? g.n : 1) * sizeof *queue) : NULL;
  if (st == ZP_OK && !queue)
    st = ZP_ENOMEM;
  size_t qn = 0;
  for (size_t i = 0; st == ZP_OK && i < g.n; i++)
    if (g.nodes[i].file != SIZE_MAX && !g.nodes[i].included) {
      g.nodes[i].reached = true;
      queue[qn++] = i;
    }
  for (size_t q = 0; st == ZP_OK && q < qn; q++)
    for (size_t e = 0; e < g.ne; e += 2)   /* (few edges: one per $INCLUDE line) */
      if (g.edges[e] == queue[q] && !g.nodes[g.edges[e + 1]].reached) {
        g.nodes[g.edges[e + 1]].reached = true;
        queue[qn++] = g.edges[e + 1];
      }
  for (size_t i = 0; st == ZP_OK && i < g.n; i++) {
    node *nd = &g.nodes[i];
    if (nd->file != SIZE_MAX && nd->included && nd->reached) {
      w->files[nd->file].fragment = true;
      w->fragments++;
    }
  }
  free(queue);
  for (size_t i = 0; i < g.n; i++)
    free(g.nodes[i].path);
  free(g.nodes);
  free(g.edges);
  return st;
}

zp_status zp_walk_args(char **args, int n, bool by_name, zp_diag *diag, zp_walk *w)
{
  *w = (zp_walk){0};
  zp_status st = ZP_OK;
  for (int i = 0; i < n && st == ZP_OK; i++) {
    struct stat sb;
    if (strcmp(args[i], "-") != 0 && stat(args[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
      size_t before = w->n;
      st = walk_dir(w, args[i], args[i], by_name, diag, 0);
      if (st == ZP_OK && w->n == before) {
        zp_source src = {.path = args[i]};
        zp_loc loc = {.src = &src};
        zp_diag_report(diag, &loc, ZP_ERROR, "%s: no zone file below it (named *.zone, *.db or "
                       "db.*)", args[i]);
      }
    } else {
      char *p = strdup(args[i]);
      st = p ? add_file(w, p, NULL, by_name) : ZP_ENOMEM;
    }
  }
  if (st == ZP_OK)
    st = find_fragments(w);
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
