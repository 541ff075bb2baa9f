/* harness.h -- what the pipeline harnesses share: a zone's text in memory run through
 * zonepuny's pipeline, its messages counted and sent to /dev/null */
#ifndef ZP_FUZZ_HARNESS_H
#define ZP_FUZZ_HARNESS_H

#include <stdio.h>
#include <stdlib.h>

#include "core/diag.h"
#include "pipeline.h"

/* Runs data[0..size) named fuzz.zone with po (every error told when all_errors), writing to
 * out (NULL: checked only); *errors (may be NULL) the errors found. */
static inline zp_status fuzz_pipeline(const zp_pipeline_options *po, const char *data,
                                      size_t size, bool all_errors, FILE *out, unsigned *errors)
{
  static FILE *devnull;
  if (!devnull && !(devnull = fopen("/dev/null", "w")))
    abort();
  zp_diag diag;
  zp_diag_init(&diag, devnull);
  diag.show_source = false;
  if (all_errors)
    diag.max_errors = 0;
  zp_input in = {.path = "fuzz.zone", .data = data, .len = size};
  zp_status st = zp_pipeline_run(&in, po, &diag, out, NULL);
  if (errors)
    *errors = diag.errors;
  return st;
}

#endif
