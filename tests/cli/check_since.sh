#!/usr/bin/env bash
# check_since.sh -- zonepuny --check --since REV in real git repositories: a zone whose records
# changed since REV (its $INCLUDEs read as they were at REV) with its SOA serial not raised, or
# with a serial that went back (RFC 1982 section 3.2: 5 to 4; 4294967295 to 1 is a rise), is
# an error that names both serials, at the serial; a zone new since REV has nothing to compare.
# Cases: an $INCLUDE changed alone, a merge that brings in another branch's records, a linked
# work tree (git worktree), a run from another directory, a directory argument, a fence
# (--include-root) above the zone, -W no-serial-since, a revision that is no commit, a file in
# no work tree, a renamed zone (compared under its old name, as git diff -M pairs them); no
# directory is left in $TMPDIR, not even by a run killed while REV's files are out (SIGTERM,
# SIGKILL, Ctrl-C's SIGINT to its process group).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
command -v git > /dev/null || { skip "no git"; finish; }
export TMPDIR=$tmp/t GIT_CONFIG_NOSYSTEM=1 HOME=$tmp
mkdir "$TMPDIR"
git config --global user.email t@example.org
git config --global user.name t
git config --global init.defaultBranch main

# zone SERIAL [RECORD...]: a zone that $INCLUDEs hosts.inc
zone() {
  local s=$1
  shift
  printf '$ORIGIN example.\n$TTL 300\n@ SOA ns h %s 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n' "$s"
  printf '%s\n' "$@" '$INCLUDE hosts.inc'
}
# check WANT WHAT [ARGS...]: zonepuny --check --since ARGS exits WANT; stderr in $tmp/err
check() {
  local want=$1 what=$2 rc
  shift 2
  "$ZONEPUNY" --check "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  [ $rc -eq "$want" ] && ok || bad "$what: exit $rc, want $want: $(cat "$tmp/err")"
}
told() {   # told WHAT PATTERN: $tmp/err has a line matching PATTERN (grep -E)
  grep -qE "$2" "$tmp/err" && ok || bad "$1: not told /$2/: $(cat "$tmp/err")"
}

r=$tmp/repo
mkdir -p "$r/zones" && cd "$r" && git init -q
zone 5 > zones/example.zone
echo 'www A 192.0.2.10' > zones/hosts.inc
git add -A && git commit -qm one

check 0 "unchanged" --since HEAD zones/example.zone
echo 'www A 192.0.2.11' > zones/hosts.inc
check 1 "\$INCLUDE changed alone" --since HEAD zones/example.zone
told "\$INCLUDE changed alone" '^zones/example.zone:3:12: error: records changed since HEAD \(1 removed, 1 added, 0 with another TTL\) and the SOA serial is still 5: .*raise it above 5 .*\[-Wserial-since\]$'
zone 6 > zones/example.zone
check 0 "serial raised" --since HEAD zones/example.zone
zone 4 > zones/example.zone
check 1 "serial back" --since HEAD zones/example.zone
told "serial back" 'error: the SOA serial went back since HEAD, from 5 to 4: .*\[-Wserial-since\]$'
check 0 "-W no-serial-since" -W no-serial-since --since HEAD zones/example.zone
check 1 "--format=json" --format=json --since HEAD zones/example.zone
grep -q '"check":"serial-since"' "$tmp/out" && ok || bad "json: $(cat "$tmp/out")"
zone 5 'ttl 60 TXT "x"' > zones/example.zone
check 1 "a record added, serial kept" --since HEAD zones/example.zone
# RFC 1982: 4294967295 + 2 is 1, a rise
git checkout -q -- zones && sed -i 's/ h 5 / h 4294967295 /' zones/example.zone
git commit -qam big
zone 1 > zones/example.zone
echo 'www A 192.0.2.12' > zones/hosts.inc
check 0 "serial wrapped (RFC 1982)" --since HEAD zones/example.zone
zone 2147483647 > zones/example.zone
check 1 "serial 2^31 away" --since HEAD zones/example.zone
told "serial 2^31 away" 'RFC 1982 section 3.2 leaves their order undefined'
git checkout -q -- zones

# a directory argument, from another directory, and the spelling of the same records
check 0 "a directory, unchanged" --since HEAD "$r/zones"
printf '$ORIGIN example.\n$TTL 5m\n@ SOA NS H 4294967295 2 3 4 5\n@ NS ns\nns 300 A 192.0.2.1\n$INCLUDE hosts.inc\n' > zones/example.zone
(cd / && check 0 "respelled, from /" --since HEAD "$r/zones/example.zone")

# a new zone: nothing to compare; a renamed one under its old name
zone 1 > zones/new.zone
check 0 "a new zone" --since HEAD zones/new.zone
git add zones/new.zone && git commit -qm new
git mv zones/new.zone zones/renamed.zone
check 0 "renamed alone" --since HEAD zones/renamed.zone
zone 1 'x A 192.0.2.5' > zones/renamed.zone
check 1 "renamed, a record added, serial kept" --since HEAD zones/renamed.zone
told "renamed" 'records changed since HEAD \(0 removed, 1 added.*still 1'
zone 2 'x A 192.0.2.5' > zones/renamed.zone
check 0 "renamed, serial raised" --since HEAD zones/renamed.zone
git commit -qam renamed

# a fence above the zone: REV's files of the whole fence
mkdir -p shared && echo 'mail A 192.0.2.20' > shared/mail.inc
printf '$ORIGIN example.\n$TTL 300\n@ SOA ns h 7 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n$INCLUDE ../shared/mail.inc\n' > zones/fenced.zone
git add -A && git commit -qm fenced
echo 'mail A 192.0.2.21' > shared/mail.inc
check 1 "an \$INCLUDE above the zone, in the fence" --since HEAD --include-root "$r" zones/fenced.zone
git checkout -q -- shared

