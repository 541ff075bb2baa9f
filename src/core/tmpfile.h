/* tmpfile.h -- a file with no name, for what zonepuny holds back: made in $TMPDIR (else /tmp)
 * with no name where the file system allows (O_TMPFILE), else unlinked at once, so that it is
 * gone on every exit, signals and kills included */
#ifndef ZP_TMPFILE_H
#define ZP_TMPFILE_H

/* $TMPDIR, or /tmp when it is unset or empty: where zp_tmpfile makes its files. */
const char *zp_tmpdir(void);

/* A read-write descriptor of a new unlinked file, or -1 with errno set. */
int zp_tmpfile(void);

#endif
