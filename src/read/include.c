/* include.c -- the files of a zone: the entry points zp_zone_parse and zp_zone_parse_mem,
 * opening, $INCLUDE with its root, loops and limits, and reading each file through the scanner
 * and parser. It calls zone.c for the zone's state, its records and its messages; zone.c never
 * calls back, so a change to the file stack cannot reach the record rules unseen. */
#define _GNU_SOURCE   /* O_PATH (open(2)) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

#include "zone_int.h"

enum {
  PATH_CAP = 4096,    /* an $INCLUDE path, as joined to its file's directory */
  WALK_DEPTH = 128,   /* directories deep below the root, for the walk */
  WALK_LINKS = 40,    /* symlinks in one path: the kernel's own bound (path_resolution(7)) */
};

/* a + "/" + b, or b alone when a is empty; NULL when out of memory */
static char *join(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  char *p = malloc(la + lb + 2);
  if (!p)
    return NULL;
  memcpy(p, a, la);
  p[la] = '/';
  memcpy(p + (la ? la + 1 : 0), b, lb + 1);
  return p;
}

/* The directory part of path, as written ("." when it has none). */
static char *dir_of(const char *path)
{
  const char *slash = strrchr(path, '/');
  if (!slash)
    return strdup(".");
  if (slash == path)
    return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

/* RESOLVE_BENEATH (openat2(2)) done by hand, for kernels without openat2: rel is walked from
 * root a component at a time with O_NOFOLLOW, directories on a stack so that ".." is the
 * directory this walk came from, never read from the file system; ".." at the root, an
 * absolute symlink and too many symlinks are EXDEV or ELOOP, as the kernel has them. A
 * symlink (O_NOFOLLOW refuses it) is read and its target walked in its place, from where it
 * stands; so a symlink swapped in at any moment is followed as it is then, below the root. */
static int walk_below(int root, const char *rel, int flags)
{
  int dirs[WALK_DEPTH], n = 0, links = 0, fd = -1, err = 0;
  size_t pos = 0;
  char *rest = strdup(rel);   /* what is left to walk, symlink targets spliced in */
  if (!rest)
    return -1;
  for (;;) {
    while (rest[pos] == '/')
      pos++;
    int cur = n ? dirs[n - 1] : root;
    if (!rest[pos]) {   /* the path ends in a directory: that is what is opened */
      fd = openat(cur, ".", flags);
      err = errno;
      break;
    }
    size_t len = strcspn(rest + pos, "/");
    char name[256];
    if (len >= sizeof name) {
      err = ENAMETOOLONG;
      break;
    }
    memcpy(name, rest + pos, len);
    name[len] = '\0';
    pos += len;
    bool last = !rest[pos + strspn(rest + pos, "/")];
    if (strcmp(name, ".") == 0)
      continue;
    if (strcmp(name, "..") == 0) {
      if (n == 0) {
        err = EXDEV;
        break;
      }
      close(dirs[--n]);
      continue;
    }
    int next = last ? openat(cur, name, flags | O_NOFOLLOW)
                    : openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next >= 0 && last) {
      fd = next;
      break;
    }
    if (next >= 0 && n < WALK_DEPTH) {
      dirs[n++] = next;
      continue;
    }
    err = next >= 0 ? ENAMETOOLONG : errno;
    if (next >= 0)
      close(next);
    if (err != ELOOP && err != ENOTDIR)
      break;
    char target[PATH_CAP];
    ssize_t tl = readlinkat(cur, name, target, sizeof target - 1);
    if (tl < 0)
      break;   /* not a symlink: err stands */
    target[tl] = '\0';
    if (++links > WALK_LINKS || tl == 0 || target[0] == '/') {
      err = links > WALK_LINKS ? ELOOP : EXDEV;
      break;
    }
    char *spliced = join(target, rest + pos);
    if (!spliced) {
      err = ENOMEM;
      break;
    }
    free(rest);
    rest = spliced;
    pos = 0;
  }
  /* As openat2 does last (complete_walk() in the kernel): each directory passed must still
   * hang below the one before, or one was moved out of the root while the walk was in it. */
  for (int k = n - 1; k >= 0 && fd >= 0; k--) {
    struct stat up, want;
    if (fstatat(dirs[k], "..", &up, 0) != 0 || fstat(k ? dirs[k - 1] : root, &want) != 0 ||
        up.st_dev != want.st_dev || up.st_ino != want.st_ino) {
      close(fd);
      fd = -1;
      err = EXDEV;
    }
  }
  while (n > 0)
    close(dirs[--n]);
  free(rest);
  errno = err;
  return fd;
}

