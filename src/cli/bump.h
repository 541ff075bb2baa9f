/* bump.h -- --bump-serial: the serial a conversion writes over -o FILE */
#ifndef ZP_BUMP_H
#define ZP_BUMP_H

#include <stdbool.h>

#include "cli.h"

/* Sets po's serial for the conversion of path over cli->output: when FILE reads as a zone and
 * the zone's records (the SOA's serial aside) differ from FILE's, FILE's serial raised by
 * cli->bump's policy (or the zone's own, when that is above it under RFC 1982); when they do
 * not, FILE's serial; when FILE is not there, the zone's own (none set). Said on standard
 * error. False (told) on trouble that stops the run. */
bool zp_bump_serial(const zp_cli *cli, zp_pipeline_options *po, zp_diag *diag, const char *path);

#endif
