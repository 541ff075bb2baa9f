/* test_rrtype.c -- the type and class table against ldns, the writer's oracle for the text */
#include <criterion/criterion.h>
#include <ctype.h>
#include <ldns/ldns.h>
#include <string.h>

#include "canonical.h"
#include "record/rrtype.h"
#include "xorshift.h"

/* The one type the table knows and ldns 1.8 does not, whose text zonepuny reads and writes:
 * AMTRELAY, RFC 8777 (BIND 9.18 and dnspython read it). */
enum { AMTRELAY = 260 };

/* The others the table knows and ldns 1.8 does not: the rest of BIND 9.18's types
 * (named-rrchecker -T on Debian 12's 9.18.49), by number from IANA's registry. */
static const struct { uint16_t num; const char *name; } bind_only[] = {
  {56, "NINFO"}, {57, "RKEY"}, {66, "DSYNC"}, {67, "HHIT"}, {68, "BRID"}, {100, "UINFO"},
  {101, "UID"}, {102, "GID"}, {103, "UNSPEC"}, {258, "AVC"}, {259, "DOA"}, {261, "RESINFO"},
  {262, "WALLET"}, {32768, "TA"},
};

static bool is_bind_only(unsigned t)
{
  for (size_t i = 0; i < sizeof bind_only / sizeof *bind_only; i++)
    if (bind_only[i].num == t)
      return true;
  return false;
}

static bool in_set(const uint8_t *set, uint16_t t)
{
  return set[t >> 3] & (0x80 >> (t & 7));
}

/* Their mnemonics are read, in any case, and their text where BIND reads it (UINFO, UID, GID
 * and UNSPEC it reads in RFC 3597 form only); they are written in RFC 3597 form, TYPEnnn,
 * whatever --generic says (the writer would have to write a name ldns, NSD and Knot do not
 * read), and as TYPEnnn in type lists. So are A6 and SINK, whose text ldns reads otherwise. */
Test(rrtype, bind_only_types_are_read_by_name_and_never_written_as_text)
{
  char buf[ZP_RRTYPE_TEXT_MAX], sp[3][ZP_RRTYPE_TEXT_MAX];
  uint8_t always[65536 / 8] = {0}, dflt[65536 / 8];
  zp_rrtype_generic_always(always);
  zp_rrtype_generic_default(dflt);
  for (size_t i = 0; i < sizeof bind_only / sizeof *bind_only; i++) {
    uint16_t t = bind_only[i].num;
    bool text = t < 100 || t > 103;
    cr_expect_str_eq(zp_rrtype_name(t, buf), bind_only[i].name);
    cr_expect_eq(zp_rrtype_reads_text(t), text, "%s", bind_only[i].name);
    cr_expect_eq(in_set(always, t), text, "%s", bind_only[i].name);
    snprintf(sp[2], sizeof sp[2], "TYPE%u", (unsigned)t);
    cr_expect_str_eq(zp_rrtype_list_name(t, buf), sp[2]);
    char *ldns = ldns_rr_type2str((ldns_rr_type)t);
    cr_expect_str_eq(ldns, sp[2], "ldns 1.8 knows %s now: move it out of this list",
                     bind_only[i].name);
    free(ldns);
    size_t n = strlen(bind_only[i].name);
    for (size_t k = 0; k <= n; k++) {
      sp[0][k] = bind_only[i].name[k];
      sp[1][k] = (char)tolower((unsigned char)bind_only[i].name[k]);
    }
    for (int k = 0; k < 2; k++) {
      uint16_t got = 0;
      cr_expect(zp_rrtype_from_text(sp[k], n, &got) && got == t, "%s", sp[k]);
    }
  }
  cr_expect(in_set(always, 38) && in_set(always, 40), "A6 and SINK");
  for (unsigned t = 0; t <= 0xFFFF; t++)
    cr_expect(!in_set(always, (uint16_t)t) || in_set(dflt, (uint16_t)t), "type %u", t);
}

