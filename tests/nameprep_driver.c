/* nameprep_driver.c -- zp_nameprep over stdin lines, for the Python differential test */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idna/nameprep.h"
#include "idna/utf8.h"

/* Usage: nameprep_driver [-u | -n]   (-u: allow unassigned code points; -n: NFKC alone)
 * Each input line (UTF-8) gives one output line: "OK <result>" or "ERR <status name> <hex cp>". */
int main(int argc, char **argv)
{
  enum { CAP = 4096 };
  static uint32_t cps[CAP], res[CAP * 18];
  static uint8_t utf8[CAP * 18 * 4];
  const char *opt = argc > 1 ? argv[1] : "";
  unsigned flags = strcmp(opt, "-u") == 0 ? ZP_NAMEPREP_ALLOW_UNASSIGNED : 0;
  int nfkc = strcmp(opt, "-n") == 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int rc = 0;

  while ((len = getline(&line, &cap, stdin)) >= 0) {
    if (len > 0 && line[len - 1] == '\n')
      line[--len] = 0;
    size_t n = CAP, m = CAP * 18, o = sizeof utf8;
    uint32_t bad = 0;
    zp_status st = zp_utf8_decode((const uint8_t *)line, (size_t)len, cps, &n, NULL);
    if (st == ZP_OK)
      st = nfkc ? zp_nfkc(cps, n, res, &m, &bad) : zp_nameprep(cps, n, res, &m, flags, &bad);
    if (st == ZP_OK)
      st = zp_utf8_encode(res, m, utf8, &o);
    if (st == ZP_OK) {
      /* fwrite, not printf: the result may hold U+0000. */
      fputs("OK ", stdout);
      fwrite(utf8, 1, o, stdout);
      putchar('\n');
    } else
      printf("ERR %s %04X\n", zp_errname(st), (unsigned)bad);
  }
  if (ferror(stdin) || fflush(stdout) != 0)
    rc = 2;
  free(line);
  return rc;
}
