#!/usr/bin/env bash
# check_include_race.sh -- $INCLUDE against a tree that changes while zonepuny reads it
# (doc/safety.md): a symlink swapped in, between a file below the include root and one outside it,
# and a directory of the root swapped for a symlink that leads outside; all the time during a
# loop of runs, and once, at a known moment, during a large zone; and the top file replaced
# while it is read. Not a byte of an outside file may reach standard output or error: none of
# its records, no line of it quoted by a message told after the whole zone is read. Each
# $INCLUDE case runs with openat2(2) and again with the kernel made to lack it
# (tests/without_openat2.py), which holds the O_NOFOLLOW walk to the same promise.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
# Runs of each loop, records after the swap, records of the top file. Under make
# check-valgrind (VG_LOG set) a run takes seconds: the loops, which are there for the race and
# not for memcheck, are left out, and the zones are smaller (a slow run still outlasts a swap).
if [ -n "${VG_LOG-}" ]; then runs=0 rest=10000 top=20000; else runs=250 rest=200000 top=400000; fi
: "${RACE_RUNS:=$runs}"
make_tmp
cd "$tmp" || exit 1

marker=zqxoutside   # (lowercase: owners come out lowercased)
mkdir -p root/sub outside
head='$ORIGIN example.\n$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n'
# Each file draws a whole-zone error, told after the pass, that quotes its line 2: the inside
# file's from the descriptor it was read through, an outside file's never.
printf 'www CNAME ns\nwww A 192.0.2.9\n' > root/sub/in.zone
cp root/sub/in.zone root/sub/link-target.zone
# (the marker all along its lines: a line quoted from any offset of it shows the marker)
pad=$(printf " $marker%.0s" $(seq 1 20))
printf '%s CNAME ns ;%s\n%s A 192.0.2.9 ;%s\n' $marker "$pad" $marker "$pad" > outside/in.zone
ln -s link-target.zone root/sub/link.zone
ln -s ../outside root/sub.out
printf "$head"'$INCLUDE sub/link.zone\n' > root/link.zone
printf "$head"'$INCLUDE sub/in.zone\n' > root/dir.zone
quoted='^     2 | www A 192\.0\.2\.9$'   # the inside file's line 2, quoted

modes=(openat2)
if "$PYTHON" "$tests_dir/without_openat2.py" true 2>/dev/null; then
  modes+=(walk)
else
  skip "seccomp cannot hide openat2 here: the O_NOFOLLOW walk is not raced"
fi
# zp MODE ARGS...: zonepuny (or another command), opening $INCLUDE files the way MODE says; the
# filter holds for every process started under it
zp() {
  local mode=$1
  shift
  if [ "$mode" = walk ]; then "$PYTHON" "$tests_dir/without_openat2.py" "$@"; else "$@"; fi
}
# leaked WHAT FILE...: a failure when an outside file's marker is in any FILE
leaked() {
  local what=$1
  shift
  if grep -qi "$marker" "$@"; then
    bad "$what: an outside file reached the output:"; grep -hi "$marker" "$@" | head -4
  else
    ok
  fi
}

# 1. Loops: a swap as fast as rename(2) goes, in one of two places, while runs follow one
# another. "link": root/sub/link.zone, a symlink, leads to a file beside it, then outside.
# "dir": root/sub, a directory, becomes a symlink to ../outside (what --include-root checked
# as a path with no symlink in it then leads outside), and back. Timing only picks which
# interleavings the runs meet: none may leak, and in hundreds of runs the tree is the inside
# one for some of them on any machine, busy or not.
cat > swap.py <<'EOF'
import os, sys
os.chdir(sys.argv[1])
while True:
    if sys.argv[2] == "link":
        for target in ("../../outside/in.zone", "link-target.zone"):
            os.symlink(target, "sub/next")
            os.rename("sub/next", "sub/link.zone")
    else:
        os.rename("sub", "sub.dir")
        os.rename("sub.out", "sub")
        os.rename("sub", "sub.out")
        os.rename("sub.dir", "sub")
