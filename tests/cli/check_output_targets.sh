#!/usr/bin/env bash
# check_output_targets.sh -- what -o does with each kind of file it may name, as root and as an
# unprivileged user (man/zonepuny.1, OUTPUT FILE):
#   a regular file        replaced by a rename; mode, ACL and extended attributes kept
#   a symlink             its target replaced from its own directory, the link left a link
#   a dangling symlink    refused (exit 2), nothing created
#   a hard link           refused (exit 2); --break-hard-links replaces this name alone
#   a FIFO, a character device  written through, the node left as it is
#   /dev/fd/1, /dev/stdout  standard output
#   a directory, a socket refused (exit 2)
#   immutable, append-only refused (exit 2)
#   an attribute the new file cannot be given  refused (exit 2)
# After every run the target is intact or replaced as it should be, and nothing is left beside
# it. Then every signal whose default action ends the process, delivered mid-write, and a file
# size limit: the target intact, no file left, with the unnamed temporary file (O_TMPFILE) and
# with the named one zonepuny falls back on (forced here by hiding /proc/self/fd).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
ulimit -c 0
chmod 0711 "$tmp"   # (nobody passes through it to its own directory)
# chattr +i and +a files cannot be removed: taken off before the directory goes
on_exit 'find "$tmp" -type f -exec chattr -i -a {} + 2>/dev/null'
leftovers() { ls -A "$1" | grep -c '^\.zonepuny\.'; }

cat > "$tmp/in.zone" <<'Z'
$ORIGIN example.
$TTL 300
@ SOA ns h 1 2 3 4 5
@ NS ns
ns A 192.0.2.1
Z
printf '$ORIGIN example.\n$TTL 300\n@ SOA ns h 1 2 3 4 5\nbad name\n' > "$tmp/bad.zone"
chmod 0644 "$tmp/in.zone" "$tmp/bad.zone"
"$ZONEPUNY" "$tmp/in.zone" > "$tmp/want" 2>/dev/null && [ -s "$tmp/want" ] && ok ||
  bad "the zone does not convert"

as_root() { timeout "$hang" "$ZONEPUNY" "$@"; }
as_nobody() { timeout "$hang" setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/zonepuny" "$@"; }
# zp WHO ARGS...: zonepuny run as WHO, standard error to $tmp/err, its exit status in rc
zp() { local who=$1; shift; "as_$who" "$@" 2> "$tmp/err"; rc=$?; }
# expect WHAT RC [TEXT]: the last run exited RC, and said TEXT
expect() {
  [ "$rc" -eq "$2" ] && ok || bad "$1: exit $rc, want $2: $(head -c 300 "$tmp/err")"
  [ -z "${3-}" ] || { grep -qF -- "$3" "$tmp/err" && ok || bad "$1: message: $(cat "$tmp/err")"; }
}
# clean WHAT DIR...: nothing left in the directories
clean() {
  local what=$1 dir; shift
  for dir; do [ "$(leftovers "$dir")" -eq 0 ] && ok || bad "$what: a temporary file left in $dir"; done
}
is_old() { [ "$(cat "$2")" = old ] && ok || bad "$1: $2 changed"; }
is_new() { cmp -s "$2" "$tmp/want" && ok || bad "$1: $2 is not the converted zone"; }

# fifo_done FIFO READER: the FIFO's reader (process READER) has ended, or has it open (or waits
# in its open) and is given an empty writer, which it sees end: an open without waiting for a
# reader (O_NONBLOCK) succeeds only when there is one
fifo_done() {
  "${PYTHON:-python3}" -c 'import os, sys
os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK))' "$1" 2> /dev/null || ! running "$2"
}

