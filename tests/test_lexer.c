/* test_lexer.c -- the reentrant scanner alone: token kinds, text, line, column and byte offset */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xorshift.h"
#include "zone.lex.h"

/* One token a line: "KIND |text| line:col @offset", where the offset is the byte of the token's
 * first character in the file (a quoted string's opening quote); CLASS and TYPE print their
 * number instead of the text; EOL and ERR (a lexical error, its message in the diagnostics)
 * print no place, since both stand for where a record ends rather than for text. */
typedef void token_fn(void *user, zp_zfile *f, int t, const ZP_YYSTYPE *v, const zp_loc *l,
                      uint64_t at);

static void put_token(void *user, zp_zfile *f, int t, const ZP_YYSTYPE *v, const zp_loc *l,
                      uint64_t at)
{
  FILE *o = user;
  static const char *const names[] = {"OWNER", "FIELD", "QSTRING", "TTLISH", "CLASS",
                                      "TYPE", "LINE", "BLANK", "EOL", "$ORIGIN", "$TTL",
                                      "$INCLUDE", "$GENERATE"};
  if (t == ZP_YYerror) {
    fputs("ERR\n", o);
    return;
  }
  cr_assert(t >= OWNER && t <= D_GENERATE, "token %d", t);
  fputs(names[t - OWNER], o);
  if (t == EOL) {
    fputc('\n', o);
    return;
  }
  if (t == CLASS || t == TYPE)
    fprintf(o, " %u", v->num);
  else if (t == OWNER || t == FIELD || t == QSTRING || t == TTLISH)
    fprintf(o, " |%.*s|", (int)v->tok.len, f->buf.p + v->tok.off);
  fprintf(o, " %u:%u @%llu\n", l->line, l->col, (unsigned long long)at);
}

/* The byte of text at a location: its line's start, then col - 1 characters. */
static uint64_t offset_of(const char *text, size_t len, const zp_loc *l)
{
  uint64_t at = l->line_off;
  for (uint32_t c = 1; c < l->col; c++)
    for (at++; at < len && ((unsigned char)text[at] & 0xC0) == 0x80; at++)
      ;
  return at;
}

/* A LINE token is the tokens the scanner would have given one by one (zp_line), handed to each
 * in the order of the text; their offsets come from their columns. */
static void each_of_line(token_fn *each, void *user, zp_zfile *f, const zp_line *ln,
                         const char *text, size_t len)
{
  ZP_YYSTYPE v;
  v.tok = ln->owner;
  each(user, f, OWNER, &v, &ln->owner_loc, offset_of(text, len, &ln->owner_loc));
  bool class_first = ln->have_class && (!ln->have_ttl || ln->class_loc.col < ln->ttl_loc.col);
  for (int k = 0; k < 2; k++) {
    if (ln->have_class && class_first == (k == 0)) {
      v.num = ln->rclass;
      each(user, f, CLASS, &v, &ln->class_loc, offset_of(text, len, &ln->class_loc));
    } else if (ln->have_ttl && class_first == (k == 1)) {
      v.tok = ln->ttl;
      each(user, f, TTLISH, &v, &ln->ttl_loc, offset_of(text, len, &ln->ttl_loc));
    }
  }
  v.num = ln->rtype;
  each(user, f, TYPE, &v, &ln->type_loc, offset_of(text, len, &ln->type_loc));
  for (size_t i = 0; i < ln->nfields; i++) {
    v.tok = ln->field[i];
    each(user, f, FIELD, &v, &ln->field_loc[i], offset_of(text, len, &ln->field_loc[i]));
  }
}

/* LINE tokens scanned so far (the random zones must give some) */
static unsigned long lines_seen;

/* Runs the scanner over len bytes of text (a file named t.zone), each token to each(user, ...);
 * the diagnostics come back in *errs (malloc'd). */
static void scan_each(const char *text, size_t len, token_fn *each, void *user, char **errs)
{
  size_t elen;
  FILE *eo = open_memstream(errs, &elen);
  cr_assert(eo);
  zp_diag diag;
  zp_diag_init(&diag, eo);
  diag.show_source = false;
  zp_zfile *f = calloc(1, sizeof *f);
  cr_assert_not_null(f);
  f->src.path = "t.zone";
  f->z = zp_zone_scan_only(&diag);
  f->in = fmemopen((void *)text, len, "r");
  cr_assert(f->z && f->in);
  cr_assert(zp_lex_open(f));
  ZP_YYSTYPE v;
  zp_loc l;
  int t;
  size_t n = 0;
  while ((t = zp_yylex(&v, &l, f->scanner)) != ZP_YYEOF) {
    if (t == LINE) {
      lines_seen++;
      each_of_line(each, user, f, v.line, text, len);
    } else {
      each(user, f, t, &v, &l, zp_lex_token_offset(f));
    }
    /* every token but EOL and ERR consumes a byte, and each of those follows one */
    cr_assert_lt(++n, 2 * len + 16, "the scanner does not stop");
  }
  zp_lex_close(f);
  fclose(f->in);
  zp_buf_free(&f->buf);
  free(f->z);
  free(f);
  fclose(eo);
}