EOF
cat > loop.sh <<'EOF'
for ((i = 0; i < $1; i++)); do "$2" --check ${3:+--include-root "$3"} "root/$4.zone"; done
EOF
[ "$RACE_RUNS" -gt 0 ] || skip "the loops of runs (under valgrind)"
for swap in link dir; do
  [ "$RACE_RUNS" -gt 0 ] || break
  "$PYTHON" swap.py root $swap &
  swapper=$!
  on_exit "kill $swapper 2>/dev/null"
  for mode in "${modes[@]}"; do
    for fence in root ""; do
      zp "$mode" bash loop.sh "$RACE_RUNS" "$ZONEPUNY" "$fence" $swap > loop.out 2>&1
      what="$swap swapped, $mode, ${fence:+--include-root }${fence:-the default fence}"
      leaked "$what" loop.out
      # (a loop proves nothing unless the inside file was read, and quoted, in some runs)
      grep -q "$quoted" loop.out && ok || bad "$what: the inside file was never read and quoted"
    done
  done
  kill $swapper
  wait $swapper 2>/dev/null
  # (the swapper stopped anywhere: the tree as it was)
  if [ -d root/sub.dir ]; then
    [ -L root/sub ] && mv root/sub root/sub.out
    mv root/sub.dir root/sub
  fi
  ln -sfn link-target.zone root/sub/link.zone
  rm -f root/sub/next
done

# 2. One swap at a known moment: the top file is a FIFO written by the test, so that once 1 MB
# past the $INCLUDE has gone into it zonepuny has read the included file. root/sub is then
# swapped for the symlink to ../outside while the rest of the records (200,000) remain and the
# whole-zone checks run, which quote the included file's line 2.
seq 1 100000 | sed 's/.*/h& A 192.0.2.2/' > part1
seq 100001 $((100000 + rest)) | sed 's/.*/h& A 192.0.2.2/' > part2
mkfifo root/big.zone
for mode in "${modes[@]}"; do
  for fence in root ""; do
    what="swap during a large zone, $mode, ${fence:+--include-root }${fence:-the default fence}"
    { printf "$head"'$INCLUDE sub/in.zone\n'; cat part1
      mv root/sub root/sub.dir && mv root/sub.out root/sub; cat part2; } > root/big.zone &
    writer=$!
    zp "$mode" "$ZONEPUNY" --check ${fence:+--include-root "$fence"} root/big.zone > big.out 2> big.err
    kill $writer 2>/dev/null   # (a writer still waiting for a reader that never came)
    wait $writer 2>/dev/null
    [ -L root/sub ] && ok || bad "$what: root/sub was not swapped"
    mv root/sub root/sub.out && mv root/sub.dir root/sub
    leaked "$what" big.out big.err
    grep -q "$quoted" big.err && ok || bad "$what: the inside file's line 2 not quoted: $(head -c 600 big.err)"
  done
done

# 3. The top file replaced (renamed over) while zonepuny reads it: lines quoted after the pass
# come from the file opened at the start, not from what its name leads to by then. zonepuny is
# held in the middle of the file, however fast it reads: 5,000 names after line 7 draw a
# warning each as they are read (--check-names=warn), far more than a pipe holds, and its
# standard error is a FIFO that this shell reads only once the file has been replaced.
{ printf "$head"'www CNAME ns\nwww A 192.0.2.9\n'
  seq 1 5000 | sed 's/.*/x_& A 192.0.2.3/'
  seq 1 $top | sed 's/.*/h& A 192.0.2.2/'; } > root/top.zone
{ printf "$head"'%s CNAME ns ;%s\n%s A 192.0.2.9 ;%s\n' $marker "$pad" $marker "$pad"
  seq 1 $top | sed 's/.*/h& A 192.0.2.2/'; } > root/top.new
mkfifo top.fifo
"$ZONEPUNY" --check --check-names=warn root/top.zone > top.out 2> top.fifo &
pid=$!
exec 8< top.fifo
# top_open PID: PID has the top file open (or has ended)
top_open() { ls -l /proc/"$1"/fd 2>/dev/null | grep -q 'root/top\.zone$' || ! running "$1"; }
wait_until top_open $pid
mv -f root/top.new root/top.zone
if running $pid; then ok; else bad "top file replaced: zonepuny had ended before"; fi
cat <&8 > top.err
exec 8<&-
wait $pid
leaked "top file replaced during the run" top.out top.err
grep -q '^     7 | www A 192\.0\.2\.9$' top.err && ok ||
  bad "top file replaced: its own line 7 not quoted: $(head -c 600 top.err)"

finish
