#!/usr/bin/env bash
# check_install.sh -- make install honours PREFIX and DESTDIR and installs a working binary + man page
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
BUILD_BIN=${BUILD:-build}/zonepuny
check() { if "$@"; then ok; else bad "$*"; fi; }
make_tmp
dest=$tmp/dest
mkdir "$dest"
make -s install BUILD="${BUILD:-build}" DESTDIR="$dest" PREFIX=/opt/zp >/dev/null
check test -x "$dest/opt/zp/bin/zonepuny"
check test -x "$dest/opt/zp/bin/zonepuny-reload"
check test -x "$dest/opt/zp/bin/zonepuny-git-diff"
check test -f "$dest/opt/zp/share/man/man1/zonepuny.1"
check test -f "$dest/opt/zp/share/man/man1/zonepuny-reload.1"
# the documents the language server links to (codeDescription) and the editors' set-up
check test -f "$dest/opt/zp/share/doc/zonepuny/checks.md"
check test -f "$dest/opt/zp/share/doc/zonepuny/editors.md"
check test "$("$dest/opt/zp/bin/zonepuny" --version | cut -d' ' -f1)" = zonepuny
# the installed zonepuny-reload runs, and finds the zonepuny installed beside it
check test "$("$dest/opt/zp/bin/zonepuny-reload" --help | head -1 | cut -d' ' -f1-2)" = "usage: zonepuny-reload"
if command -v man >/dev/null; then
  for page in zonepuny zonepuny-reload; do
    check man -l "$dest/opt/zp/share/man/man1/$page.1" >/dev/null 2>&1
    # and without a warning from groff (-ww: all of them)
    if command -v groff >/dev/null; then
      check test -z "$(groff -k -man -Tutf8 -ww -z "$dest/opt/zp/share/man/man1/$page.1" 2>&1)"
    fi
  done
else skip "man not installed, the man pages are not rendered"; fi
# the installed pages say the version the installed binary says (the Makefile writes it into
# their @VERSION@, which the source pages keep: no number kept by hand); before the first release
# tag that is the file VERSION
version=$("$dest/opt/zp/bin/zonepuny" --version | cut -d' ' -f2)
for page in zonepuny zonepuny-reload; do
  th=$(grep -m1 '^\.TH ' "$dest/opt/zp/share/man/man1/$page.1")
  check test -n "$version" -a "$(cut -d'"' -f4 <<< "$th")" = "zonepuny $version"
  check grep -q '^\.TH .*"zonepuny @VERSION@"' "man/$page.1"
done
if ! git describe --tags --match 'v[0-9]*' >/dev/null 2>&1; then
  check test "$version" = "$(cat VERSION)"
fi
check test -f "$dest/opt/zp/include/zonepuny/idna.h"
check test -f "$dest/opt/zp/lib/libzonepuny-idna.a"
check grep -q '^prefix=/opt/zp$' "$dest/opt/zp/lib/pkgconfig/zonepuny-idna.pc"
check grep -q "^Version: $(cat VERSION)" "$dest/opt/zp/lib/pkgconfig/zonepuny-idna.pc"
# a program built against the installed library through pkg-config (its prefix moved to where
# DESTDIR put it) converts münchen, whose ACE form Python's encodings.idna gives as
# xn--mnchen-3ya
if command -v pkg-config >/dev/null; then
  cat > "$tmp/t.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <zonepuny/idna.h>
int main(void)
{
  const char *in = "m\xc3\xbcnchen";
  char out[64];
  size_t n = sizeof out;
  if (zp_idna_label_to_ascii(in, strlen(in), out, &n, 0, NULL) != ZP_OK)
    return 1;
  printf("%.*s\n", (int)n, out);
  return 0;
}
C
  pc() { PKG_CONFIG_PATH=$dest/opt/zp/lib/pkgconfig pkg-config --define-variable=prefix="$dest/opt/zp" "$@" zonepuny-idna; }
  # (a library from the sanitizer build, under make check-asan, needs its runtime)
  san=
  nm "$dest/opt/zp/lib/libzonepuny-idna.a" 2>/dev/null | grep -q __asan_init &&
    san="-fsanitize=address,undefined"
  check cc -std=c11 $san -o "$tmp/t" "$tmp/t.c" $(pc --cflags) $(pc --libs)
  check test "$("$tmp/t")" = xn--mnchen-3ya
else
  skip "pkg-config not installed: the library is not linked against"
fi
check test -z "$(ls -A "$dest" | grep -v '^opt$')"
# make uninstall removes every file install put there, and leaves the directories it did not make
make -s uninstall BUILD="${BUILD:-build}" DESTDIR="$dest" PREFIX=/opt/zp >/dev/null
check test -z "$(find "$dest" -type f)"
check test ! -e "$dest/opt/zp/include/zonepuny"
# install-strip: a binary without its symbol table (file(1)'s "not stripped" gone), still working
strip_dest=$tmp/strip
mkdir "$strip_dest"
make -s install-strip BUILD="${BUILD:-build}" DESTDIR="$strip_dest" PREFIX=/usr >/dev/null
check test "$("$strip_dest/usr/bin/zonepuny" --to-ascii münchen)" = xn--mnchen-3ya
if nm "$BUILD_BIN" >/dev/null 2>&1; then
  check test -z "$(nm "$strip_dest/usr/bin/zonepuny" 2>/dev/null)"
else
  skip "the build's binary has no symbols to strip"
fi
# make deps installs what building needs, and no server: the peers and oracles (which bring
# named, nsd and knot services) come with make deps-test
build_pkgs=$(bash tools/deps.sh --list build)
test_pkgs=$(bash tools/deps.sh --list test)
for p in bind9 bind9-utils nsd knot-dnssecutils valgrind clang libcriterion-dev; do
  check test -z "$(grep -x "$p" <<< "$build_pkgs")"
  check grep -qx "$p" <<< "$test_pkgs"
done
for p in flex bison libldns-dev; do
  check grep -qx "$p" <<< "$build_pkgs"
done
finish
