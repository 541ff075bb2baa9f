/* walk.h -- the zone files of --check's arguments: directories walked, each file's origin from
 * its name, and the fragments other zones $INCLUDE */
#ifndef ZP_WALK_H
#define ZP_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "idna/status.h"

typedef struct zp_zone_file {
  char *path;
  char *origin;    /* the initial origin its name gives ("example.com."), or NULL */
  const char *tree; /* the directory argument it was found below (its $INCLUDEs' fence by
                       default: a tree's zones share files), or NULL: given itself */
  bool fragment;   /* read through a zone of the list that $INCLUDEs it: not checked alone */
  size_t via;      /* a fragment's: the index in the list of a zone that reaches it (the
                      first the breadth-first walk from the list's zones met) */
  bool again;      /* the same file as one before it in the list: checked once */
  bool binary;     /* found in a directory, with a NUL octet in its head: no zone, skipped */
} zp_zone_file;

typedef struct zp_walk {
  zp_zone_file *files;
  size_t n, cap;
  size_t fragments;   /* how many of files are fragments */
} zp_walk;

typedef struct zp_walk_options {
  bool by_name;              /* each file so named gets the origin its name gives */
  const char *include_root;  /* --include-root, or NULL: the reader's default */
  bool no_include;           /* --no-include: no $INCLUDE followed, so no fragment */
  const char *stdin_name;    /* --stdin-filename: the name standard input ("-") goes by, its
                                origin's too; NULL: none */
} zp_walk_options;

/* The files of args[0..n): a file as given ("-" is standard input, once), a directory walked
 * below for the files named *.zone, *.db or db.* but journals and backups (hidden entries
 * skipped, symlinked directories not followed, each directory's names in byte order; their
 * tree is args[i], which must outlive w). A directory that cannot be read, holds no zone file
 * or nests too deep is reported to diag as an error and the walk goes on; ZP_ENOMEM.
 * zp_walk_free frees w's files. */

ZP_NODISCARD zp_status zp_walk_args(char **args, int n, const zp_walk_options *opt, zp_diag *diag,
                                    zp_walk *w);
void zp_walk_free(zp_walk *w);

/* (fragment.c) Marks the files of w met before (checked once) and the fragments, reading the
 * $INCLUDE lines of each file of w and of each file they reach below its include root (none
 * with no_include). ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_walk_fragments(zp_walk *w, const char *include_root, bool no_include);

/* The origin a zone file's name gives, as kzonecheck takes it: the name less a ".zone" or
 * ".db" suffix, or a "db." prefix, with a dot added; NULL when it gives none (no such suffix or
 * prefix, or what is left is not a plausible name). The caller frees it. */
char *zp_origin_from_name(const char *path);

#endif
