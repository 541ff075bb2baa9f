/* main.c -- the zonepuny command: option parsing and dispatch */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "rrtype.h"
#include "status.h"

#ifndef ZP_VERSION
#define ZP_VERSION "0.1.0"
#endif

static const char usage_text[] =
    "usage: zonepuny [OPTIONS] [ZONEFILE|-]          convert one zone to stdout (or -o)\n"
    "       zonepuny --check [OPTIONS] ZONEFILE...   validate zones, write nothing\n"
    "       zonepuny --to-ascii [NAME...]            convert names (arguments, or stdin)\n"
    "       zonepuny --to-unicode [NAME...]\n"
    "\n"
    "  -o, --output FILE    write there atomically, with FILE's owner, group and mode;\n"
    "                       left untouched on error\n"
    "      --allow-owner-change  let -o give FILE this user's owner and group when it may\n"
    "                       not keep FILE's (refused otherwise, exit 2)\n"
    "  -z, --origin NAME    initial origin\n"
    "  -t, --ttl TTL        default TTL before any $TTL\n"
    "      --idna=2003      IDNA2003 ToASCII (the default)\n"
    "      --std3           letters, digits and hyphen only in ASCII labels\n"
    "      --sort           RFC 4034 canonical order, duplicates removed\n"
    "      --unicode        show names through ToUnicode, for review\n"
    "      --generic TYPES  write these types (comma-separated, or none) in RFC 3597 form;\n"
    "                       default: the types Knot cannot read as text (MD, PX, NULL, HIP...)\n"
    "  -W error             warnings count as errors\n"
    "      --max-errors N   stop after N errors (default 50)\n"
    "      --no-include     refuse every $INCLUDE\n"
    "      --include-root DIR  refuse a $INCLUDE that resolves outside DIR (after symlinks)\n"
    "  -q, --quiet          do not print warnings\n"
    "  -V, --version        print the version\n"
    "  -h, --help           print this help\n"
    "\n"
    "Exit status: 0 clean, 1 the zone has errors, 2 usage or I/O error.\n";

enum { OPT_CHECK = 256, OPT_TO_ASCII, OPT_TO_UNICODE, OPT_IDNA, OPT_STD3, OPT_SORT, OPT_UNICODE,
       OPT_MAX_ERRORS, OPT_NO_INCLUDE, OPT_INCLUDE_ROOT, OPT_GENERIC, OPT_ANY_OWNER };

/* --generic: "none", or types separated by commas, as a bit per type. */
static bool generic_types(const char *list, uint8_t *set)
{
  memset(set, 0, 65536 / 8);
  if (strcmp(list, "none") == 0)
    return true;
  for (const char *p = list;; p++) {
    size_t len = strcspn(p, ",");
    uint16_t t;
    if (!zp_rrtype_from_text(p, len, &t))
      return false;
    set[t >> 3] |= (uint8_t)(0x80 >> (t & 7));
    p += len;
    if (*p == '\0')
      return true;
  }
}

static const struct option longopts[] = {
  {"output", required_argument, NULL, 'o'},
  {"allow-owner-change", no_argument, NULL, OPT_ANY_OWNER},
  {"origin", required_argument, NULL, 'z'},
  {"ttl", required_argument, NULL, 't'},
  {"check", no_argument, NULL, OPT_CHECK},
  {"to-ascii", no_argument, NULL, OPT_TO_ASCII},
  {"to-unicode", no_argument, NULL, OPT_TO_UNICODE},
  {"idna", required_argument, NULL, OPT_IDNA},
  {"std3", no_argument, NULL, OPT_STD3},
  {"sort", no_argument, NULL, OPT_SORT},
  {"unicode", no_argument, NULL, OPT_UNICODE},
  {"max-errors", required_argument, NULL, OPT_MAX_ERRORS},
  {"no-include", no_argument, NULL, OPT_NO_INCLUDE},
  {"include-root", required_argument, NULL, OPT_INCLUDE_ROOT},
  {"generic", required_argument, NULL, OPT_GENERIC},
  {"quiet", no_argument, NULL, 'q'},
  {"version", no_argument, NULL, 'V'},
  {"help", no_argument, NULL, 'h'},
  {NULL, 0, NULL, 0},
};

ZP_PRINTF(1, 2) static int usage_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("zonepuny: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\nTry 'zonepuny --help'.\n", stderr);
  return ZP_EXIT_USAGE;
}