/* The token lines as put_token writes them in *toks, the diagnostics in *errs (malloc'd). */
static void scan(const char *text, size_t len, char **toks, char **errs)
{
  size_t tlen;
  FILE *to = open_memstream(toks, &tlen);
  cr_assert(to);
  scan_each(text, len, put_token, to, errs);
  fclose(to);
}

typedef struct lcase {
  const char *name;
  const char *text;
  size_t len;          /* 0: strlen(text); the NUL cases give it */
  const char *tokens, *errors;
} lcase;

/* Offsets and columns below are counted by hand from the text: a tab or a CR is one character,
 * as is every UTF-8 sequence; offsets count bytes from 0, columns characters from 1. */
static const lcase cases[] = {
  /* a(0) \t(1) sp(2) 3600(3-6) sp sp(7,8) IN(9,10) sp(11) A(12) sp(13) 1.2.3.4(14-20) */
  {"blanks: tabs and runs of spaces separate fields", "a\t 3600  IN A 1.2.3.4\n", 0,
   "OWNER |a| 1:1 @0\nTTLISH |3600| 1:4 @3\nCLASS 1 1:10 @9\nTYPE 1 1:13 @12\n"
   "FIELD |1.2.3.4| 1:15 @14\nEOL\n", ""},
  /* łódź is 7 bytes, 4 characters: 300 at byte 8 col 6, IN 12/10, A 15/13, 1.2.3.4 17/15 */
  {"columns count characters after a UTF-8 owner",
   "\xc5\x82\xc3\xb3" "d\xc5\xba 300 IN A 1.2.3.4\n", 0,
   "OWNER |\xc5\x82\xc3\xb3" "d\xc5\xba| 1:1 @0\nTTLISH |300| 1:6 @8\nCLASS 1 1:10 @12\n"
   "TYPE 1 1:13 @15\nFIELD |1.2.3.4| 1:15 @17\nEOL\n", ""},
  /* x at byte 6, y\065z at 8 */
  {"a line's last field that goes on with an escape is one field", "a TXT x y\\065z\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:7 @6\nFIELD |y\\065z| 1:9 @8\nEOL\n", ""},
  {"two TTLs: the tokens as they come, for the parser to refuse", "a 5 5 A x\n", 0,
   "OWNER |a| 1:1 @0\nTTLISH |5| 1:3 @2\nTTLISH |5| 1:5 @4\nTYPE 1 1:7 @6\n"
   "FIELD |x| 1:9 @8\nEOL\n", ""},
  /* (the three fields after the owner are looked at as TTL, class or type) */
  {"an unknown word in the type's place", "a FOO 1.2.3.4\n", 0,
   "OWNER |a| 1:1 @0\nFIELD |FOO| 1:3 @2\nTTLISH |1.2.3.4| 1:7 @6\nEOL\n", ""},
  /* the quoted string at byte 7, after the field x (6) and no blank */
  {"a quoted string right after a line's last field", "a TXT x\"y z\"\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:7 @6\nQSTRING |y z| 1:8 @7\nEOL\n", ""},
  {"TTL and class in the other order", "a IN 5 A 1.2.3.4\n", 0,
   "OWNER |a| 1:1 @0\nCLASS 1 1:3 @2\nTTLISH |5| 1:6 @5\nTYPE 1 1:8 @7\n"
   "FIELD |1.2.3.4| 1:10 @9\nEOL\n", ""},
  /* line 2 starts at byte 19 (line 1 is 19 bytes with its newline) */
  {"comments end a line; a comment line is an empty line", "a A 1.2.3.4 ; c (\n; only\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 1 1:3 @2\nFIELD |1.2.3.4| 1:5 @4\nEOL\nEOL\n", ""},
  {"a ; inside a quoted string is text", "a TXT \"x;y\" z\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nQSTRING |x;y| 1:7 @6\nFIELD |z| 1:13 @12\nEOL\n", ""},
  /* a(0) sp TXT(2-4) sp "(6) x sp y "(10) sp "(12) q \ " z "(17) sp "(19) "(20) */
  {"quoted strings: blanks and escaped quotes inside, the empty string",
   "a TXT \"x y\" \"q\\\"z\" \"\"\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nQSTRING |x y| 1:7 @6\nQSTRING |q\\\"z| 1:13 @12\n"
   "QSTRING || 1:20 @19\nEOL\n", ""},
  /* line 2 starts at byte 11: the error stops at the line's end, the next line is a record */
  {"quoted string not closed on its line", "a TXT \"abc\nb A 1.2.3.4\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\nOWNER |b| 2:1 @11\nTYPE 1 2:3 @13\n"
   "FIELD |1.2.3.4| 2:5 @15\nEOL\n",
   "t.zone:1:7: error: quoted string not closed on this line\n"},
  {"quoted string not closed before the end of the file", "a TXT \"abc", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:7: error: quoted string not closed on this line\n"},
  {"\\DDD from 000 to 255 kept as written", "a TXT \\065\\255\\000x\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |\\065\\255\\000x| 1:7 @6\nEOL\n", ""},
  /* the field x\256 starts at col 7, its backslash is its 2nd character: col 8 */
  {"\\256 is above \\255", "a TXT x\\256\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:8: error: escape \"\\256\" is above \\255\n"},
  {"\\999 in a quoted string", "a TXT \"ab\\999\"\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:10: error: escape \"\\999\" is above \\255\n"},
  {"\\1 followed by a letter needs three digits", "a TXT \\1x\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:7: error: escape \"\\1\" needs three decimal digits (\\DDD)\n"},
  {"\\X escapes: blank, quote, semicolon, parenthesis, backslash belong to the field",
   "a\\ b TXT \\\"\\;\\(\\)\\\\\n", 0,
   "OWNER |a\\ b| 1:1 @0\nTYPE 16 1:6 @5\nFIELD |\\\"\\;\\(\\)\\\\| 1:10 @9\nEOL\n", ""},
  {"\\DDDD: an escape takes three digits, the fourth is text", "a TXT \\0650\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |\\0650| 1:7 @6\nEOL\n", ""},
  /* x at col 7, the final backslash at col 8 */
  {"backslash at the end of a line", "a TXT x\\\nb A 1.2.3.4\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:7 @6\nERR\nEOL\nOWNER |b| 2:1 @9\n"
   "TYPE 1 2:3 @11\nFIELD |1.2.3.4| 2:5 @13\nEOL\n",
   "t.zone:1:8: error: backslash at the end of a line\n"},
  /* a(0) sp SOA(2-4) sp ((6) sp ns.(8-10) sp h.(12,13) \n(14); line 2 at 15: sp sp 1(17) sp
   * 2(19) sp )(21) sp ;(23) sp c \n(26); line 3 at 27. The blanks opening line 2 are inside
   * the parentheses: not a blank owner. */
  {"parentheses join lines", "a SOA ( ns. h.\n  1 2 ) ; c\nb A 1.2.3.4\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 6 1:3 @2\nFIELD |ns.| 1:9 @8\nFIELD |h.| 1:13 @12\n"
   "FIELD |1| 2:3 @17\nFIELD |2| 2:5 @19\nEOL\nOWNER |b| 3:1 @27\nTYPE 1 3:3 @29\n"
   "FIELD |1.2.3.4| 3:5 @31\nEOL\n", ""},
  {"nested parentheses", "a TXT ((x)\n(y))\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:9 @8\nFIELD |y| 2:2 @12\nEOL\n", ""},
  {"a newline in a comment inside parentheses does not end the record",
   "a TXT ( x ; (\n y )\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:9 @8\nFIELD |y| 2:2 @15\nEOL\n", ""},
  /* the error is at the '(' (1:7), not where the file ends (line 3) */
  {"'(' not closed: the error is at the opening", "a TXT ( x\ny\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:9 @8\nFIELD |y| 2:1 @10\nERR\nEOL\n",
   "t.zone:1:7: error: '(' not closed before the end of the file\n"},
  {"the outermost '(' is the one reported", "a TXT ( x\n( y )\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:9 @8\nFIELD |y| 2:3 @12\nERR\nEOL\n",
   "t.zone:1:7: error: '(' not closed before the end of the file\n"},
  {"')' without '('", "a TXT x )\nb A 1.2.3.4\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:7 @6\nERR\nEOL\nOWNER |b| 2:1 @10\n"
   "TYPE 1 2:3 @12\nFIELD |1.2.3.4| 2:5 @14\nEOL\n",
   "t.zone:1:9: error: ')' without '('\n"},
  {"directives at the start of a line, in any case",
   "$ORIGIN ex.\n$ttl 5\n$INCLUDE f\n$GENERATE 1-2 h$ A 1.2.3.$\n", 0,
   "$ORIGIN 1:1 @0\nFIELD |ex.| 1:9 @8\nEOL\n$TTL 2:1 @12\nFIELD |5| 2:6 @17\nEOL\n"
   "$INCLUDE 3:1 @19\nFIELD |f| 3:10 @28\nEOL\n$GENERATE 4:1 @30\nFIELD |1-2| 4:11 @40\n"
   "FIELD |h$| 4:15 @44\nTYPE 1 4:18 @47\nFIELD |1.2.3.$| 4:20 @49\nEOL\n", ""},
  /* after a blank owner, "$TTL" is a field like any other (the parser rejects the line) */
  {"a directive after a blank is not a directive", " $TTL 5\n", 0,
   "BLANK 1:1 @0\nFIELD |$TTL| 1:2 @1\nTTLISH |5| 1:7 @6\nEOL\n", ""},
  {"a $ inside a record is text", "a TXT $TTL\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |$TTL| 1:7 @6\nEOL\n", ""},
  {"unknown directive", "$FOO x\nb A 1.2.3.4\n", 0,
   "ERR\nEOL\nOWNER |b| 2:1 @7\nTYPE 1 2:3 @9\nFIELD |1.2.3.4| 2:5 @11\nEOL\n",
   "t.zone:1:1: error: unknown directive \"$FOO\"\n"},
  /* line 2 starts at byte 12 */
  {"@ is an owner like any other field", "@ A 1.2.3.4\n", 0,
   "OWNER |@| 1:1 @0\nTYPE 1 1:3 @2\nFIELD |1.2.3.4| 1:5 @4\nEOL\n", ""},
  {"a leading blank is a blank owner", "a A 1.2.3.4\n\tA 1.2.3.5\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 1 1:3 @2\nFIELD |1.2.3.4| 1:5 @4\nEOL\nBLANK 2:1 @12\n"
   "TYPE 1 2:2 @13\nFIELD |1.2.3.5| 2:4 @15\nEOL\n", ""},
  {"blank owner then TTL and class", "  300 IN A 1.2.3.4\n", 0,
   "BLANK 1:1 @0\nTTLISH |300| 1:3 @2\nCLASS 1 1:7 @6\nTYPE 1 1:10 @9\n"
   "FIELD |1.2.3.4| 1:12 @11\nEOL\n", ""},
  {"a line of blanks, or of blanks and a comment, is an empty line", "  \t\n  ; c\n", 0,
   "EOL\nEOL\n", ""},
  /* m (1 byte) + U+00FC (2 bytes) + nchen: 7 characters in 8 bytes; A at byte 9, column 9 */
  {"octets >= 0x80 are name characters; columns count characters",
   "m\xc3\xbcnchen A 1.2.3.4\n", 0,
   "OWNER |m\xc3\xbcnchen| 1:1 @0\nTYPE 1 1:9 @9\nFIELD |1.2.3.4| 1:11 @11\nEOL\n", ""},
  /* U+1F600 is 4 bytes, 1 character: TXT at byte 5 col 3, x at byte 9 col 7 */
  {"a 4-byte character is one column", "\xf0\x9f\x98\x80 TXT x\n", 0,
   "OWNER |\xf0\x9f\x98\x80| 1:1 @0\nTYPE 16 1:3 @5\nFIELD |x| 1:7 @9\nEOL\n", ""},
  /* U+0101 U+4E2D (2 + 3 bytes) in a quoted string: the closing quote is byte 12, col 10;
   * z at byte 14, col 12 */
  {"columns after multi-byte characters in a quoted string",
   "a TXT \"\xc4\x81\xe4\xb8\xad\" z\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nQSTRING |\xc4\x81\xe4\xb8\xad| 1:7 @6\n"
   "FIELD |z| 1:12 @14\nEOL\n", ""},
  /* columns start again on the next line */
  {"the character count restarts at each line", "\xc3\xa9 A 1.2.3.4\nb A 1.2.3.4\n", 0,
   "OWNER |\xc3\xa9| 1:1 @0\nTYPE 1 1:3 @3\nFIELD |1.2.3.4| 1:5 @5\nEOL\nOWNER |b| 2:1 @13\n"
   "TYPE 1 2:3 @15\nFIELD |1.2.3.4| 2:5 @17\nEOL\n", ""},
  /* \r is a blank: line 2 starts at byte 13, after "a A 1.2.3.4\r\n" */
  {"CRLF line ends", "a A 1.2.3.4\r\nb A 1.2.3.4\r\n\r\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 1 1:3 @2\nFIELD |1.2.3.4| 1:5 @4\nEOL\nOWNER |b| 2:1 @13\n"
   "TYPE 1 2:3 @15\nFIELD |1.2.3.4| 2:5 @17\nEOL\nEOL\n", ""},
  {"CRLF after a quoted string and inside parentheses", "a TXT ( \"x\"\r\n y )\r\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nQSTRING |x| 1:9 @8\nFIELD |y| 2:2 @14\nEOL\n", ""},
  /* the BOM's 3 bytes are not a column but are counted in offsets */
  {"a BOM at the very start is dropped", "\xef\xbb\xbf" "a A 1.2.3.4\n", 0,
   "OWNER |a| 1:1 @3\nTYPE 1 1:3 @5\nFIELD |1.2.3.4| 1:5 @7\nEOL\n", ""},
  /* flex never sees the BOM, so the directive after it is still at the start of a line */
  {"a directive right after the BOM", "\xef\xbb\xbf$ORIGIN ex.\n", 0,
   "$ORIGIN 1:1 @3\nFIELD |ex.| 1:9 @11\nEOL\n", ""},
  {"a blank owner right after the BOM", "\xef\xbb\xbf\tA 1.2.3.4\n", 0,
   "BLANK 1:1 @3\nTYPE 1 1:2 @4\nFIELD |1.2.3.4| 1:4 @6\nEOL\n", ""},
  {"a BOM elsewhere is an ordinary character", "a TXT \xef\xbb\xbfx\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |\xef\xbb\xbfx| 1:7 @6\nEOL\n", ""},
  {"a BOM at the start of the second line is part of its owner",
   "a A 1.2.3.4\n\xef\xbb\xbf" "b A 1.2.3.4\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 1 1:3 @2\nFIELD |1.2.3.4| 1:5 @4\nEOL\n"
   "OWNER |\xef\xbb\xbf" "b| 2:1 @12\n"
   "TYPE 1 2:4 @17\nFIELD |1.2.3.4| 2:6 @19\nEOL\n", ""},
  {"an empty file has no tokens", "", 0, "", ""},
  {"a file of a BOM alone has no tokens", "\xef\xbb\xbf", 0, "", ""},
  {"no newline at the end of the file", "a A 1.2.3.4", 0,
   "OWNER |a| 1:1 @0\nTYPE 1 1:3 @2\nFIELD |1.2.3.4| 1:5 @4\nEOL\n", ""},
  /* NUL at byte 7, column 8: the field before it is complete */
  {"NUL byte after a field", "a TXT x\0y\nb A 1.2.3.4\n", 22,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:7 @6\nERR\nEOL\nOWNER |b| 2:1 @10\n"
   "TYPE 1 2:3 @12\nFIELD |1.2.3.4| 2:5 @14\nEOL\n",
   "t.zone:1:8: error: NUL byte in the zone file\n"},
  /* x at col 7, the backslash col 8, the NUL col 9 */
  {"NUL byte after a backslash", "a TXT x\\\0y\n", 11,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:7 @6\nERR\nEOL\n",
   "t.zone:1:9: error: NUL byte in the zone file\n"},
  {"NUL byte at the start of a line", "\0a A 1.2.3.4\n", 13, "ERR\nEOL\n",
   "t.zone:1:1: error: NUL byte in the zone file\n"},
  /* "a TXT \"x" is 8 bytes (a, sp, TXT, sp, quote, x); the NUL is byte 8, column 9 */
  {"NUL byte in a quoted string", "a TXT \"x\0y\"\n", 12,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:9: error: NUL byte in the zone file\n"},
  {"NUL byte in a comment", "a A 1.2.3.4 ;\0\n", 15,
   "OWNER |a| 1:1 @0\nTYPE 1 1:3 @2\nFIELD |1.2.3.4| 1:5 @4\nERR\nEOL\n",
   "t.zone:1:14: error: NUL byte in the zone file\n"},
  /* C0 AF is '/' in two bytes (overlong); it is the owner's 2nd character */
  {"overlong UTF-8 in an owner", "a\xc0\xaf A 1.2.3.4\nb A 1.2.3.4\n", 0,
   "ERR\nEOL\nOWNER |b| 2:1 @14\nTYPE 1 2:3 @16\nFIELD |1.2.3.4| 2:5 @18\nEOL\n",
   "t.zone:1:2: error: overlong UTF-8 encoding (0xC0)\n"},
  {"overlong 3-byte UTF-8 in a field", "a TXT xy\xe0\x80\x80\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:9: error: overlong UTF-8 encoding (0xE0)\n"},
  /* ED A0 80 is U+D800; after U+00E9 (2 bytes, 1 column) it is the owner's 3rd character */
  {"surrogate in UTF-8", "\xc3\xa9x\xed\xa0\x80 A 1.2.3.4\n", 0, "ERR\nEOL\n",
   "t.zone:1:3: error: UTF-8 encodes a surrogate code point (0xED)\n"},
  /* E4 B8 needs one more continuation byte before the blank */
  {"truncated UTF-8 before a blank", "a TXT ab\xe4\xb8 c\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:9: error: truncated UTF-8 sequence (0xE4)\n"},
  {"truncated UTF-8 at the end of the file", "a TXT \xc3", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:7: error: truncated UTF-8 sequence (0xC3)\n"},
  /* in the quoted string "\xc3\xa9\x80": the quote is col 7, é col 8, the stray byte col 9 */
  {"stray continuation byte in a quoted string", "a TXT \"\xc3\xa9\x80\"\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:9: error: invalid UTF-8 byte (0x80)\n"},
  {"F5 and above begin no UTF-8 sequence", "a TXT \xf5\x80\x80\x80\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:7: error: invalid UTF-8 byte (0xF5)\n"},
  /* (moved from test_parser.c: scanner errors) x at col 7, the byte after it col 8 */
  {"a control character 0x01", "a TXT x\x01\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:7 @6\nERR\nEOL\n",
   "t.zone:1:8: error: control character 0x01; write it as \\001\n"},
  {"0xFF after a 2-byte character in a quoted string", "a TXT \"\xc3\xa9\xff\"\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:9: error: invalid UTF-8 byte (0xFF)\n"},
  {"\\12 needs three digits", "a TXT x\\12\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:8: error: escape \"\\12\" needs three decimal digits (\\DDD)\n"},
  {"a control character outside quotes", "a TXT x\x7f\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x| 1:7 @6\nERR\nEOL\n",
   "t.zone:1:8: error: control character 0x7F; write it as \\127\n"},
  /* the quote is col 7, x col 8, the control character col 9 */
  {"a control character in a quoted string, at its byte", "a TXT \"x\x01y\"\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:9: error: control character 0x01; write it as \\001\n"},
  /* the quoted string is skipped whole with its error: its closing quote opens nothing, the ')'
   * closes the '(' and line 2 (at byte 16) is a record; the bad byte is byte 10, col 11 */
  {"a control character in a quoted string inside parentheses",
   "a TXT ( \"x\x01y\" )\nb A 1.2.3.4\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\nOWNER |b| 2:1 @16\nTYPE 1 2:3 @18\n"
   "FIELD |1.2.3.4| 2:5 @20\nEOL\n",
   "t.zone:1:11: error: control character 0x01; write it as \\001\n"},
  {"a NUL in a quoted string inside parentheses", "a TXT ( \"x\0y\" )\nb A 1.2.3.4\n", 28,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\nOWNER |b| 2:1 @16\nTYPE 1 2:3 @18\n"
   "FIELD |1.2.3.4| 2:5 @20\nEOL\n",
   "t.zone:1:11: error: NUL byte in the zone file\n"},
  {"0x7F after a 2-byte character in a quoted string", "a TXT \"\xc3\xa9\x7f\"\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:9: error: control character 0x7F; write it as \\127\n"},
  {"a tab in a quoted string is text", "a TXT \"x\ty\"\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nQSTRING |x\ty| 1:7 @6\nEOL\n", ""},
  {"an escaped control character is an escape", "a TXT x\\\x01 \"\\\x1f\"\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |x\\\x01| 1:7 @6\nQSTRING |\\\x1f| 1:11 @10\nEOL\n",
   ""},
  /* quote col 7, x col 8, backslash col 9, NUL col 10 */
  {"a NUL after a backslash in a quoted string", "a TXT \"x\\\0\"\n", 12,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:10: error: NUL byte in the zone file\n"},
  /* after the error, the quoted string "<NUL>(" is skipped whole: its '(' opens nothing, so
   * line 2 (at byte 18) is a record of its own */
  {"a skipped quoted string hides its parenthesis, whatever it holds",
   "a TXT \\300 \"\0(\" )\nb A 1.2.3.4\n", 30,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\nOWNER |b| 2:1 @18\nTYPE 1 2:3 @20\n"
   "FIELD |1.2.3.4| 2:5 @22\nEOL\n",
   "t.zone:1:7: error: escape \"\\300\" is above \\255\n"},
  {"a Latin-1 comment is skipped unchecked", "a A 1.2.3.4 ; caf\xe9 \x01\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 1 1:3 @2\nFIELD |1.2.3.4| 1:5 @4\nEOL\n", ""},
  /* a lone CR ends a line, as in BIND, but inside parentheses (a blank there); lines are
   * counted by LF: b is at byte 12 of line 1, c at byte 25, the start of line 2 */
  {"a lone CR ends a line, but inside parentheses",
   "a A 1.2.3.4\rb A 1.2.3.4\r\nc TXT ( x\ry )\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 1 1:3 @2\nFIELD |1.2.3.4| 1:5 @4\nEOL\nOWNER |b| 1:13 @12\n"
   "TYPE 1 1:15 @14\nFIELD |1.2.3.4| 1:17 @16\nEOL\nOWNER |c| 2:1 @25\nTYPE 16 2:3 @27\n"
   "FIELD |x| 2:9 @33\nFIELD |y| 2:11 @35\nEOL\n", ""},
  {"only one error per line: the rest of the line is skipped", "a TXT \\300 \x01 )\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nERR\nEOL\n",
   "t.zone:1:7: error: escape \"\\300\" is above \\255\n"},
  {"TYPEnnn and CLASSnnn", "a CLASS3 TYPE65280 x\n", 0,
   "OWNER |a| 1:1 @0\nCLASS 3 1:3 @2\nTYPE 65280 1:10 @9\nFIELD |x| 1:20 @19\nEOL\n", ""},
  {"RFC 3597 generic RDATA is fields", "a TYPE1 \\# 4 01020304\n", 0,
   "OWNER |a| 1:1 @0\nTYPE 1 1:3 @2\nFIELD |\\#| 1:9 @8\nFIELD |4| 1:12 @11\n"
   "FIELD |01020304| 1:14 @13\nEOL\n", ""},
};

Test(lexer, token_streams)
{
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const lcase *c = &cases[i];
    char *toks, *errs;
    scan(c->text, c->len ? c->len : strlen(c->text), &toks, &errs);
    cr_expect_str_eq(toks, c->tokens, "%s: tokens\n%s", c->name, toks);
    cr_expect_str_eq(errs, c->errors, "%s: errors\n%s", c->name, errs);
    free(toks);
    free(errs);
  }
}

/* A line of more fields than one token holds (ZP_LINE_FIELDS): every field, in order. In
 * "a TXT x x ...", the k-th x (from 0) is at byte 6 + 2k, column 7 + 2k. */
Test(lexer, many_fields_on_one_line)
{
  enum { N = 3 * ZP_LINE_FIELDS + 5 };
  char text[16 + 2 * N], want[64 * (N + 4)];
  int t = sprintf(text, "a TXT"), w = sprintf(want, "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\n");
  for (int k = 0; k < N; k++) {
    t += sprintf(text + t, " x");
    w += sprintf(want + w, "FIELD |x| 1:%d @%d\n", 7 + 2 * k, 6 + 2 * k);
  }
  sprintf(text + t, "\n");
  sprintf(want + w, "EOL\n");
  char *toks, *errs;
  scan(text, strlen(text), &toks, &errs);
  cr_expect_str_eq(toks, want);
  cr_expect_str_eq(errs, "");
  free(toks);
  free(errs);
}

/* A line longer than ZP_LINE_MAX (786432 bytes) is cut there: the scanner sees its first
 * 786432 bytes, reports the line at its end, and the bytes dropped still count in later offsets.
 * Line 1 is "a TXT " (6 bytes) and 900000 x's: the field keeps 786432 - 6 = 786426 of them; its
 * newline is byte 900006, so line 2 starts at byte 900007. */
Test(lexer, long_line_cut_and_offsets_after_it)
{
  enum { XS = 900000, KEPT = 786432 - 6 };
  char *text = malloc(XS + 32), *want = malloc(KEPT + 256);
  cr_assert(text && want);
  memcpy(text, "a TXT ", 6);
  memset(text + 6, 'x', XS);
  strcpy(text + 6 + XS, "\nb A 1.2.3.4\n");
  int n = sprintf(want, "OWNER |a| 1:1 @0\nTYPE 16 1:3 @2\nFIELD |");
  memset(want + n, 'x', KEPT);
  strcpy(want + n + KEPT, "| 1:7 @6\nERR\nEOL\nOWNER |b| 2:1 @900007\nTYPE 1 2:3 @900009\n"
                          "FIELD |1.2.3.4| 2:5 @900011\nEOL\n");
  char *toks, *errs;
  scan(text, strlen(text), &toks, &errs);
  cr_expect_str_eq(toks, want);
  cr_expect_str_eq(errs, "t.zone:1:1: error: line longer than 786432 bytes\n");
  free(toks);
  free(errs);
  free(text);
  free(want);
}

/* Random valid zones: every token's offset must point at its own text in the input, its line
 * must be 1 + the newlines before that offset, and its column 1 + the characters (bytes that
 * are not UTF-8 continuation bytes) between the line's start and it; no errors. This checks
 * the scanner's bookkeeping against the input itself over shapes no table lists. */
typedef struct check {
  const char *text;
  size_t len, bom, tokens;
} check;

static void check_token(void *user, zp_zfile *f, int t, const ZP_YYSTYPE *v, const zp_loc *l,
                        uint64_t at)
{
  check *c = user;
  if (t == EOL || t == ZP_YYerror)   /* an error shows in the diagnostics */
    return;
  c->tokens++;
  cr_assert_lt(at, c->len);
  uint32_t line = 1, col = 1;
  size_t start = c->bom;
  for (size_t i = 0; i < at; i++) {
    if (c->text[i] == '\n') {
      line++;
      start = i + 1;
    }
  }
  for (size_t i = start; i < at; i++)
    col += ((unsigned char)c->text[i] & 0xC0) != 0x80;
  cr_assert_eq(l->line, line, "token at byte %llu", (unsigned long long)at);
  cr_assert_eq(l->col, col, "token at byte %llu", (unsigned long long)at);
  cr_assert_eq(l->line_off, start);
  if (t == OWNER || t == FIELD || t == TTLISH) {
    cr_assert_lt(at + v->tok.len, c->len + 1);
    cr_assert(memcmp(c->text + at, f->buf.p + v->tok.off, v->tok.len) == 0);
    /* and the whole field: what follows it ends a field */
    cr_assert(at + v->tok.len == c->len || strchr(" \t\r\n();\"", c->text[at + v->tok.len]),
              "field at byte %llu", (unsigned long long)at);
  } else if (t == QSTRING) {
    cr_assert_eq(c->text[at], '"');
    cr_assert(memcmp(c->text + at + 1, f->buf.p + v->tok.off, v->tok.len) == 0);
    cr_assert_eq(c->text[at + 1 + v->tok.len], '"');
  } else if (t == BLANK) {
    cr_assert(at == start && (c->text[at] == ' ' || c->text[at] == '\t' || c->text[at] == '\r'));
  } else if (t >= D_ORIGIN && t <= D_GENERATE) {
    cr_assert(at == start && c->text[at] == '$');
  }
  if (t == OWNER || (t >= D_ORIGIN && t <= D_GENERATE))
    cr_assert_eq(at, start, "only the first field of a line is an owner or a directive");
}

static uint64_t rnd_state = 0x9E3779B97F4A7C15u;

static unsigned rnd(unsigned n)
{
  return (unsigned)(xorshift64star(&rnd_state) >> 33) % n;
}

#define PICK(a) ((a)[rnd(sizeof(a) / sizeof *(a))])

/* A random zone in buf (at most 12 lines, well under 64 KiB), valid for the scanner; *bom is 3
 * when it starts with a BOM, else 0. A plain zone has no escape, comment or directive, so that
 * any byte added between two characters of it stands alone (see bad_byte_located). */
static size_t gen_zone(char *buf, bool plain, size_t *bom)
{
  static const char *const fields[] = {
    "a", "ab\\.c", "x\\065y", "\xc3\xa9t\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80z", "3600",
    "IN", "A", "TXT", "\\ ", "@", "1.2.3.4", "\\\xc3\xa9", "1h30m", "TYPE65", "\\\\", "\\(\\)",
    "\"x y\"", "\"\"", "\"\xc3\xa9 ; ( )\"", "\"a\\\"b\"", "\"\\\xe4\xb8\xad\\255\""};
  static const char *const plain_fields[] = {
    "a", "ab.c", "\xc3\xa9t\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80z", "3600", "IN", "A",
    "@", "1.2.3.4", "\"x y\"", "\"\"", "\"\xc3\xa9 ; ( )\"", "\"\xe4\xb8\xad\tq\""};
  static const char *const blanks[] = {" ", "\t", "  \t", " \t "};
  static const char *const comments[] = {"", "", "", ";", "; c\xc3\xa9 ( \"", ";\xff\xfe"};
  static const char *const directives[] = {"$ORIGIN ex.", "$TTL 5", "$include f",
                                           "$GENERATE 1-2 h$ A 1.2.3.$"};
#define PUT(str) do { const char *s_ = (str); size_t k_ = strlen(s_); \
                         memcpy(buf + n, s_, k_); n += k_; } while (0)
#define FIELD() (plain ? PICK(plain_fields) : PICK(fields))
  size_t n = 0;
  *bom = 0;
  if (rnd(4) == 0) {
    PUT("\xef\xbb\xbf");
    *bom = 3;
  }
  for (unsigned lines = rnd(12); lines > 0; lines--) {
    if (!plain && rnd(8) == 0) {
      PUT(PICK(directives));
    } else if (rnd(8) > 0) {
      /* a quoted first field is the parser's error (an owner cannot be quoted); to the
       * scanner it is a quoted string like any other */
      PUT(rnd(4) == 0 ? PICK(blanks) : FIELD());
      int paren = 0;
      for (unsigned k = rnd(6); k > 0; k--) {
        PUT(PICK(blanks));
        if (paren == 0 && rnd(6) == 0) {
          PUT("(");
          paren = 1;
        } else if (paren == 1 && rnd(4) == 0) {
          PUT(plain ? "" : PICK(comments));
          PUT(rnd(2) ? "\n" : "\r\n");
          PUT(rnd(2) ? "" : PICK(blanks));
        }
        PUT(FIELD());
      }
      if (paren)
        PUT(" )");
    }
    if (!plain && rnd(3) == 0) {
      PUT(PICK(blanks));
      PUT(PICK(comments));
    }
    PUT(rnd(3) ? "\n" : "\r\n");
  }
#undef FIELD
#undef PUT
  return n;
}

Test(lexer, random_zones_tokens_point_at_their_text)
{
  char *buf = malloc(1 << 16);
  cr_assert_not_null(buf);
  size_t total = 0;
  for (int doc = 0; doc < 20000; doc++) {
    check c = {buf, 0, 0, 0};
    c.len = gen_zone(buf, false, &c.bom);
    char *errs;
    scan_each(buf, c.len, check_token, &c, &errs);
    cr_assert_str_eq(errs, "", "document %d:\n%.*s\n%s", doc, (int)c.len, buf, errs);
    free(errs);
    total += c.tokens;
  }
  cr_assert_gt(total, 100000);
  cr_assert_gt(lines_seen, 2000, "records scanned as one line: %lu", lines_seen);
  free(buf);
}

static void ignore_token(void *user, zp_zfile *f, int t, const ZP_YYSTYPE *v, const zp_loc *l,
                         uint64_t at)
{
  (void)user, (void)f, (void)t, (void)v, (void)l, (void)at;
}

/* One bad byte put between two characters of a random plain zone, anywhere but in the BOM:
 * exactly one error, at that byte's line and character column. */
Test(lexer, random_bad_byte_located)
{
  static const struct { char byte; const char *msg; } bad[] = {
    {'\0', "NUL byte in the zone file"},
    {'\x01', "control character 0x01; write it as \\001"},
    {'\x7f', "control character 0x7F; write it as \\127"},
    {'\xff', "invalid UTF-8 byte (0xFF)"},
    {'\xbf', "invalid UTF-8 byte (0xBF)"},
  };
  char *buf = malloc(1 << 16);
  cr_assert_not_null(buf);
  int tried = 0;
  for (int doc = 0; doc < 20000; doc++) {
    size_t bom, n = gen_zone(buf, true, &bom);
    if (n == bom)
      continue;
    size_t at = bom + rnd((unsigned)(n - bom));
    while (((unsigned char)buf[at] & 0xC0) == 0x80)   /* a character boundary */
      at--;
    unsigned k = rnd(sizeof bad / sizeof *bad);
    memmove(buf + at + 1, buf + at, n - at);
    buf[at] = bad[k].byte;
    n++;
    uint32_t line = 1, col = 1;
    for (size_t i = bom; i < at; i++) {
      if (buf[i] == '\n') {
        line++;
        col = 1;
      } else {
        col += ((unsigned char)buf[i] & 0xC0) != 0x80;
      }
    }
    char want[128], *errs;
    snprintf(want, sizeof want, "t.zone:%u:%u: error: %s\n", line, col, bad[k].msg);
    scan_each(buf, n, ignore_token, NULL, &errs);
    cr_assert_str_eq(errs, want, "document %d, byte %zu: %s\n%.*s", doc, at, errs, (int)n, buf);
    free(errs);
    tried++;
  }
  cr_assert_gt(tried, 10000);
  free(buf);
}
