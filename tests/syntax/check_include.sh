#!/usr/bin/env bash
# check_include.sh -- $INCLUDE safety: --no-include, --include-root against symlinks and ../
# escapes, and the exit statuses (1: the zone has errors, 2: usage). Expected messages are
# written out by hand from the option's definition.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp

# run WANT_RC NAME ARGS...: zonepuny with ARGS from $tmp, stdout/stderr kept in $tmp/out, err;
# the zones here are about files, not whole-zone rules (--fragment)
run() {
  local want=$1 name=$2
  shift 2
  (cd "$tmp" && "$ZONEPUNY" --fragment "$@" >out 2>err)
  local rc=$?
  [ "$rc" -eq "$want" ] && ok || { bad "$name: exit $rc, want $want"; cat "$tmp/err"; }
}

mkdir -p "$tmp/root/sub" "$tmp/outside"
soa='@ 3600 IN SOA ns hostmaster 1 7200 3600 1209600 3600'
printf '$ORIGIN example.\n%s\n@ 3600 IN NS ns\n$INCLUDE sub/a.zone\n' "$soa" > "$tmp/root/main.zone"
printf 'a 3600 IN A 192.0.2.1\n' > "$tmp/root/sub/a.zone"
printf 'b 3600 IN A 192.0.2.2\n' > "$tmp/outside/b.zone"

run 0 "include inside the root" --include-root root root/main.zone
grep -q '^a\.example\.	3600	IN	A	192\.0\.2\.1$' "$tmp/out" && ok || bad "included record missing"
run 0 "include root given with a trailing slash and ." --include-root ./root/ root/main.zone

run 1 "--no-include" --no-include root/main.zone
grep -qF 'root/main.zone:4:1: error: $INCLUDE "root/sub/a.zone" refused: --no-include is in force' \
  "$tmp/err" && ok || bad "--no-include message: $(cat "$tmp/err")"
grep -q 'a\.example' "$tmp/out" && bad "--no-include still read the file" || ok

# a symlink inside the root that points outside it
ln -s ../../outside/b.zone "$tmp/root/sub/link.zone"
printf '$ORIGIN example.\n%s\n$INCLUDE sub/link.zone\n' "$soa" > "$tmp/root/sym.zone"
run 1 "symlink escaping the root" --include-root root root/sym.zone
grep -qF "refused: it resolves to \"$(cd "$tmp" && pwd -P)/outside/b.zone\", outside --include-root $(cd "$tmp/root" && pwd -P)" \
  "$tmp/err" && ok || bad "symlink message: $(cat "$tmp/err")"
grep -q 'b\.example' "$tmp/out" && bad "symlink escape was read" || ok
run 0 "the same symlink without --include-root" root/sym.zone

# ../ escapes, plain and through a directory inside the root
for p in ../outside/b.zone sub/../../outside/b.zone "$tmp/outside/b.zone"; do
  printf '$ORIGIN example.\n%s\n$INCLUDE %s\n' "$soa" "$p" > "$tmp/root/dots.zone"
  run 1 "escape $p" --include-root root root/dots.zone
  grep -q 'outside --include-root' "$tmp/err" && ok || bad "escape $p: message: $(cat "$tmp/err")"
done
# ../ that stays inside the root is fine
printf '$ORIGIN example.\n%s\n$INCLUDE sub/../sub/a.zone\n' "$soa" > "$tmp/root/in.zone"
run 0 "../ staying inside" --include-root root root/in.zone

# a root that is a prefix of the real directory's name is not that directory
mkdir -p "$tmp/rootx"
printf 'c 3600 IN A 192.0.2.3\n' > "$tmp/rootx/c.zone"
printf '$ORIGIN example.\n%s\n$INCLUDE ../rootx/c.zone\n' "$soa" > "$tmp/root/prefix.zone"
run 1 "sibling with the root as name prefix" --include-root root root/prefix.zone

# a symlinked root is resolved too; a missing include is still a plain read error
ln -s root "$tmp/rootlink"
run 0 "root given through a symlink" --include-root rootlink root/main.zone
printf '$ORIGIN example.\n%s\n$INCLUDE sub/missing.zone\n' "$soa" > "$tmp/root/missing.zone"
run 1 "missing include under a root" --include-root root root/missing.zone
grep -q 'cannot read included file "root/sub/missing.zone"' "$tmp/err" && ok || bad "missing: $(cat "$tmp/err")"

# an include that is not a regular file would be read for ever (/dev/zero) or block in open()
# (a FIFO with no writer): refused; the timeout only turns a hang into a failure
mkfifo "$tmp/root/fifo.zone"
for p in /dev/zero fifo.zone sub; do
  printf '$ORIGIN example.\n%s\n$INCLUDE %s\n' "$soa" "$p" > "$tmp/root/dev.zone"
  (cd "$tmp" && timeout 20 "$ZONEPUNY" root/dev.zone >out 2>err)
  rc=$?
  [ $rc -eq 1 ] && ok || bad "\$INCLUDE $p: exit $rc, want 1"
  grep -q 'is not a regular file' "$tmp/err" && ok || bad "\$INCLUDE $p: message: $(cat "$tmp/err")"
done

# no secrets in logs: a file outside the root that would be an error on every line (a key file,
# say) is refused at the $INCLUDE, and no line of it is quoted
printf 'Private-key-format: v1.3\nPrivateExponent: c2VjcmV0\n' > "$tmp/outside/K.private"
printf '$ORIGIN example.\n%s\n$INCLUDE ../outside/K.private\n' "$soa" > "$tmp/root/key.zone"
run 1 "a key file outside the root" --include-root root root/key.zone
grep -q 'PrivateExponent\|Private-key-format' "$tmp/err" && bad "a line of the key file was quoted" || ok
grep -qF 'root/key.zone:3:10: error: $INCLUDE "root/../outside/K.private" refused' "$tmp/err" && ok || bad "key file: message: $(cat "$tmp/err")"

run 2 "--include-root not a directory" --include-root root/main.zone root/main.zone
run 2 "--include-root missing" --include-root nowhere root/main.zone

finish
