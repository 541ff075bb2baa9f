/* test_name.c -- presentation names to wire form: escapes, @, relative names, limits */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "read/name.h"
#include "xorshift.h"

static const uint8_t origin[] = "\007example\003com";   /* example.com. */

typedef struct good_case {
  const char *text;
  const char *wire;   /* expected wire form, written by hand (RFC 1035 3.1) */
  size_t wire_len;
  bool relative;      /* completed with the origin: no final unescaped dot (RFC 1035 5.1) */
} good_case;

static const good_case good[] = {
  {"www", "\003www\007example\003com", 17, true},
  {"www.example.org.", "\003www\007example\003org", 17, false},
  {"mail.example.net", "\004mail\007example\003net\007example\003com", 30, true},
  {"@", "\007example\003com", 13, true},
  {".", "", 1, false},
  {"a\\.b.", "\003a.b", 5, false},
  {"a\\.", "\002a.\007example\003com", 16, true},
  {"\\065\\066c.", "\003ABc", 5, false},
  {"\\000.", "\001\000", 3, false},
  {"\\255x.", "\002\377x", 4, false},
  {"a\\ b.", "\003a b", 5, false},
  {"\\\\.", "\001\\", 3, false},
  {"\\046", "\001.\007example\003com", 15, true},
  {"*.wild", "\001*\004wild\007example\003com", 20, true},
  {"m\xc3\xbcnchen.", "\010m\xc3\xbcnchen", 10, false},
};

Test(name, parses_to_wire_form)
{
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    uint8_t out[ZP_NAME_MAX];
    size_t len = 0;
    zp_name_error err = {0};
    bool relative = !good[i].relative;
    zp_status st = zp_name_parse_rel(good[i].text, strlen(good[i].text), origin, NULL, out,
                                     &len, &relative, &err);
    cr_assert_eq(st, ZP_OK, "%s: %s", good[i].text, err.msg);
    cr_expect_eq(relative, good[i].relative, "%s", good[i].text);
    cr_expect_eq(len, good[i].wire_len, "%s", good[i].text);
    cr_expect_eq(memcmp(out, good[i].wire, len), 0, "%s", good[i].text);
    cr_expect_eq(zp_name_wire_len(out), len, "%s", good[i].text);
  }
}

typedef struct bad_case {
  const char *text;
  bool no_origin;
  zp_status st;
  size_t offset;
  const char *msg;
} bad_case;

static const char label64[] =
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.";

static const bad_case bads[] = {
  {"a..b.", false, ZP_ZONE_SYNTAX, 2, "empty label in \"a..b.\""},
  {".a.", false, ZP_ZONE_SYNTAX, 0, "empty label in \".a.\""},
  {"", false, ZP_ZONE_SYNTAX, 0, "empty domain name"},
  {"a\\", false, ZP_ZONE_SYNTAX, 1, "name \"a\\\" ends in a lone backslash"},
  {"a\\25.", false, ZP_ZONE_SYNTAX, 1,
   "escape \"\\25.\" in a name needs three decimal digits (\\DDD)"},
  {"a\\256.", false, ZP_ZONE_SYNTAX, 1, "escape \"\\256\" is above \\255"},
  {"www", true, ZP_ZONE_SYNTAX, 0, "relative name \"www\" needs an origin ($ORIGIN or -z)"},
  {"@", true, ZP_ZONE_SYNTAX, 0, "\"@\" needs an origin ($ORIGIN or -z)"},
  {label64, false, ZP_IDNA_TOO_LONG, 0,
   "label \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\" is 64 octets; the "
   "limit is 63"},
};