# targets WHO: every kind of target, in a directory of WHO's own
targets() {
  local who=$1 d=$tmp/$1 u=root
  [ "$who" = nobody ] && u=65534:65534
  mkdir "$d" && chown "$u" "$d"
  mine() { chown -h "$u" "$@"; }

  # a regular file: replaced, its mode kept
  echo old > "$d/reg.zone" && chmod 0640 "$d/reg.zone" && mine "$d/reg.zone"
  zp "$who" -o "$d/reg.zone" "$tmp/in.zone"
  expect "$who regular" 0
  is_new "$who regular" "$d/reg.zone"
  [ "$(stat -c %a "$d/reg.zone")" = 640 ] && ok || bad "$who regular: mode $(stat -c %a "$d/reg.zone")"
  clean "$who regular" "$d"

  # a symlink, and a symlink to it: the target replaced, from its own directory; links kept
  mkdir "$d/real" && mine "$d/real"
  echo old > "$d/real/t.zone" && mine "$d/real/t.zone"
  ln -s real/t.zone "$d/link.zone" && ln -s link.zone "$d/link2.zone" && mine "$d/link.zone" "$d/link2.zone"
  for l in link link2; do
    echo old > "$d/real/t.zone"
    zp "$who" -o "$d/$l.zone" "$tmp/in.zone"
    expect "$who $l" 0
    is_new "$who $l" "$d/real/t.zone"
    [ -L "$d/link.zone" ] && [ "$(readlink "$d/link.zone")" = real/t.zone ] && [ -L "$d/link2.zone" ] &&
      ok || bad "$who $l: the symlink was replaced"
    [ "$(find "$d/real" -mindepth 1 | wc -l)" -eq 1 ] && ok || bad "$who $l: $(ls -A "$d/real")"
    clean "$who $l" "$d" "$d/real"
  done

  # a dangling symlink: refused, nothing made where it points
  ln -s missing.zone "$d/dangling.zone" && mine "$d/dangling.zone"
  zp "$who" -o "$d/dangling.zone" "$tmp/in.zone"
  expect "$who dangling symlink" 2 "is a symbolic link to missing.zone, which does not exist"
  [ -L "$d/dangling.zone" ] && [ ! -e "$d/missing.zone" ] && ok || bad "$who dangling: changed"
  clean "$who dangling" "$d"

  # a file with another hard link: refused; with --break-hard-links this name alone replaced
  echo old > "$d/hard.zone" && ln "$d/hard.zone" "$d/hard2.zone" && mine "$d/hard.zone"
  zp "$who" -o "$d/hard.zone" "$tmp/in.zone"
  expect "$who hard link" 2 "has 1 other hard link"
  is_old "$who hard link" "$d/hard.zone"
  [ "$(stat -c %h "$d/hard.zone")" = 2 ] && ok || bad "$who hard link: links split"
  zp "$who" --break-hard-links -o "$d/hard.zone" "$tmp/in.zone"
  expect "$who --break-hard-links" 0
  is_new "$who --break-hard-links" "$d/hard.zone"
  is_old "$who --break-hard-links, the other name" "$d/hard2.zone"
  clean "$who hard link" "$d"

  # a FIFO: written through (on commit), the node kept; a zone with errors sends nothing
  mkfifo "$d/fifo" && mine "$d/fifo"
  for z in in bad; do
    timeout "$hang" cat "$d/fifo" > "$tmp/fifo.got" &
    local reader=$!
    zp "$who" -o "$d/fifo" "$tmp/$z.zone"
    # (a run that sent nothing may never have opened the FIFO: an empty writer, opened once
    # the reader is there, ends it; one that did has closed it, and the reader ends by itself)
    wait_until fifo_done "$d/fifo" "$reader"
    wait "$reader"
    if [ $z = in ]; then
      expect "$who FIFO" 0
      is_new "$who FIFO" "$tmp/fifo.got"
    else
      expect "$who FIFO, bad zone" 1
      [ ! -s "$tmp/fifo.got" ] && ok || bad "$who FIFO: a zone with errors was sent"
    fi
    [ -p "$d/fifo" ] && ok || bad "$who FIFO: the node was replaced"
  done
  clean "$who FIFO" "$d"

  # a character device (made here: /dev/null's, /dev/full's): written through, the node kept
  mknod -m 0666 "$d/null" c 1 3 && mknod -m 0666 "$d/full" c 1 7
  if ! echo > "$d/null" 2>/dev/null; then
    skip "$who character device: device nodes do not open here (a nodev mount)"
  else
    zp "$who" -o "$d/null" "$tmp/in.zone"
    expect "$who character device" 0
    [ "$(stat -c %F:%t,%T "$d/null")" = "character special file:1,3" ] && ok ||
      bad "$who character device: now $(stat -c %F "$d/null")"
    zp "$who" -o "$d/full" "$tmp/in.zone"
    expect "$who /dev/full" 2 "zonepuny: error: writing $d/full: No space left on device"
    [ -c "$d/full" ] && ok || bad "$who /dev/full: the node was replaced"
    clean "$who character device" "$d"
    # the system's own, only once the copy stayed a device: before, -o replaced the node
    if [ "$(stat -c %F "$d/null")" = "character special file" ]; then
      zp "$who" -o /dev/null "$tmp/in.zone"
      expect "$who /dev/null" 0
      [ -c /dev/null ] && ok || bad "$who: /dev/null is no longer a device"
    fi
  fi

  # standard output by name: as standard output (">>" keeps what was there; a pipe gets all)
  zp "$who" -o /dev/fd/1 "$tmp/in.zone" > "$tmp/so"
  expect "$who -o /dev/fd/1" 0
  is_new "$who -o /dev/fd/1" "$tmp/so"
  if [ "$rc" -eq 0 ]; then   # (before, -o /dev/stdout replaced the symlink in /dev)
    echo old > "$tmp/so"
    zp "$who" -o /dev/stdout "$tmp/in.zone" >> "$tmp/so"
    expect "$who -o /dev/stdout >>" 0
    { echo old; cat "$tmp/want"; } | cmp -s - "$tmp/so" && ok || bad "$who -o /dev/stdout >>"
    "as_$who" -o /dev/stdout "$tmp/in.zone" 2>/dev/null | cmp -s - "$tmp/want" && ok ||
      bad "$who -o /dev/stdout | cmp"
  fi

  # a directory and a socket: refused, left as they were
  mkdir "$d/dir" && touch "$d/dir/keep" && mine "$d/dir"
  zp "$who" -o "$d/dir" "$tmp/in.zone"
  expect "$who directory" 2 "$d/dir is a directory"
  [ -d "$d/dir" ] && [ "$(ls -A "$d/dir")" = keep ] && ok || bad "$who directory: changed"
  clean "$who directory" "$d" "$d/dir"
  "${PYTHON:-python3}" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
    "$d/sock" && mine "$d/sock"
  zp "$who" -o "$d/sock" "$tmp/in.zone"
  expect "$who socket" 2 "$d/sock is a socket"
  [ -S "$d/sock" ] && ok || bad "$who socket: replaced"
  clean "$who socket" "$d"

  # immutable and append-only: refused before anything is read, the file as it was
  for a in i a; do
    echo old > "$d/attr-$a.zone" && mine "$d/attr-$a.zone"
    if ! chattr +$a "$d/attr-$a.zone" 2>/dev/null; then
      skip "$who chattr +$a: not supported by this file system"
      continue
    fi
    zp "$who" -o "$d/attr-$a.zone" "$tmp/in.zone"
    expect "$who chattr +$a" 2 "$d/attr-$a.zone is $([ $a = i ] && echo immutable || echo append-only)"
    is_old "$who chattr +$a" "$d/attr-$a.zone"
    lsattr -d "$d/attr-$a.zone" | cut -d' ' -f1 | grep -q $a && ok || bad "$who chattr +$a: lost"
    clean "$who chattr +$a" "$d"
    chattr -$a "$d/attr-$a.zone"
  done

  # an ACL: kept whole, and the ACL's mask does not become the owning group's bits
  echo old > "$d/acl.zone" && chmod 0640 "$d/acl.zone" && mine "$d/acl.zone"
  if ! setfacl -m u:daemon:rw,g:daemon:r "$d/acl.zone" 2>/dev/null; then
    skip "$who ACL: setfacl missing (package acl) or ACLs not supported here"
  else
    getfacl -cp "$d/acl.zone" > "$tmp/acl.before"
    zp "$who" -o "$d/acl.zone" "$tmp/in.zone"
    expect "$who ACL" 0
    is_new "$who ACL" "$d/acl.zone"
    getfacl -cp "$d/acl.zone" | cmp -s "$tmp/acl.before" - && ok ||
      bad "$who ACL: $(getfacl -cp "$d/acl.zone" | tr '\n' ' ')"
    clean "$who ACL" "$d"
    # a directory's default ACL: not added to a file that had none; given to a new file as
    # to any file made there
    mkdir "$d/defacl" && mine "$d/defacl" && setfacl -d -m u:daemon:rwx "$d/defacl"
    echo old > "$d/defacl/plain.zone" && setfacl -b "$d/defacl/plain.zone" &&
      chmod 0644 "$d/defacl/plain.zone" && mine "$d/defacl/plain.zone"
    zp "$who" -o "$d/defacl/plain.zone" "$tmp/in.zone"
    expect "$who default ACL" 0
    [ "$(getfacl -cp "$d/defacl/plain.zone" | grep -c .)" -eq 3 ] &&
      [ "$(stat -c %a "$d/defacl/plain.zone")" = 644 ] && ok ||
      bad "$who default ACL: $(getfacl -cp "$d/defacl/plain.zone" | tr '\n' ' ')"
    ( umask 022; "as_$who" -o "$d/defacl/new.zone" "$tmp/in.zone" 2>/dev/null; : > "$d/defacl/ref" )
    [ "$(getfacl -cp "$d/defacl/new.zone")" = "$(getfacl -cp "$d/defacl/ref")" ] && ok ||
      bad "$who new file under a default ACL: $(getfacl -cp "$d/defacl/new.zone" | tr '\n' ' ')"
    clean "$who default ACL" "$d/defacl"
  fi

  # extended attributes: kept; one this user cannot give (security.*): refused
  echo old > "$d/xattr.zone" && mine "$d/xattr.zone"
  local names="user.zp"
  [ "$who" = root ] && names="user.zp trusted.zp security.zp"
  local set=1 n
  for n in $names; do setfattr -n "$n" -v "value of $n" "$d/xattr.zone" 2>/dev/null || set=; done
  if [ -z "$set" ]; then
    skip "$who xattrs: setfattr missing (package attr) or $names not supported here"
  else
    getfattr -d -m - -e hex --absolute-names "$d/xattr.zone" > "$tmp/xattr.before"
    zp "$who" -o "$d/xattr.zone" "$tmp/in.zone"
    expect "$who xattrs" 0
    is_new "$who xattrs" "$d/xattr.zone"
    getfattr -d -m - -e hex --absolute-names "$d/xattr.zone" | cmp -s "$tmp/xattr.before" - &&
      ok || bad "$who xattrs: $(getfattr -d -m - --absolute-names "$d/xattr.zone" | tr '\n' ' ')"
    clean "$who xattrs" "$d"
    if [ "$who" = nobody ]; then
      echo old > "$d/label.zone" && mine "$d/label.zone"
      setfattr -n security.zp -v label "$d/label.zone"
      zp "$who" -o "$d/label.zone" "$tmp/in.zone"
      expect "nobody security.zp" 2 "has the extended attribute security.zp, which this user cannot give"
      is_old "nobody security.zp" "$d/label.zone"
      [ "$(getfattr --only-values -n security.zp "$d/label.zone" 2>/dev/null)" = label ] && ok ||
        bad "nobody security.zp: the attribute changed"
      clean "nobody security.zp" "$d"
    fi
  fi
}

