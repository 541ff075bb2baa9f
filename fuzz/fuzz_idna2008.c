/* fuzz_idna2008.c -- libFuzzer harness: IDNA2008 ToASCII/ToUnicode invariants, agreement with
 * ICU 72's UTS #46 (non-transitional, STD3, Bidi, CONTEXTJ, CONTEXTO) on names whose labels all
 * hold a non-ASCII code point, and the divergence check's short cut against both standards */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../tests/icu.h"

#include "idna/idna2008.h"
#include "idna/utf8.h"
#include "label/diverge.h"

enum { MAX_IN = 256, OUT_CAP = 2048 };

static bool is_ascii(const uint8_t *s, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (s[i] >= 0x80)
      return false;
  return true;
}

/* Successful ToASCII of a label with a non-ASCII code point: ASCII letters, digits and hyphens
 * (STD3 holds for such labels), at most 63 octets. */
static void check_ascii_result(const char *out, size_t len)
{
  if (len == 0 || len > 63)
    abort();
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)out[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      abort();
  }
}

/* Whether every label of name[0..n) (split at "." only: the harness's own reading) holds a
 * non-ASCII octet: then no label is the zone's own, and ICU must agree. */
static bool all_labels_non_ascii(const uint8_t *s, size_t n)
{
  bool high = false;
  for (size_t i = 0; i <= n; i++) {
    if (i == n || s[i] == '.') {
      if (!high)
        return false;
      high = false;
    } else if (s[i] >= 0x80) {
      high = true;
    }
  }
  return true;
}

/* ICU and zonepuny on a name of non-ASCII labels without separators other than ".": the same
 * verdict and ACE form, but for symbols IDNA2008 disallows and UTS #46 keeps (ZP_IDNA_NV8). */
static void check_icu(const char *name, size_t n, zp_status st, const char *out, size_t len)
{
  for (size_t i = 0; i + 2 < n; i++)   /* (U+3002, U+FF0E, U+FF61 split labels for both) */
    if (((unsigned char)name[i] == 0xE3 || (unsigned char)name[i] == 0xEF) &&
        (unsigned char)name[i + 1] >= 0x80)
      return;
  char theirs[OUT_CAP];
  UErrorCode e = U_ZERO_ERROR;
  UIDNAInfo info = UIDNA_INFO_INITIALIZER;
  int32_t tl = uidna_nameToASCII_UTF8(zp_icu(), name, (int32_t)n, theirs, sizeof theirs, &info, &e);
  bool ok = U_SUCCESS(e) && info.errors == 0;
  /* zonepuny's differences: it refuses the symbols IDNA2008 disallows and UTS #46 keeps, and a
   * label that mapping empties, which UTS #46 (mapping the whole name before it splits it)
   * reads as the end of the name */
  if (ok && (st == ZP_IDNA_NV8 || st == ZP_IDNA_EMPTY))
    return;
  if (ok != (st == ZP_OK))
    abort();
  if (ok && ((size_t)tl != len || memcmp(theirs, out, len) != 0))
    abort();
}

/* The divergence check (diverge.h) takes a short cut for labels of code points both standards
 * keep alike: its verdict must not depend on the standard it converts with first, and where it
 * sees no divergence the two standards, each asked in full, must agree. */
static void check_divergence(const uint8_t *in, size_t n)
{
  enum { FLAGS = ZP_IDNA_STD3_NON_ASCII | ZP_IDNA_CHECK_ACE };
  zp_idna_both a, b;
  zp_divergence d = zp_idna_diverge(in, n, FLAGS, 0, &a);
  if (zp_idna_diverge(in, n, FLAGS, 1, &b) != d)
    abort();
  if (d != ZP_DIV_NONE || zp_utf8_validate(in, n, NULL) != ZP_OK)
    return;
  zp_idna_both full;
  zp_status s03 = zp_idna_label_alone(in, n, FLAGS, 0, &full);
  zp_status s08 = zp_idna_label_alone(in, n, FLAGS, 1, &full);
  if ((s03 == ZP_OK) != (s08 == ZP_OK) ||
      (s03 == ZP_OK && (full.len[0] != full.len[1] ||
                        strncasecmp(full.ace[0], full.ace[1], full.len[0]) != 0)))
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1 || size > MAX_IN + 1)
    return 0;
  unsigned fl = data[0] & (ZP_IDNA_CHECK_ACE | ZP_IDNA_USE_STD3);
  const uint8_t *in = data + 1;
  size_t n = size - 1;
  /* An exact-size copy, so ASan sees a read past the label. */
  char *label = malloc(n ? n : 1);
  memcpy(label, in, n);
  char *out = malloc(OUT_CAP), *back = malloc(OUT_CAP), *again = malloc(OUT_CAP);

  size_t len = OUT_CAP;
  unsigned bidi;
  zp_status st = zp_idna2008_label_to_ascii(label, n, out, &len, fl, NULL, &bidi);
  /* what is not UTF-8 is refused, whichever path the label takes */
  if (st == ZP_OK && zp_utf8_validate(in, n, NULL) != ZP_OK)
    abort();
  if (st == ZP_OK && !is_ascii(in, n)) {
    check_ascii_result(out, len);
    /* ToASCII of ToUnicode of the result is the result */
    size_t bl = OUT_CAP, al = OUT_CAP;
    if (zp_idna2008_label_to_unicode(out, len, back, &bl, fl) != ZP_OK ||
        zp_idna2008_label_to_ascii(back, bl, again, &al, fl | ZP_IDNA_CHECK_ACE, NULL, NULL) !=
            ZP_OK ||
        al != len || memcmp(again, out, len) != 0)
      abort();
  }

  /* A tight buffer must give ZP_EBUFFER, never a write past it. */
  size_t small = (size_t)(data[0] >> 4);
  char *tight = malloc(small ? small : 1);
  zp_status tst = zp_idna2008_label_to_ascii(label, n, tight, &small, fl, NULL, NULL);
  if (st == ZP_OK && tst != ZP_OK && tst != ZP_EBUFFER)
    abort();
  free(tight);

  len = OUT_CAP;
  (void)zp_idna2008_label_to_unicode(label, n, out, &len, fl);
  len = OUT_CAP;
  st = zp_idna2008_name_to_ascii(label, n, out, &len, fl | ZP_IDNA_CHECK_ACE, NULL);
  if (st == ZP_OK && len > 254)
    abort();
  if (n > 0 && all_labels_non_ascii(in, n) && zp_utf8_validate(in, n, NULL) == ZP_OK)
    check_icu(label, n, st, out, len);
  len = OUT_CAP;
  (void)zp_idna2008_name_to_unicode(label, n, out, &len, fl);
  check_divergence(in, n);
  free(out);
  free(back);
  free(again);
  free(label);
  return 0;
}
