/* output.c -- where a zone goes: a regular file replaced by a rename once the whole zone is
 * written, or standard output, a character device or a FIFO written through; either way
 * nothing of a zone with an error is left behind, and no temporary file */
#define _GNU_SOURCE   /* O_TMPFILE, statx */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/tmpfile.h"
#include "keep.h"

struct zp_output {
  FILE *fp;             /* the zone goes here */
  /* a regular file replaced */
  char *target, *dir;   /* its path (symlinks resolved) and its directory */
  char *tmp;            /* DIR/.zonepuny.XXXXXX: the temporary file's name, when named */
  bool named;           /* the temporary file has that name now */
  bool anonymous;       /* it was made with no name (O_TMPFILE), to be linked in on commit */
  uint64_t caught;      /* a named one: the signals (bit sig - 1) that remove it */
  /* written through: standard output, a character device, a FIFO */
  FILE *dest;
  bool spooled;         /* fp is an unlinked file in $TMPDIR, copied to dest on commit */
  off_t trunc_at;       /* dest a regular file: where it stood, cut back to there on abort */
};

/* ---- written through ---- */

/* The spool: an unlinked file in $TMPDIR whose octets count against the bound on temporary
 * files (a zone held back from a pipe is as large as the zone). */
typedef struct spool {
  int fd;
  off64_t pos, len;
} spool;

static ssize_t spool_write(void *cookie, const char *p, size_t n)
{
  spool *sp = cookie;
  if (zp_tmp_write(sp->fd, p, n, (uint64_t)sp->pos) != ZP_OK)
    return -1;   /* (errno: EFBIG past the bound) */
  sp->pos += (off64_t)n;
  sp->len = sp->pos > sp->len ? sp->pos : sp->len;
  return (ssize_t)n;
}

static ssize_t spool_read(void *cookie, char *p, size_t n)
{
  spool *sp = cookie;
  ssize_t r = pread(sp->fd, p, n, sp->pos);
  sp->pos += r > 0 ? r : 0;
  return r;
}

static int spool_seek(void *cookie, off64_t *at, int whence)
{
  spool *sp = cookie;
  off64_t to = *at + (whence == SEEK_CUR ? sp->pos : whence == SEEK_END ? sp->len : 0);
  if (to < 0) {
    errno = EINVAL;
    return -1;
  }
  *at = sp->pos = to;
  return 0;
}

static int spool_close(void *cookie)
{
  spool *sp = cookie;
  int r = close(sp->fd);
  zp_tmp_give((uint64_t)sp->len);
  free(sp);
  return r;
}

/* dest written through: a character device (a terminal, /dev/null) as the zone comes, since
 * nothing there could be taken for a whole zone; a regular file (standard output) as it
 * comes, cut back on abort; anything else (a pipe, a FIFO) only on commit, the zone held until
 * then in an unlinked file. */
static zp_status through(zp_output *o, FILE *dest, const char *name, char *why, size_t n)
{
  struct stat sb;
  int fd = fileno(dest);
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fstat(fd, &sb) != 0) {   /* closed: and the spool would take its descriptor */
    snprintf(why, n, "writing %s: %s", name, strerror(errno));
    return ZP_EIO;
  }
  o->dest = dest;
  if (S_ISCHR(sb.st_mode)) {
    o->fp = dest;
    return ZP_OK;
  }
  if (S_ISREG(sb.st_mode)) {
    off_t at = (fl & O_APPEND) ? sb.st_size : lseek(fd, 0, SEEK_CUR);
    if (at >= 0) {
      o->fp = dest;
      o->trunc_at = at;
      return ZP_OK;
    }
  }
  int tmp = zp_tmpfile();
  spool *sp = tmp >= 0 ? calloc(1, sizeof *sp) : NULL;
  if (sp) {
    sp->fd = tmp;
    o->fp = fopencookie(sp, "w+", (cookie_io_functions_t){spool_read, spool_write, spool_seek,
                                                           spool_close});
  }
  if (!o->fp) {
    int e = errno;
    free(sp);
    if (tmp >= 0)
      close(tmp);
    errno = e;
    return ZP_ETMPFILE;
  }
  o->spooled = true;
  return ZP_OK;
}

/* A character device or a FIFO: opened (a FIFO waits for its reader, as any writer's open
 * does) and written through, the node left as it is. */
static zp_status open_device(zp_output *o, const char *path, char *why, size_t n)
{
  struct stat sb;
  int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 || fstat(fd, &sb) != 0) {
    snprintf(why, n, "cannot open %s: %s", path, strerror(errno));
  } else if (!S_ISCHR(sb.st_mode) && !S_ISFIFO(sb.st_mode)) {
    snprintf(why, n, "%s changed while zonepuny opened it: run again", path);
  } else {
    FILE *f = fdopen(fd, "w");
    if (f) {
      zp_status st = through(o, f, path, why, n);
      if (st != ZP_OK) {
        int e = errno;
        fclose(f);
        errno = e;
      }
      return st;
    }
    snprintf(why, n, "cannot open %s: %s", path, strerror(errno));
  }
  if (fd >= 0)
    close(fd);
  return ZP_EIO;
}

