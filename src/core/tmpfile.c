/* tmpfile.c -- an unlinked temporary file in $TMPDIR (the C library's tmpfile ignores TMPDIR) */
#include "tmpfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int zp_tmpfile(void)
{
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  size_t n = strlen(dir);
  char *path = malloc(n + sizeof "/zonepuny.XXXXXX");
  if (!path) {
    errno = ENOMEM;
    return -1;
  }
  memcpy(path, dir, n);
  strcpy(path + n, "/zonepuny.XXXXXX");
  int fd = mkstemp(path);
  if (fd >= 0)
    unlink(path);
  int e = errno;
  free(path);
  errno = e;
  return fd;
}
