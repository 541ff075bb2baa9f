/* diag_line.c -- the line a message is about, read again: never from the path, which may lead
 * elsewhere by now, but from the text in memory or the descriptor the file was read through */
#include "diag_line.h"

#include <string.h>
#include <unistd.h>

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

/* The line at loc, up to ZP_QUOTE_MAX bytes, into buf: its length, or -1 when it cannot be read.
 * The line is re-read at its recorded offset from the descriptor the file was read through
 * (the parser's while it reads, a copy kept for messages after it): this keeps the scanner free
 * of line bookkeeping. Never from the path again, which may lead to another file by now (a
 * symlink swapped). Standard input cannot be re-read and is not quoted, nor is a source without
 * a descriptor. */
ssize_t zp_diag_the_line(zp_diag *d, const zp_loc *loc, char buf[ZP_QUOTE_MAX])
{
  ssize_t n = read_line(d, loc->src, loc->line_off, buf, ZP_QUOTE_MAX);
  if (n <= 0)
    return -1;
  size_t len = 0;
  while (len < (size_t)n && buf[len] != '\n' && buf[len] != '\r' && buf[len] != '\0')
    len++;
  return (ssize_t)len;
}

/* The column just past the field loc points at, in characters: a quoted string to its closing
 * quote, anything else to the next blank, or either to the line's end (loc->col when the line
 * is gone). The line is read in blocks: a field may end far past what a message quotes. */
uint32_t zp_diag_end_col(zp_diag *d, const zp_loc *loc)
{
  char buf[4096];
  uint32_t ch = 1;
  uint64_t at = 0;
  enum { BEFORE, PLAIN, QUOTED } in = BEFORE;
  bool escaped = false;
  for (ssize_t n; (n = read_line(d, loc->src, loc->line_off + at, buf, sizeof buf)) > 0;) {
    for (ssize_t i = 0; i < n; i++, at++) {
      char c = buf[i];
      bool cont = ((unsigned char)c & 0xC0) == 0x80;
      if (c == '\n' || c == '\r' || c == '\0' || at >= UINT32_MAX - 1)
        return in == BEFORE ? loc->col : ch;
      if (in == BEFORE && (cont || ch < loc->col)) {
        ch += !cont;
        continue;
      }
      if (in == BEFORE) {
        in = c == '"' ? QUOTED : PLAIN;
        if (in == QUOTED) {
          ch++;
          continue;
        }
      }
      if (escaped) {
        escaped = false;
      } else if (in == QUOTED ? c == '"' : strchr(" \t;()", c) != NULL) {
        return ch + (in == QUOTED);
      } else if (c == '\\') {
        escaped = true;
      }
      ch += !cont;
    }
  }
  return in == BEFORE ? loc->col : ch;
}

/* The columns of the characters at columns col and end of loc's line in bytes (c->b) and in
 * UTF-16 code units (c->u), all 0 where the line cannot be read again or is shorter: what vim
 * and Emacs count, and LSP's default, where zonepuny's columns count characters. */
void zp_diag_other_cols(zp_diag *d, const zp_loc *loc, uint32_t col, uint32_t end,
                        zp_other_cols *c)
{
  *c = (zp_other_cols){0};
  char buf[4096];
  uint32_t ch = 1, u = 1;
  uint64_t at = 0;
  for (;;) {
    ssize_t n = read_line(d, loc->src, loc->line_off + at, buf, sizeof buf);
    for (ssize_t i = 0; i < n; i++, at++) {
      unsigned char b = (unsigned char)buf[i];
      if ((b & 0xC0) == 0x80)
        continue;
      if (ch == col)
        c->b = (uint32_t)(at + 1), c->u = u;
      if (ch == end) {
        c->bend = (uint32_t)(at + 1), c->uend = u;
        return;
      }
      if (b == '\n' || b == '\r' || at >= UINT32_MAX - 1)
        return;
      ch++;
      u += b >= 0xF0 ? 2 : 1;   /* (past the BMP: a surrogate pair) */
    }
    if (n <= 0) {   /* (the file's end, where a field may end; none read: no line) */
      if (at > 0 && ch == col)
        c->b = (uint32_t)(at + 1), c->u = u;
      if (at > 0 && c->b && ch == end)
        c->bend = (uint32_t)(at + 1), c->uend = u;
      return;
    }
  }
}
