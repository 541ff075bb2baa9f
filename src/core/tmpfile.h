/* tmpfile.h -- a file with no name, for what zonepuny holds back: made in $TMPDIR (else /tmp)
 * and unlinked at once, so it is gone on every exit, signals and kills included */
#ifndef ZP_TMPFILE_H
#define ZP_TMPFILE_H

/* A read-write descriptor of a new unlinked file, or -1 with errno set. */
int zp_tmpfile(void);

#endif
