/* text.c -- text from the input as the text formats write it: nothing that a terminal or a CI
 * runner reads as more than text */
#include "text.h"

#include "idna/utf8.h"

/* A file's name, a quoted line or a name in a message may hold any octet: none may move a
 * terminal's cursor, start a line a CI runner takes for a command (a line feed), or reorder
 * what is shown. */
size_t zp_text_char(const unsigned char *s, size_t n, bool *escape)
{
  unsigned char c = s[0];
  size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  uint32_t cp = c;
  size_t one = 1;
  if (len > n || (c >= 0x80 && zp_utf8_decode(s, len, &cp, &one, NULL) != ZP_OK)) {
    *escape = true;
    return 1;
  }
  *escape = (cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 ||
            cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
  return len;
}

void zp_text_write(FILE *out, const char *s, size_t n)
{
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0, len; i < n; i += len) {
    bool esc;
    len = zp_text_char(u + i, n - i, &esc);
    if (!esc)
      fwrite(u + i, 1, len, out);
    else
      for (size_t k = 0; k < len; k++)
        fprintf(out, "\\%03u", u[i + k]);
  }
}

void zp_text_json(FILE *out, const char *s, size_t n)
{
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0, len; i < n; i += len) {
    bool esc;
    len = zp_text_char(u + i, n - i, &esc);
    uint32_t cp = u[i];
    size_t one = 1;
    if (u[i] == '"' || u[i] == '\\')
      fprintf(out, "\\%c", u[i]);
    else if (!esc)
      fwrite(u + i, 1, len, out);
    else if (u[i] >= 0x80 && zp_utf8_decode(u + i, len, &cp, &one, NULL) != ZP_OK)
      fputs("\\ufffd", out);
    else   /* (a control, a separator: legal JSON raw, but not for a log read on a terminal) */
      fprintf(out, "\\u%04x", (unsigned)cp);
  }
}
