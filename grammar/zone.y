/* zone.y -- pure bison grammar of master-file lines (RFC 1035 section 5): records, directives */
%define api.pure full
%define api.prefix {zp_yy}
%define api.location.type {zp_loc}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {yyscan_t scanner}
%parse-param {zp_zfile *f}

%code requires {
#include "read/zone_int.h"
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif
}

%code provides {
int zp_yylex(ZP_YYSTYPE *lval, ZP_YYLTYPE *lloc, yyscan_t scanner);
}

%code {
#include <stdio.h>
#include <string.h>

/* A nonterminal is located where its first token is; an empty one where the previous ends. */
#define YYLLOC_DEFAULT(cur, rhs, n) ((cur) = (n) ? YYRHSLOC(rhs, 1) : YYRHSLOC(rhs, 0))

/* An action that refuses its record makes the scanner skip the rest of it, as after a syntax
 * error, so that one mistake is one message (a record past the field limit would otherwise also
 * be reported when it grows past the byte limit). Each such action ends a rule whose last symbol
 * is a token and is reduced by default, so no lookahead is pending: the skip starts right after
 * the refused token and never takes the next record (test_zone, "an error at the end of a line
 * spares the next record"). */
#define REFUSE()                                                                                  \
  do {                                                                                            \
    zp_lex_skip(f);                                                                               \
    YYERROR;                                                                                      \
  } while (0)

static void zp_yyerror(const zp_loc *loc, yyscan_t scanner, zp_zfile *f, const char *msg)
{
  (void)scanner;
  zp_zone_syntax(f, loc, msg);
}
}

%union {
  zp_tok tok;
  uint16_t num;
  const zp_line *line;
}

%token <tok> OWNER "owner" FIELD "field" QSTRING "quoted string" TTLISH "TTL"
%token <num> CLASS "class" TYPE "type"
%token <line> LINE "record line"
%token BLANK "blank owner" EOL "end of line"
%token D_ORIGIN "$ORIGIN" D_TTL "$TTL" D_INCLUDE "$INCLUDE" D_GENERATE "$GENERATE"
%nterm <tok> word
%nterm <num> tail

%%

zone: %empty
    | zone line
    ;

line: EOL                 { if (!zp_zone_line_end(f)) YYACCEPT; }
    | record EOL          { zp_zone_record_end(f); if (!zp_zone_line_end(f)) YYACCEPT; }
    | unknown EOL         { if (!zp_zone_line_end(f)) YYACCEPT; }
    | owner meta EOL      { zp_zone_no_type(f, &@1); if (!zp_zone_line_end(f)) YYACCEPT; }
    | directive           { if (!zp_zone_line_end(f)) YYACCEPT; }
    | error EOL           { yyerrok; if (!zp_zone_line_end(f)) YYACCEPT; }
    | QSTRING error EOL   { yyerrok;
                            zp_zone_directive_usage(f, "an owner name cannot be quoted", &@1);
                            if (!zp_zone_line_end(f)) YYACCEPT; }
    ;

/* RDATA fields hang directly off the record, not off a nonterminal of their own: each record
 * costs the parser as few reductions as the grammar allows (the front end's speed is mostly
 * here and in the scanner). Most records come as one LINE (zp_line): the same tokens as the
 * first alternative's and its fields, read by the scanner in one match. */
record: owner meta TYPE   { if (!zp_zone_type(f, $3, &@3)) REFUSE(); }
      | LINE              { if (!zp_zone_line(f, $1)) REFUSE(); }
      | record FIELD      { if (!zp_zone_field(f, &$2, &@2)) REFUSE(); }
      | record QSTRING    { if (!zp_zone_field(f, &$2, &@2)) REFUSE(); }
      ;

unknown: owner meta FIELD tail { if ($4)
                                   zp_zone_unknown_class(f, &$3, &@3);
                                 else
                                   zp_zone_unknown_type(f, &$3, &@3); }
       ;

