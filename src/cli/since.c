/* since.c -- --since REV: a zone's version at a git revision, its $INCLUDE fence with it, taken
 * out of the repository (git archive, tar) into a directory of its own under $TMPDIR, which a
 * cleaner process removes should the run be killed; git and tar are run without a shell, their
 * arguments as given */
#define _GNU_SOURCE   /* (nftw's FTW_DEPTH and FTW_PHYS) */
#include "since.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/tmpfile.h"
#include "diff/diff.h"
#include "record/soa_serial.h"

extern char **environ;

typedef struct taken {
  char *top, *root_rel;   /* a repository's top and a fence in it (relative, "" for the top) */
  char *dir;              /* where that fence is at REV */
  int wfd;                /* the write end of its cleaner's pipe, -1 for none */
  pid_t cleaner;
} taken;

struct zp_since {
  char *rev;
  taken *t;
  size_t n;
  char *checked_top;      /* the last top REV was found a commit in */
};

zp_status zp_since_new(const char *rev, zp_since **s)
{
  *s = calloc(1, sizeof **s);
  if (!*s || !((*s)->rev = strdup(rev))) {
    free(*s);
    *s = NULL;
    return ZP_ENOMEM;
  }
  return ZP_OK;
}

/* Runs argv (a program on PATH) with its standard input from in and its output to out (-1:
 * /dev/null for both), and keep (-1: none) left open in it; its exit status, or -1 when it could
 * not run. */
static int run(char *const argv[], int in, int out, int keep)
{
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  if (in >= 0)
    posix_spawn_file_actions_adddup2(&fa, in, 0);
  else
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (out >= 0)
    posix_spawn_file_actions_adddup2(&fa, out, 1);
  else
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  if (keep >= 0)   /* (dup2 onto itself turns FD_CLOEXEC off: POSIX.1-2024, glibc 2.29) */
    posix_spawn_file_actions_adddup2(&fa, keep, keep);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    return -1;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The first line argv writes (a path git prints), malloc'd; NULL when it fails. */
static char *first_line(char *const argv[])
{
  FILE *f = tmpfile();
  if (!f)
    return NULL;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  if (run(argv, -1, fileno(f), -1) == 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (n = getline(&line, &cap, f)) > 1) {
    line[n - 1] = '\0';
  } else {
    free(line);
    line = NULL;
  }
  fclose(f);
  return line;
}

/* path's remainder below dir ("" for dir itself), or NULL when it is not below it. */
static const char *below(const char *path, const char *dir)
{
  size_t n = strlen(dir);
  if (strncmp(path, dir, n) != 0 || (path[n] != '/' && path[n] != '\0'))
    return NULL;
  return path[n] == '/' ? path + n + 1 : path + n;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void)sb, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

/* A cleaner for dir, a process that outlives the run: it blocks reading a pipe whose write end
 * only the run holds, and the kernel's closing of that end brings EOF however the run ends,
 * SIGKILL too; it then removes dir (gone already when the run ended well). A signal handler
 * cannot: fork there deadlocks when the signal came inside malloc. A process group of its own
 * and the signals that end a group blocked keep Ctrl-C or a CI job's timeout from ending it
 * before the run it cleans up after; posix_spawn, not fork, as the run may have threads. Its
 * pid and *wfd, or -1 for both: dir is then removed only by a run that ends well. */
static pid_t watch(const char *dir, int *wfd)
{
  static const char script[] = "trap '' HUP INT QUIT TERM\n"
                               "while read -r _; do :; done\n"
                               "[ -d \"$1\" ] && [ ! -h \"$1\" ] && exec /bin/rm -rf -- \"$1\"\n";
  *wfd = -1;
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0)
    return -1;
  /* the ends above 2 (0, 1 or 2 is free when one was closed): the children's standard
   * descriptors are set over those, and an old libc closes an end dup2'd onto itself; an EOF
   * that came early would remove dir while in use */
  for (int i = 0; i < 2; i++)
    if (p[i] <= 2) {
      int d = fcntl(p[i], F_DUPFD_CLOEXEC, 3);
      close(p[i]);
      p[i] = d;
    }
  if (p[0] < 0 || p[1] < 0) {
    close(p[0]), close(p[1]);
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&at);
  posix_spawn_file_actions_adddup2(&fa, p[0], 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  sigset_t ends;
  sigemptyset(&ends);
  sigaddset(&ends, SIGHUP), sigaddset(&ends, SIGINT), sigaddset(&ends, SIGQUIT);
  sigaddset(&ends, SIGTERM);
  posix_spawnattr_setsigmask(&at, &ends);
  posix_spawnattr_setpgroup(&at, 0);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  char *argv[] = {"sh", "-c", (char *)script, "sh", (char *)dir, NULL};
  char *envp[] = {"PATH=/usr/bin:/bin", NULL};
  pid_t pid;
  int rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, envp);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(p[0]);
  if (rc != 0) {
    close(p[1]);
    return -1;
  }
  *wfd = p[1];
  return pid;
}