Test(name, bad_names_say_where_and_why)
{
  for (size_t i = 0; i < sizeof bads / sizeof *bads; i++) {
    uint8_t out[ZP_NAME_MAX];
    size_t len = 0;
    zp_name_error err = {0};
    zp_status st = zp_name_parse(bads[i].text, strlen(bads[i].text),
                                 bads[i].no_origin ? NULL : origin, NULL, out, &len, &err);
    cr_expect_eq(st, bads[i].st, "%s: %s", bads[i].text, zp_errname(st));
    cr_expect_eq(err.offset, bads[i].offset, "%s", bads[i].text);
    cr_expect_str_eq(err.msg, bads[i].msg, "%s", bads[i].text);
  }
}

/* 255 octets in wire form is the most (RFC 1035 2.3.4): four labels of 63 and the root is 257,
 * three of 63 and one of 61 is 255. */
Test(name, the_255_octet_limit_counts_the_wire_form)
{
  char text[300];
  char l63[64], l61[62];
  memset(l63, 'a', 63);
  l63[63] = '\0';
  memset(l61, 'b', 61);
  l61[61] = '\0';
  snprintf(text, sizeof text, "%s.%s.%s.%s.", l63, l63, l63, l61);
  uint8_t out[ZP_NAME_MAX];
  size_t len = 0;
  zp_name_error err = {0};
  cr_expect_eq(zp_name_parse(text, strlen(text), NULL, NULL, out, &len, &err), ZP_OK, "%s",
               err.msg);
  cr_expect_eq(len, 255);
  snprintf(text, sizeof text, "%s.%s.%s.%sb.", l63, l63, l63, l61);
  cr_expect_eq(zp_name_parse(text, strlen(text), NULL, NULL, out, &len, &err),
               ZP_IDNA_NAME_TOO_LONG);
  /* with the origin (13 octets) added */
  snprintf(text, sizeof text, "%s.%s.%s.%s", l63, l63, l63, l61 + 12);
  cr_expect_eq(zp_name_parse(text, strlen(text), origin, NULL, out, &len, &err), ZP_OK, "%s",
               err.msg);
  cr_expect_eq(len, 255);
  snprintf(text, sizeof text, "%s.%s.%s.%s", l63, l63, l63, l61 + 11);
  cr_expect_eq(zp_name_parse(text, strlen(text), origin, NULL, out, &len, &err),
               ZP_IDNA_NAME_TOO_LONG);
}

/* The policy sees each label with escapes resolved and its result is what counts for 63/255. */
static zp_status upper_ace(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out,
                           size_t *outlen, char *msg, size_t msgcap, size_t *at)
{
  (void)at;
  (*(int *)ctx)++;
  if (inlen == 3 && memcmp(in, "bad", 3) == 0) {
    snprintf(msg, msgcap, "label \"bad\" refused");
    return ZP_EINVAL;
  }
  /* a label of "l" becomes 70 octets: too long only after conversion */
  size_t n = inlen == 1 && in[0] == 'l' ? 70 : inlen;
  if (n > *outlen)
    n = *outlen;
  memset(out, 'x', n);
  memcpy(out, in, inlen < n ? inlen : n);
  *outlen = inlen == 1 && in[0] == 'l' ? 70 : n;
  return ZP_OK;
}

Test(name, labels_go_through_the_policy)
{
  int calls = 0;
  zp_label_conv conv = {upper_ace, &calls, NULL, NULL};
  uint8_t out[ZP_NAME_MAX];
  size_t len = 0;
  zp_name_error err = {0};
  cr_expect_eq(zp_name_parse("a\\.b.c", 6, origin, &conv, out, &len, &err), ZP_OK);
  cr_expect_eq(calls, 2);
  cr_expect_eq(memcmp(out, "\003a.b\001c\007example\003com", len), 0);
  cr_expect_eq(zp_name_parse("ok.bad.x", 8, origin, &conv, out, &len, &err), ZP_EINVAL);
  cr_expect_eq(err.offset, 3);
  cr_expect_str_eq(err.msg, "label \"bad\" refused");
  cr_expect_eq(zp_name_parse("ok.l.", 5, origin, &conv, out, &len, &err), ZP_IDNA_TOO_LONG);
  cr_expect_eq(err.offset, 3);
}

