/* output.h -- where a converted zone goes: standard output, or FILE replaced atomically */
#ifndef ZP_OUTPUT_H
#define ZP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "idna/status.h"

typedef struct zp_output zp_output;

/* path NULL or "-" is standard output: a regular file is written in place and cut back on
 * abort to where it stood; a terminal or /dev/null is written in place; anything else (a pipe)
 * gets the zone only on commit, held until then in an unlinked temporary file in $TMPDIR (else
 * /tmp). Otherwise a temporary file is created in path's
 * directory (so the final rename stays on one file system) and path is not touched until
 * zp_output_commit. The temporary file gets the owner, group and permission bits of the file it
 * will replace (a server reading it as another user must still read it): ZP_EOWNER when this
 * process may not give it that owner and group, unless any_owner, which then keeps this
 * process's. While a temporary file exists, SIGINT, SIGTERM and SIGHUP remove it before the
 * process dies. Returns ZP_EIO (with errno set) when the temporary file cannot be made. */
ZP_NODISCARD zp_status zp_output_open(const char *path, bool any_owner, zp_output **out);

/* The stream to write to; borrowed. */
FILE *zp_output_file(const zp_output *o);

/* Flushes, fsyncs and renames the temporary file over path (standard output: writes what was
 * held back, flushes and checks for a write error). On any failure the temporary file is removed, path is left as it
 * was, errno says why, and ZP_EIO is returned. Frees o either way. */
ZP_NODISCARD zp_status zp_output_commit(zp_output *o);

/* Gives up: removes the temporary file, leaves path as it was (standard output: as it was
 * before the zone). Frees o; NULL is fine. */
void zp_output_abort(zp_output *o);

#endif
