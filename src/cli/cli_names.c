/* cli_names.c -- zonepuny --to-ascii / --to-unicode: names from the arguments or one per line */
#include <errno.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "cli.h"
#include "core/buf.h"
#include "idna/idna.h"
#include "idna/idna2008.h"
#include "idna/status.h"
#include "label/diverge.h"
#include "label/explain.h"

typedef struct job {
  bool to_ascii, idna2008;
  zp_check_level diverge;   /* of a label the standards convert apart (-W idna-divergence) */
  unsigned flags;
  zp_buf out;      /* the converted name, grown as names need */
  zp_buf shown;    /* a name as a message shows it */
  int failed;
} job;

/* Starts an error (or warning) line with the name as a message quotes it (zp_explain_show). */
static void tell_about(job *jb, zp_check_level level, const char *name, size_t n)
{
  jb->failed |= level == ZP_LEVEL_ERROR;
  fputs(level == ZP_LEVEL_ERROR ? "zonepuny: error: " : "zonepuny: warning: ", stderr);
  if (zp_buf_reserve(&jb->shown, 4 * n + 1)) {
    zp_explain_show((const uint8_t *)name, n, jb->shown.p, 4 * n + 1);
    fputs(jb->shown.p, stderr);
  }
  fputs(": ", stderr);
}

/* Warns of each label of name[0..n) that IDNA2003 and IDNA2008 convert apart, but the one at
 * offset skip (the refused label, whose error says so). */
static void divergences(job *jb, const char *name, size_t n, size_t skip)
{
  size_t seplen;
  for (size_t start = 0, end; start < n; start = end + seplen) {
    end = zp_idna_label_end(name, n, start, &seplen);
    zp_idna_both b;
    zp_divergence d = start == skip ? ZP_DIV_NONE
                                    : zp_idna_diverge((const uint8_t *)name + start, end - start,
                                                      jb->flags, jb->idna2008, &b);
    if (d == ZP_DIV_NONE)
      continue;
    char msg[2048];
    zp_divergence_explain(d, &b, (const uint8_t *)name + start, end - start, jb->flags, msg,
                          sizeof msg);
    tell_about(jb, jb->diverge, name, n);
    fprintf(stderr, "%s [-W%s]\n", msg, zp_check_name(ZP_CK_IDNA_DIVERGENCE));
  }
}

/* "; IDNA2008 makes it "ss"" after the refusal of a label that the other standard converts;
 * false when it does not. */
static bool other_takes(const job *jb, const char *label, size_t n)
{
  zp_idna_both b;
  zp_divergence d = zp_idna_diverge((const uint8_t *)label, n, jb->flags, jb->idna2008, &b);
  if (d != (jb->idna2008 ? ZP_DIV_ONLY_2003 : ZP_DIV_ONLY_2008))
    return false;
  char hint[160];
  zp_divergence_hint(d, &b, (const uint8_t *)label, n, hint, sizeof hint);
  fprintf(stderr, "; %s", hint);
  return true;
}

/* Warns when IDNA2008's Bidi rule across labels (RFC 5893) refuses name[0..n), which IDNA2003
 * took, for a label that converts alike on its own (a label that does not is told by itself). */
static void bidi_divergence(job *jb, const char *name, size_t n)
{
  char ace[ZP_NAME_MAX + 1];
  size_t len = sizeof ace;
  zp_idna_detail det;
  memset(&det, 0, sizeof det);
  if (zp_idna2008_name_to_ascii(name, n, ace, &len, jb->flags, &det) != ZP_IDNA_BIDI_RULE)
    return;
  zp_idna_both b;
  if (zp_idna_diverge((const uint8_t *)name + det.offset, det.label_len, jb->flags, 0, &b) !=
      ZP_DIV_NONE)
    return;
  char msg[2048];
  zp_explain_label(ZP_IDNA_BIDI_RULE, (const uint8_t *)name + det.offset, det.label_len, &det,
                   jb->flags | ZP_IDNA_2008, msg, sizeof msg);
  tell_about(jb, jb->diverge, name, n);
  fprintf(stderr, "%s: %s [-W%s]\n", msg, ZP_DIV_BIDI_NAME, zp_check_name(ZP_CK_IDNA_DIVERGENCE));
}