/* RFC 4034 section 6.1, written here from the text: names compare label by label from the
 * rightmost, each label as an octet string with ASCII letters lowered, a label that is a prefix
 * of another first; a name that runs out of labels first sorts first. */
static int rfc4034_cmp(const uint8_t *a, const uint8_t *b)
{
  const uint8_t *la[128], *lb[128];
  size_t na = 0, nb = 0;
  for (const uint8_t *p = a; *p; p += *p + 1)
    la[na++] = p;
  for (const uint8_t *p = b; *p; p += *p + 1)
    lb[nb++] = p;
  while (na > 0 && nb > 0) {
    const uint8_t *x = la[--na], *y = lb[--nb];
    for (unsigned i = 1; i <= x[0] && i <= y[0]; i++) {
      unsigned cx = x[i] >= 'A' && x[i] <= 'Z' ? x[i] + 32u : x[i];
      unsigned cy = y[i] >= 'A' && y[i] <= 'Z' ? y[i] + 32u : y[i];
      if (cx != cy)
        return cx < cy ? -1 : 1;
    }
    if (x[0] != y[0])
      return x[0] < y[0] ? -1 : 1;
  }
  return (na > 0) - (nb > 0);
}

/* A random name over octets that test the key's corners: 0 and 1 (escaped in the key), letters
 * of both cases, 'A'-1 and 'Z'+1, and high octets (some with a capital's low bits). Mostly 1-4
 * labels up to 20 octets (past the eight the key looks at together), most of them plain; now
 * and then a long name of up to 255 octets, where escapes nearly double the key. */
static size_t random_name(uint64_t *seed, uint8_t *w)
{
  static const uint8_t octets[] = {0, 1, 2, 'a', 'b', 'A', 'B', 'z', 'Z', '@', '[', '-', 0xff,
                                   0xc1, 0x80};
  bool big = xorshift64star(seed) % 16 == 0;
  size_t k = 0, labels = 1 + xorshift64star(seed) % (big ? 8 : 4);
  for (size_t l = 0; l < labels; l++) {
    size_t len = 1 + xorshift64star(seed) % (big ? 63 : 20);
    if (k + 1 + len + 1 > ZP_NAME_MAX)
      break;
    /* most labels plain lower case, so that a lone special octet is what is tested */
    bool plain = xorshift64star(seed) % 2;
    w[k++] = (uint8_t)len;
    for (size_t i = 0; i < len; i++)
      w[k++] = plain && xorshift64star(seed) % 8 ? (uint8_t)('a' + xorshift64star(seed) % 26)
               : big && !plain ? 0
                               : octets[xorshift64star(seed) % sizeof octets];
  }
  w[k++] = 0;
  return k;
}

static int key_cmp(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
  int c = memcmp(a, b, na < nb ? na : nb);
  return c != 0 ? (c > 0) - (c < 0) : (na > nb) - (na < nb);
}

Test(name, sort_keys_order_names_canonically)
{
  uint64_t seed = 11;
  for (int i = 0; i < 200000; i++) {
    uint8_t a[ZP_NAME_MAX], b[ZP_NAME_MAX], ka[ZP_NAME_KEY_MAX], kb[ZP_NAME_KEY_MAX], back[ZP_NAME_MAX];
    random_name(&seed, a);
    random_name(&seed, b);
    size_t na = zp_name_sort_key(a, ka), nb = zp_name_sort_key(b, kb);
    cr_assert_eq(key_cmp(ka, na, kb, nb), rfc4034_cmp(a, b), "case %d", i);
    /* and the key gives the name back, letters lowered */
    zp_name_from_sort_key(ka, na, back);
    cr_assert_eq(rfc4034_cmp(back, a), 0, "case %d: the name back differs", i);
    cr_assert_eq(zp_name_wire_len(back), zp_name_wire_len(a));
  }
}