/* After a word that is neither TTL, class nor type: a type next means it was meant as a class. */
tail: %empty              { $$ = 0; }
    | TYPE junk           { $$ = 1; }
    | notype junk         { $$ = 0; }
    ;

notype: FIELD | QSTRING | TTLISH | CLASS ;

junk: %empty
    | junk notype
    | junk TYPE
      ;

owner: OWNER              { if (!zp_zone_owner(f, &$1, &@1)) REFUSE(); }
     | BLANK              { if (!zp_zone_blank(f, &@1)) REFUSE(); }
     ;

/* TTL and class, each optional, in either order (RFC 1035 section 5.1) */
meta: %empty
    | ttl
    | CLASS               { zp_zone_class(f, $1, &@1); }
    | ttl CLASS           { zp_zone_class(f, $2, &@2); }
    | CLASS ttl           { zp_zone_class(f, $1, &@1); }
    ;

ttl: TTLISH               { if (!zp_zone_ttl(f, &$1, &@1)) REFUSE(); } ;

word: FIELD | QSTRING ;

/* A directive's action runs once its end of line is read: arguments past the expected ones are
 * a syntax error, and the directive does nothing. */
directive: D_ORIGIN word EOL        { zp_zone_origin(f, &$2, &@2); }
         | D_TTL word EOL           { zp_zone_set_ttl(f, &$2, &@2); }
         | D_INCLUDE word EOL       { zp_zone_include(f, &$2, &@2, NULL, NULL, &@1); }
         | D_INCLUDE word word EOL  { zp_zone_include(f, &$2, &@2, &$3, &@3, &@1); }
         /* named's grammar: range, owner, TTL and class as in a record, type, and ONE token
          * of RDATA text (quotes group it); range and owner cannot be quoted */
         | D_GENERATE FIELD FIELD   { if (!zp_zone_generate(f, &$2, &@2, &$3, &@3, &@1)) REFUSE(); }
           meta TYPE                { if (!zp_zone_type(f, $6, &@6)) REFUSE(); }
           word EOL                 { zp_zone_generate_end(f, &$8, &@8); }
         | D_ORIGIN error EOL       { yyerrok;
                                      zp_zone_directive_usage(f, "$ORIGIN takes one absolute name",
                                                              &@1); }
         | D_TTL error EOL          { yyerrok; zp_zone_directive_usage(f, "$TTL takes one TTL", &@1); }
         | D_INCLUDE error EOL      { yyerrok;
                                      zp_zone_directive_usage(f, "$INCLUDE takes a file name and "
                                                              "an optional origin", &@1); }
         | D_GENERATE error EOL     { yyerrok;
                                      zp_zone_directive_usage(f, "$GENERATE takes a range, an "
                                                              "owner, an optional TTL and class, a "
                                                              "type and one token of RDATA "
                                                              "(quote it when it has blanks)", &@1); }
         ;

%%

/* "unexpected X, expecting Y or Z", and the scanner skips the rest of the record so that one
 * mistake is one message. */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, zp_zfile *f)
{
  (void)scanner;
  if (zp_lex_cut_line(f)) {
    zp_lex_skip(f);
    return 0;
  }
  char msg[256];
  int n = 0;
  yysymbol_kind_t tok = yypcontext_token(ctx);
  n = snprintf(msg, sizeof msg, "unexpected %s", yysymbol_name(tok));
  yysymbol_kind_t exp[5];
  int nexp = yypcontext_expected_tokens(ctx, exp, 5);
  for (int i = 0; i < nexp && n > 0 && (size_t)n < sizeof msg; i++)
    n += snprintf(msg + n, sizeof msg - (size_t)n, "%s%s", i == 0 ? ", expecting " : " or ",
                  yysymbol_name(exp[i]));
  zp_yyerror(yypcontext_location(ctx), scanner, f, msg);
  if (tok != YYSYMBOL_EOL && tok != YYSYMBOL_YYEOF)
    zp_lex_skip(f);
  return 0;
}

int zp_parse(zp_zfile *f)
{
  return zp_yyparse(f->scanner, f);
}
