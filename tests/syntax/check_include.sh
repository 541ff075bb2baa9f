#!/usr/bin/env bash
# check_include.sh -- $INCLUDE safety (doc/safety.md): the fence (the zone file's directory
# by default, --include-root DIR, --include-root /, --no-include) against symlinks, ../ escapes
# and absolute paths; one refusal for a file outside the root and for one that does not exist;
# regular files only; nothing shown of a file that does not read as a zone (a key file, an
# /etc/shadow made here); the exit statuses (1: the zone has errors, 2: usage). The fence cases
# run with openat2(2) and again with the kernel made to lack it (tests/without_openat2.py), the
# O_NOFOLLOW walk. Expected messages are written out by hand from the options' definitions.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp

walk=()   # the command zonepuny runs under: nothing, or the filter that hides openat2
# run WANT_RC NAME ARGS...: zonepuny with ARGS from $tmp, stdout/stderr kept in $tmp/out, err;
# the zones here are about files, not whole-zone rules (--fragment)
run() {
  local want=$1 name=$2
  shift 2
  (cd "$tmp" && ${walk[@]+"${walk[@]}"} "$ZONEPUNY" --fragment "$@" >out 2>err)
  local rc=$?
  [ "$rc" -eq "$want" ] && ok || { bad "$name${walk[*]:+ (walk)}: exit $rc, want $want"; cat "$tmp/err"; }
}
# has NAME TEXT: $tmp/err holds TEXT
has() {
  grep -qF -- "$2" "$tmp/err" && ok || bad "$1${walk[*]:+ (walk)}: message: $(cat "$tmp/err")"
}
# unread NAME TEXT: TEXT is nowhere in $tmp/out or $tmp/err
unread() {
  grep -qiF -- "$2" "$tmp/out" "$tmp/err" && bad "$1${walk[*]:+ (walk)}: $2 was shown: $(cat "$tmp/err")" || ok
}

mkdir -p "$tmp/root/sub" "$tmp/root/other" "$tmp/outside" "$tmp/lib" "$tmp/zones"
real_tmp=$(cd "$tmp" && pwd -P)
soa='@ 3600 IN SOA ns hostmaster 1 7200 3600 1209600 3600'
zone() { printf '$ORIGIN example.\n%s\n$INCLUDE %s\n' "$soa" "$2" > "$tmp/root/$1"; }
printf '$ORIGIN example.\n%s\n@ 3600 IN NS ns\n$INCLUDE sub/a.zone\n' "$soa" > "$tmp/root/main.zone"
printf 'a 3600 IN A 192.0.2.1\n' > "$tmp/root/sub/a.zone"
printf 'o 3600 IN A 192.0.2.4\n' > "$tmp/root/other/o.zone"
printf 'b 3600 IN A 192.0.2.2\n' > "$tmp/outside/b.zone"
ln -s ../../outside/b.zone "$tmp/root/sub/link.zone"       # leaves the root
ln -s ../other/o.zone "$tmp/root/sub/inside.zone"          # stays in it
ln -s "$real_tmp/root/other/o.zone" "$tmp/root/sub/abs.zone"   # absolute, even if inside
zone sym.zone sub/link.zone
zone symin.zone sub/inside.zone
zone symabs.zone sub/abs.zone
zone in.zone sub/../sub/a.zone
zone absin.zone "$real_tmp/root/sub/a.zone"
zone missing.zone sub/missing.zone
mkdir -p "$tmp/rootx"
printf 'c 3600 IN A 192.0.2.3\n' > "$tmp/rootx/c.zone"
zone prefix.zone ../rootx/c.zone
ln -s root "$tmp/rootlink"
printf 'l 3600 IN A 192.0.2.5\n' > "$tmp/lib/l.zone"
printf '$ORIGIN example.\n%s\n$INCLUDE ../lib/l.zone\n' "$soa" > "$tmp/zones/up.zone"
printf '$ORIGIN example.\n%s\n$INCLUDE local.zone\n' "$soa" > "$tmp/zones/local-inc.zone"
printf 'x 3600 IN A 192.0.2.6\n' > "$tmp/zones/local.zone"
refused='not found below the include root'
default=', the zone file'"'"'s directory (--include-root DIR moves it)'

