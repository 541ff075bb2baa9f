/* conf.h -- the zones a named.conf loads, for --check --named-conf: what named-checkconf -z
 * loads, each with its name, file and the check options that change its verdict */
#ifndef ZP_CONF_H
#define ZP_CONF_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include "check/check.h"
#include "core/diag.h"
#include "idna/status.h"
typedef struct zp_conf_zone {
  const char *name;        /* the zone's name as the statement writes it */
  const char *view;        /* the view it is in, or NULL */
  const char *file;        /* its file, joined to the directory option when relative */
  const char *dir;         /* the directory option ("." when none): named resolves a relative
                              $INCLUDE in the file against it, not against the file's own
                              directory */
  zp_loc loc;              /* the zone statement, for messages about the zone as a whole */
  zp_loc file_loc;         /* its file clause's string, for messages about the file (one that
                              cannot be read: named-checkconf -z calls the zone not loaded) */
  bool hint;               /* root hints (type hint): named reads the file as a master file of
                              the root, whatever the zone's name, and refuses only what its
                              loader does: checks has every check off but
                              cname-and-other-data and singleton; the origin is "." */
  zp_check_options checks; /* the caller's, with the zone's check-* options and load limits
                              (max-records-per-type, max-types-per-name, max-zone-ttl)
                              applied */
} zp_conf_zone;
typedef struct zp_conf zp_conf;
/* Reads the named.conf at path and the files it includes. The zones are those
 * named-checkconf -z loads, in its order; checks is the caller's options, onto which each
 * zone's options, views' and options' check-* settings and load limits are laid. What named's
 * grammar refuses, what the file says wrongly otherwise, or what this reader does not support
 * is reported to diag at its place (the conf is then NULL and the status ZP_OK), an include
 * that cannot be read too; ZP_EIO (errno) when path itself cannot be read (errno 0: why was
 * reported to diag: not a regular file, or too large), ZP_ENOMEM. The conf
 * owns every string and location it hands out. */
ZP_NODISCARD zp_status zp_conf_read(const char *path, const zp_check_options *checks,
                                    zp_diag *diag, zp_conf **conf);
/* NULL when sb is a regular file's, else what it is ("a FIFO"): the conf's files and its zone
 * files are read only when regular, and a message says so after it with ZP_CONF_NOT_REGULAR. */
static inline const char *zp_conf_not_regular(const struct stat *sb)
{
  switch (sb->st_mode & S_IFMT) {
  case S_IFREG: return NULL;
  case S_IFDIR: return "a directory";
  case S_IFIFO: return "a FIFO";
  case S_IFCHR: return "a character device";
  case S_IFBLK: return "a block device";
  case S_IFSOCK: return "a socket";
  default: return "not a regular file";
  }
}
#define ZP_CONF_NOT_REGULAR "not a regular file: zonepuny reads a named.conf's files only when " \
  "they are regular files (a device could be read for ever, a FIFO wait for ever)"
size_t zp_conf_count(const zp_conf *conf);
const zp_conf_zone *zp_conf_zone_at(const zp_conf *conf, size_t i);
void zp_conf_free(zp_conf *conf);
#endif
