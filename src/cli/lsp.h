/* lsp.h -- zonepuny --lsp: a language server (LSP 3.17) over standard input and output */
#ifndef ZP_LSP_H
#define ZP_LSP_H

#include "cli.h"

/* Serves one client until it says exit or its input ends; cli holds the options every
 * document is checked with (as --check has them). The exit status: 0 after shutdown, 1
 * otherwise (LSP's rule for exit). */
int zp_lsp_serve(const zp_cli *cli);

#endif
