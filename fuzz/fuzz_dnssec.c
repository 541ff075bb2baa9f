/* fuzz_dnssec.c -- libFuzzer harness: DNSSEC verification (--dnssec=on) over a zone's text, its
 * seeds zones signed for real by dnssec-signzone (fuzz/corpus/dnssec: NSEC and NSEC3), so that
 * mutations reach the signature, key, chain and ZONEMD code rather than the reader's errors */
#include <stdint.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1 || size > 1 << 16)
    return 0;
  zp_pipeline_options po = {.origin = "example.", .no_include = true};
  zp_check_defaults(&po.checks);
  po.checks.dnssec = ZP_DNSSEC_ON;
  po.checks.now = 1800000000;   /* (inside the seeds' signatures' windows, whatever the day) */
  po.checks.threads = data[0] & 1 ? 2 : 1;
  po.checks.run_bytes = data[0] & 2 ? 64 << 10 : 0;   /* a small share: the walk's bound */
  zp_status st = fuzz_pipeline(&po, (const char *)data + 1, size - 1, true, NULL, NULL);
  /* a zone in memory cannot fail to be read: past the memory's share is the one other end */
  if (st != ZP_OK && st != ZP_ECHECKMEM)
    abort();
  return 0;
}
