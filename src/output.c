/* output.c -- standard output, or a temporary file renamed over the target only on success */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct zp_output {
  FILE *fp;
  char *path, *tmp;   /* NULL for standard output */
  struct sigaction old[3];
};

static const int caught[3] = {SIGINT, SIGTERM, SIGHUP};

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
  for (size_t i = 0; i < 3; i++)
    sigaction(caught[i], &sa, &o->old[i]);
}

static void release_signals(zp_output *o)
{
  for (size_t i = 0; i < 3; i++)
    sigaction(caught[i], &o->old[i], NULL);
  pending_tmp = NULL;
}

/* The new file gets the old one's permission bits, or what the umask allows a new file. */
static mode_t target_mode(const char *path)
{
  struct stat st;
  if (stat(path, &st) == 0)
    return st.st_mode & 07777;
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

zp_status zp_output_open(const char *path, zp_output **out)
{
  zp_status st = ZP_ENOMEM;
  int fd = -1;
  *out = NULL;
  zp_output *o = calloc(1, sizeof *o);
  if (!o)
    goto out;
  if (!path || strcmp(path, "-") == 0) {
    o->fp = stdout;
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
  mode_t mode = target_mode(path);
  fd = mkstemp(o->tmp);
  if (fd < 0)
    goto out;
  catch_signals(o);
  if (fchmod(fd, mode) != 0 || !(o->fp = fdopen(fd, "w"))) {
    int e = errno;
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

zp_status zp_output_commit(zp_output *o)
{
  zp_status st = ZP_EIO;
  bool ok;
  if (!o->tmp) {
    ok = fflush(o->fp) == 0 && !ferror(o->fp);
    free(o);
    return ok ? ZP_OK : ZP_EIO;
  }
  ok = fflush(o->fp) == 0 && !ferror(o->fp) && fsync(fileno(o->fp)) == 0;
  int e = errno;
  if (fclose(o->fp) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (ok && rename(o->tmp, o->path) != 0) {
    ok = false;
    e = errno;
  }
  if (ok)
    st = ZP_OK;
  else
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
  } else {
    fflush(o->fp);
  }
  free(o->path);
  free(o->tmp);
  free(o);
}
