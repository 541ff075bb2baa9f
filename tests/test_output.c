/* test_output.c -- -o safety: the target changes only on a successful commit */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "write/output.h"

static char dir[64];
static char why[ZP_OUTPUT_WHY];

static void make_dir(void)
{
  strcpy(dir, "/tmp/zp-output-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
}

static void path_in(char *buf, const char *name)
{
  snprintf(buf, 128, "%s/%s", dir, name);
}

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fputs(text, f);
  fclose(f);
}

static char *read_file(const char *path)
{
  static char buf[256];
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f, "%s", path);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

/* Entries in dir besides . and .., so a temporary file left behind is seen. */
static int entries(void)
{
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return n;
}

static void remove_dir(void)
{
  if (!dir[0])
    return;
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && unlink(path) != 0)
      rmdir(path);
  }
  if (d)
    closedir(d);
  rmdir(dir);
}

Test(output, commit_replaces_the_target_and_keeps_its_mode, .fini = remove_dir)
{
  make_dir();
  char path[128];
  path_in(path, "out.zone");
  write_file(path, "old\n");
  chmod(path, 0640);
  zp_output *o;
  cr_assert_eq(zp_output_open(path, 0, &o, why, sizeof why), ZP_OK);
  fputs("new\n", zp_output_file(o));
  cr_expect_str_eq(read_file(path), "old\n");
  cr_assert_eq(zp_output_commit(o), ZP_OK);
  cr_expect_str_eq(read_file(path), "new\n");
  struct stat st;
  cr_assert_eq(stat(path, &st), 0);
  cr_expect_eq(st.st_mode & 07777, 0640);
  cr_expect_eq(entries(), 1);
}

Test(output, abort_leaves_the_target_byte_identical, .fini = remove_dir)
{
  make_dir();
  char path[128];
  path_in(path, "out.zone");
  write_file(path, "old\n");
  zp_output *o;
  cr_assert_eq(zp_output_open(path, 0, &o, why, sizeof why), ZP_OK);
  fputs("half a zo", zp_output_file(o));
  zp_output_abort(o);
  cr_expect_str_eq(read_file(path), "old\n");
  cr_expect_eq(entries(), 1);
}

Test(output, a_failed_rename_removes_the_temporary_file, .fini = remove_dir)
{
  make_dir();
  char path[128];
  path_in(path, "out.zone");
  write_file(path, "old\n");
  zp_output *o;
  cr_assert_eq(zp_output_open(path, 0, &o, why, sizeof why), ZP_OK);
  fputs("x\n", zp_output_file(o));
  /* a directory where the file was: rename(2) cannot replace it */
  cr_assert_eq(unlink(path), 0);
  cr_assert_eq(mkdir(path, 0755), 0);
  cr_expect_eq(zp_output_commit(o), ZP_EIO);
  cr_expect_eq(entries(), 1);
}

Test(output, a_directory_is_refused_before_anything_is_made, .fini = remove_dir)
{
  make_dir();
  char path[128];
  path_in(path, "adir");
  cr_assert_eq(mkdir(path, 0755), 0);
  zp_output *o;
  cr_expect_eq(zp_output_open(path, 0, &o, why, sizeof why), ZP_EIO);
  cr_expect_null(o);
  cr_expect_not_null(strstr(why, "is a directory"), "%s", why);
  cr_expect_eq(entries(), 1);
}

Test(output, a_symlink_stays_one_and_its_target_is_replaced, .fini = remove_dir)
{
  make_dir();
  char path[128], link[128];
  path_in(path, "out.zone");
  path_in(link, "link.zone");
  write_file(path, "old\n");
  cr_assert_eq(symlink("out.zone", link), 0);
  zp_output *o;
  cr_assert_eq(zp_output_open(link, 0, &o, why, sizeof why), ZP_OK);
  fputs("new\n", zp_output_file(o));
  cr_assert_eq(zp_output_commit(o), ZP_OK);
  struct stat st;
  cr_assert_eq(lstat(link, &st), 0);
  cr_expect(S_ISLNK(st.st_mode));
  cr_expect_str_eq(read_file(path), "new\n");
  cr_expect_eq(entries(), 2);
}

Test(output, a_hard_link_is_split_only_when_asked, .fini = remove_dir)
{
  make_dir();
  char path[128], other[128];
  path_in(path, "out.zone");
  path_in(other, "other.zone");
  write_file(path, "old\n");
  cr_assert_eq(link(path, other), 0);
  zp_output *o;
  cr_expect_eq(zp_output_open(path, 0, &o, why, sizeof why), ZP_EIO);
  cr_expect_not_null(strstr(why, "1 other hard link"), "%s", why);
  cr_assert_eq(zp_output_open(path, ZP_OUTPUT_BREAK_LINKS, &o, why, sizeof why), ZP_OK);
  fputs("new\n", zp_output_file(o));
  cr_assert_eq(zp_output_commit(o), ZP_OK);
  cr_expect_str_eq(read_file(path), "new\n");
  cr_expect_str_eq(read_file(other), "old\n");
  cr_expect_eq(entries(), 2);
}

Test(output, a_missing_directory_is_an_io_error, .fini = remove_dir)
{
  zp_output *o;
  cr_expect_eq(zp_output_open("/nonexistent-zp/out.zone", 0, &o, why, sizeof why), ZP_EIO);
  cr_expect_null(o);
}

Test(output, a_full_standard_output_is_an_io_error, .fini = remove_dir)
{
  cr_assert_not_null(freopen("/dev/full", "w", stdout));
  zp_output *o;
  cr_assert_eq(zp_output_open(NULL, 0, &o, why, sizeof why), ZP_OK);
  for (int i = 0; i < 10000; i++)
    fputs("x.\t3600\tIN\tA\t192.0.2.1\n", zp_output_file(o));
  cr_expect_eq(zp_output_commit(o), ZP_EIO);
}

Test(output, a_signal_removes_the_temporary_file, .fini = remove_dir)
{
  make_dir();
  char path[128];
  path_in(path, "out.zone");
  write_file(path, "old\n");
  pid_t pid = fork();
  cr_assert_neq(pid, -1);
  if (pid == 0) {
    zp_output *o;
    if (zp_output_open(path, 0, &o, why, sizeof why) != ZP_OK)
      _exit(3);
    fputs("new\n", zp_output_file(o));
    fflush(zp_output_file(o));
    raise(SIGTERM);
    _exit(4);
  }
  int status;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  cr_expect_str_eq(read_file(path), "old\n");
  cr_expect_eq(entries(), 1);
}

Test(output, sigkill_leaves_no_temporary_file, .fini = remove_dir)
{
  make_dir();
  char path[128];
  path_in(path, "out.zone");
  write_file(path, "old\n");
  pid_t pid = fork();
  cr_assert_neq(pid, -1);
  if (pid == 0) {
    zp_output *o;
    if (zp_output_open(path, 0, &o, why, sizeof why) != ZP_OK)
      _exit(3);
    fputs("new\n", zp_output_file(o));
    fflush(zp_output_file(o));
    raise(SIGKILL);
    _exit(4);
  }
  int status;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  cr_expect_str_eq(read_file(path), "old\n");
  cr_expect_eq(entries(), 1);
}
