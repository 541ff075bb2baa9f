/* icu.h -- ICU 72's UTS #46 as the tests' and fuzzers' IDNA2008 oracle (and the benchmark's
 * peer): non-transitional processing with STD3 rules and the Bidi, CONTEXTJ and CONTEXTO
 * checks, IDNA2008 as zonepuny applies it */
#ifndef ZP_TEST_ICU_H
#define ZP_TEST_ICU_H

#include <stdio.h>
#include <stdlib.h>

#include <unicode/uidna.h>
#include <unicode/utypes.h>

/* The one handle, opened on first use; a failure to open it ends the program. */
static inline UIDNA *zp_icu(void)
{
  static UIDNA *u;
  if (!u) {
    UErrorCode e = U_ZERO_ERROR;
    u = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE |
                        UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_CHECK_CONTEXTO |
                        UIDNA_USE_STD3_RULES, &e);
    if (U_FAILURE(e)) {
      fprintf(stderr, "uidna_openUTS46: %s\n", u_errorName(e));
      abort();
    }
  }
  return u;
}

#endif