Test(rrtype, every_type_number_has_ldns_text)
{
  char buf[ZP_RRTYPE_TEXT_MAX];
  cr_expect_str_eq(zp_rrtype_name(AMTRELAY, buf), "AMTRELAY");
  for (unsigned t = 0; t <= 0xFFFF; t++) {
    if (t == AMTRELAY || is_bind_only(t))
      continue;
    char *want = ldns_rr_type2str((ldns_rr_type)t);
    cr_assert_not_null(want);
    cr_expect_str_eq(zp_rrtype_name((uint16_t)t, buf), want, "type %u", t);
    free(want);
  }
}

Test(rrtype, every_class_number_has_ldns_text)
{
  char buf[ZP_RRTYPE_TEXT_MAX];
  for (unsigned c = 0; c <= 0xFFFF; c++) {
    char *want = ldns_rr_class2str((ldns_rr_class)c);
    cr_assert_not_null(want);
    cr_expect_str_eq(zp_rrclass_name((uint16_t)c, buf), want, "class %u", c);
    free(want);
  }
}

/* The lookup by name must agree with ldns's table for every mnemonic, in any case. */
Test(rrtype, type_and_class_mnemonics_agree_with_ldns)
{
  for (unsigned t = 1; t < 65536; t++) {
    const ldns_rr_descriptor *d = ldns_rr_descript((uint16_t)t);
    if (!d || !d->_name || strncmp(d->_name, "TYPE", 4) == 0)
      continue;
    char lower[32];
    size_t n = strlen(d->_name);
    for (size_t i = 0; i <= n; i++)
      lower[i] = (char)(d->_name[i] >= 'A' && d->_name[i] <= 'Z' ? d->_name[i] + 32 : d->_name[i]);
    uint16_t a = 0, b = 0;
    cr_expect(zp_rrtype_from_text(d->_name, n, &a), "%s", d->_name);
    cr_expect(zp_rrtype_from_text(lower, n, &b), "%s", lower);
    cr_expect_eq(a, ldns_get_rr_type_by_name(d->_name), "%s", d->_name);
    cr_expect_eq(b, a, "%s", lower);
  }
  static const char *const not_types[] = {"AA", "AAAAA", "AX", "MXX", "", "A ", "NS\x01"};
  for (size_t i = 0; i < sizeof not_types / sizeof *not_types; i++) {
    uint16_t t;
    cr_expect_not(zp_rrtype_from_text(not_types[i], strlen(not_types[i]), &t), "%s",
                  not_types[i]);
  }
  uint16_t c;
  cr_expect(zp_rrclass_from_text("in", 2, &c) && c == 1);
  cr_expect(zp_rrclass_from_text("CH", 2, &c) && c == 3);
  cr_expect(zp_rrclass_from_text("CLASS32", 7, &c) && c == 32);
  cr_expect_not(zp_rrclass_from_text("IX", 2, &c));
  cr_expect_not(zp_rrclass_from_text("I", 1, &c));
}

/* text in three spellings: as ldns writes it, lowercase, and alternating case */
static void spellings(const char *name, char out[3][ZP_RRTYPE_TEXT_MAX])
{
  size_t n = strlen(name);
  for (size_t i = 0; i <= n; i++) {
    out[0][i] = name[i];
    out[1][i] = (char)tolower((unsigned char)name[i]);
    out[2][i] = i % 2 ? out[1][i] : name[i];
  }
}

/* Every number's text reads back as that number, as ldns reads it too: mnemonics and TYPEnnn. */
Test(rrtype, every_type_text_reads_back)
{
  char buf[ZP_RRTYPE_TEXT_MAX], sp[3][ZP_RRTYPE_TEXT_MAX], generic[ZP_RRTYPE_TEXT_MAX];
  for (unsigned t = 1; t <= 0xFFFF; t++) {
    spellings(zp_rrtype_name((uint16_t)t, buf), sp);
    snprintf(generic, sizeof generic, "TYPE%u", t);
    for (int k = 0; k < 3; k++) {
      uint16_t got = 0;
      cr_assert(zp_rrtype_from_text(sp[k], strlen(sp[k]), &got), "%s", sp[k]);
      cr_expect_eq(got, t, "%s", sp[k]);
      if (t != AMTRELAY && !is_bind_only(t))
        cr_expect_eq((unsigned)ldns_get_rr_type_by_name(sp[k]), t, "ldns: %s", sp[k]);
    }
    uint16_t got = 0;
    cr_expect(zp_rrtype_from_text(generic, strlen(generic), &got) && got == t, "%s", generic);
  }
}