/* rel opened below z's root: openat2's RESOLVE_BENEATH where the kernel has it, else the walk.
 * ENOENT, ENOTDIR, EXDEV or ELOOP when rel is not a file below the root. */
static int open_below(zp_zone *z, const char *rel, int flags)
{
#ifdef SYS_openat2
  if (!z->walk) {
    struct open_how how = {.flags = (uint64_t)flags,
                           .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
    long fd = -1;
    /* EAGAIN: a rename raced a ".." and the kernel could not tell where it led */
    for (int i = 0; i < 8; i++)
      if ((fd = syscall(SYS_openat2, z->root_fd, rel, &how, sizeof how)) >= 0 || errno != EAGAIN)
        break;
    /* (a seccomp filter that predates openat2 may say EPERM rather than ENOSYS) */
    if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
      return (int)fd;
    z->walk = true;
  }
#endif
  return walk_below(z->root_fd, rel, flags);
}

/* The include root opened: --include-root, else the directory of the top file as named. */
static bool open_root(zp_zone *z, const char *top)
{
  z->root_default = !z->opt->include_root;
  z->root_name = z->root_default ? dir_of(strcmp(top, "-") == 0 ? "." : top)
                                 : strdup(z->opt->include_root);
  if (!z->root_name)
    return false;
  z->root_fd = open(z->root_name, O_PATH | O_DIRECTORY | O_CLOEXEC);
  z->root_errno = errno;
  return true;
}

/* The next component of the path at *p that means something ("" and "." mean nothing,
 * whatever the file system holds), its length in *len, *p moved past it; NULL at the end. */
static const char *next_part(const char **p, size_t *len)
{
  for (;;) {
    while (**p == '/')
      (*p)++;
    if (!**p)
      return NULL;
    const char *s = *p;
    *len = strcspn(s, "/");
    *p += *len;
    if (*len != 1 || s[0] != '.')
      return s;
  }
}

/* The absolute path abs below the root, as a path relative to it (caller frees); NULL when it
 * does not start with the root, by its real path or its path as given. Nothing of abs is
 * resolved here: the kernel (or the walk) resolves what follows the root, below it. */
static char *strip_root(zp_zone *z, const char *abs)
{
  if (!z->root_known) {
    z->root_known = true;
    char *real = realpath(z->root_name, NULL);
    struct stat a, b;
    /* (the real path stands for the directory opened, or for nothing) */
    if (real && stat(real, &a) == 0 && fstat(z->root_fd, &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
      z->root_real = real;
    else
      free(real);
    char cwd[PATH_CAP];
    z->root_abs = z->root_name[0] == '/' ? strdup(z->root_name)
                  : getcwd(cwd, sizeof cwd) ? join(cwd, z->root_name) : NULL;
  }
  for (int k = 0; k < 2; k++) {
    const char *r = k ? z->root_abs : z->root_real, *a = abs, *rs, *as = NULL;
    size_t rl, al = 0;
    if (!r)
      continue;
    while ((rs = next_part(&r, &rl)) != NULL &&
           (as = next_part(&a, &al)) != NULL && al == rl && memcmp(as, rs, rl) == 0)
      ;
    if (!rs)
      return strdup(a + strspn(a, "/"));
  }
  return NULL;
}

/* Where the top file stands below the root: f->dir, or NULL and z->top_real (its real
 * directory) when it stands outside. The default root is its directory, so "". */
static bool place_top(zp_zone *z, zp_zfile *f)
{
  if (z->root_default || z->root_fd < 0) {
    f->dir = strdup("");
    return f->dir != NULL;
  }
  char *dir = dir_of(strcmp(f->src.path, "-") == 0 ? "." : f->src.path);
  if (!dir)
    return false;
  z->top_real = realpath(dir, NULL);
  free(dir);
  if (z->top_real)
    f->dir = strip_root(z, z->top_real);
  return true;
}

/* The path below the root of $INCLUDE name in f (caller frees), or NULL when it is outside. A
 * relative name is relative to f's directory; in a top file outside the root, its leading ".."
 * are taken from that directory's real path, where ".." is its parent whatever the links. */
static char *below(zp_zone *z, const zp_zfile *f, const char *name)
{
  if (name[0] != '/' && f->dir)
    return join(f->dir, name);
  if (name[0] == '/')
    return strip_root(z, name);
  if (!z->top_real)
    return NULL;
  char *base = strdup(z->top_real), *abs = NULL;
  while (base && strncmp(name, "../", 3) == 0) {
    char *slash = strrchr(base, '/');
    if (slash)
      *(slash == base ? slash + 1 : slash) = '\0';
    name += 3;
  }
  if (base)
    abs = join(strcmp(base, "/") == 0 ? "" : base, name);
  free(base);
  char *rel = abs ? strip_root(z, abs) : NULL;
  free(abs);
  return rel;
}

/* Reads the file at path (parent: the including file and at the $INCLUDE's place, or NULL for
 * the top file, which data[0..len) holds when data is not NULL). An included file is rel below
 * the root, where it has been opened as fd. ZP_EIO when it cannot be read (errno set),
 * ZP_ENOMEM; other problems are reported. */
static zp_status read_file(zp_zone *z, const char *path, int fd, const char *rel,
                           const char *data, size_t len, const zp_zfile *parent, const zp_loc *at);

/* An included file must be a regular file: a zone could otherwise name /dev/zero (read for
 * ever) or a FIFO (open blocks for ever). O_NONBLOCK keeps the open itself from blocking.
 * -1 with *refused set when it is not one; -1 alone (errno set) when it cannot be opened. */
static int open_include(zp_zone *z, const char *rel, bool *refused)
{
  int fd = open_below(z, rel, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  struct stat sb;
  if (fd < 0)
    return -1;
  if (fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode))
    *refused = true;
  else if (fstat(fd, &sb) == 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
    return fd;
  int e = errno;
  close(fd);
  errno = e;
  return -1;
}

void zp_zone_include(zp_zfile *f, const zp_tok *file, const zp_loc *file_loc, const zp_tok *origin,
                     const zp_loc *origin_loc, const zp_loc *at)
{
  zp_zone *z = f->z;
  zp_scope saved = z->sc;
  if (origin && !zp_zone_origin(f, origin, origin_loc))
    return;
  zp_zone_reads(f);
  /* relative to the including file's directory, or to include_dir (then made absolute) */
  const char *name = zp_zone_text(f, file), *dir = z->opt->include_dir;
  const char *slash = strrchr(f->src.path, '/');
  char path[PATH_CAP], *rel = NULL;
  int n, fd = -1;
  bool refused = false;
  if (name[0] != '/' && dir)
    n = snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") ? dir : "", name);
  else if (name[0] == '/' || !slash)
    n = snprintf(path, sizeof path, "%s", name);
  else
    n = snprintf(path, sizeof path, "%.*s/%s", (int)(slash - f->src.path), f->src.path, name);
  /* a truncated path would name some other file */
  if (n < 0 || (size_t)n >= sizeof path) {
    zp_zone_report(z, file_loc, "$INCLUDE file name longer than %zu bytes", sizeof path - 1);
    goto out;
  }
  if (z->opt->no_include) {
    zp_zone_report(z, at, "$INCLUDE \"%s\" refused: --no-include is in force", path);
    goto out;
  }
  if (z->root_fd < 0) {
    zp_zone_report(z, file_loc, "$INCLUDE \"%s\": cannot open the include root %s: %s", path,
                   z->root_name, strerror(z->root_errno));
    goto out;
  }
  if (z->includes >= ZP_INCLUDES_MAX) {
    zp_zone_report(z, at, "more than %d $INCLUDE files in one zone", ZP_INCLUDES_MAX);
    goto out;
  }
  /* Outside the root, missing, or a symlink that leaves the root: one message, which says
   * neither whether a file outside exists nor where a path leads. */
  if ((rel = below(z, f, name[0] != '/' && dir ? path : name)) == NULL)
    errno = ENOENT;
  else
    fd = open_include(z, rel, &refused);
  if (fd < 0) {
    if (refused)
      zp_zone_report(z, at, "$INCLUDE \"%s\" is not a regular file", path);
    else if (errno == ENOENT || errno == ENOTDIR || errno == EXDEV || errno == ELOOP)
      zp_zone_report(z, file_loc, "$INCLUDE \"%s\": not found below the include root \"%s\"%s",
                     path, z->root_name, z->root_default ? ", the zone file's directory "
                     "(--include-root DIR moves it)" : "");
    else
      zp_zone_report(z, file_loc, "cannot read included file \"%s\": %s", path, strerror(errno));
    goto out;
  }
  z->includes++;
  z->depth++;
  /* (the file's text as the caller holds it, unsaved: read in its place) */
  struct stat sb;
  size_t olen = 0;
  const char *otext = z->opt->overlay && fstat(fd, &sb) == 0
                          ? z->opt->overlay(z->opt->overlay_user, sb.st_dev, sb.st_ino, &olen)
                          : NULL;
  zp_status s = read_file(z, path, fd, rel, otext, olen, f, at);
  z->depth--;
  if (s == ZP_EIO)
    zp_zone_report(z, file_loc, "cannot read included file \"%s\": %s", path, strerror(errno));
  else if (s != ZP_OK && z->stop == ZP_OK)   /* (out of memory: the whole parse stops) */
    z->stop = s;
out:
  free(rel);
  /* The origin and the owner are the including file's again (RFC 1035 section 5.1); a $TTL
   * set in the included file stays in force after it, as BIND and NSD keep it. */
  uint32_t ttl = z->sc.ttl;
  bool have_ttl = z->sc.have_ttl;
  z->sc = saved;
  z->sc.ttl = ttl;
  z->sc.have_ttl = have_ttl;
}

/* The top file: standard input, the text in memory, or the file at path; opened in the
 * default root (its own directory, opened just before), so that the two are one directory.
 * *linked: path's last component is a symlink, so its name is not the operator's choice
 * alone (a repository can hold a link to /etc/shadow). */
static FILE *open_top(zp_zone *z, const char *path, const char *data, size_t len, bool *linked)
{
  if (data)
    return fmemopen((void *)data, len, "r");
  if (strcmp(path, "-") == 0)
    return stdin;
  if (z->opt->top_fd) {
    /* (a zone read twice, --dnssec=auto's second reading, starts again at the start) */
    int fd = fcntl(*z->opt->top_fd, F_DUPFD_CLOEXEC, 0);
    FILE *fp = fd >= 0 && lseek(fd, 0, SEEK_SET) == 0 ? fdopen(fd, "r") : NULL;
    if (fd >= 0 && !fp) {
      int e = errno;
      close(fd);
      errno = e;
    }
    return fp;
  }
  const char *slash = strrchr(path, '/');
  bool in_root = z->root_default && z->root_fd >= 0;
  const char *name = in_root && slash ? (slash[1] ? slash + 1 : ".") : path;
  int at = in_root ? z->root_fd : AT_FDCWD;
  int fd = openat(at, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0 && errno == ELOOP) {
    *linked = true;
    fd = openat(at, name, O_RDONLY | O_CLOEXEC);
  }
  FILE *fp = fd < 0 ? NULL : fdopen(fd, "r");
  if (fd >= 0 && !fp) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return fp;
}

static zp_status read_file(zp_zone *z, const char *path, int fd, const char *rel,
                           const char *data, size_t len, const zp_zfile *parent, const zp_loc *at)
{
  zp_status s = ZP_OK;
  bool linked = false;
  zp_zfile *f = calloc(1, sizeof *f);
  if (!f) {
    if (fd >= 0)
      close(fd);
    return ZP_ENOMEM;
  }
  f->z = z;
  f->src = (zp_source){.path = path, .data = data, .len = len,
                       .parent = parent ? &parent->src : NULL,
                       .line = at ? at->line : 0, .col = at ? at->col : 0,
                       .serial = zp_source_serial()};
  int held_fd = -1;   /* an included file read from text in memory: its descriptor, which
                         tells the file (an $INCLUDE loop, the output) */
  if (parent) {
    f->dir = rel ? dir_of(rel) : NULL;
    if (f->dir && strcmp(f->dir, ".") == 0)
      f->dir[0] = '\0';
    if (data) {
      held_fd = fd;
      f->in = fmemopen((void *)data, len, "r");
    } else {
      f->in = fdopen(fd, "r");
      if (!f->in)
        close(fd);
    }
  } else {
    f->in = open_top(z, path, data, len, &linked);
  }
  if (!f->in) {
    s = ZP_EIO;
    goto out;
  }
  if ((parent && !f->dir) || (!parent && !place_top(z, f))) {
    s = ZP_ENOMEM;
    goto out;
  }
  /* The caller's own text shows at once, and so does a file the operator named; a file that
   * a zone, a symlink or a named.conf named must read as a zone first (the conf's author, who
   * may be anyone sending a change, chose that file: /etc/shadow as well as a zone). */
  if (parent || linked || z->opt->as_served)
    f->show = ZP_SHOW_UNDECIDED;
  struct stat sb;
  /* a directory opens, and reads as an error: the zone named cannot be read (an I/O error,
   * exit 2), not a zone with an error in it */
  if (!parent && f->in != stdin && fstat(fileno(f->in), &sb) == 0 && S_ISDIR(sb.st_mode)) {
    errno = EISDIR;
    s = ZP_EIO;
    goto out;
  }
  /* (text in memory goes by its name: an editor's unsaved copy of the file, which an
   * $INCLUDE of that file would read again) */
  if (held_fd >= 0 ? fstat(held_fd, &sb) == 0
      : data      ? strcmp(path, "-") != 0 && stat(path, &sb) == 0
                  : f->in != stdin && fstat(fileno(f->in), &sb) == 0) {
    f->dev = sb.st_dev;
    f->ino = sb.st_ino;
    /* an include loop: this file is already open further up the chain */
    for (const zp_zfile *up = parent; up; up = (const zp_zfile *)up->src.parent) {
      if (up->dev == f->dev && up->ino == f->ino) {
        zp_zone_report(z, at, "$INCLUDE loop: \"%s\" is already being read", path);
        goto out;
      }
    }
  }
  struct stat ob;
  if (parent && z->opt->output && stat(z->opt->output, &ob) == 0 && ob.st_dev == f->dev &&
      ob.st_ino == f->ino) {
    zp_zone_report(z, at, "$INCLUDE \"%s\" is the -o output file, which would replace it", path);
    goto out;
  }
  if (z->depth > ZP_INCLUDE_DEPTH_MAX) {
    zp_zone_report(z, at, "$INCLUDE nested deeper than %d files", ZP_INCLUDE_DEPTH_MAX);
    goto out;
  }
  if (!zp_lex_open(f)) {
    s = ZP_ENOMEM;
    goto out;
  }
  /* messages quote lines from this descriptor, never from the path again (which could lead
   * elsewhere by now) */
  if (!data && f->in != stdin) {
    f->fd = fileno(f->in);
    f->src.fd = &f->fd;
  }
  int rc = zp_parse(f);
  zp_zone_flush(z);
  if (rc == 2)
    s = ZP_ENOMEM;
  else if (zp_lex_read_error(f))   /* (/proc/self/mem opens, and fails to read) */
    zp_zone_report(z, at, "reading %s: %s", path, strerror(errno));
out:;
  int e = errno;   /* what the caller reports for ZP_EIO, not what closing leaves */
  f->src.fd = NULL;
  zp_lex_close(f);
  if (f->in && f->in != stdin)
    fclose(f->in);
  if (held_fd >= 0)
    close(held_fd);
  zp_buf_free(&f->buf);
  free(f->dir);
  free(f);
  errno = e;
  return s;
}

static zp_status parse(const char *path, const char *data, size_t len,
                       const zp_zone_options *opt, zp_diag *diag, zp_record_fn cb, void *user)
{
  zp_zone *z;
  zp_status s = zp_zone_open(opt, diag, cb, user, &z);
  if (!z)
    return s;
  z->root_fd = -1;
  s = open_root(z, path) ? read_file(z, path, -1, NULL, data, len, NULL, NULL) : ZP_ENOMEM;
  if (s == ZP_OK)
    s = z->stop;
  if (z->root_fd >= 0)
    close(z->root_fd);
  free(z->root_name);
  free(z->root_real);
  free(z->root_abs);
  free(z->top_real);
  zp_zone_close(z);
  return s;
}

zp_status zp_zone_parse(const char *path, const zp_zone_options *opt, zp_diag *diag,
                        zp_record_fn cb, void *user)
{
  return parse(path, NULL, 0, opt, diag, cb, user);
}

zp_status zp_zone_parse_mem(const char *name, const char *data, size_t len,
                            const zp_zone_options *opt, zp_diag *diag, zp_record_fn cb,
                            void *user)
{
  return parse(name, data, len, opt, diag, cb, user);
}