/* The spooled zone to dest. */
static bool copy_spool(zp_output *o)
{
  char buf[1 << 16];
  size_t n;
  if (fflush(o->fp) != 0 || ferror(o->fp) || fseek(o->fp, 0, SEEK_SET) != 0)
    return false;
  while ((n = fread(buf, 1, sizeof buf, o->fp)) > 0)
    if (fwrite(buf, 1, n, o->dest) != n)
      return false;
  return !ferror(o->fp) && fflush(o->dest) == 0 && !ferror(o->dest);
}

/* ---- a named temporary file, where the kernel makes no unnamed one ---- */

/* Signals whose default action does not end the process. */
static bool harmless(int sig)
{
  return sig == SIGCHLD || sig == SIGCONT || sig == SIGSTOP || sig == SIGTSTP ||
         sig == SIGTTIN || sig == SIGTTOU || sig == SIGURG || sig == SIGWINCH || sig == SIGKILL;
}

/* A signal handler may only look at a flag-sized global: the temporary file's name, set while
 * it has one (one zp_output at a time has one). */
static char *volatile pending_tmp;

static void remove_and_die(int sig)
{
  char *tmp = pending_tmp;
  if (tmp)
    unlink(tmp);
  /* SA_RESETHAND made the action the default again, and the handler's mask holds the signal
   * back until it returns: then it ends the process as it would have */
  raise(sig);
}

/* Every signal that would end the process removes the temporary file first, SIGQUIT, SIGPIPE
 * (a reader of standard error gone), SIGXFSZ (ulimit -f), SIGUSR1 and the real-time signals
 * as much as SIGTERM. A signal ignored stays ignored, and one with a handler of its own (a
 * sanitizer's) keeps it. */
static void catch_signals(zp_output *o)
{
  struct sigaction sa, cur;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = remove_and_die;
  sa.sa_flags = SA_RESETHAND;
  sigfillset(&sa.sa_mask);
  pending_tmp = o->tmp;
  for (int sig = 1; sig <= SIGRTMAX && sig <= 64; sig++)
    if (!harmless(sig) && sigaction(sig, NULL, &cur) == 0 && !(cur.sa_flags & SA_SIGINFO) &&
        cur.sa_handler == SIG_DFL && sigaction(sig, &sa, NULL) == 0)
      o->caught |= UINT64_C(1) << (sig - 1);
}

static void release_signals(zp_output *o)
{
  for (int sig = 1; sig <= 64; sig++)
    if (o->caught & UINT64_C(1) << (sig - 1))
      signal(sig, SIG_DFL);
  o->caught = 0;
  pending_tmp = NULL;
}

/* A fresh name for the temporary file: its last six characters drawn at random. */
static void name_tmp(zp_output *o)
{
  static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  static uint64_t count;
  uint64_t r;
  if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    r = ((uint64_t)ts.tv_nsec * UINT64_C(0x9e3779b97f4a7c15)) ^ ((uint64_t)getpid() << 32) ^
        ++count;
  }
  char *x = o->tmp + strlen(o->tmp) - 6;
  for (int i = 0; i < 6; i++, r /= sizeof set - 1)
    x[i] = set[r % (sizeof set - 1)];
}

/* ---- a regular file replaced ---- */

/* An unnamed file is linked in through /proc/self/fd, which any user may do (linkat's
 * AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH): usable when it leads to the file. */
static void proc_path(char *buf, size_t n, int fd)
{
  snprintf(buf, n, "/proc/self/fd/%d", fd);
}

