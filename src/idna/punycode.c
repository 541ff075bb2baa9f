/* punycode.c -- RFC 3492 Bootstring with the Punycode parameters, from sections 6.1-6.4 */
#include <string.h>

#include "punycode.h"

enum {
  BASE = 36, TMIN = 1, TMAX = 26, SKEW = 38, DAMP = 700,
  INITIAL_BIAS = 72, INITIAL_N = 0x80, DELIMITER = '-'
};

#define MAXINT UINT32_MAX

/* After adapt's loop delta is at most ((BASE - TMIN) * TMAX) / 2 = 455, so its final
 * division by a variable (the slowest instruction of the encoder) is a table lookup. */
enum { ADAPT_MAX = ((BASE - TMIN) * TMAX) / 2 };
/* adapt_tail[d] = (BASE - TMIN + 1) * d / (d + SKEW), d = 0..455; the differential tests
 * against libidn cover them through millions of encodings and decodings. */
static const uint8_t adapt_tail[ADAPT_MAX + 1] = {
  0, 0, 1, 2, 3, 4, 4, 5, 6, 6, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 12, 13, 13,
  13, 14, 14, 14, 15, 15, 15, 16, 16, 16, 17, 17, 17, 17, 18, 18, 18, 18, 18, 19, 19, 19, 19, 19,
  20, 20, 20, 20, 20, 20, 21, 21, 21, 21, 21, 21, 22, 22, 22, 22, 22, 22, 22, 22, 23, 23, 23, 23,
  23, 23, 23, 23, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 25, 25, 25, 25, 25, 25, 25, 25, 25,
  25, 25, 25, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 27, 27, 27, 27, 27, 27,
  27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 27, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29,
  29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 30, 30,
  30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 31, 31, 31, 31,
  31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
  31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
  31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 32, 32, 32, 32, 32, 32, 32, 32,
  32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32,
  32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32,
  32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32,
  32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32,
  32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33,
  33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33, 33,
};

/* Reciprocals for delta / numpoints in adapt, the other variable division on the hot path.
 * With M = floor(2^32 / d) + 1 the error of x * M / 2^32 is below x / 2^32 <= 1/64 for
 * x < 2^26, while x / d falls at least 1/d >= 1/64 short of the next integer, so the
 * quotient is exact for d <= 64 and x < 2^26 (labels are at most 63 code points). */
#define RECIP(d) ((UINT64_C(1) << 32) / (d) + 1)
#define RECIP8(d) RECIP(d), RECIP(d + 1), RECIP(d + 2), RECIP(d + 3), RECIP(d + 4), \
                  RECIP(d + 5), RECIP(d + 6), RECIP(d + 7)
static const uint64_t recip[65] = {
  0, RECIP8(1), RECIP8(9), RECIP8(17), RECIP8(25), RECIP8(33), RECIP8(41), RECIP8(49),
  RECIP8(57),
};

static uint32_t div_small(uint32_t x, uint32_t d)
{
  if (d <= 64 && x < (UINT32_C(1) << 26))
    return (uint32_t)((x * recip[d]) >> 32);
  return x / d;
}

/* Section 6.1. */
static uint32_t adapt(uint32_t delta, uint32_t numpoints, int firsttime)
{
  uint32_t k = 0;

  delta = firsttime ? delta / DAMP : delta / 2;
  delta += div_small(delta, numpoints);
  while (delta > ADAPT_MAX) {
    delta /= BASE - TMIN;
    k += BASE;
  }
  return k + adapt_tail[delta];
}

static uint32_t threshold(uint32_t k, uint32_t bias)
{
  return k <= bias ? TMIN : k >= bias + TMAX ? TMAX : k - bias;
}

