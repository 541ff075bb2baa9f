/* fuzz_zone.c -- libFuzzer harness: the whole zone pipeline, and its output read back */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert.h"
#include "diag.h"
#include "emit.h"
#include "zone.h"

/* zp_zone_parse reads a path: one scratch file per fuzzing process, rewritten for each input. */
static char scratch[64];
static FILE *devnull;

static void setup(void)
{
  if (devnull)
    return;
  const char *dir = getenv("TMPDIR");
  snprintf(scratch, sizeof scratch, "%s/fuzz_zone.XXXXXX", dir && strlen(dir) < 40 ? dir : "/tmp");
  int fd = mkstemp(scratch);
  devnull = fopen("/dev/null", "w");
  if (fd < 0 || !devnull)
    abort();
  close(fd);
}

static void put_file(const uint8_t *data, size_t size)
{
  FILE *f = fopen(scratch, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
    abort();
}

/* Converts the scratch file as `zonepuny [-z example.] [--std3] [--sort]` would, with $INCLUDE
 * refused so that a fuzzed zone cannot read the machine's files. */
static void convert(unsigned mode, char **out, size_t *outlen, unsigned *errors)
{
  zp_convert conv = {.std3 = mode & 1};
  zp_zone_options zo = {.origin = mode & 4 ? "example." : NULL, .no_include = true};
  zo.conv = zp_convert_policy(&conv);
  zp_diag diag;
  zp_diag_init(&diag, devnull);
  diag.show_source = false;
  zp_emit_options eo = {.conv = zo.conv, .sort = mode & 2};
  FILE *o = open_memstream(out, outlen);
  zp_emitter *em = NULL;
  if (!o || zp_emit_new(&eo, o, &diag, &em) != ZP_OK)
    abort();
  zp_status st = zp_zone_parse(scratch, &zo, &diag, zp_emit_record, em);
  zp_status fin = zp_emit_finish(em);
  zp_emit_free(em);
  fclose(o);
  /* Nothing here can fail to read or write: any other status is a bug. */
  if (st != ZP_OK || fin != ZP_OK)
    abort();
  *errors = diag.errors;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1 || size > 1 << 16)
    return 0;
  setup();
  unsigned mode = data[0];
  put_file(data + 1, size - 1);
  char *first = NULL, *second = NULL;
  size_t flen = 0, slen = 0;
  unsigned e1 = 0, e2 = 0;
  convert(mode, &first, &flen, &e1);
  if (e1 == 0) {
    /* zonepuny's output is a zone zonepuny accepts, and converting it again changes nothing. */
    put_file((const uint8_t *)first, flen);
    convert(mode & ~4u, &second, &slen, &e2);
    if (e2 != 0 || slen != flen || memcmp(first, second, flen) != 0) {
      fprintf(stderr, "output not accepted back unchanged (%u errors)\n--- first\n%.*s--- second\n%.*s",
              e2, (int)flen, first, (int)slen, second);
      abort();
    }
  }
  free(first);
  free(second);
  return 0;
}