targets root
if ! command -v setpriv >/dev/null; then
  skip "as nobody: setpriv not installed (util-linux)"
elif [ -n "${VG_LOG-}" ]; then
  skip "as nobody: not under valgrind (nobody cannot write its logs)"
else
  # (a copy nobody can reach: the repository may sit in a directory only root can enter)
  cp "$ZONEPUNY" "$tmp/zonepuny" && chmod 0755 "$tmp/zonepuny"
  targets nobody
  # a directory this user cannot write in: said as such
  mkdir "$tmp/ro" && echo old > "$tmp/ro/out.zone" && chown 65534:65534 "$tmp/ro/out.zone"
  zp nobody -o "$tmp/ro/out.zone" "$tmp/in.zone"
  expect "unwritable directory" 2 "zonepuny: error: cannot create a temporary file in $tmp/ro: Permission denied"
  is_old "unwritable directory" "$tmp/ro/out.zone"
fi

# A zone whose output is about 1.5 MB: records one per line, not $GENERATE (read from a FIFO,
# they are converted as they come)
{
  printf '$ORIGIN example.\n$TTL 3600\n@ IN SOA ns hostmaster 1 7200 3600 1209600 3600\n'
  printf '@ IN NS ns\nns IN A 192.0.2.1\n'
  seq 1 20000 | sed 's/.*/host-& IN TXT "some text to make each record long enough to fill buffers"/'
} > "$tmp/big.zone"
chmod 0644 "$tmp/big.zone"

