/* cli_names.c -- PLACEHOLDER, replaced within this session */
#include <stdio.h>

#include "cli.h"

int zp_cli_names(const zp_cli *cli, char **args, int n)
{
  (void)cli; (void)args; (void)n;
  fputs("zonepuny: error: not built yet\n", stderr);
  return ZP_EXIT_USAGE;
}
