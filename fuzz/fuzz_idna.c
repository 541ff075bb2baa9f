/* fuzz_idna.c -- libFuzzer harness: ToASCII/ToUnicode invariants and agreement with GNU libidn */
#include <idna.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idna/idna.h"
#include "idna/nameprep.h"
#include "idna/utf8.h"

/* Flags are handed to libidn as they are: the two libraries give these the same values. */
_Static_assert(IDNA_ALLOW_UNASSIGNED == ZP_IDNA_ALLOW_UNASSIGNED &&
               IDNA_USE_STD3_ASCII_RULES == ZP_IDNA_USE_STD3, "libidn's flags are ours");

enum { MAX_IN = 256, OUT_CAP = 1024 };

static bool is_ascii(const uint8_t *s, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (s[i] >= 0x80)
      return false;
  return true;
}

static bool is_ldh(unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

/* The harness's own prefix test, not zp_idna_is_ace: it checks the library's results, so it
 * must not share the library's code for the rule it checks. */
static bool has_ace_prefix(const uint8_t *s, size_t n)
{
  return n >= 4 && (s[0] | 0x20) == 'x' && (s[1] | 0x20) == 'n' && s[2] == '-' && s[3] == '-';
}

/* A label separator or NUL makes the input more than one label to libidn. */
static bool one_label(const uint8_t *s, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '.' || s[i] == 0)
      return false;
    if (i + 2 < n && s[i] == 0xE3 && s[i + 1] == 0x80 && s[i + 2] == 0x82)
      return false;                                  /* U+3002 */
    if (i + 2 < n && s[i] == 0xEF && s[i + 1] == 0xBC && s[i + 2] == 0x8E)
      return false;                                  /* U+FF0E */
    if (i + 2 < n && s[i] == 0xEF && s[i + 1] == 0xBD && s[i + 2] == 0xA1)
      return false;                                  /* U+FF61 */
  }
  return true;
}

/* libidn composes Hangul L+V(+T) jamo across combining marks where Unicode 3.2 NFKC does not
 * (pinned in tests/test_idna.c and tests/test_nameprep.c); such inputs are left out of the
 * comparison. */
static bool has_jamo(const uint8_t *s, size_t n)
{
  for (size_t i = 0; i + 1 < n; i++)
    if (s[i] == 0xE1 && (s[i + 1] == 0x84 || s[i + 1] == 0x85 || s[i + 1] == 0x86 ||
                         s[i + 1] == 0x87))
      return true;
  return false;
}

/* Successful ToASCII: ASCII, at most 63 octets, and LDH without edge hyphens whenever the STD3
 * rules applied to this label. */
static void check_ascii_result(const char *out, size_t len, bool std3)
{
  if (len > ZP_LABEL_MAX)
    abort();
  for (size_t i = 0; i < len; i++) {
    if ((unsigned char)out[i] >= 0x80)
      abort();
    if (std3 && !is_ldh((unsigned char)out[i]))
      abort();
  }
  if (std3 && len > 0 && (out[0] == '-' || out[len - 1] == '-'))
    abort();
}

/* ToUnicode(ToASCII(x)) is Nameprep(x), in UTF-8, when Nameprep(x) is not ASCII. When it is,
 * ToASCII returns it unchanged (steps 4-8), so it is compared with ToASCII's output instead:
 * "ＸＮ--ｂｃｈｅｒ-ｋｖａ" gives "xn--bcher-kva", whose ToUnicode is "bücher" (found by this harness). */
static void check_round_trip(const uint8_t *in, size_t n, const char *ace, size_t alen,
                             unsigned fl)
{
  uint32_t *cps = malloc(MAX_IN * sizeof *cps), *prep = malloc(MAX_IN * 18 * sizeof *prep);
  uint8_t *want = malloc(MAX_IN * 18 * 4);
  char *got = malloc(OUT_CAP);
  size_t ncp = MAX_IN, nprep = MAX_IN * 18, nwant = MAX_IN * 18 * 4, ngot = OUT_CAP;
  uint32_t bad;
  if (zp_utf8_decode(in, n, cps, &ncp, NULL) != ZP_OK ||
      zp_nameprep(cps, ncp, prep, &nprep,
                  fl & ZP_IDNA_ALLOW_UNASSIGNED ? ZP_NAMEPREP_ALLOW_UNASSIGNED : 0, &bad) != ZP_OK ||
      zp_utf8_encode(prep, nprep, want, &nwant) != ZP_OK)
    abort();  /* ToASCII succeeded, so the input is UTF-8 and passes Nameprep */
  if (is_ascii(want, nwant)) {
    if (alen != nwant || memcmp(ace, want, nwant) != 0)
      abort();
  } else if (zp_idna_label_to_unicode(ace, alen, got, &ngot, fl) != ZP_OK || ngot != nwant ||
             memcmp(got, want, nwant) != 0) {
    abort();
  }
  free(cps);
  free(prep);
  free(want);
  free(got);
}