static int set_mode(zp_cli *cli, zp_mode mode, const char *name)
{
  if (cli->mode != ZP_MODE_CONVERT && cli->mode != mode)
    return usage_error("%s cannot be combined with another mode", name);
  cli->mode = mode;
  return ZP_EXIT_OK;
}

int main(int argc, char **argv)
{
  zp_cli cli = {.mode = ZP_MODE_CONVERT, .idna = 2003, .max_errors = 50};
  int c, rc;
  while ((c = getopt_long(argc, argv, "o:z:t:W:qVh", longopts, NULL)) != -1) {
    switch (c) {
    case 'o': cli.output = optarg; break;
    case OPT_ANY_OWNER: cli.any_owner = true; break;
    case 'z': cli.origin = optarg; break;
    case 't': cli.ttl = optarg; break;
    case 'W':
      if (strcmp(optarg, "error") != 0)
        return usage_error("unknown warning option '-W %s' (only '-W error' exists)", optarg);
      cli.werror = true;
      break;
    case OPT_CHECK:
      if ((rc = set_mode(&cli, ZP_MODE_CHECK, "--check")) != ZP_EXIT_OK)
        return rc;
      break;
    case OPT_TO_ASCII:
      if ((rc = set_mode(&cli, ZP_MODE_TO_ASCII, "--to-ascii")) != ZP_EXIT_OK)
        return rc;
      break;
    case OPT_TO_UNICODE:
      if ((rc = set_mode(&cli, ZP_MODE_TO_UNICODE, "--to-unicode")) != ZP_EXIT_OK)
        return rc;
      break;
    case OPT_IDNA:
      if (strcmp(optarg, "2008") == 0)
        return usage_error("--idna=%s is not yet supported (IDNA2003 is the only mode so far)",
                           optarg);
      if (strcmp(optarg, "2003") != 0)
        return usage_error("--idna takes 2003 or 2008, not '%s'", optarg);
      break;
    case OPT_STD3: cli.std3 = true; break;
    case OPT_SORT: cli.sort = true; break;
    case OPT_UNICODE: cli.unicode = true; break;
    case OPT_MAX_ERRORS: {
      char *end;
      errno = 0;
      unsigned long n = strtoul(optarg, &end, 10);
      if (errno || end == optarg || *end || optarg[0] == '-' || n > 1000000)
        return usage_error("--max-errors takes a number from 0 to 1000000, not '%s'", optarg);
      cli.max_errors = (unsigned)n;
      break;
    }
    case OPT_NO_INCLUDE: cli.no_include = true; break;
    case OPT_INCLUDE_ROOT: {
      struct stat sb;
      if (stat(optarg, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return usage_error("--include-root %s: not a directory", optarg);
      cli.include_root = optarg;
      break;
    }
    case OPT_GENERIC: {
      static uint8_t generic[65536 / 8];
      if (!generic_types(optarg, generic))
        return usage_error("--generic takes type mnemonics or TYPEnnn separated by commas, or "
                           "none, not '%s'", optarg);
      cli.generic = generic;
      break;
    }
    case 'q': cli.quiet = true; break;
    case 'V': printf("zonepuny %s\n", ZP_VERSION); return ZP_EXIT_OK;
    case 'h': fputs(usage_text, stdout); return ZP_EXIT_OK;
    default: fputs("Try 'zonepuny --help'.\n", stderr); return ZP_EXIT_USAGE;
    }
  }
  char **rest = argv + optind;
  int nrest = argc - optind;
  if (cli.output && cli.mode != ZP_MODE_CONVERT)
    return usage_error("-o is where a converted zone goes; %s writes none",
                       cli.mode == ZP_MODE_CHECK ? "--check" : "name conversion");
  switch (cli.mode) {
  case ZP_MODE_TO_ASCII:
  case ZP_MODE_TO_UNICODE:
    return zp_cli_names(&cli, rest, nrest);
  case ZP_MODE_CHECK:
    if (nrest == 0)
      return usage_error("%s needs at least one zone file", "--check");
    return zp_cli_zone(&cli, rest, nrest);
  case ZP_MODE_CONVERT:
    if (nrest > 1)
      return usage_error("%s converts one zone at a time (use --check for several)", "zonepuny");
    return zp_cli_zone(&cli, rest, nrest);
  }
  return ZP_EXIT_USAGE;
}
