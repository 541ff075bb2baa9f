/* walk.c -- the zone files of --check's arguments: directories walked, each file's origin from
 * its name (the fragments among them: fragment.c) */
#define _GNU_SOURCE   /* strndup, fstatat's flags */
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"

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

static zp_status add_file(zp_walk *w, char *path, const char *tree, bool by_name,
                          const char *stdin_name)
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
  const char *named = strcmp(path, "-") != 0 ? path : stdin_name;
  if (by_name && named && !(origin = zp_origin_from_name(named)) && errno == ENOMEM) {
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
        st = add_file(w, sub, tree, by_name, NULL);
      }
    }
    free(names[i]);
  }
  free(names);
  closedir(dir);
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
      st = p ? add_file(w, p, NULL, opt->by_name, opt->stdin_name) : ZP_ENOMEM;
    }
  }
  /* a file given alone is nobody's fragment, and its reader is the one to open it: the zone is
   * read from one open file, whatever is renamed over its name meanwhile */
  if (st == ZP_OK && !(w->n == 1 && !w->files[0].tree))
    st = zp_walk_fragments(w, opt->include_root, opt->no_include);
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
