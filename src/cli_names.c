/* cli_names.c -- zonepuny --to-ascii / --to-unicode: names from the arguments or one per line */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "idna.h"
#include "status.h"
#include "utf8.h"

typedef struct job {
  bool to_ascii;
  unsigned flags;
  char *out;     /* result buffer, grown as names need */
  size_t cap;
  int failed;
} job;

/* Writes s[0..n) for a message: control characters (and, when raw is false, every byte of an
 * input that is not UTF-8) as \DDD, as a zone file would show them. */
static void put_text(FILE *f, const char *s, size_t n, bool raw)
{
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7F || (!raw && c >= 0x80) || c == '"' || c == '\\')
      fprintf(f, c == '"' || c == '\\' ? "\\%c" : "\\%03u", c);
    else
      fputc(c, f);
  }
}

static void put_label(FILE *f, const char *label, size_t len, bool raw)
{
  fputs("label \"", f);
  put_text(f, label, len, raw);
  fputc('"', f);
}

/* The reason a name failed, after "zonepuny: error: NAME: ". */
static void explain(FILE *f, const job *jb, zp_status st, const char *name,
                    const zp_idna_detail *det)
{
  const char *label = name + det->offset;
  size_t len = det->label_len;
  bool utf8 = st <= ZP_UTF8_TRUNCATED && st >= ZP_UTF8_RANGE;

  if (st == ZP_IDNA_NAME_TOO_LONG || st == ZP_EBUFFER) {
    fputs(zp_strerror(st), f);
    return;
  }
  put_label(f, label, len, !utf8);
  switch (st) {
  case ZP_IDNA_ACE_DECODE:
    fputs(" is an ACE label whose Punycode does not decode", f);
    return;
  case ZP_IDNA_ACE_ASCII:
    fputs(" is an ACE label that decodes to pure ASCII \"", f);
    put_text(f, det->decoded, strlen(det->decoded), true);
    fputc('"', f);
    return;
  case ZP_IDNA_ACE_NOT_CANONICAL: {
    char canon[ZP_IDNA_LABEL_MAX];
    size_t clen = sizeof canon;
    fputs(" is not a canonical ACE label: it decodes to \"", f);
    put_text(f, det->decoded, strlen(det->decoded), true);
    fputc('"', f);
    if (zp_idna_label_to_ascii(det->decoded, strlen(det->decoded), canon, &clen,
                               jb->flags & ~ZP_IDNA_CHECK_ACE, NULL) == ZP_OK)
      fprintf(f, ", whose ACE form is \"%.*s\"", (int)clen, canon);
    return;
  }
  default:
    break;
  }
  if (det->decoded[0] && !utf8) {
    fputs(" decodes to \"", f);
    put_text(f, det->decoded, strlen(det->decoded), true);
    fputc('"', f);
  }
  if (utf8)
    fputs(": invalid UTF-8", f);
  fprintf(f, ": %s", zp_strerror(st));
  if (det->cp && !utf8 && st != ZP_IDNA_HYPHEN)
    fprintf(f, ": U+%04X", (unsigned)det->cp);
}

static bool grow(job *jb, size_t need)
{
  if (need <= jb->cap)
    return true;
  char *p = realloc(jb->out, need);
  if (!p)
    return false;
  jb->out = p;
  jb->cap = need;
  return true;
}

/* Converts one name and prints the result or the error. */
static void convert(job *jb, const char *name, size_t n)
{
  zp_idna_detail det;
  size_t len;
  zp_status st;

  det.decoded[0] = 0;
  det.cp = 0;
  det.offset = 0;
  det.label_len = n;
  if (memchr(name, 0, n)) {
    fputs("zonepuny: error: ", stderr);
    put_text(stderr, name, n, false);
    fputs(": name contains a NUL byte\n", stderr);
    jb->failed = 1;
    return;
  }
  /* 256 bytes always hold a converted ASCII name; a Unicode one is rarely longer than 4 bytes
   * per input byte, and the buffer grows when it is. One byte is kept for the newline. */
  for (size_t need = 4 * n + 256;; need = 2 * jb->cap) {
    if (!grow(jb, need)) {
      st = ZP_ENOMEM;
      break;
    }
    len = jb->cap - 1;
    if (jb->to_ascii)
      st = zp_idna_name_to_ascii(name, n, jb->out, &len, jb->flags, &det);
    else
      st = zp_idna_name_to_unicode(name, n, jb->out, &len, jb->flags);
    if (st != ZP_EBUFFER || jb->to_ascii)
      break;
  }
  if (st == ZP_OK) {
    jb->out[len] = '\n';
    fwrite(jb->out, 1, len + 1, stdout);
    return;
  }
  jb->failed = 1;
  fputs("zonepuny: error: ", stderr);
  put_text(stderr, name, n, zp_utf8_validate((const uint8_t *)name, n, NULL) == ZP_OK);
  fputs(": ", stderr);
  if (!jb->to_ascii || st == ZP_ENOMEM) {
    /* ToUnicode fails only on input that is not UTF-8, or for want of memory. */
    fputs(st == ZP_ENOMEM ? zp_strerror(st) : "invalid UTF-8: ", stderr);
    if (st != ZP_ENOMEM)
      fputs(zp_strerror(st), stderr);
  } else {
    explain(stderr, jb, st, name, &det);
  }
  fputc('\n', stderr);
}

int zp_cli_names(const zp_cli *cli, char **args, int n)
{
  job jb = {.to_ascii = cli->mode == ZP_MODE_TO_ASCII, .out = NULL, .cap = 0, .failed = 0};
  char *line = NULL;
  size_t linecap = 0;
  int rc = ZP_EXIT_OK;

  jb.flags = ZP_IDNA_STD3_NON_ASCII | (cli->std3 ? ZP_IDNA_USE_STD3 : 0) |
             (jb.to_ascii ? ZP_IDNA_CHECK_ACE : 0);
  if (!isatty(STDOUT_FILENO))
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
  /* A message is written a character at a time: one write per line, not per character. */
  setvbuf(stderr, NULL, _IOLBF, 1 << 12);
  for (int i = 0; i < n; i++)
    convert(&jb, args[i], strlen(args[i]));
  if (n == 0) {
    ssize_t got;
    errno = 0;
    while ((got = getline(&line, &linecap, stdin)) >= 0) {
      size_t len = (size_t)got;
      if (len && line[len - 1] == '\n')
        len--;
      if (len && line[len - 1] == '\r')
        len--;
      convert(&jb, line, len);
    }
    if (ferror(stdin)) {
      fprintf(stderr, "zonepuny: error: reading standard input: %s\n", strerror(errno));
      rc = ZP_EXIT_USAGE;
    }
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "zonepuny: error: writing standard output: %s\n", strerror(errno));
    rc = ZP_EXIT_USAGE;
  }
  if (rc == ZP_EXIT_OK && jb.failed)
    rc = ZP_EXIT_ERRORS;
  free(line);
  free(jb.out);
  return rc;
}
