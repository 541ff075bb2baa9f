/* tmpfile.h -- a file with no name, for what zonepuny holds back: made in $TMPDIR (else /tmp)
 * with no name where the file system allows (O_TMPFILE), else unlinked at once, so that it is
 * gone on every exit, signals and kills included; and the bound on what such files hold */
#ifndef ZP_TMPFILE_H
#define ZP_TMPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idna/status.h"

/* $TMPDIR, or /tmp when it is unset or empty: where zp_tmpfile makes its files. */
const char *zp_tmpdir(void);

/* A read-write descriptor of a new unlinked file, or -1 with errno set. */
int zp_tmpfile(void);

/* The default bound on the octets temporary files hold at once: ZP_TMP_FACTOR times the
 * octets of the zone read so far (its files, standard input), at least ZP_TMP_FLOOR. What one
 * record of input becomes there (its tuple, its references, its line held back from a pipe,
 * a merge pass's second copy) is some tens of times its text at worst; a few lines expanding
 * to gigabytes is what the bound stops. */
#define ZP_TMP_FACTOR 64u
#define ZP_TMP_FLOOR ((uint64_t)1 << 30)

/* Sets the bound (--tmp-limit): limit octets; 0: the default above; UINT64_MAX: none. */
void zp_tmp_set_limit(uint64_t limit);
/* A new zone: nothing of it read, the bound not reached. */
void zp_tmp_begin(void);
/* n more octets of the zone were read. */
void zp_tmp_input(uint64_t n);
/* Asks for n more octets in temporary files: false, errno EFBIG, when that would pass the
 * bound, and from then on until zp_tmp_begin (a run that reached it stops). */
bool zp_tmp_take(uint64_t n);
/* n octets taken are free again (a file closed). */
void zp_tmp_give(uint64_t n);
/* Writes p[0..n) at `at` of the temporary file fd, taken first: ZP_ETMPLIMIT, ZP_ETMPFILE
 * (errno set). */
ZP_NODISCARD zp_status zp_tmp_write(int fd, const void *p, size_t n, uint64_t at);
/* Punches n octets at `at` out of the file fd where the file system allows, and gives them
 * back: the octets freed (0 where it does not). */
uint64_t zp_tmp_punch(int fd, uint64_t at, uint64_t n);
/* The octets temporary files hold now (for tests of the bound). */
uint64_t zp_tmp_used(void);
/* The bound in force now (UINT64_MAX: none), whether it was reached, and whether it is the
 * default. */
uint64_t zp_tmp_limit(void);
bool zp_tmp_reached(void);
bool zp_tmp_default(void);

#endif