/* Converts one name and prints the result or the error. */
static void convert(job *jb, const char *name, size_t n)
{
  zp_idna_detail det;
  size_t len;
  zp_status st;

  memset(&det, 0, sizeof det);
  det.label_len = n;
  if (memchr(name, 0, n)) {
    tell_about(jb, ZP_LEVEL_ERROR, name, n);
    fputs("name contains a NUL byte\n", stderr);
    return;
  }
  /* 256 bytes always hold a converted ASCII name; a Unicode one is rarely longer than 4 bytes
   * per input byte, and the buffer grows when it is. One byte is kept for the newline. */
  for (size_t need = 4 * n + 256;; need = 2 * jb->out.cap) {
    if (!zp_buf_reserve(&jb->out, need)) {
      st = ZP_ENOMEM;
      break;
    }
    len = jb->out.cap - 1;
    if (jb->to_ascii)
      st = (jb->idna2008 ? zp_idna2008_name_to_ascii : zp_idna_name_to_ascii)(
          name, n, jb->out.p, &len, jb->flags, &det);
    else
      st = (jb->idna2008 ? zp_idna2008_name_to_unicode : zp_idna_name_to_unicode)(
          name, n, jb->out.p, &len, jb->flags);
    if (st != ZP_EBUFFER || jb->to_ascii)
      break;
  }
  bool diverge = jb->to_ascii && jb->diverge != ZP_LEVEL_OFF, told = false;
  if (st == ZP_OK) {
    jb->out.p[len] = '\n';
    fwrite(jb->out.p, 1, len + 1, stdout);
    if (diverge) {
      divergences(jb, name, n, SIZE_MAX);
      if (!jb->idna2008)
        bidi_divergence(jb, name, n);
    }
    return;
  }
  tell_about(jb, ZP_LEVEL_ERROR, name, n);
  if (st == ZP_ENOMEM || st == ZP_IDNA_NAME_TOO_LONG || st == ZP_EBUFFER) {
    fputs(zp_strerror(st), stderr);
  } else if (!jb->to_ascii) {
    /* ToUnicode fails only on input that is not UTF-8 */
    fprintf(stderr, "invalid UTF-8: %s", zp_strerror(st));
  } else {
    char msg[2048];
    zp_explain_label(st, (const uint8_t *)name + det.offset, det.label_len, &det,
                     jb->flags | (jb->idna2008 ? ZP_IDNA_2008 : 0), msg, sizeof msg);
    fputs(msg, stderr);
    told = diverge && other_takes(jb, name + det.offset, det.label_len);
  }
  fputc('\n', stderr);
  /* the other labels, and the refused one unless its error said where the other standard
   * stands (the name may be refused for all its labels, by the Bidi rule or its length) */
  if (diverge && st != ZP_ENOMEM && st != ZP_EBUFFER)
    divergences(jb, name, n, told ? det.offset : SIZE_MAX);
}

int zp_cli_names(const zp_cli *cli, char **args, int n)
{
  job jb = {.to_ascii = cli->mode == ZP_MODE_TO_ASCII, .idna2008 = cli->idna == 2008,
            .diverge = cli->checks.level[ZP_CK_IDNA_DIVERGENCE]};
  if (cli->werror && jb.diverge != ZP_LEVEL_OFF)
    jb.diverge = ZP_LEVEL_ERROR;
  char *line = NULL;
  size_t linecap = 0;
  int rc = ZP_EXIT_OK;

  jb.flags = ZP_IDNA_STD3_NON_ASCII | (cli->std3 ? ZP_IDNA_USE_STD3 : 0) |
             (jb.to_ascii ? ZP_IDNA_CHECK_ACE : 0);
  if (!isatty(STDOUT_FILENO))
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
  /* one write per message line */
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
  zp_buf_free(&jb.out);
  zp_buf_free(&jb.shown);
  return rc;
}
