/* lsp_text.c -- where things are, as LSP says it: file: URIs (RFC 8089; RFC 3986's
 * percent-encoding) and positions (a line, and a character in UTF-16 code units or, when the
 * client offers it, bytes) */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsp_int.h"

static int hex(char c)
{
  return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

/* The path a file: URI names (its host empty or localhost), or NULL. */
char *zp_lsp_uri_path(const char *uri)
{
  const char *p;
  if (strncmp(uri, "file:///", 8) == 0)
    p = uri + 7;
  else if (strncmp(uri, "file://localhost/", 17) == 0)
    p = uri + 16;
  else
    return NULL;
  char *path = malloc(strlen(p) + 1), *o = path;
  for (; path && *p && *p != '?' && *p != '#'; p++) {
    if (*p == '%' && hex(p[1]) >= 0 && hex(p[2]) >= 0 && (hex(p[1]) | hex(p[2]))) {
      *o++ = (char)(hex(p[1]) << 4 | hex(p[2]));
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  if (path)
    *o = '\0';
  return path;
}

/* The file: URI of path (made absolute), as a JSON string. */
json_t *zp_lsp_path_uri(const char *path)
{
  char cwd[PATH_MAX] = "";
  if (path[0] != '/' && !getcwd(cwd, sizeof cwd - 1))
    cwd[0] = '\0';
  if (cwd[0] && cwd[strlen(cwd) - 1] != '/')
    strcat(cwd, "/");
  size_t n = strlen(cwd) + strlen(path);
  char *uri = malloc(3 * n + 8), *o = uri;
  if (!uri)
    return NULL;
  o += sprintf(o, "file://");
  for (int half = 0; half < 2; half++)
    for (const unsigned char *p = (const unsigned char *)(half ? path : cwd); *p; p++)
      if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          strchr("-._~/", *p))
        *o++ = (char)*p;
      else
        o += sprintf(o, "%%%02X", *p);
  *o = '\0';
  json_t *j = json_string(uri);
  free(uri);
  return j;
}

/* ---- positions ---- */

bool zp_lsp_offset(const char *text, size_t len, json_t *pos, bool utf8, size_t *off)
{
  json_t *jl = json_object_get(pos, "line"), *jc = json_object_get(pos, "character");
  if (!json_is_integer(jl) || !json_is_integer(jc) || json_integer_value(jl) < 0 ||
      json_integer_value(jc) < 0)
    return false;
  json_int_t line = json_integer_value(jl), ch = json_integer_value(jc);
  size_t i = 0;
  for (; line > 0 && i < len; i++)
    if (text[i] == '\n')
      line--;
  json_int_t units = 0;
  while (i < len && text[i] != '\n' && text[i] != '\r' && units < ch) {
    unsigned char b = (unsigned char)text[i];
    size_t n = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    units += utf8 ? (json_int_t)n : n == 4 ? 2 : 1;
    i += n;
  }
  *off = i < len ? i : len;
  return true;
}

json_t *zp_lsp_position(const char *t, size_t off, bool utf8)
{
  size_t line = 0, ls = 0;
  for (size_t i = 0; i < off; i++)
    if (t[i] == '\n')
      line++, ls = i + 1;
  size_t units = 0;
  for (size_t i = ls; i < off;) {
    unsigned char b = (unsigned char)t[i];
    size_t n = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    units += utf8 ? n : n == 4 ? 2 : 1;
    i += n;
  }
  return json_pack("{s:i,s:i}", "line", (int)line, "character", (int)units);
}

json_t *zp_lsp_range(const char *t, size_t a, size_t b, bool utf8)
{
  return json_pack("{s:o,s:o}", "start", zp_lsp_position(t, a, utf8), "end",
                   zp_lsp_position(t, b, utf8));
}
