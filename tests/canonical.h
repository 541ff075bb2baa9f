/* canonical.h -- RFC 4034 section 6.2, item 3, as RFC 6840 section 5.1 amends it: the types whose
 * RDATA names DNSSEC's canonical form lowercases. Written here from the RFCs, independently of
 * src/record/rrtype.c, so that tests can check it. */
#ifndef ZP_TESTS_CANONICAL_H
#define ZP_TESTS_CANONICAL_H

#include <stdbool.h>
#include <stdint.h>

/* RFC 4034's list by number; NSEC (47) was on it until RFC 6840 took it off. */
static inline bool rfc4034_lowercases(uint16_t type)
{
  static const uint16_t listed[] = {
    2 /* NS */,    3 /* MD */,     4 /* MF */,   5 /* CNAME */, 6 /* SOA */,   7 /* MB */,
    8 /* MG */,    9 /* MR */,     12 /* PTR */, 13 /* HINFO */, 14 /* MINFO */, 15 /* MX */,
    17 /* RP */,   18 /* AFSDB */, 21 /* RT */,  24 /* SIG */,  26 /* PX */,   30 /* NXT */,
    35 /* NAPTR */, 36 /* KX */,   33 /* SRV */, 39 /* DNAME */, 38 /* A6 */,  46 /* RRSIG */,
  };
  for (unsigned i = 0; i < sizeof listed / sizeof *listed; i++)
    if (listed[i] == type)
      return true;
  return false;
}

#endif