/* dir removed, then its cleaner let go: it finds dir gone and ends at once. */
static void unwatch(const char *dir, int wfd, pid_t cleaner)
{
  nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  if (wfd >= 0)
    close(wfd);
  while (cleaner > 0 && waitpid(cleaner, NULL, 0) < 0 && errno == EINTR)
    ;
}

/* The fence root_rel of top at REV, taken out once a run. */
static const char *take(zp_since *s, const char *top, const char *root_rel, char *why, size_t cap)
{
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->t[i].top, top) == 0 && strcmp(s->t[i].root_rel, root_rel) == 0)
      return s->t[i].dir;
  taken *t = realloc(s->t, (s->n + 1) * sizeof *t);
  if (!t)
    return snprintf(why, cap, "out of memory"), NULL;
  s->t = t;
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/zonepuny-since-XXXXXX", zp_tmpdir());
  /* from mkdtemp until the cleaner watches dir, no signal that can be blocked may end the run */
  sigset_t all, saved;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &saved);
  bool made = mkdtemp(dir) != NULL;
  int e = errno, wfd = -1;
  pid_t cleaner = made ? watch(dir, &wfd) : -1;
  sigprocmask(SIG_SETMASK, &saved, NULL);
  if (!made)
    return snprintf(why, cap, "cannot make a directory in %s: %s", zp_tmpdir(), strerror(e)),
           NULL;
  int p[2];
  if (pipe(p) != 0) {
    snprintf(why, cap, "pipe: %s", strerror(errno));
    unwatch(dir, wfd, cleaner);
    return NULL;
  }
  char *git[] = {"git", "-C", (char *)top, "archive", "--format=tar", s->rev, "--",
                 *root_rel ? (char *)root_rel : NULL, NULL};
  char *tar[] = {"tar", "-x", "-f", "-", "-C", dir, NULL};
  /* git writes into the pipe while tar reads it: git runs from a child of its own, tar here */
  pid_t pid = fork();
  if (pid == 0) {
    /* (git does not write into dir: a git that outlives a killed run need not hold the
     * cleaners back) */
    close(p[0]);
    if (wfd >= 0)
      close(wfd);
    for (size_t i = 0; i < s->n; i++)
      if (t[i].wfd >= 0)
        close(t[i].wfd);
    _exit(run(git, -1, p[1], -1) == 0 ? 0 : 1);
  }
  close(p[1]);
  /* tar holds the cleaner's pipe too: a run killed while tar writes into dir would otherwise
   * have it removed under tar, which could leave entries made after */
  int tar_rc = pid > 0 ? run(tar, p[0], -1, wfd) : -1, status = 0;
  close(p[0]);
  while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  taken k = {strdup(top), strdup(root_rel), strdup(dir), wfd, cleaner};
  if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || tar_rc != 0 || !k.top ||
      !k.root_rel || !k.dir) {
    snprintf(why, cap, "git archive %s of %s/%s, through tar, failed", s->rev, top, root_rel);
    unwatch(dir, wfd, cleaner);
    free(k.top), free(k.root_rel), free(k.dir);
    return NULL;
  }
  t[s->n++] = k;
  return t[s->n - 1].dir;
}

/* The path rel had at rev when git sees it renamed since (the work tree against rev, renames
 * found as git diff -M finds them), malloc'd; NULL when it has none. */
