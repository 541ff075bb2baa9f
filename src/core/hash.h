/* hash.h -- the one hash of octet strings for this process's tables (not for anything stored
 * or compared across runs) */
#ifndef ZP_HASH_H
#define ZP_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Eight octets at a time, each word mixed in with a multiply; the last word of a string of
 * eight octets or more is its last eight, read again in part. Inline: its callers hash every
 * record, reference and name. */
static inline uint64_t zp_hash(const uint8_t *p, size_t n)
{
  const uint64_t m = 0xff51afd7ed558ccdu;
  uint64_t h = 0x9e3779b97f4a7c15u ^ n, w = 0;
  if (n >= 8) {
    const uint8_t *last = p + n - 8;
    for (; p < last; p += 8) {
      memcpy(&w, p, sizeof w);
      h = (h ^ w) * m;
      h ^= h >> 32;
    }
    memcpy(&w, last, sizeof w);
    n = 0;
  }
  for (size_t i = 0; i < n; i++)
    w |= (uint64_t)p[i] << (8 * i);
  h = (h ^ w) * m;
  h ^= h >> 29;
  return h * 0xc4ceb9fe1a85ec53u ^ (h >> 32);
}

#endif
