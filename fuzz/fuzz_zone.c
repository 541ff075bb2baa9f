/* fuzz_zone.c -- libFuzzer harness: the whole zone pipeline, and its output read back */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"

/* Converts data as `zonepuny [-z example.] [--std3] [--sort] [--fragment]` would (mode bits 4,
 * 1, 2, and 8 clear), with $INCLUDE refused so that a fuzzed zone cannot read the machine's
 * files. */
static void convert(unsigned mode, const char *data, size_t size, char **out, size_t *outlen,
                    unsigned *errors)
{
  zp_pipeline_options po = {
    .origin = mode & 4 ? "example." : NULL,
    .std3 = mode & 1,
    .sort = mode & 2,
    .no_include = true,
  };
  zp_check_defaults(&po.checks);
  po.checks.off = !(mode & 8);   /* (the seeds of single records run as fragments) */
  FILE *o = open_memstream(out, outlen);
  if (!o)
    abort();
  zp_status st = fuzz_pipeline(&po, data, size, false, o, errors);
  fclose(o);
  /* Nothing here can fail to read or write: any other status is a bug. */
  if (st != ZP_OK)
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1 || size > 1 << 16)
    return 0;
  unsigned mode = data[0];
  char *first = NULL, *second = NULL;
  size_t flen = 0, slen = 0;
  unsigned e1 = 0, e2 = 0;
  convert(mode, (const char *)data + 1, size - 1, &first, &flen, &e1);
  if (e1 == 0) {
    /* zonepuny's output is a zone zonepuny accepts, and converting it again changes nothing. */
    convert(mode & ~4u, first, flen, &second, &slen, &e2);
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
