/* keep.h -- what a new file takes over from the file it replaces: owner and group, permission
 * bits, POSIX ACL, extended attributes */
#ifndef ZP_KEEP_H
#define ZP_KEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "idna/status.h"

/* Gives fd, a new regular file beside path (the file it will replace; old, its stat), path's
 * owner and group, permission bits, ACL (system.posix_acl_access) and every other extended
 * attribute this process can list (user., trusted., security. ...) but security.ima and
 * security.evm, which the kernel computes over the new content. An attribute the new file
 * already has with the same value is left alone, so that a security label given to it when it
 * was made needs no permission to relabel. ZP_EOWNER when this process may not give it path's
 * owner and group, unless any_owner, which then keeps this process's; ZP_EIO when an attribute
 * cannot be read or given; ZP_ENOMEM. On failure, why[0..n) says what and why. */
ZP_NODISCARD zp_status zp_keep_attributes(int fd, const char *path, const struct stat *old,
                                          bool any_owner, char *why, size_t n);

#endif
