/* lsp_hover.c -- what the language server says of the word under the pointer: a name's ACE and
 * Unicode forms under both IDNA standards, a TTL's seconds, a type's code */
#define _GNU_SOURCE   /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/text.h"
#include "idna/idna.h"
#include "idna/idna2008.h"
#include "label/diverge.h"
#include "label/explain.h"
#include "lsp_int.h"
#include "lsp_rpc.h"
#include "read/zone.h"
#include "record/rrtype.h"

/* The field around off in its line, [*a, *b): NULL-free bounds, or false inside a comment or
 * a quoted string, or on a blank. *index: the fields before it on its line. */
static bool field_at(const char *t, size_t len, size_t off, size_t *a, size_t *b, int *index)
{
  size_t ls = off;
  while (ls > 0 && t[ls - 1] != '\n')
    ls--;
  bool quoted = false, in_field = false;
  int fields = 0;
  size_t start = ls;
  for (size_t i = ls; i < len && t[i] != '\n'; i++) {
    char c = t[i];
    bool sep = !quoted && (c == ' ' || c == '\t' || c == '\r' || c == '(' || c == ')');
    if (i >= off && (sep || (!quoted && c == ';') || c == '"'))
      break;
    if (c == '\\' && i + 1 < len) {
      if (!in_field)
        start = i, in_field = true;
      i++;
      continue;
    }
    if (!quoted && c == ';')
      return false;
    if (c == '"')
      quoted = !quoted;
    if (sep || c == '"') {
      fields += in_field;
      in_field = false;
    } else if (!in_field) {
      start = i;
      in_field = true;
    }
  }
  if (quoted || !in_field || off < start)
    return false;
  size_t e = off;
  while (e < len && !strchr(" \t\r\n();\"", t[e]))
    e += 1 + (t[e] == '\\' && e + 1 < len);
  *a = start;
  *b = e;
  *index = fields;
  return true;
}

static bool has_ace(const char *s, size_t n)
{
  for (size_t i = 0; i + 4 <= n; i++)
    if ((i == 0 || s[i - 1] == '.') && strncasecmp(s + i, "xn--", 4) == 0)
      return true;
  return false;
}

/* One standard's ToASCII of the name, or its refusal, as a line of Markdown. */
static void to_ascii(FILE *m, const char *s, size_t n, bool y2008, unsigned flags)
{
  char out[1024];
  size_t len = sizeof out - 1;
  zp_idna_detail det;
  memset(&det, 0, sizeof det);
  det.label_len = n;
  zp_status st = (y2008 ? zp_idna2008_name_to_ascii : zp_idna_name_to_ascii)(s, n, out, &len,
                                                                              flags, &det);
  fprintf(m, "%s: ", y2008 ? "IDNA2008 (RFC 5891, UTS #46 mapping)" : "IDNA2003 (RFC 3490)");
  if (st == ZP_OK) {
    fputc('`', m);
    fwrite(out, 1, len, m);
    fputs("`  \n", m);
    return;
  }
  char msg[2048];
  zp_explain_label(st, (const uint8_t *)s + det.offset, det.label_len, &det,
                   flags | (y2008 ? ZP_IDNA_2008 : 0), msg, sizeof msg);
  fprintf(m, "refused: %s  \n", msg);
}

static void name_hover(FILE *m, const zp_cli *cli, const char *s, size_t n)
{
  unsigned flags = ZP_IDNA_STD3_NON_ASCII | ZP_IDNA_CHECK_ACE | (cli->std3 ? ZP_IDNA_USE_STD3 : 0);
  fputs("**", m);
  zp_text_write(m, s, n);
  fputs("**\n\n", m);
  bool y2008 = cli->idna == 2008;
  to_ascii(m, s, n, y2008, flags);
  to_ascii(m, s, n, !y2008, flags);
  if (has_ace(s, n)) {
    char out[2048];
    size_t len = sizeof out - 1;
    if ((y2008 ? zp_idna2008_name_to_unicode : zp_idna_name_to_unicode)(s, n, out, &len, flags) ==
        ZP_OK) {
      fputs("Unicode: `", m);
      zp_text_write(m, out, len);
      fputs("`  \n", m);
    }
  }
  /* each label the two standards convert apart, and why */
  size_t seplen;
  for (size_t start = 0, end; start < n; start = end + seplen) {
    end = zp_idna_label_end(s, n, start, &seplen);
    zp_idna_both b;
    zp_divergence d = zp_idna_diverge((const uint8_t *)s + start, end - start, flags, y2008, &b);
    if (d == ZP_DIV_NONE)
      continue;
    char msg[2048];
    zp_divergence_explain(d, &b, (const uint8_t *)s + start, end - start, flags, msg, sizeof msg);
    fprintf(m, "\n%s\n", msg);
  }
}

json_t *zp_lsp_hover(const zp_cli *cli, const zp_lsp_doc *doc, size_t off)
{
  size_t a, b;
  int index;
  if (!doc->text || !field_at(doc->text, doc->len, off, &a, &b, &index))
    return NULL;
  const char *s = doc->text + a;
  size_t n = b - a;
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (!m)
    return NULL;
  uint32_t ttl;
  uint16_t type;
  bool ascii = true;
  for (size_t i = 0; i < n; i++)
    ascii &= (unsigned char)s[i] < 0x80;
  bool after_ttl = index == 1 && a >= 5 && strncasecmp(doc->text + a - 5, "$TTL", 4) == 0;
  bool unit = false;
  for (size_t i = 0; i < n; i++)
    unit |= strchr("smhdwSMHDW", s[i]) != NULL;
  if (ascii && zp_ttl_parse(s, n, &ttl) && (unit || after_ttl || index > 0)) {
    fprintf(m, "**%u** seconds", ttl);
    static const struct { uint32_t secs; const char *unit; } units[] = {
        {604800, "week"}, {86400, "day"}, {3600, "hour"}, {60, "minute"}, {1, "second"}};
    const char *sep = " = ";
    for (size_t i = 0; i < 5 && ttl; i++)
      if (ttl >= units[i].secs) {
        uint32_t k = ttl / units[i].secs;
        fprintf(m, "%s%u %s%s", sep, k, units[i].unit, k == 1 ? "" : "s");
        ttl %= units[i].secs;
        sep = " ";
      }
  } else if (ascii && index > 0 && zp_rrtype_from_text(s, n, &type)) {
    char name[ZP_RRTYPE_TEXT_MAX];
    const char *spec = zp_rrtype_spec(type);
    fprintf(m, "**%s**: RR type %u%s%s", zp_rrtype_name(type, name), type, spec ? ", " : "",
            spec ? spec : "");
  } else if (!ascii || has_ace(s, n)) {
    name_hover(m, cli, s, n);
  }
  json_t *r = NULL;
  if (fclose(m) == 0 && len > 0) {
    json_t *v = json_stringn(buf, len);
    if (!v)   /* (a message quoting an octet that is no UTF-8) */
      v = zp_lsp_string(buf, len);
    r = v ? json_pack("{s:s,s:o}", "kind", "markdown", "value", v) : NULL;
  }
  free(buf);
  return r;
}