static bool linkable(int fd)
{
  char p[32];
  struct stat a, b;
  proc_path(p, sizeof p, fd);
  return stat(p, &a) == 0 && fstat(fd, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The temporary file beside the target. With no name (O_TMPFILE) where the file system and
 * /proc allow, so that nothing, not even SIGKILL, can leave it behind: it is linked in only to
 * be renamed over the target. Else named, and removed by a handler of every signal that would
 * end the process. mode 0666 for a new target, which so gets what the umask or the directory's
 * default ACL gives any new file; 0600 for one replaced, which gets the old file's. */
static int make_temp(zp_output *o, mode_t mode)
{
  int fd = open(o->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
  if (fd >= 0 && linkable(fd)) {
    o->anonymous = true;
    return fd;
  }
  if (fd >= 0)
    close(fd);
  else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    return -1;   /* (EISDIR, EINVAL: a kernel from before O_TMPFILE) */
  /* Blocked from before the file exists until its handlers are in place: a signal in between
   * would otherwise leave it behind. */
  sigset_t all, saved;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &saved);
  fd = -1;
  for (int tries = 0; fd < 0 && tries < 100; tries++) {
    name_tmp(o);
    fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0 && errno != EEXIST)
      break;
  }
  if (fd >= 0) {
    o->named = true;
    catch_signals(o);
  }
  int e = errno;
  sigprocmask(SIG_SETMASK, &saved, NULL);
  errno = e;
  return fd;
}

/* rename(2) fails with EPERM over an immutable or append-only file (chattr +i, +a): said before
 * the zone is read rather than after. */
static bool replaceable(const char *target, char *why, size_t n)
{
  struct statx sx;
  if (statx(AT_FDCWD, target, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) != 0)
    return true;   /* the rename will say */
  uint64_t attr = sx.stx_attributes & sx.stx_attributes_mask;
  const char *what = attr & STATX_ATTR_IMMUTABLE ? "immutable (chattr +i)"
                     : attr & STATX_ATTR_APPEND  ? "append-only (chattr +a)" : NULL;
  if (what)
    snprintf(why, n, "%s is %s: no file can be renamed over it; take the attribute off first",
             target, what);
  return !what;
}

/* target (a regular file, old its stat; or none, old NULL) to be replaced by a temporary file
 * in its directory. */
static zp_status replace(zp_output *o, const char *target, const struct stat *old,
                         unsigned flags, char *why, size_t n)
{
  if (old && old->st_nlink > 1 && !(flags & ZP_OUTPUT_BREAK_LINKS)) {
    unsigned long others = (unsigned long)old->st_nlink - 1;
    snprintf(why, n, "%s has %lu other hard link%s, which a new file renamed over it would "
             "leave with the old contents; pass --break-hard-links to replace this name alone",
             target, others, others == 1 ? "" : "s");
    return ZP_EIO;
  }
  if (old && !replaceable(target, why, n))
    return ZP_EIO;
  const char *slash = strrchr(target, '/');
  size_t dlen = !slash ? 1 : slash == target ? 1 : (size_t)(slash - target);
  o->target = strdup(target);
  o->dir = slash ? strndup(target, dlen) : strdup(".");
  o->tmp = malloc(dlen + sizeof "/.zonepuny.XXXXXX");
  if (!o->target || !o->dir || !o->tmp)
    return ZP_ENOMEM;
  strcpy(o->tmp, o->dir);
  strcat(o->tmp, strcmp(o->dir, "/") == 0 ? ".zonepuny.XXXXXX" : "/.zonepuny.XXXXXX");
  int fd = make_temp(o, old ? 0600 : 0666);
  if (fd < 0) {
    snprintf(why, n, "cannot create a temporary file in %s: %s", o->dir, strerror(errno));
    return ZP_EIO;
  }
  zp_status st = old ? zp_keep_attributes(fd, target, old, flags & ZP_OUTPUT_ANY_OWNER, why, n)
                     : ZP_OK;
  if (st == ZP_OK && !(o->fp = fdopen(fd, "w"))) {
    st = errno == ENOMEM ? ZP_ENOMEM : ZP_EIO;
    snprintf(why, n, "cannot write to a temporary file in %s: %s", o->dir, strerror(errno));
  }
  if (st != ZP_OK) {
    close(fd);
    if (o->named)
      unlink(o->tmp);
    o->named = false;
    release_signals(o);
  }
  return st;
}

/* What kind of file path is decides what -o does with it. */
static zp_status open_path(zp_output *o, const char *path, unsigned flags, char *why, size_t n)
{
  struct stat sb, lsb, rs;
  if (stat(path, &sb) != 0) {
    if (errno != ENOENT) {
      snprintf(why, n, "cannot write %s: %s", path, strerror(errno));
      return ZP_EIO;
    }
    char to[4096];
    ssize_t len = lstat(path, &lsb) == 0 && S_ISLNK(lsb.st_mode) ?
                      readlink(path, to, sizeof to - 1) : -1;
    if (len < 0)
      return replace(o, path, NULL, flags, why, n);
    to[len] = '\0';
    /* created through the link, the file would land where whoever made the link chose */
    snprintf(why, n, "%s is a symbolic link to %s, which does not exist: create it first, or "
             "name it with -o", path, to);
    return ZP_EIO;
  }
  struct stat so;
  if (fstat(STDOUT_FILENO, &so) == 0 && so.st_dev == sb.st_dev && so.st_ino == sb.st_ino)
    return through(o, stdout, "output", why, n);   /* so that ">>" keeps what the file held */
  if (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode))
    return open_device(o, path, why, n);
  if (!S_ISREG(sb.st_mode)) {
    snprintf(why, n, "%s is a %s: -o replaces a regular file, or writes through to a "
             "character device or a FIFO", path, S_ISDIR(sb.st_mode) ? "directory"
             : S_ISSOCK(sb.st_mode) ? "socket" : S_ISBLK(sb.st_mode) ? "block device"
             : "special file");
    return ZP_EIO;
  }
  if (lstat(path, &lsb) == 0 && !S_ISLNK(lsb.st_mode))
    return replace(o, path, &sb, flags, why, n);
  /* A symlink stays one: its target is replaced, from a temporary file in the target's
   * directory. */
  char *real = realpath(path, NULL);
  zp_status st = ZP_EIO;
  if (!real || stat(real, &rs) != 0 || rs.st_dev != sb.st_dev || rs.st_ino != sb.st_ino)
    snprintf(why, n, "cannot find the file the symbolic link %s leads to: %s", path,
             real ? "it changed meanwhile" : strerror(errno));
  else
    st = replace(o, real, &sb, flags, why, n);
  free(real);
  return st;
}

