/* output.h -- where a converted zone goes: standard output, FILE replaced atomically, or a
 * character device or FIFO written through */
#ifndef ZP_OUTPUT_H
#define ZP_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "idna/status.h"

typedef struct zp_output zp_output;

/* zp_output_open's flags */
enum {
  ZP_OUTPUT_ANY_OWNER = 1,    /* FILE may take this process's owner and group, when it may
                                 not give the new file the old one's */
  ZP_OUTPUT_BREAK_LINKS = 2,  /* FILE may be replaced when it has other hard links, which
                                 keep the old file */
};

/* Room for zp_output_open's sentence of why: two paths and the words around them. */
enum { ZP_OUTPUT_WHY = 2 * 4096 + 1024 };

/* path NULL or "-", or naming the file standard output is open on (/dev/stdout, /dev/fd/1),
 * is standard output: a regular file is written in place and cut back on abort to where it
 * stood; a terminal or /dev/null is written in place; anything else (a pipe) gets the zone
 * only on commit, held until then in an unlinked temporary file in $TMPDIR (else /tmp).
 *
 * A character device or a FIFO is opened and written through the same way (a FIFO gets the
 * zone only on commit); a directory, a socket and a block device are refused. A regular file,
 * or none, is replaced: a temporary file is created in its directory (so that the final
 * rename stays on one file system; after every symlink, so that a link stays a link and its
 * target is replaced) and path is not touched until zp_output_commit. A dangling symlink, a
 * file with other hard links (unless ZP_OUTPUT_BREAK_LINKS) and an immutable or append-only
 * file are refused. The temporary file has no name until commit where the kernel allows
 * (O_TMPFILE and /proc), so that nothing is left of it whatever ends the process; otherwise a
 * handler of every signal that would end the process removes it first. It gets what the file
 * it replaces has (zp_keep_attributes in write/keep.h): ZP_EOWNER when this process may not
 * give it that owner and group (unless ZP_OUTPUT_ANY_OWNER). ZP_EIO when the output cannot be
 * opened or is refused, ZP_ETMPFILE (errno set) when the file in $TMPDIR cannot be made. On
 * any failure but ZP_ETMPFILE and ZP_ENOMEM, why[0..n) says what and why. */
ZP_NODISCARD zp_status zp_output_open(const char *path, unsigned flags, zp_output **out,
                                      char *why, size_t n);

/* The stream to write to; borrowed. */
FILE *zp_output_file(const zp_output *o);

/* Flushes, fsyncs and renames the temporary file over path (written through: writes what was
 * held back, flushes and checks for a write error). On any failure the temporary file is
 * removed, path is left as it was, errno says why, and ZP_EIO is returned. Frees o either
 * way. */
ZP_NODISCARD zp_status zp_output_commit(zp_output *o);

/* Gives up: removes the temporary file, leaves path as it was (standard output: as it was
 * before the zone). Frees o; NULL is fine. */
void zp_output_abort(zp_output *o);

#endif