Test(rrtype, every_class_text_reads_back)
{
  char buf[ZP_RRTYPE_TEXT_MAX], sp[3][ZP_RRTYPE_TEXT_MAX];
  for (unsigned c = 1; c <= 0xFFFF; c++) {
    spellings(zp_rrclass_name((uint16_t)c, buf), sp);
    for (int k = 0; k < 3; k++) {
      uint16_t got = 0;
      cr_assert(zp_rrclass_from_text(sp[k], strlen(sp[k]), &got), "%s", sp[k]);
      cr_expect_eq(got, c, "%s", sp[k]);
      cr_expect_eq((unsigned)ldns_get_rr_class_by_name(sp[k]), c, "ldns: %s", sp[k]);
    }
  }
}

/* ldns reads TYPEnnn and CLASSnnn with strtol and keeps whatever number it got: trailing
 * junk, a sign, a blank and values past 65535 (which then wrap as a 16-bit type) pass. A zone
 * gets the RFC 3597 form or an error. The values ldns returns are pinned as seen. */
Test(rrtype, generic_forms_are_strict_where_ldns_is_lax)
{
  static const struct { const char *text; int ldns_type, ldns_class; } rows[] = {
    {"TYPE1x", 1, 0},        {"TYPE-1", -1, 0},    {"TYPE+1", 1, 0},
    {"TYPE 1", 1, 0},        {"TYPE65536", 65536, 0}, {"TYPE4294967297", 1, 0},
    {"TYPE1.5", 1, 0},       {"CLASS65536", 0, 65536}, {"CLASS1 ", 0, 1},
    {"CLASS0", 0, 0},        {"TYPE", 0, 0},
    {"CLASS", 0, 0},         {"", 0, 0},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    uint16_t v = 0;
    size_t len = strlen(rows[i].text);
    cr_expect_eq((int)ldns_get_rr_type_by_name(rows[i].text), rows[i].ldns_type, "%s",
                 rows[i].text);
    cr_expect_eq((int)ldns_get_rr_class_by_name(rows[i].text), rows[i].ldns_class, "%s",
                 rows[i].text);
    cr_expect_not(zp_rrtype_from_text(rows[i].text, len, &v), "type %s", rows[i].text);
    cr_expect_not(zp_rrclass_from_text(rows[i].text, len, &v), "class %s", rows[i].text);
  }
  uint16_t v = 0;
  cr_expect(zp_rrtype_from_text("TYPE00001", 9, &v) && v == 1, "leading zeros, as BIND");
  /* the reserved type 0 is read, so that a zone that holds it is told why it may not */
  cr_expect(zp_rrtype_from_text("TYPE0", 5, &v) && v == 0);
  cr_expect_eq((int)ldns_get_rr_type_by_name("TYPE0"), 0);
  cr_expect(zp_rrtype_is_meta(0) && zp_rrtype_is_meta(41) && zp_rrtype_is_meta(128) &&
            zp_rrtype_is_meta(255) && !zp_rrtype_is_meta(127) && !zp_rrtype_is_meta(256));
  cr_expect(zp_rrclass_is_meta(254) && zp_rrclass_is_meta(255) && !zp_rrclass_is_meta(1));
  cr_expect_not(zp_rrtype_from_text("A\0", 2, &v), "a NUL is not part of a mnemonic");
}

/* Random words from letters, digits and '-': where ldns knows no type or class, neither do
 * we, but for BIND's types above; where it does, we agree unless the word is a lax generic
 * form (refused above). */