static char *renamed_from(const char *top, const char *rev, const char *rel)
{
  FILE *f = tmpfile();
  if (!f)
    return NULL;
  char *argv[] = {"git", "-C", (char *)top, "diff", "--no-ext-diff", "-M", "--name-status",
                  "-z", (char *)rev, "--", NULL};
  char *status = NULL, *from = NULL, *to = NULL, *found = NULL;
  size_t cs = 0, cf = 0, ct = 0;
  if (run(argv, -1, fileno(f), -1) == 0 && fseek(f, 0, SEEK_SET) == 0) {
    /* entries: STATUS NUL PATH NUL, and for a rename (R) or copy (C) a second PATH NUL */
    while (!found && getdelim(&status, &cs, '\0', f) > 0 && getdelim(&from, &cf, '\0', f) > 0) {
      if (status[0] != 'R' && status[0] != 'C')
        continue;
      if (getdelim(&to, &ct, '\0', f) <= 0)
        break;
      if (status[0] == 'R' && strcmp(to, rel) == 0)
        found = strdup(from);
    }
  }
  free(status), free(from), free(to);
  fclose(f);
  return found;
}

zp_status zp_since_old(zp_since *s, const char *path, const char *include_root, char **old_path,
                       char **old_root, char *why, size_t cap)
{
  *old_path = *old_root = NULL;
  char real[PATH_MAX], root[PATH_MAX];
  if (!realpath(path, real))
    return snprintf(why, cap, "%s: %s", path, strerror(errno)), ZP_EIO;
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", real);
  *strrchr(dir, '/') = '\0';
  if (!realpath(include_root ? include_root : *dir ? dir : "/", root))
    return snprintf(why, cap, "%s: %s", include_root, strerror(errno)), ZP_EIO;
  char *top_argv[] = {"git", "-C", *dir ? dir : "/", "rev-parse", "--show-toplevel", NULL};
  char *top = first_line(top_argv);
  if (!top)
    return snprintf(why, cap, "%s is in no git work tree", path), ZP_EINVAL;
  zp_status st = ZP_OK;
  const char *rel = below(real, top), *root_rel = below(root, top);
  if (!root_rel)
    root_rel = "";   /* (a fence above the repository: all of it) */
  if (!s->checked_top || strcmp(s->checked_top, top) != 0) {
    char spec[PATH_MAX + 16];
    snprintf(spec, sizeof spec, "%s^{commit}", s->rev);
    char *verify[] = {"git", "-C", top, "rev-parse", "--verify", "--quiet", spec, NULL};
    if (run(verify, -1, -1, -1) != 0) {
      snprintf(why, cap, "no revision %s in the git repository %s", s->rev, top);
      free(top);
      return ZP_EINVAL;
    }
    free(s->checked_top);
    s->checked_top = strdup(top);
  }
  char spec[2 * PATH_MAX], *was = NULL;
  snprintf(spec, sizeof spec, "%s:%s", s->rev, rel ? rel : "");
  char *exists[] = {"git", "-C", top, "cat-file", "-e", spec, NULL};
  if (rel && run(exists, -1, -1, -1) != 0) {
    /* not under its name at REV: renamed since (read under its old name, when that is inside
     * the fence taken out), or new */
    was = renamed_from(top, s->rev, rel);
    rel = was && (!*root_rel || below(was, root_rel)) ? was : NULL;
  }
  if (rel) {
    const char *d = take(s, top, root_rel, why, cap);
    size_t n = d ? strlen(d) + strlen(rel) + strlen(root_rel) + 3 : 0;
    if (!d) {
      st = ZP_EIO;
    } else if (!(*old_path = malloc(n)) || !(*old_root = malloc(n))) {
      st = ZP_ENOMEM;
    } else {
      snprintf(*old_path, n, "%s/%s", d, rel);
      snprintf(*old_root, n, "%s/%s", d, root_rel);
    }
  }
  free(was);
  free(top);
  return st;
}

