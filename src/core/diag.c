/* diag.c -- the one diagnostics sink */
#include "diag.h"

#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "idna/utf8.h"

enum { QUOTE_MAX = 160 };

void zp_diag_init(zp_diag *d, FILE *out)
{
  memset(d, 0, sizeof *d);
  d->out = out;
  d->max_errors = 50;
  d->show_source = true;
}

zp_loc zp_loc_at(const zp_loc *tok, bool quoted, const char *text, size_t len, size_t off)
{
  zp_loc loc = *tok;
  loc.col += (uint32_t)(quoted + zp_utf8_chars(text, off < len ? off : len));
  return loc;
}

int zp_source_keep(const zp_source *src)
{
  return src->fd ? fcntl(*src->fd, F_DUPFD_CLOEXEC, 3) : -1;
}

void zp_source_release(int fd)
{
  if (fd >= 0)
    close(fd);
}

/* The start of the line at loc into buf: n bytes, or n <= 0 when it cannot be read. */
static ssize_t read_line(zp_diag *d, const zp_source *src, uint64_t off, char *buf, size_t cap)
{
  if (src->data) {
    if (off >= src->len)
      return 0;
    size_t n = src->len - off < cap ? src->len - off : cap;
    memcpy(buf, src->data + off, n);
    return (ssize_t)n;
  }
  if (src->fd) {
    uint64_t end = d->quote_off + d->quote_len;
    /* (a block shorter than the buffer ends at the end of the file) */
    if (d->quote_src != src || d->quote_serial != src->serial || off < d->quote_off ||
        off >= end || (off + cap > end && d->quote_len == sizeof d->quote_block)) {
      ssize_t got = pread(*src->fd, d->quote_block, sizeof d->quote_block, (off_t)off);
      if (got <= 0)
        return got;
      d->quote_src = src;
      d->quote_serial = src->serial;
      d->quote_off = off;
      d->quote_len = (size_t)got;
      end = off + (uint64_t)got;
    }
    size_t n = end - off < cap ? (size_t)(end - off) : cap;
    memcpy(buf, d->quote_block + (off - d->quote_off), n);
    return (ssize_t)n;
  }
  return 0;
}

/* The offending line is re-read at its recorded offset from the descriptor the file was read
 * through (the parser's while it reads, a copy kept for messages after it): this keeps the
 * scanner free of line bookkeeping. Never from the path again, which may lead to another file
 * by now (a symlink swapped). Standard input cannot be re-read and is not quoted, nor is a
 * source without a descriptor. */
static void quote_line(zp_diag *d, const zp_loc *loc)
{
  FILE *out = d->out;
  char buf[QUOTE_MAX];
  ssize_t n = read_line(d, loc->src, loc->line_off, buf, sizeof buf);
  if (n <= 0)
    return;
  size_t len = 0;
  while (len < (size_t)n && buf[len] != '\n' && buf[len] != '\r' && buf[len] != '\0')
    len++;
  fprintf(out, " %5u | %.*s%s\n", loc->line, (int)len, buf, len == sizeof buf ? "..." : "");
  /* The caret is placed by characters; tabs are repeated so it lines up under them. */
  fputs("       | ", out);
  uint32_t ch = 1;
  for (size_t i = 0; i < len && ch < loc->col; i++) {
    unsigned char c = (unsigned char)buf[i];
    if ((c & 0xC0) == 0x80)
      continue;
    fputc(c == '\t' ? '\t' : ' ', out);
    ch++;
  }
  fputs("^\n", out);
}

void zp_diag_report(zp_diag *d, const zp_loc *loc, zp_severity sev, const char *fmt, ...)
{
  if (sev == ZP_WARNING && d->werror)
    sev = ZP_ERROR;
  if (sev == ZP_ERROR) {
    if (zp_diag_stop(d))
      return;
    d->errors++;
  } else {
    d->warnings++;
    if (d->quiet)
      return;
  }
  const char *word = sev == ZP_ERROR ? "error" : "warning";
  if (loc && loc->src)
    fprintf(d->out, "%s:%u:%u: %s: ", loc->src->path, loc->line, loc->col, word);
  else
    fprintf(d->out, "zonepuny: %s: ", word);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(d->out, fmt, ap);
  va_end(ap);
  fputc('\n', d->out);
  if (loc && loc->src) {
    if (d->show_source)
      quote_line(d, loc);
    for (const zp_source *s = loc->src; s->parent; s = s->parent)
      fprintf(d->out, "  included from %s:%u\n", s->parent->path, s->line);
  }
  if (sev == ZP_ERROR && zp_diag_stop(d))
    fprintf(d->out, "zonepuny: error: too many errors (%u), stopping\n", d->errors);
}

bool zp_diag_stop(const zp_diag *d)
{
  return d->max_errors != 0 && d->errors >= d->max_errors;
}
