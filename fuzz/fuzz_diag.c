/* fuzz_diag.c -- libFuzzer harness: the diagnostics sink's four formats, over a file name, a
 * quoted line and a message of any octets. What each writes must stay one diagnostic's lines:
 * no octet of the input may end a line early or reach the terminal as a control (GCC's text
 * and GitHub's commands write them as \DDD, JSON and SARIF as \uXXXX). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether out[0..n) holds a C0 control other than the tab and the line feed, or DEL, or a C1
 * control in UTF-8, or more line feeds than lines. */
static bool unsafe(const char *out, size_t n, size_t lines)
{
  size_t feeds = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)out[i];
    feeds += c == '\n';
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F ||
        (c == 0xC2 && i + 1 < n && (unsigned char)out[i + 1] >= 0x80 &&
         (unsigned char)out[i + 1] <= 0x9F))
      return true;
  }
  return feeds > lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 3 || size > 4096)
    return 0;
  /* data: format, path length, line length, then path, line, message */
  unsigned format = data[0] & 3;
  size_t plen = data[1] % 64, llen = data[2], rest = size - 3;
  if (plen + llen > rest)
    return 0;
  char path[65], msg[4097];
  memcpy(path, data + 3, plen);
  path[plen] = '\0';
  const char *line = (const char *)data + 3 + plen;
  size_t mlen = rest - plen - llen;
  memcpy(msg, data + 3 + plen + llen, mlen);
  msg[mlen] = '\0';
  char *out = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&out, &n);
  if (!f)
    abort();
  zp_diag d;
  zp_diag_init(&d, f);
  d.format = (zp_diag_format)format;
  d.max_errors = 0;
  zp_source src = {.path = path, .data = line, .len = llen, .serial = zp_source_serial()};
  zp_loc loc = {.src = &src, .line = 1, .col = 1 + (data[1] >> 6)};
  zp_diag_begin(&d, NULL, 0, "fuzz");
  zp_diag_report(&d, &loc, data[0] & 4 ? ZP_ERROR : ZP_WARNING, "%s", msg);
  zp_diag_end(&d);
  fclose(f);
  /* one diagnostic: GCC's text its message, quoted line and caret; JSON and GitHub one line;
   * SARIF its log's own lines */
  size_t lines = format == ZP_FORMAT_GCC ? 3 : format == ZP_FORMAT_SARIF ? 64 : 1;
  if (unsafe(out, n, lines)) {
    fprintf(stderr, "format %u wrote more than one diagnostic's lines, or a control:\n%.*s",
            format, (int)n, out);
    abort();
  }
  free(out);
  return 0;
}
