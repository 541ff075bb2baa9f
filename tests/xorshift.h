/* xorshift.h -- the generator of the random tests: xorshift64*, one fixed sequence per seed, so
 * that a failure repeats and the pinned counts of the oracle tests stay valid. */
#ifndef ZP_TESTS_XORSHIFT_H
#define ZP_TESTS_XORSHIFT_H

#include <stdint.h>

static inline uint64_t xorshift64star(uint64_t *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Du;
}

#endif