fence_cases() {
  run 0 "include inside the root" --include-root root root/main.zone
  grep -q '^a\.example\.	3600	IN	A	192\.0\.2\.1$' "$tmp/out" && ok || bad "included record missing"
  run 0 "include root given with a trailing slash and ." --include-root ./root/ root/main.zone
  run 0 "include inside the zone's directory, by default" root/main.zone
  run 0 "root given through a symlink" --include-root rootlink root/main.zone

  run 1 "--no-include" --no-include root/main.zone
  has "--no-include" 'root/main.zone:4:1: error: $INCLUDE "root/sub/a.zone" refused: --no-include is in force'
  unread "--no-include" a.example

  # a symlink inside the root that leads outside it: refused, by default too; / takes it
  run 1 "symlink escaping the root" --include-root root root/sym.zone
  has "symlink escaping the root" "root/sym.zone:3:10: error: \$INCLUDE \"root/sub/link.zone\": $refused \"root\""
  unread "symlink escaping the root" b.example
  run 1 "symlink escaping the zone's directory" root/sym.zone
  has "symlink escaping the zone's directory" "\$INCLUDE \"root/sub/link.zone\": $refused \"root\"$default"
  unread "symlink escaping the zone's directory" b.example
  run 0 "symlink escaping, under --include-root /" --include-root / root/sym.zone
  # a relative symlink that stays below the root is followed; an absolute one never is
  run 0 "symlink staying inside" root/symin.zone
  grep -q '^o\.example\.' "$tmp/out" && ok || bad "symlink staying inside: record missing"
  run 1 "absolute symlink" root/symabs.zone
  has "absolute symlink" "$refused"

  # ../ escapes, plain, through a directory inside the root, and absolute
  for p in ../outside/b.zone sub/../../outside/b.zone "$tmp/outside/b.zone"; do
    zone dots.zone "$p"
    run 1 "escape $p" --include-root root root/dots.zone
    has "escape $p" "$refused \"root\""
    unread "escape $p" b.example
    run 1 "escape $p, by default" root/dots.zone
    has "escape $p, by default" "$refused \"root\"$default"
    run 0 "escape $p, under a root above" --include-root "$tmp" root/dots.zone
  done
  run 0 "../ staying inside" --include-root root root/in.zone
  run 0 "an absolute path below the root" root/absin.zone
  # a root that is a prefix of the real directory's name is not that directory
  run 1 "sibling with the root as name prefix" --include-root root root/prefix.zone
  # a top file outside the root: its ../ lead to the root, and its own directory is outside
  run 0 "a top file outside the root, ../ into it" --include-root lib zones/up.zone
  run 1 "a top file outside the root, beside itself" --include-root lib zones/local-inc.zone
  has "a top file outside the root" "$refused \"lib\""

  # one message for outside and missing: it tells neither whether a file outside exists nor
  # where a path leads
  run 1 "missing include" --include-root root root/missing.zone
  has "missing include" "root/missing.zone:3:10: error: \$INCLUDE \"root/sub/missing.zone\": $refused \"root\""
  zone gone.zone ../outside/gone.zone
  for z in dots sym gone; do
    case $z in
      dots) zone dots.zone "$tmp/outside/b.zone"; exists=outside/b.zone ;;
      sym) exists=outside/b.zone ;;
      gone) printf 'g 3600 IN A 192.0.2.7\n' > "$tmp/outside/gone.zone"; exists=outside/gone.zone ;;
    esac
    for fence in "--include-root root" ""; do
      # shellcheck disable=SC2086
      run 1 "$z: outside, existing" $fence root/$z.zone
      cp "$tmp/err" "$tmp/err.there"
      mv "$tmp/$exists" "$tmp/$exists.away"
      # shellcheck disable=SC2086
      run 1 "$z: outside, missing" $fence root/$z.zone
      mv "$tmp/$exists.away" "$tmp/$exists"
      cmp -s "$tmp/err" "$tmp/err.there" && ok ||
        bad "$z${walk[*]:+ (walk)}: the refusal says whether the file outside exists: $(diff "$tmp/err.there" "$tmp/err")"
    done
  done
  rm -f "$tmp/outside/gone.zone"

  # an include that is not a regular file would be read for ever (/dev/zero) or block in open()
  # (a FIFO with no writer): refused; the timeout only turns a hang into a failure
  for p in /dev/zero fifo.zone sub; do
    zone dev.zone "$p"
    (cd "$tmp" && timeout "$hang" ${walk[@]+"${walk[@]}"} "$ZONEPUNY" --include-root / root/dev.zone >out 2>err)
    rc=$?
    [ $rc -eq 1 ] && ok || bad "\$INCLUDE $p: exit $rc, want 1"
    has "\$INCLUDE $p" 'is not a regular file'
  done
  # a regular file that fails to read: an error at the $INCLUDE that names it
  zone mem.zone /proc/self/mem
  run 1 "/proc/self/mem" --include-root / root/mem.zone
  has "/proc/self/mem" "root/mem.zone:3:1: error: reading /proc/self/mem: Input/output error"
}
mkfifo "$tmp/root/fifo.zone"
fence_cases
if "$PYTHON" "$tests_dir/without_openat2.py" true 2>/dev/null; then
  walk=("$PYTHON" "$tests_dir/without_openat2.py")
  fence_cases
  walk=()
