#!/usr/bin/env bash
# check_install.sh -- make install honours PREFIX and DESTDIR and installs a working binary + man page
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
check() { if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $*"; fi; }
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
make -s install BUILD="${BUILD:-build}" DESTDIR="$dest" PREFIX=/opt/zp >/dev/null
check test -x "$dest/opt/zp/bin/zonepuny"
check test -f "$dest/opt/zp/share/man/man1/zonepuny.1"
check test "$("$dest/opt/zp/bin/zonepuny" --version | cut -d' ' -f1)" = zonepuny
if command -v man >/dev/null; then check man -l "$dest/opt/zp/share/man/man1/zonepuny.1" >/dev/null 2>&1; fi
check test -z "$(ls -A "$dest" | grep -v '^opt$')"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