/* Digit values 0..25 are a..z, 26..35 are 0..9 (section 5); BASE marks a non-digit. */
static const uint8_t digit_value[256] = {
  ['0'] = 27, ['1'] = 28, ['2'] = 29, ['3'] = 30, ['4'] = 31,
  ['5'] = 32, ['6'] = 33, ['7'] = 34, ['8'] = 35, ['9'] = 36,
  ['a'] = 1, ['b'] = 2, ['c'] = 3, ['d'] = 4, ['e'] = 5, ['f'] = 6, ['g'] = 7,
  ['h'] = 8, ['i'] = 9, ['j'] = 10, ['k'] = 11, ['l'] = 12, ['m'] = 13, ['n'] = 14,
  ['o'] = 15, ['p'] = 16, ['q'] = 17, ['r'] = 18, ['s'] = 19, ['t'] = 20, ['u'] = 21,
  ['v'] = 22, ['w'] = 23, ['x'] = 24, ['y'] = 25, ['z'] = 26,
  ['A'] = 1, ['B'] = 2, ['C'] = 3, ['D'] = 4, ['E'] = 5, ['F'] = 6, ['G'] = 7,
  ['H'] = 8, ['I'] = 9, ['J'] = 10, ['K'] = 11, ['L'] = 12, ['M'] = 13, ['N'] = 14,
  ['O'] = 15, ['P'] = 16, ['Q'] = 17, ['R'] = 18, ['S'] = 19, ['T'] = 20, ['U'] = 21,
  ['V'] = 22, ['W'] = 23, ['X'] = 24, ['Y'] = 25, ['Z'] = 26,
}; /* stored as value + 1 so that the zero default means "not a digit" */

static const char digit_chars[2][BASE] = {
  {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r',
   's', 't', 'u', 'v', 'w', 'x', 'y', 'z', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'},
  {'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'Q', 'R',
   'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'},
};

static char digit_char(uint32_t d, int upper)
{
  return digit_chars[upper != 0][d];
}

static int is_basic(uint32_t c)
{
  return c < 0x80;
}

static int is_scalar(uint32_t c)
{
  return c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF);
}

zp_status zp_puny_encode(const uint32_t *in, size_t inlen, const unsigned char *case_flags,
                         char *out, size_t *outlen)
{
  size_t cap = *outlen, o = 0, b = 0;
  uint32_t n = INITIAL_N, bias = INITIAL_BIAS, h;

  /* Every count below is a uint32_t in the RFC's arithmetic; a longer input cannot be encoded
   * without overflow anyway. */
  if (inlen > MAXINT)
    return ZP_PUNY_OVERFLOW;
  /* The first code point to insert (the RFC's first m) is found on the way. */
  uint32_t m = MAXINT;
  for (size_t j = 0; j < inlen; j++) {
    uint32_t c = in[j];
    if (!is_scalar(c))
      return ZP_PUNY_BAD_CODE_POINT;
    if (!is_basic(c)) {
      m = c < m ? c : m;
      continue;
    }
    if (o == cap)
      return ZP_EBUFFER;
    /* Appendix A: a flag forces the case of a basic letter; without flags it is kept. */
    if (case_flags && c >= 'a' && c <= 'z' && case_flags[j])
      c -= 'a' - 'A';
    else if (case_flags && c >= 'A' && c <= 'Z' && !case_flags[j])
      c += 'a' - 'A';
    out[o++] = (char)c;
    b++;
  }
  h = (uint32_t)b;
  if (b > 0) {
    if (o == cap)
      return ZP_EBUFFER;
    out[o++] = DELIMITER;
  }
  /* Each pass over the input also finds the next smallest code point, so the RFC's separate
   * scan for m is not needed. */
  /* delta is kept in 64 bits: within a pass it only grows, by at most one per code point,
   * until a digit is written, so the RFC's "fail on overflow" test is exact when made where
   * delta is used (each emission) and at the end of each pass, and the counting loop needs no
   * test of its own. */
  uint64_t d64 = 0;
  while (h < inlen) {
    uint32_t next = MAXINT;
    d64 += (uint64_t)(m - n) * (h + 1);
    if (d64 > MAXINT)
      return ZP_PUNY_OVERFLOW;
    n = m;
    for (size_t j = 0; j < inlen; j++) {
      uint32_t c = in[j];
      d64 += c < n;
      if (c > n) {
        next = c < next ? c : next;
        continue;
      }
      if (c != n)
        continue;
      if (d64 > MAXINT)
        return ZP_PUNY_OVERFLOW;
      uint32_t q = (uint32_t)d64;
      for (uint32_t k = BASE;; k += BASE) {
        uint32_t t = threshold(k, bias), d;
        if (q < t)
          break;
        if (o == cap)
          return ZP_EBUFFER;
        /* t is TMIN or TMAX for all but one digit of a delta: dividing by the constants lets
         * the compiler use multiplications. */
        if (t == TMIN) {
          d = t + (q - t) % (BASE - TMIN);
          q = (q - t) / (BASE - TMIN);
        } else if (t == TMAX) {
          d = t + (q - t) % (BASE - TMAX);
          q = (q - t) / (BASE - TMAX);
        } else {
          d = t + (q - t) % (BASE - t);
          q = (q - t) / (BASE - t);
        }
        out[o++] = digit_char(d, 0);
      }
      if (o == cap)
        return ZP_EBUFFER;
      out[o++] = digit_char(q, case_flags && case_flags[j]);
      bias = adapt((uint32_t)d64, h + 1, h == b);
      d64 = 0;
      h++;
    }
    if (++d64 > MAXINT)
      return ZP_PUNY_OVERFLOW;
    n++;
    m = next;
  }
  *outlen = o;
  return ZP_OK;
}