else
  skip "seccomp cannot hide openat2 here: the O_NOFOLLOW walk is not tested"
fi

# No secrets in logs. A file that does not read as a zone (its first record or directive is an
# error) shows nothing of itself, lines or tokens, and is read no further: an /etc/shadow made
# here, inside the root and outside it under --include-root /, and reached as the top file
# through a symlink. Its marker is in every line, and a later line reads as a record.
mark=zqxsecret
{ printf 'root:$6$%s$Xy9aBcDeFgHiJkLmNoPq:19000:0:99999:7:::\n' $mark
  printf 'daemon %s:19000:0:99999:7:::\n' $mark
  printf '%s 3600 IN A 192.0.2.8\n' $mark; } > "$tmp/root/shadow"
cp "$tmp/root/shadow" "$tmp/outside/shadow"
zone shadow.zone shadow
run 1 "a shadow file in the root" root/shadow.zone
unread "a shadow file in the root" $mark
has "a shadow file in the root" "root/shadow:1:1: error: the file's first record or directive is an error: not read as a zone, and none of its text is shown (standard input is)"
[ "$(grep -c error: "$tmp/err")" -eq 1 ] && ok || bad "a shadow file: not one error: $(cat "$tmp/err")"
zone shadow-out.zone "$tmp/outside/shadow"
run 1 "a shadow file outside, --include-root /" --include-root / root/shadow-out.zone
unread "a shadow file outside, --include-root /" $mark
run 1 "a shadow file outside, by default" root/shadow-out.zone
unread "a shadow file outside, by default" $mark
has "a shadow file outside, by default" "$refused"
ln -s ../outside/shadow "$tmp/root/linked.zone"
run 1 "a shadow file as the top file, through a symlink" root/linked.zone
unread "a shadow file as the top file, through a symlink" $mark
# a warning about the first line (a label IDNA2003 and IDNA2008 read apart) waits for the line
# to read: here it does not, and the warning goes with it
printf 'fa\303\237%s secretvalue\n' $mark > "$tmp/root/warned"
zone warned.zone warned
run 1 "a warning in a file that is no zone" --check root/warned.zone
unread "a warning in a file that is no zone" $mark
unread "a warning in a file that is no zone" secretvalue
has "a warning in a file that is no zone" ", 1 error, 0 warnings"
# ... and when the line reads, the warning is shown, in its place
printf 'fa\303\237ok 3600 IN A 192.0.2.1\n' > "$tmp/root/warned"
run 0 "a warning in a file that reads" --check root/warned.zone
has "a warning in a file that reads" 'root/warned:1:1: warning: label "faßok"'
has "a warning in a file that reads" '     1 | faßok 3600 IN A 192.0.2.1'
has "a warning in a file that reads" ', 0 errors, 1 warning'
# a file that reads as a zone shows its errors, lines and all; so does standard input
printf 'ok 3600 IN A 192.0.2.9\nxn--www- 3600 IN A 192.0.2.2\n' > "$tmp/root/frag.inc"
zone frag.zone frag.inc
run 1 "an error after a good first record" --check root/frag.zone
has "an error after a good first record" 'root/frag.inc:2:1: error: label "xn--www-"'
has "an error after a good first record" '     2 | xn--www- 3600 IN A 192.0.2.2'
(cd "$tmp" && printf 'xn--www- 3600 IN A 192.0.2.2\n' | "$ZONEPUNY" --fragment -z example. - >out 2>err)
has "standard input" '-:1:1: error: label "xn--www-"'
# a key file outside the root: refused at the $INCLUDE, no line of it quoted
printf 'Private-key-format: v1.3\nPrivateExponent: c2VjcmV0\n' > "$tmp/outside/K.private"
zone key.zone ../outside/K.private
run 1 "a key file outside the root" --include-root root root/key.zone
unread "a key file outside the root" PrivateExponent
unread "a key file outside the root" Private-key-format
has "a key file outside the root" "root/key.zone:3:10: error: \$INCLUDE \"root/../outside/K.private\": $refused \"root\""

run 2 "--include-root not a directory" --include-root root/main.zone root/main.zone
run 2 "--include-root missing" --include-root nowhere root/main.zone

finish