# a merge that brings another branch's record in, the serial as on main
git checkout -q -b feature
zone 8 'feature A 192.0.2.30' > zones/example.zone
git commit -qam feature
git checkout -q main
zone 8 'main A 192.0.2.31' > zones/example.zone
git commit -qam main
git merge -q --no-edit feature > /dev/null 2>&1 || {
  zone 8 'main A 192.0.2.31' 'feature A 192.0.2.30' > zones/example.zone
  git add zones/example.zone && git commit -qm merged --no-edit
}
check 1 "a merge with main's serial, against main's parent" --since HEAD^1 zones/example.zone
told "merge" 'records changed since HEAD\^1 \(0 removed, 1 added'
check 0 "the merge against itself" --since HEAD zones/example.zone

# a linked work tree
git worktree add -q "$tmp/wt" feature 2> /dev/null
zone 8 'feature A 192.0.2.32' > "$tmp/wt/zones/example.zone"
check 1 "a linked work tree" --since HEAD "$tmp/wt/zones/example.zone"

# trouble: no such revision, no work tree; usage
check 2 "no such revision" --since no-such-rev zones/example.zone
told "no such revision" 'no revision no-such-rev in the git repository'
cp zones/example.zone "$tmp/outside.zone"
cp zones/hosts.inc "$tmp/"
(cd "$tmp" && check 2 "no work tree" --since HEAD outside.zone)
told "no work tree" 'is in no git work tree'
# a revision git would take for an option of its own (git archive --remote=...): refused
"$ZONEPUNY" --check --since=--remote=/nonexistent zones/example.zone > /dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--since=--remote=...: not refused"
"$ZONEPUNY" --since HEAD zones/example.zone > /dev/null 2>&1; [ $? -eq 2 ] && ok ||
  bad "--since without --check"
"$ZONEPUNY" --check --fragment --since HEAD zones/hosts.inc > /dev/null 2>&1; [ $? -eq 2 ] &&
  ok || bad "--since with --fragment"

[ -z "$(ls -A "$TMPDIR")" ] && ok || bad "left in \$TMPDIR: $(ls -A "$TMPDIR")"

# A run killed while REV's files are out: its cleaner process removes them once the run is gone
# (and tar, which writes into them). The run is held where it is killed by a git on PATH that,
# when its arguments hold $GATE_ON, says so and waits for a line on a FIFO: while git archive
# fills the directory, or when a.zone's files are out and git looks for b.zone at REV. The
# signal goes to the run alone, or to its process group as Ctrl-C and a CI job's timeout send
# it (setsid: a group of its own; env: SIGINT's default action, which a shell's asynchronous
# command lacks).
k=$tmp/k
mkdir -p "$k" "$tmp/bin" && cd "$k" && git init -q
zone 5 > a.zone && zone 5 > b.zone && echo 'www A 192.0.2.10' > hosts.inc
git add -A && git commit -qm one
mkfifo "$tmp/gate"
cat > "$tmp/bin/git" << END
#!/bin/sh
case " \$* " in *" \$GATE_ON "*) : > "$tmp/at-gate"; read -r _ < "$tmp/gate" ;; esac
exec "$(command -v git)" "\$@"
END
chmod +x "$tmp/bin/git"
since_dirs() { compgen -G "$TMPDIR/zonepuny-since-*"; }
gone() { ! since_dirs > /dev/null; }
release() { timeout 30 sh -c 'echo > "$1"' sh "$tmp/gate"; }
# killed TO SIG GATE_ON: a run held at the gate GATE_ON, killed by SIG sent TO "run" or "group"
killed() {
  local to=$1 sig=$2 on=$3 what="SIG$2 to the $1 at '$3'" p rc
  rm -f "$tmp/at-gate"
  GATE_ON=$on PATH=$tmp/bin:$PATH setsid env --default-signal=INT "$ZONEPUNY" --check \
    --since HEAD a.zone b.zone > /dev/null 2>&1 &
  p=$!
  at_gate() { [ -e "$tmp/at-gate" ] || ! running $p; }
  wait_until at_gate
  if ! [ -e "$tmp/at-gate" ] || [ "$(sed 's/.*) //' "/proc/$p/stat" | cut -d' ' -f3)" != $p ]
  then
    bad "$what: the run never reached the gate, or is no process group of its own"
    kill -KILL $p 2> /dev/null
    wait $p 2> /dev/null
    return
  fi
  since_dirs > /dev/null && ok || bad "$what: no directory out when killed"
  if [ "$to" = group ]; then kill -"$sig" -- -$p; else kill -"$sig" $p; fi
  wait $p 2> /dev/null
  rc=$?
  [ $rc -eq $((128 + $(kill -l "$sig"))) ] && ok || bad "$what: exit $rc"
  # a git held past its run: tar, filling the directory, waits for it; git after the directory
  # is filled holds nothing back
  [ "$to" = run ] && [ "$on" = archive ] && release
  # (30 s: no verdict on speed, a bound on the wait for the cleaner)
  hang=30 wait_until gone && ok || bad "$what: left in \$TMPDIR: $(since_dirs)"
  [ "$to" = run ] && [ "$on" != archive ] && release
}
for sig in TERM KILL; do
  killed run $sig archive
  killed run $sig HEAD:b.zone
done
killed group INT archive
killed group TERM HEAD:b.zone
[ -z "$(ls -A "$TMPDIR")" ] && ok || bad "left in \$TMPDIR: $(ls -A "$TMPDIR")"
finish
