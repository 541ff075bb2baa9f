/* fuzz_conf.c -- libFuzzer harness: the named.conf reader (--named-conf), over a conf held in a
 * memory file so that it is read as a regular file is */
#define _GNU_SOURCE   /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/conf.h"
#include "core/diag.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size > 1 << 16)
    return 0;
  if (!devnull && !(devnull = fopen("/dev/null", "w")))
    abort();
  int fd = memfd_create("named.conf", MFD_CLOEXEC);
  if (fd < 0 || write(fd, data, size) != (ssize_t)size)
    abort();
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  zp_check_options checks;
  zp_check_defaults(&checks);
  zp_diag diag;
  zp_diag_init(&diag, devnull);
  diag.max_errors = 0;
  zp_conf *conf = NULL;
  zp_status st = zp_conf_read(path, &checks, &diag, &conf);
  /* the conf itself is there to read: what it says wrongly is the diagnostics' */
  if (st != ZP_OK && st != ZP_EIO)
    abort();
  for (size_t i = 0; conf && i < zp_conf_count(conf); i++) {
    const zp_conf_zone *z = zp_conf_zone_at(conf, i);
    if (!z->name || !z->file)
      abort();
  }
  zp_conf_free(conf);
  close(fd);
  return 0;
}