static void check_libidn(const uint8_t *in, size_t n, unsigned fl, zp_status st, const char *out,
                         size_t len)
{
  bool ascii = is_ascii(in, n);
  if (n == 0 || !one_label(in, n) || ((fl & ZP_IDNA_CHECK_ACE) && ascii && has_ace_prefix(in, n)))
    return;
  char *z = malloc(n + 1);
  memcpy(z, in, n);
  z[n] = 0;
  int lf = (int)(fl & (ZP_IDNA_ALLOW_UNASSIGNED | ZP_IDNA_USE_STD3));
  if ((fl & ZP_IDNA_STD3_NON_ASCII) && !ascii)
    lf |= ZP_IDNA_USE_STD3;
  char *theirs = NULL;
  int rc = idna_to_ascii_8z(z, &theirs, lf);
  /* zonepuny's ACE check also covers a label that Nameprep maps to "xn--..." in ASCII
   * ("ＸＮ--ab"), which plain ToASCII passes through. */
  if (rc == 0 && st != ZP_OK && (fl & ZP_IDNA_CHECK_ACE) &&
      has_ace_prefix((const uint8_t *)theirs, strlen(theirs)) &&
      zp_idna_ace_check(theirs, strlen(theirs), fl & ~ZP_IDNA_CHECK_ACE, NULL) != ZP_OK) {
    free(theirs);
    free(z);
    return;
  }
  /* The Hangul difference can also decide the status: libidn's shorter composed form fits in
   * 63 octets where ours does not (found by this harness). */
  if (!has_jamo(in, n) && ((rc == 0) != (st == ZP_OK) ||
                           (rc == 0 && (strlen(theirs) != len || memcmp(theirs, out, len) != 0))))
    abort();
  free(theirs);
  free(z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1 || size > MAX_IN + 1)
    return 0;
  unsigned fl = data[0] & 0xF;
  const uint8_t *in = data + 1;
  size_t n = size - 1;
  /* An exact-size copy, so ASan sees a read past the label. */
  char *label = malloc(n ? n : 1);
  memcpy(label, in, n);

  char *out = malloc(OUT_CAP);
  size_t len = OUT_CAP;
  zp_status st = zp_idna_label_to_ascii(label, n, out, &len, fl, NULL);
  bool ascii = is_ascii(in, n);
  if (st == ZP_OK) {
    check_ascii_result(out, len, (fl & ZP_IDNA_USE_STD3) || ((fl & ZP_IDNA_STD3_NON_ASCII) && !ascii));
    if (!ascii)
      check_round_trip(in, n, out, len, fl);
  }
  check_libidn(in, n, fl, st, out, len);

  /* A tight buffer must give ZP_EBUFFER, never a write past it. */
  size_t small = (size_t)(data[0] >> 4);
  char *tight = malloc(small ? small : 1);
  zp_status tst = zp_idna_label_to_ascii(label, n, tight, &small, fl, NULL);
  if (st == ZP_OK && tst != ZP_OK && tst != ZP_EBUFFER)
    abort();
  free(tight);

  len = OUT_CAP;
  (void)zp_idna_label_to_unicode(label, n, out, &len, fl);
  len = OUT_CAP;
  st = zp_idna_name_to_ascii(label, n, out, &len, fl, NULL);
  if (st == ZP_OK && len > 254)
    abort();
  len = OUT_CAP;
  (void)zp_idna_name_to_unicode(label, n, out, &len, fl);
  free(out);
  free(label);
  return 0;
}
