/* include.c -- the files of a zone: the entry points zp_zone_parse and zp_zone_parse_mem,
 * opening, $INCLUDE with its root, loops and limits, and reading each file through the scanner
 * and parser. It calls zone.c for the zone's state, its records and its messages; zone.c never
 * calls back, so a change to the file stack cannot reach the record rules unseen. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zone_int.h"

/* --include-root: path must resolve, after every symlink and "..", to root or below it. On
 * success *real is the resolved path (caller frees). */
static bool include_allowed(zp_zone *z, const zp_loc *loc, const char *path, char **real)
{
  char *rootdir = realpath(z->opt->include_root, NULL);
  bool ok = false;
  if (!rootdir) {
    zp_zone_report(z, loc, "$INCLUDE \"%s\" refused: --include-root %s: %s", path, z->opt->include_root,
          strerror(errno));
    goto out;
  }
  *real = realpath(path, NULL);
  if (!*real) {
    zp_zone_report(z, loc, "cannot read included file \"%s\": %s", path, strerror(errno));
    goto out;
  }
  size_t n = strlen(rootdir);
  /* "/" is a prefix of everything; otherwise the next character must end a component */
  ok = strncmp(*real, rootdir, n) == 0 && (n == 1 || (*real)[n] == '/' || (*real)[n] == 0);
  if (!ok) {
    zp_zone_report(z, loc, "$INCLUDE \"%s\" refused: it resolves to \"%s\", outside --include-root %s",
          path, *real, rootdir);
    free(*real);
    *real = NULL;
  }
out:
  free(rootdir);
  return ok;
}

/* Reads the file at path (parent: the including file and at the $INCLUDE's place, or NULL for
 * the top file, which data[0..len) holds when data is not NULL). ZP_EIO when it cannot be read
 * (errno set), ZP_ENOMEM; other problems are reported. */
static zp_status read_file(zp_zone *z, const char *path, const char *data, size_t len,
                           const zp_zfile *parent, const zp_loc *at);

void zp_zone_include(zp_zfile *f, const zp_tok *file, const zp_loc *file_loc, const zp_tok *origin,
                     const zp_loc *origin_loc, const zp_loc *at)
{
  zp_zone *z = f->z;
  zp_scope saved = z->sc;
  if (origin && !zp_zone_origin(f, origin, origin_loc))
    return;
  /* relative to the including file's directory */
  const char *name = zp_zone_text(f, file);
  const char *slash = strrchr(f->src.path, '/');
  char path[4096];
  int n;
  if (name[0] == '/' || !slash)
    n = snprintf(path, sizeof path, "%s", name);
  else
    n = snprintf(path, sizeof path, "%.*s/%s", (int)(slash - f->src.path), f->src.path, name);
  /* a truncated path would name some other file */
  if (n < 0 || (size_t)n >= sizeof path) {
    zp_zone_report(z, file_loc, "$INCLUDE file name longer than %zu bytes", sizeof path - 1);
    z->sc = saved;
    return;
  }
  if (z->opt->no_include) {
    zp_zone_report(z, at, "$INCLUDE \"%s\" refused: --no-include is in force", path);
    z->sc = saved;
    return;
  }
  char *real = NULL;
  if (z->opt->include_root && !include_allowed(z, file_loc, path, &real)) {
    z->sc = saved;
    return;
  }
  if (++z->includes > ZP_INCLUDES_MAX) {
    zp_zone_report(z, at, "more than %d $INCLUDE files in one zone", ZP_INCLUDES_MAX);
    free(real);
    z->sc = saved;
    return;
  }
  z->depth++;
  /* The file checked is the file opened: the resolved path, not the name again. */
  zp_status s = read_file(z, real ? real : path, NULL, 0, f, at);
  z->depth--;
  free(real);
  if (s == ZP_EIO)
    zp_zone_report(z, file_loc, "cannot read included file \"%s\": %s", path, strerror(errno));
  /* The origin and the owner are the including file's again (RFC 1035 section 5.1); a $TTL
   * set in the included file stays in force after it, as BIND and NSD keep it. */
  uint32_t ttl = z->sc.ttl;
  bool have_ttl = z->sc.have_ttl;
  z->sc = saved;
  z->sc.ttl = ttl;
  z->sc.have_ttl = have_ttl;
}

/* An included file must be a regular file: a zone could otherwise name /dev/zero (read for
 * ever) or a FIFO (open blocks for ever). O_NONBLOCK keeps the open itself from blocking.
 * NULL with *refused set when it is not one, NULL alone (errno set) when it cannot be opened. */
static FILE *open_include(const char *path, bool *refused)
{
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat sb;
  FILE *fp = NULL;
  if (fd < 0)
    return NULL;
  if (fstat(fd, &sb) != 0)
    goto out;
  if (!S_ISREG(sb.st_mode)) {
    *refused = true;
    goto out;
  }
  if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
    fp = fdopen(fd, "r");
out:
  if (!fp) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return fp;
}

static zp_status read_file(zp_zone *z, const char *path, const char *data, size_t len,
                           const zp_zfile *parent, const zp_loc *at)
{
  zp_status s = ZP_OK;
  zp_zfile *f = calloc(1, sizeof *f);
  if (!f)
    return ZP_ENOMEM;
  f->z = z;
  f->src = (zp_source){.path = path, .data = data, .len = len,
                       .parent = parent ? &parent->src : NULL,
                       .line = at ? at->line : 0, .col = at ? at->col : 0,
                       .serial = z->includes};
  bool refused = false;
  if (parent)
    f->in = open_include(path, &refused);
  else if (data)
    f->in = fmemopen((void *)data, len, "r");
  else
    f->in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
  if (refused) {
    zp_zone_report(z, at, "$INCLUDE \"%s\" is not a regular file", path);
    goto out;
  }
  if (!f->in) {
    s = ZP_EIO;
    goto out;
  }
  struct stat sb;
  /* a directory opens, and reads as an error: the zone named cannot be read (an I/O error,
   * exit 2), not a zone with an error in it */
  if (!parent && f->in != stdin && fstat(fileno(f->in), &sb) == 0 && S_ISDIR(sb.st_mode)) {
    errno = EISDIR;
    s = ZP_EIO;
    goto out;
  }
  if (f->in != stdin && fstat(fileno(f->in), &sb) == 0) {
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
  if (parent && z->opt->output && fstat(fileno(f->in), &sb) == 0 &&
      stat(z->opt->output, &ob) == 0 && ob.st_dev == sb.st_dev && ob.st_ino == sb.st_ino) {
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
  if (!data && f->in != stdin) {
    f->fd = fileno(f->in);
    f->src.fd = &f->fd;
  }
  int rc = zp_parse(f);
  zp_zone_flush(z);
  if (rc == 2)
    s = ZP_ENOMEM;
  else if (zp_lex_read_error(f))
    zp_zone_report(z, NULL, "reading %s: %s", path, strerror(errno));
out:;
  int e = errno;   /* what the caller reports for ZP_EIO, not what closing leaves */
  f->src.fd = NULL;
  zp_lex_close(f);
  if (f->in && f->in != stdin)
    fclose(f->in);
  zp_buf_free(&f->buf);
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
  s = read_file(z, path, data, len, NULL, NULL);
  if (s == ZP_OK)
    s = z->stop;
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
