#!/usr/bin/env bash
# check_install.sh -- make install honours PREFIX and DESTDIR and installs a working binary + man page
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
check() { if "$@"; then ok; else bad "$*"; fi; }
make_tmp
dest=$tmp
make -s install BUILD="${BUILD:-build}" DESTDIR="$dest" PREFIX=/opt/zp >/dev/null
check test -x "$dest/opt/zp/bin/zonepuny"
check test -x "$dest/opt/zp/bin/zonepuny-reload"
check test -f "$dest/opt/zp/share/man/man1/zonepuny.1"
check test "$("$dest/opt/zp/bin/zonepuny" --version | cut -d' ' -f1)" = zonepuny
if command -v man >/dev/null; then check man -l "$dest/opt/zp/share/man/man1/zonepuny.1" >/dev/null 2>&1
else skip "man not installed, the man page is not rendered"; fi
check test -z "$(ls -A "$dest" | grep -v '^opt$')"
finish