Test(rrtype, random_words_agree_with_ldns)
{
  static const char alpha[] = "ACDEFHIKLMNOPQRSTVXYacnpstxy0123456789-";
  uint64_t seed = 0x7279747970650001u;
  unsigned agreed = 0;
  for (int n = 0; n < 300000; n++) {
    char w[12];
    uint64_t r = xorshift64star(&seed);
    size_t len = 1 + r % 10;
    r >>= 8;
    for (size_t i = 0; i < len; i++) {
      w[i] = alpha[r % (sizeof alpha - 1)];
      r = i % 8 == 7 ? xorshift64star(&seed) : r >> 6;
    }
    /* every fourth word is a generic form with random digits after it */
    if (n % 4 == 0 && len >= 5)
      memcpy(w, n % 8 ? "TYPE" : "type", 4);
    w[len] = '\0';
    uint16_t t = 0, c = 0;
    bool ours_t = zp_rrtype_from_text(w, len, &t), ours_c = zp_rrclass_from_text(w, len, &c);
    int lt = (int)ldns_get_rr_type_by_name(w), lc = (int)ldns_get_rr_class_by_name(w);
    bool strict_generic = strspn(w + 4, "0123456789") == len - 4;
    if (ours_t && is_bind_only(t) && strncasecmp(w, "TYPE", 4) != 0) {
      cr_expect_eq(lt, 0, "ldns 1.8 knows %s now", w);   /* (checked by name above) */
    } else if (ours_t) {
      cr_expect_eq((int)t, lt, "type %s", w);
    } else if (lt != 0) {
      cr_expect(strncasecmp(w, "TYPE", 4) == 0 && (!strict_generic || lt > 0xFFFF),
                "ldns reads %s as type %d, we refuse it", w, lt);
    }
    if (ours_c)
      cr_expect_eq((int)c, lc, "class %s", w);
    else
      cr_expect(lc == 0 || strncasecmp(w, "CLASS", 5) == 0, "ldns reads %s as class %d", w, lc);
    agreed += ours_t == (lt != 0);
  }
  cr_expect_gt(agreed, 290000u);
}

/* The table's flag against tests/canonical.h, typed from RFC 4034 section 6.2 and RFC 6840
 * section 5.1; NSEC keeps its names' case. */
Test(rrtype, canonical_lowercase_types_are_rfc_4034_less_nsec)
{
  for (unsigned t = 0; t <= 0xFFFF; t++)
    cr_expect_eq(zp_rrtype_lowercases((uint16_t)t), rfc4034_lowercases((uint16_t)t), "type %u", t);
  cr_expect_not(zp_rrtype_lowercases(47), "NSEC");
}

/* The suggestion for a word that is no type: one typing slip (an edit, or two neighbours
 * swapped) from a mnemonic, two for words of five or more; distances counted by hand. */
Test(rrtype, nearest_mnemonic_is_one_slip_away)
{
  static const struct { const char *word, *want; } cases[] = {
    {"CNMAE", "CNAME"},    /* N and M swapped: 1 */
    {"cnmae", "CNAME"},    /* case aside */
    {"AAA", "AAAA"},       /* one A missing: 1 (A itself is 2 away) */
    {"MXX", "MX"},         /* one X too many: 1 */
    {"DNSKY", "DNSKEY"},   /* E missing: 1 */
    {"NSEC33", "NSEC3"},   /* 1 */
    {"TLSAA", "TLSA"},     /* 1 */
    {"SFV", "SRV"},        /* F for R: 1 (no other three-letter type is one away) */
    {"FOO", NULL},         /* every mnemonic is 2 or more away from a three-letter word */
    {"BANANA", NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *got = zp_rrtype_nearest(cases[i].word, strlen(cases[i].word));
    if (cases[i].want)
      cr_expect(got && strcmp(got, cases[i].want) == 0, "%s: %s", cases[i].word, got ? got : "-");
    else
      cr_expect_null(got, "%s: %s", cases[i].word, got ? got : "-");
  }
  const char *in = zp_rrclass_nearest("IM", 2);
  cr_expect(in && strcmp(in, "IN") == 0);
}
