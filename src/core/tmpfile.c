/* tmpfile.c -- an unlinked temporary file in $TMPDIR (the C library's tmpfile ignores TMPDIR), and
 * the bound on the octets such files hold */
#define _GNU_SOURCE   /* O_TMPFILE, fallocate */
#include "tmpfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
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

/* One process, one zone at a time: the bound is the process's. The reader's thread and the
 * checks' intake write and count at once: the counts are atomic. */
static struct {
  uint64_t limit;        /* 0: the default, from input (set before any zone is read) */
  _Atomic uint64_t input, used;
  atomic_bool reached;
} budget;

void zp_tmp_set_limit(uint64_t limit)
{
  budget.limit = limit;
}

void zp_tmp_begin(void)
{
  atomic_store(&budget.input, 0);
  atomic_store(&budget.reached, false);
}

void zp_tmp_input(uint64_t n)
{
  atomic_fetch_add(&budget.input, n);
}

uint64_t zp_tmp_limit(void)
{
  if (budget.limit)
    return budget.limit;
  uint64_t input = atomic_load(&budget.input);
  uint64_t scaled = input > UINT64_MAX / ZP_TMP_FACTOR ? UINT64_MAX : input * ZP_TMP_FACTOR;
  return scaled > ZP_TMP_FLOOR ? scaled : ZP_TMP_FLOOR;
}

bool zp_tmp_take(uint64_t n)
{
  uint64_t limit = zp_tmp_limit(), used = atomic_load(&budget.used);
  do {
    if (atomic_load(&budget.reached) || used > limit || n > limit - used) {
      atomic_store(&budget.reached, true);
      errno = EFBIG;
      return false;
    }
  } while (!atomic_compare_exchange_weak(&budget.used, &used, used + n));
  return true;
}

void zp_tmp_give(uint64_t n)
{
  uint64_t used = atomic_load(&budget.used);
  while (!atomic_compare_exchange_weak(&budget.used, &used, used - (n < used ? n : used)))
    ;
}

uint64_t zp_tmp_used(void)
{
  return atomic_load(&budget.used);
}

bool zp_tmp_reached(void)
{
  return atomic_load(&budget.reached);
}

bool zp_tmp_default(void)
{
  return budget.limit == 0;
}

zp_status zp_tmp_write(int fd, const void *p, size_t n, uint64_t at)
{
  if (!zp_tmp_take(n))
    return ZP_ETMPLIMIT;
  for (const char *q = p; n > 0;) {
    ssize_t w = pwrite(fd, q, n, (off_t)at);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return ZP_ETMPFILE;
    q += w;
    n -= (size_t)w;
    at += (uint64_t)w;
  }
  return ZP_OK;
}

uint64_t zp_tmp_punch(int fd, uint64_t at, uint64_t n)
{
  if (n == 0 || fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)at, (off_t)n))
    return 0;
  zp_tmp_give(n);
  return n;
}
