/* output.c -- standard output, or a temporary file renamed over the target only on success;
 * either way nothing of a zone with an error is left behind */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tmpfile.h"

enum { NCAUGHT = 3 };

struct zp_output {
  FILE *fp;
  char *path, *tmp;   /* NULL for standard output */
  struct sigaction old[NCAUGHT];
  /* standard output: a regular file is written in place and cut back to trunc_at on abort; a
   * character device (a terminal, /dev/null) is written in place (trunc_at -1); anything else
   * (a pipe, a socket) gets the zone from fp, an unlinked file, on commit */
  bool spooled;
  off_t trunc_at;
};

/* Standard output set up so that an aborted zone leaves nothing in it. */
static bool open_stdout(zp_output *o)
{
  struct stat sb;
  int fl = fcntl(STDOUT_FILENO, F_GETFL);
  if (fl < 0 || fstat(STDOUT_FILENO, &sb) != 0)
    return false;   /* closed: and the spool would take its descriptor */
  if (S_ISCHR(sb.st_mode)) {
    /* a terminal or /dev/null: nothing a half zone could be taken for */
    o->fp = stdout;
    o->trunc_at = -1;
    return true;
  }
  if (S_ISREG(sb.st_mode)) {
    off_t at = (fl & O_APPEND) ? sb.st_size : lseek(STDOUT_FILENO, 0, SEEK_CUR);
    if (at >= 0) {
      o->fp = stdout;
      o->trunc_at = at;
      return true;
    }
  }
  int fd = zp_tmpfile();
  if (fd < 0 || !(o->fp = fdopen(fd, "w+"))) {
    if (fd >= 0)
      close(fd);
    return false;
  }
  o->spooled = true;
  return true;
}

/* The spooled zone to standard output. */
static bool copy_spool(zp_output *o)
{
  char buf[1 << 16];
  size_t n;
  if (fflush(o->fp) != 0 || ferror(o->fp) || fseek(o->fp, 0, SEEK_SET) != 0)
    return false;
  while ((n = fread(buf, 1, sizeof buf, o->fp)) > 0)
    if (fwrite(buf, 1, n, stdout) != n)
      return false;
  return !ferror(o->fp) && fflush(stdout) == 0 && !ferror(stdout);
}

static const int caught[NCAUGHT] = {SIGINT, SIGTERM, SIGHUP};

/* A signal handler may only look at a flag-sized global: the temporary file's name, set while
 * one exists (one zp_output at a time has one). */
static char *volatile pending_tmp;

static void remove_and_die(int sig)
{
  char *tmp = pending_tmp;
  if (tmp)
    unlink(tmp);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void catch_signals(zp_output *o)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = remove_and_die;
  sigemptyset(&sa.sa_mask);
  pending_tmp = o->tmp;
  for (size_t i = 0; i < NCAUGHT; i++)
    sigaction(caught[i], &sa, &o->old[i]);
}

static void release_signals(zp_output *o)
{
  for (size_t i = 0; i < NCAUGHT; i++)
    sigaction(caught[i], &o->old[i], NULL);
  pending_tmp = NULL;
}

