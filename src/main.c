/* main.c -- the zonepuny command */
#include <stdio.h>

int main(void)
{
  fputs("zonepuny: under construction\n", stderr);
  return 2;
}
