/* since.h -- --since REV: each zone checked against its version at a git revision */
#ifndef ZP_SINCE_H
#define ZP_SINCE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "idna/status.h"
#include "pipeline.h"
#include "record/sort.h"

typedef struct zp_since zp_since;

zp_status zp_since_new(const char *rev, zp_since **s);

/* The zone at path as it was at REV (under its old name when git sees it renamed since), with
 * include_root (NULL: path's directory) as it was, taken out under $TMPDIR: *old_path and
 * *old_root (malloc'd), or both NULL for a zone new since then. ZP_EINVAL when path is in no git work tree or REV is no commit of it, ZP_EIO when git
 * or tar fail, ZP_ENOMEM; why says which. */
zp_status zp_since_old(zp_since *s, const char *path, const char *include_root, char **old_path,
                       char **old_root, char *why, size_t cap);

/* The zone at path, checked with po (its records in now, its first SOA's serial at at), against
 * its version at REV, read with the same options but its own fence and no whole-zone checks:
 * records changed and the SOA serial not raised, or a serial that went back (RFC 1982 section
 * 3.2), is told at the serial [-Wserial-since]. False (told) when the comparison cannot be
 * made: the exit status is then 2. */
bool zp_since_judge(zp_since *s, const zp_cli *cli, const zp_pipeline_options *po, zp_diag *diag,
                    const char *path, zp_sorter *now, const zp_serial_at *at);

/* Removes REV's files taken out, and ends the processes that would have removed them had the
 * run been killed (waited for: they end at once). */
void zp_since_free(zp_since *s);

#endif