/* The new file gets the old one's permission bits, or what the umask allows a new file. */
static mode_t target_mode(const struct stat *old)
{
  if (old)
    return old->st_mode & 07777;
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

/* The new file gets the old one's owner and group: false when this process may not give them
 * (errno EPERM), unless any_owner. Set before the permission bits, which chown may clear. */
static bool keep_owner(int fd, const struct stat *old, bool any_owner)
{
  struct stat now;
  if (!old || fstat(fd, &now) != 0)
    return true;
  if (now.st_uid == old->st_uid && now.st_gid == old->st_gid)
    return true;
  if (fchown(fd, now.st_uid == old->st_uid ? (uid_t)-1 : old->st_uid,
             now.st_gid == old->st_gid ? (gid_t)-1 : old->st_gid) == 0)
    return true;
  return any_owner && (errno == EPERM || errno == EINVAL);
}

zp_status zp_output_open(const char *path, bool any_owner, zp_output **out)
{
  zp_status st = ZP_ENOMEM;
  int fd = -1;
  *out = NULL;
  zp_output *o = calloc(1, sizeof *o);
  if (!o)
    goto out;
  if (!path || strcmp(path, "-") == 0) {
    if (!open_stdout(o)) {
      int e = errno;
      free(o);
      errno = e;
      return ZP_EIO;
    }
    *out = o;
    return ZP_OK;
  }
  o->path = strdup(path);
  size_t len = strlen(path);
  o->tmp = malloc(len + sizeof ".zonepuny.XXXXXX" + 1);
  if (!o->path || !o->tmp)
    goto out;
  const char *slash = strrchr(path, '/');
  size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
  memcpy(o->tmp, path, dir);
  strcpy(o->tmp + dir, ".zonepuny.XXXXXX");
  st = ZP_EIO;
  struct stat old_st;
  const struct stat *old = stat(path, &old_st) == 0 ? &old_st : NULL;
  mode_t mode = target_mode(old);
  /* Blocked from before the file exists until its handlers are in place: a signal in between
   * would otherwise leave the temporary file behind. */
  sigset_t block, saved;
  sigemptyset(&block);
  for (size_t i = 0; i < NCAUGHT; i++)
    sigaddset(&block, caught[i]);
  sigprocmask(SIG_BLOCK, &block, &saved);
  fd = mkstemp(o->tmp);
  if (fd >= 0)
    catch_signals(o);
  sigprocmask(SIG_SETMASK, &saved, NULL);
  if (fd < 0)
    goto out;
  bool owned = keep_owner(fd, old, any_owner);
  if (!owned || fchmod(fd, mode) != 0 || !(o->fp = fdopen(fd, "w"))) {
    int e = errno;
    if (!owned)
      st = ZP_EOWNER;
    close(fd);
    unlink(o->tmp);
    release_signals(o);
    errno = e;
    goto out;
  }
  *out = o;
  return ZP_OK;
out:
  if (o) {
    free(o->path);
    free(o->tmp);
    free(o);
  }
  return st;
}

FILE *zp_output_file(const zp_output *o)
{
  return o->fp;
}

/* The rename is only durable once the directory holding both names is on disk. A directory we
 * cannot open, or a file system that cannot sync one (EINVAL), leaves nothing more to do. */
static bool sync_dir(const char *path)
{
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  if (!dir)
    return false;
  int fd = open(dir, O_RDONLY | O_DIRECTORY);
  free(dir);
  if (fd < 0)
    return true;
  bool ok = fsync(fd) == 0 || errno == EINVAL;
  int e = errno;  /* the caller reports fsync's error, not what close may leave */
  close(fd);
  errno = e;
  return ok;
}

zp_status zp_output_commit(zp_output *o)
{
  zp_status st = ZP_EIO;
  bool ok;
  if (!o->tmp) {
    ok = o->spooled ? copy_spool(o) : fflush(o->fp) == 0 && !ferror(o->fp);
    int e = errno;
    if (o->spooled)
      fclose(o->fp);
    free(o);
    errno = e;
    return ok ? ZP_OK : ZP_EIO;
  }
  ok = fflush(o->fp) == 0 && !ferror(o->fp) && fsync(fileno(o->fp)) == 0;
  int e = errno;
  if (fclose(o->fp) != 0 && ok) {
    ok = false;
    e = errno;
  }
  bool renamed = false;
  if (ok && rename(o->tmp, o->path) != 0) {
    ok = false;
    e = errno;
  } else if (ok) {
    renamed = true;
    if (!sync_dir(o->path)) {
      ok = false;
      e = errno;
    }
  }
  if (ok)
    st = ZP_OK;
  else if (!renamed)
    unlink(o->tmp);
  release_signals(o);
  free(o->path);
  free(o->tmp);
  free(o);
  errno = e;
  return st;
}

void zp_output_abort(zp_output *o)
{
  if (!o)
    return;
  if (o->tmp) {
    fclose(o->fp);
    unlink(o->tmp);
    release_signals(o);
  } else if (o->spooled) {
    fclose(o->fp);
  } else {
    /* what was written of the zone goes; a write error here changes nothing more */
    if (fflush(o->fp) == 0 && o->trunc_at >= 0 && ftruncate(STDOUT_FILENO, o->trunc_at) == 0)
      lseek(STDOUT_FILENO, o->trunc_at, SEEK_SET);
  }
  free(o->path);
  free(o->tmp);
  free(o);
}
