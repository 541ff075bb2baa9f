/* keep.c -- what a new file takes over from the file it replaces, so that whoever read the old
 * one (a name server running as its own user, let in by group or by an ACL) reads the new one,
 * and nobody else gains access */
#include "keep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

static const char acl_name[] = "system.posix_acl_access";

/* The owner and group first: chown clears the set-user-ID and set-group-ID bits and file
 * capabilities (security.capability), which are given after it. */
static zp_status keep_owner(int fd, const char *path, const struct stat *old, bool any_owner,
                            char *why, size_t n)
{
  struct stat now;
  if (fstat(fd, &now) != 0) {
    snprintf(why, n, "cannot read the new file's owner: %s", strerror(errno));
    return ZP_EIO;
  }
  if (now.st_uid == old->st_uid && now.st_gid == old->st_gid)
    return ZP_OK;
  if (fchown(fd, now.st_uid == old->st_uid ? (uid_t)-1 : old->st_uid,
             now.st_gid == old->st_gid ? (gid_t)-1 : old->st_gid) == 0)
    return ZP_OK;
  if (any_owner && (errno == EPERM || errno == EINVAL))
    return ZP_OK;
  snprintf(why, n, "%s is owned by uid %u, gid %u, and this user cannot give a new file that "
           "owner and group: whoever reads it now (a name server, say) might not; run as its "
           "owner or root, or pass --allow-owner-change", path, (unsigned)old->st_uid,
           (unsigned)old->st_gid);
  return ZP_EOWNER;
}

/* Attribute name of path (fd when path is NULL): its length, the value in *val (caller frees),
 * or -1 with errno set (ENODATA: it has none). */
static ssize_t get_attr(const char *path, int fd, const char *name, char **val)
{
  *val = NULL;
  for (;;) {
    ssize_t len = path ? lgetxattr(path, name, NULL, 0) : fgetxattr(fd, name, NULL, 0);
    if (len < 0)
      return -1;
    char *buf = malloc(len > 0 ? (size_t)len : 1);
    if (!buf) {
      errno = ENOMEM;
      return -1;
    }
    ssize_t got = path ? lgetxattr(path, name, buf, (size_t)len)
                       : fgetxattr(fd, name, buf, (size_t)len);
    if (got >= 0) {
      *val = buf;
      return got;
    }
    free(buf);
    if (errno != ERANGE)   /* (ERANGE: it grew in between) */
      return -1;
  }
}

/* The names of path's attributes, each NUL-terminated, end to end; -1 with errno set. */
static ssize_t list_attrs(const char *path, char **names)
{
  *names = NULL;
  for (;;) {
    ssize_t len = llistxattr(path, NULL, 0);
    if (len < 0)
      return errno == ENOTSUP ? 0 : -1;   /* a file system without them: none to keep */
    if (len == 0)
      return 0;
    char *buf = malloc((size_t)len);
    if (!buf) {
      errno = ENOMEM;
      return -1;
    }
    ssize_t got = llistxattr(path, buf, (size_t)len);
    if (got >= 0) {
      *names = buf;
      return got;
    }
    free(buf);
    if (errno != ERANGE)
      return -1;
  }
}

/* Gives fd attribute name with path's value, unless it has that value already. */
static zp_status copy_attr(int fd, const char *path, const char *name, char *why, size_t n)
{
  char *val, *cur;
  ssize_t len = get_attr(path, -1, name, &val);
  if (len < 0 && errno == ENODATA)
    return ZP_OK;   /* removed since it was listed */
  if (len < 0) {
    zp_status st = errno == ENOMEM ? ZP_ENOMEM : ZP_EIO;
    snprintf(why, n, "cannot read the extended attribute %s of %s, to give it to the file "
             "that replaces it: %s", name, path, strerror(errno));
    return st;
  }
  ssize_t cur_len = get_attr(NULL, fd, name, &cur);
  bool same = cur_len == len && memcmp(cur, val, (size_t)len) == 0;
  free(cur);
  zp_status st = ZP_OK;
  if (!same && fsetxattr(fd, name, val, (size_t)len, 0) != 0) {
    st = errno == ENOMEM ? ZP_ENOMEM : ZP_EIO;
    snprintf(why, n, "%s has the extended attribute %s, which this user cannot give the file "
             "that would replace it (%s): it is left as it was rather than lose it", path, name,
             strerror(errno));
  }
  free(val);
  return st;
}

/* Every attribute of path but the ACL, which goes after the permission bits. */
static zp_status copy_attrs(int fd, const char *path, char *why, size_t n)
{
  char *names;
  ssize_t len = list_attrs(path, &names);
  if (len < 0) {
    snprintf(why, n, "cannot list the extended attributes of %s: %s", path, strerror(errno));
    return errno == ENOMEM ? ZP_ENOMEM : ZP_EIO;
  }
  zp_status st = ZP_OK;
  for (const char *p = names; st == ZP_OK && p < names + len; p += strlen(p) + 1)
    if (strcmp(p, acl_name) != 0 && strcmp(p, "security.ima") != 0 &&
        strcmp(p, "security.evm") != 0)
      st = copy_attr(fd, path, p, why, n);
  free(names);
  return st;
}

zp_status zp_keep_attributes(int fd, const char *path, const struct stat *old, bool any_owner,
                             char *why, size_t n)
{
  zp_status st = keep_owner(fd, path, old, any_owner, why, n);
  if (st == ZP_OK)
    st = copy_attrs(fd, path, why, n);
  if (st != ZP_OK)
    return st;
  /* An ACL the new file took from its directory's default ACL is not the old file's. */
  char *val;
  ssize_t len = get_attr(path, -1, acl_name, &val);
  if (len < 0 && errno != ENODATA && errno != ENOTSUP) {
    snprintf(why, n, "cannot read the ACL of %s: %s", path, strerror(errno));
    return errno == ENOMEM ? ZP_ENOMEM : ZP_EIO;
  }
  if (len < 0 && fremovexattr(fd, acl_name) != 0 && errno != ENODATA && errno != ENOTSUP) {
    snprintf(why, n, "cannot take off the new file the ACL of its directory's default ACL, "
             "which %s has not: %s", path, strerror(errno));
    return ZP_EIO;
  }
  /* The permission bits before the ACL: with an ACL, chmod's group bits become the ACL's mask,
   * and the old file's group bits are its mask already. Set the other way round, the ACL's
   * entry for the owning group would be lost to the mask. */
  st = ZP_OK;
  if (fchmod(fd, old->st_mode & 07777) != 0) {
    snprintf(why, n, "cannot give the new file the permission bits of %s: %s", path,
             strerror(errno));
    st = ZP_EIO;
  } else if (len >= 0 && fsetxattr(fd, acl_name, val, (size_t)len, 0) != 0) {
    snprintf(why, n, "%s has an ACL (getfacl %s), which this user cannot give the file that "
             "would replace it (%s): it is left as it was rather than lose it", path, path,
             strerror(errno));
    st = ZP_EIO;
  }
  free(val);
  return st;
}