zp_status zp_puny_decode(const char *in, size_t inlen, uint32_t *out, size_t *outlen,
                         unsigned char *case_flags)
{
  const unsigned char *s = (const unsigned char *)in;
  size_t cap = *outlen, b = 0, pos;
  uint32_t n = INITIAL_N, i = 0, bias = INITIAL_BIAS, count;

  if (inlen > MAXINT)
    return ZP_PUNY_OVERFLOW;
  for (size_t j = 0; j < inlen; j++)
    if (s[j] == DELIMITER)
      b = j;
  if (b > cap)
    return ZP_EBUFFER;
  for (size_t j = 0; j < b; j++) {
    if (!is_basic(s[j]))
      return ZP_PUNY_NON_BASIC;
    out[j] = s[j];
    if (case_flags)
      case_flags[j] = s[j] >= 'A' && s[j] <= 'Z';
  }
  count = (uint32_t)b;
  for (pos = b > 0 ? b + 1 : 0; pos < inlen;) {
    uint32_t oldi = i, w = 1, digit = 0;
    for (uint32_t k = BASE;; k += BASE) {
      if (pos >= inlen)
        return ZP_PUNY_TRUNCATED;
      digit = digit_value[s[pos++]];
      if (digit == 0)
        return ZP_PUNY_BAD_DIGIT;
      digit--;
      if (digit > (MAXINT - i) / w)
        return ZP_PUNY_OVERFLOW;
      i += digit * w;
      uint32_t t = threshold(k, bias);
      if (digit < t)
        break;
      if (w > MAXINT / (BASE - t))
        return ZP_PUNY_OVERFLOW;
      w *= BASE - t;
    }
    bias = adapt(i - oldi, count + 1, oldi == 0);
    if (i / (count + 1) > MAXINT - n)
      return ZP_PUNY_OVERFLOW;
    n += i / (count + 1);
    i %= count + 1;
    /* Section 6.2 asks the decoder to refuse a basic code point produced by a delta; with
     * initial_n = 0x80 and checked arithmetic n only grows from 0x80, so the remaining way to
     * decode garbage is a value outside the Unicode scalar range. */
    if (!is_scalar(n))
      return ZP_PUNY_BAD_CODE_POINT;
    if (count == cap)
      return ZP_EBUFFER;
    memmove(out + i + 1, out + i, (count - i) * sizeof *out);
    out[i] = n;
    if (case_flags) {
      memmove(case_flags + i + 1, case_flags + i, count - i);
      case_flags[i] = s[pos - 1] >= 'A' && s[pos - 1] <= 'Z';
    }
    count++;
    i++;
  }
  *outlen = count;
  return ZP_OK;
}