# ---- signals: every one whose default action ends the process, delivered mid-write ----
if [ -n "${VG_LOG-}" ]; then
  skip "signals: not under valgrind (the signal would come while valgrind starts)"
  finish
fi
# the sanitizers' own handlers of SIGSEGV, SIGBUS and SIGFPE would report, not die of them
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:handle_sigbus=0:handle_sigfpe=0"
mkfifo "$tmp/feed"
sig_dir=$tmp/sig
mkdir "$sig_dir" && chown 65534:65534 "$sig_dir"
# start WHO MODE ARGS...: execs zonepuny (so only ever in a subshell: "&", "( )", "|") as root
# or nobody, as is (an unnamed temporary file) or with /proc/self/fd hidden in a mount namespace
# of its own (a named one), with every signal back to its default action (an asynchronous
# command starts with SIGINT and SIGQUIT ignored)
start() {
  local who=$1 mode=$2; shift 2
  local run=("$ZONEPUNY")
  [ "$who" = nobody ] && run=(setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/zonepuny")
  if [ "$mode" = named ]; then
    exec unshare -m sh -c 'mount -t tmpfs none /proc/$$/fd && exec "$@"' sh \
      env --default-signal "${run[@]}" "$@"
  fi
  exec env --default-signal "${run[@]}" "$@"
}
# temp PID: the file PID has open in $sig_dir and has written to ("" while none)
temp() {
  local f t
  for f in /proc/"$1"/fd/*; do
    t=$(readlink "$f" 2>/dev/null) || continue
    case $t in "$sig_dir"/*) [ "$(stat -L -c %s "$f" 2>/dev/null || echo 0)" -gt 0 ] && echo "$t" ;; esac
  done
}
# written PID: PID has written to its temporary file (or has ended)
written() { writes_in "$1" "$sig_dir" || ! running "$1"; }
# one WHO MODE SIG: SIG (a name) delivered while zonepuny, stopped, has written part of the zone.
# The feed is held open by this shell until the signal has come, so zonepuny cannot reach the
# zone's end (and commit) first, however slow it is.
one() {
  local who=$1 mode=$2 sig=$3 what="$1 $2 SIG$3" t
  echo old > "$sig_dir/out.zone" && chown 65534:65534 "$sig_dir/out.zone"
  start "$who" "$mode" -o "$sig_dir/out.zone" - < "$tmp/feed" 2>/dev/null &
  local pid=$!
  exec 8> "$tmp/feed"
  cat "$tmp/big.zone" >&8 &
  local writer=$!
  wait_until written "$pid"
  t=$(temp "$pid")
  if [ -z "$t" ]; then
    bad "$what: no temporary file written to"
  else
    case $mode:$t in
      anonymous:*" (deleted)" | named:"$sig_dir"/.zonepuny.*) ok ;;
      *) bad "$what: the temporary file is $t" ;;
    esac
  fi
  kill -STOP "$pid" 2>/dev/null
  kill -s "$sig" "$pid" 2>/dev/null
  kill -CONT "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  local rc=$?
  exec 8>&-
  wait "$writer" 2>/dev/null   # (done, or ended by its reader's end)
  [ "$rc" -eq $((128 + $(kill -l "$sig"))) ] && ok || bad "$what: exit $rc"
  is_old "$what" "$sig_dir/out.zone"
  [ "$(ls -A "$sig_dir")" = out.zone ] && ok || bad "$what: left $(ls -A "$sig_dir" | tr '\n' ' ')"
  find "$sig_dir" -name '.zonepuny.*' -delete   # (so that the next signal is judged alone)
}
fatal="HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM STKFLT XCPU XFSZ VTALRM
       PROF IO PWR SYS RTMIN RTMIN+1 RTMAX-1 RTMAX"
modes=anonymous
if unshare -m sh -c 'mount -t tmpfs none /proc/$$/fd' 2>/dev/null; then
  modes="anonymous named"
else
  skip "signals, named temporary file: /proc/self/fd cannot be hidden here (unshare, mount)"
fi
for mode in $modes; do
  # a run to its end: the file replaced, its mode kept, the temporary file's name gone
  echo old > "$sig_dir/out.zone" && chmod 0640 "$sig_dir/out.zone"
  (start root "$mode" -o "$sig_dir/out.zone" "$tmp/in.zone") 2> "$tmp/err"
  rc=$?
  expect "$mode, to its end" 0
  is_new "$mode, to its end" "$sig_dir/out.zone"
  [ "$(stat -c %a "$sig_dir/out.zone")" = 640 ] && ok || bad "$mode: mode not kept"
  [ "$(ls -A "$sig_dir")" = out.zone ] && ok || bad "$mode: left $(ls -A "$sig_dir")"
  find "$sig_dir" -name '.zonepuny.*' -delete
  for sig in $fatal; do one root "$mode" "$sig"; done
  # a file size limit: SIGXFSZ from the kernel
  echo old > "$sig_dir/out.zone"
  # (the shell's own report of the death, on its standard error, is not wanted either)
  { (ulimit -f 16; start root "$mode" -o "$sig_dir/out.zone" "$tmp/big.zone"); } 2>/dev/null
  rc=$?
  [ $rc -eq $((128 + $(kill -l XFSZ))) ] && ok || bad "$mode ulimit -f: exit $rc"
  is_old "$mode ulimit -f" "$sig_dir/out.zone"
  [ "$(ls -A "$sig_dir")" = out.zone ] && ok || bad "$mode ulimit -f: left $(ls -A "$sig_dir")"
  find "$sig_dir" -name '.zonepuny.*' -delete
  # standard error's reader gone (2>&1 | head -1): SIGPIPE while warnings are told
  { head -5 "$tmp/big.zone"; echo '$GENERATE 1-4000 h$ 300 A 192.0.2.1'
    echo '$GENERATE 1-4000 h$ 600 A 192.0.2.2'; } > "$tmp/warn.zone"
  start root "$mode" -o "$sig_dir/out.zone" "$tmp/warn.zone" 2>&1 | head -1 > /dev/null
  rc=${PIPESTATUS[0]}
  [ $rc -eq $((128 + $(kill -l PIPE))) ] && ok || bad "$mode 2>&1 | head -1: exit $rc"
  is_old "$mode 2>&1 | head -1" "$sig_dir/out.zone"
  [ "$(ls -A "$sig_dir")" = out.zone ] && ok || bad "$mode | head -1: left $(ls -A "$sig_dir")"
  find "$sig_dir" -name '.zonepuny.*' -delete
done
# SIGKILL leaves nothing only where the temporary file has no name
one root anonymous KILL
if [ -x "$tmp/zonepuny" ]; then
  for sig in TERM USR1 KILL; do one nobody anonymous "$sig"; done
fi
finish