static void free_output(zp_output *o)
{
  free(o->target);
  free(o->dir);
  free(o->tmp);
  free(o);
}

zp_status zp_output_open(const char *path, unsigned flags, zp_output **out, char *why, size_t n)
{
  *out = NULL;
  why[0] = '\0';
  zp_output *o = calloc(1, sizeof *o);
  if (!o)
    return ZP_ENOMEM;
  o->trunc_at = -1;
  zp_status st = !path || strcmp(path, "-") == 0 ? through(o, stdout, "output", why, n)
                                                 : open_path(o, path, flags, why, n);
  if (st != ZP_OK) {
    int e = errno;
    free_output(o);
    errno = e;
    return st;
  }
  *out = o;
  return ZP_OK;
}

FILE *zp_output_file(const zp_output *o)
{
  return o->fp;
}

/* The rename is only durable once the directory holding both names is on disk. A directory we
 * cannot open, or a file system that cannot sync one (EINVAL), leaves nothing more to do. */
static bool sync_dir(const char *dir)
{
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return true;
  bool ok = fsync(fd) == 0 || errno == EINVAL;
  int e = errno;  /* the caller reports fsync's error, not what close may leave */
  close(fd);
  errno = e;
  return ok;
}

/* The unnamed temporary file gets a name, to be renamed over the target. */
static bool link_tmp(zp_output *o, int fd)
{
  char p[32];
  proc_path(p, sizeof p, fd);
  for (int tries = 0; tries < 100; tries++) {
    name_tmp(o);
    if (linkat(AT_FDCWD, p, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0) {
      o->named = true;
      return true;
    }
    if (errno != EEXIST)
      return false;
  }
  return false;
}

static zp_status commit_through(zp_output *o)
{
  bool ok = o->spooled ? copy_spool(o) : fflush(o->fp) == 0 && !ferror(o->fp);
  int e = errno;
  if (o->spooled)
    fclose(o->fp);
  if (o->dest != stdout && fclose(o->dest) != 0 && ok) {
    ok = false;
    e = errno;
  }
  free_output(o);
  errno = e;
  return ok ? ZP_OK : ZP_EIO;
}

zp_status zp_output_commit(zp_output *o)
{
  if (!o->target)
    return commit_through(o);
  bool ok = fflush(o->fp) == 0 && !ferror(o->fp) && fsync(fileno(o->fp)) == 0;
  int e = errno;
  /* From the link to the rename: a signal in between would leave the name behind. */
  sigset_t all, saved;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &saved);
  if (ok && o->anonymous && !link_tmp(o, fileno(o->fp))) {
    ok = false;
    e = errno;
  }
  if (fclose(o->fp) != 0 && ok) {
    ok = false;
    e = errno;
  }
  bool renamed = false;
  if (ok && rename(o->tmp, o->target) != 0) {
    ok = false;
    e = errno;
  } else if (ok) {
    renamed = true;
  }
  if (!renamed && o->named)
    unlink(o->tmp);
  release_signals(o);
  sigprocmask(SIG_SETMASK, &saved, NULL);
  if (renamed && !sync_dir(o->dir)) {
    ok = false;
    e = errno;
  }
  free_output(o);
  errno = e;
  return ok ? ZP_OK : ZP_EIO;
}

void zp_output_abort(zp_output *o)
{
  if (!o)
    return;
  if (o->target) {
    fclose(o->fp);
    if (o->named)
      unlink(o->tmp);
    release_signals(o);
  } else if (o->spooled) {
    fclose(o->fp);
  } else if (fflush(o->fp) == 0 && o->trunc_at >= 0 &&
             ftruncate(fileno(o->dest), o->trunc_at) == 0) {
    /* what was written of the zone goes; a write error here changes nothing more */
    lseek(fileno(o->dest), o->trunc_at, SEEK_SET);
  }
  if (o->dest && o->dest != stdout)
    fclose(o->dest);
  free_output(o);
}
