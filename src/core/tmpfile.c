/* tmpfile.c -- an unlinked temporary file in $TMPDIR (the C library's tmpfile ignores TMPDIR) */
#define _GNU_SOURCE   /* O_TMPFILE */
#include "tmpfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *zp_tmpdir(void)
{
  const char *dir = getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

int zp_tmpfile(void)
{
  const char *dir = zp_tmpdir();
  /* O_TMPFILE: a file that never has a name, so that nothing, not even SIGKILL, can leave one
   * behind; O_EXCL: nor ever gets one */
  int fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
    return fd;   /* (EISDIR, EINVAL: a kernel from before O_TMPFILE) */
  size_t n = strlen(dir);
  char *path = malloc(n + sizeof "/zonepuny.XXXXXX");
  if (!path) {
    errno = ENOMEM;
    return -1;
  }
  memcpy(path, dir, n);
  strcpy(path + n, "/zonepuny.XXXXXX");
  /* the name lives from mkstemp to unlink: no signal may end the process in between */
  sigset_t all, saved;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &saved);
  fd = mkstemp(path);
  if (fd >= 0)
    unlink(path);
  int e = errno;
  sigprocmask(SIG_SETMASK, &saved, NULL);
  free(path);
  errno = e;
  return fd;
}