void zp_since_free(zp_since *s)
{
  if (!s)
    return;
  for (size_t i = 0; i < s->n; i++) {
    unwatch(s->t[i].dir, s->t[i].wfd, s->t[i].cleaner);
    free(s->t[i].top);
    free(s->t[i].root_rel);
    free(s->t[i].dir);
  }
  free(s->t);
  free(s->rev);
  free(s->checked_top);
  free(s);
}

bool zp_since_judge(zp_since *s, const zp_cli *cli, const zp_pipeline_options *po, zp_diag *diag,
                    const char *path, zp_sorter *now, const zp_serial_at *at)
{
  zp_check_level level = cli->checks.level[ZP_CK_SERIAL_SINCE];
  char why[PATH_MAX + 256], *old_path, *old_root;
  zp_status st = zp_since_old(s, path, po->include_root, &old_path, &old_root, why, sizeof why);
  if (st != ZP_OK) {
    zp_source src = {.path = path};
    zp_loc loc = {.src = &src};
    zp_diag_report(diag, &loc, ZP_ERROR, "--since %s: %s", s->rev, why);
    return false;
  }
  if (!old_path)
    return true;   /* a new zone: nothing to compare */
  /* the zone at REV, read quietly: what is wrong in it was REV's to tell */
  zp_sorter then;
  zp_sort_init(&then, cli->sort_memory);
  zp_pipeline_options o = *po;
  o.checks.off = true;
  o.include_root = old_root;
  o.include_dir = NULL;
  o.hold = &then;
  o.serial_at = NULL;
  zp_diag quiet;
  zp_diag_init(&quiet, diag->out);
  quiet.silent = true;
  quiet.max_errors = 1;
  zp_input in = {.path = old_path};
  st = zp_pipeline_run(&in, &o, &quiet, NULL, NULL);
  zp_diff_options dopt = {.format = ZP_DIFF_COUNT};
  zp_diff_counts n = {0};
  if (st == ZP_OK && quiet.errors == 0)
    st = zp_diff_run(&then, now, &dopt, NULL, NULL, &n);
  zp_sort_free(&then);
  free(old_path);
  free(old_root);
  zp_source src = {.path = at->path ? at->path : path};
  zp_loc loc = {.src = &src, .line = at->path ? at->line : 0, .col = at->col};
  if (st == ZP_ENOMEM || st == ZP_ETMPFILE || st == ZP_ETMPLIMIT)
    return zp_cli_ran(diag, st, path, NULL);
  if (st != ZP_OK || quiet.errors) {
    zp_diag_report(diag, &loc, ZP_WARNING, "--since %s: %s as it was at %s does not read "
                   "as a zone, so its serial is not compared [-Wserial-since]", s->rev, path,
                   s->rev);
    return true;
  }
  if (!n.old_soa || !n.new_soa)
    return true;   /* (apex-soa tells of a zone without one) */
  int order = zp_serial_order(n.old_serial, n.new_serial);
  bool changed = n.removed || n.added || n.ttl;
  zp_severity sev = level == ZP_LEVEL_ERROR ? ZP_ERROR : ZP_WARNING;
  if (order == 0 && changed)
    zp_diag_report(diag, &loc, sev, "records changed since %s (%lu removed, %lu added, %lu with "
                   "another TTL) and the SOA serial is still %u: secondaries keep the old zone; "
                   "raise it above %u (RFC 1982 section 3.1) [-Wserial-since]", s->rev,
                   n.removed, n.added, n.ttl, n.new_serial, n.old_serial);
  else if (order == ZP_SERIAL_UNDEFINED)
    zp_diag_report(diag, &loc, sev, "the SOA serial %u is 2^31 from %s's %u: RFC 1982 section "
                   "3.2 leaves their order undefined, and secondaries may keep the old zone; "
                   "raise it by less [-Wserial-since]", n.new_serial, s->rev, n.old_serial);
  else if (order > 0)
    zp_diag_report(diag, &loc, sev, "the SOA serial went back since %s, from %u to %u: "
                   "secondaries holding %u take the zone as older and keep theirs (RFC 1982 "
                   "section 3.2); raise it above %u [-Wserial-since]", s->rev, n.old_serial,
                   n.new_serial, n.old_serial, n.old_serial);
  return true;
}
