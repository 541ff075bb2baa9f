#!/usr/bin/env bash
# check_memory.sh -- the whole-zone checks in bounded memory: with a run buffer of 64 KiB (runs
# spilled to $TMPDIR and merged, many merge passes) zonepuny reports exactly what it reports with
# everything in memory, its peak RSS stays small, and no temporary file outlives it, even when it
# is killed mid-zone. The zone: tests/lib.sh's far_apart_zone, problems whose records only the
# merge brings together.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp
mkdir "$tmp/spill"
far_apart_zone 200000 7 "$tmp/zone"
"$ZONEPUNY" --check "$tmp/zone" 2> "$tmp/mem.err"
rc_mem=$?
TMPDIR=$tmp/spill /usr/bin/time -f '%M' -o "$tmp/rss" \
  "$ZONEPUNY" --check --check-memory 64K "$tmp/zone" 2> "$tmp/spill.err"
rc_spill=$?
[ $rc_mem -eq 1 ] && [ $rc_spill -eq 1 ] && ok || bad "exit $rc_mem in memory, $rc_spill spilled, want 1"
cmp -s "$tmp/mem.err" "$tmp/spill.err" && ok || { bad "spilled runs report otherwise"; diff "$tmp/mem.err" "$tmp/spill.err" | head; }
for w in ttl-mismatch cname-and-other-data idna-collision glue mx-target; do
  grep -q "\[-W$w\]" "$tmp/spill.err" && ok || bad "spilled runs: no -W$w"
done
# genzone.py writes "straße" and "κόσμος" (deviation characters) in thousands of names: one
# warning each, at its first use
[ "$(grep -c '\[-Widna-divergence\]' "$tmp/spill.err")" = 2 ] && ok ||
  bad "idna-divergence: $(grep -c '\[-Widna-divergence\]' "$tmp/spill.err") warnings, want 2"
# (BIND warns of x.b.w9 alone, not of y.w9, which *.w9 answers)
grep -q 'MX target x.b.w9.example. has no A or AAAA' "$tmp/spill.err" &&
  ! grep -q 'y\.w9' "$tmp/spill.err" && ok || bad "spilled runs: the wildcard's targets"
grep -q '^zonepuny: 1 file, 200010 records, 1 error, 7 warnings$' "$tmp/spill.err" && ok ||
  bad "summary: $(tail -1 "$tmp/spill.err")"
# 200,000 records of tuples take some 12 MB in memory; spilled, the buffer is 64 KiB (a binary
# built with AddressSanitizer, under make check-asan, keeps freed memory on purpose: not judged)
rss=$(tail -1 "$tmp/rss")
if ! plain_binary; then
  skip "peak RSS under AddressSanitizer"
else
  [ "$rss" -lt 12000 ] && ok || bad "peak RSS $rss KB with --check-memory 64K"
fi
[ -z "$(ls -A "$tmp/spill")" ] && ok || bad "files left in TMPDIR: $(ls -A "$tmp/spill")"

# killed while the runs are on disk (SIGTERM, SIGKILL): the unlinked files go with the process.
# The zone comes through a FIFO that this shell holds open, so zonepuny cannot reach its end:
# the signal comes once a run is on disk, however long that takes.
mkfifo "$tmp/fifo"
# on_disk PID: PID has a file in $tmp/spill open with something in it (or PID has ended)
on_disk() { writes_in "$1" "$tmp/spill" || ! running "$1"; }
for sig in TERM KILL; do
  TMPDIR=$tmp/spill "$ZONEPUNY" --check --check-memory 64K - < "$tmp/fifo" 2>/dev/null &
  pid=$!
  exec 7> "$tmp/fifo"
  cat "$tmp/zone" >&7 &
  feeder=$!
  wait_until on_disk $pid
  running $pid || bad "SIG$sig: zonepuny ended before a run was on disk"
  kill -$sig $pid 2>/dev/null
  wait $pid 2>/dev/null
  exec 7>&-
  wait $feeder 2>/dev/null   # (done, or ended by its reader's end)
  [ -z "$(ls -A "$tmp/spill")" ] && ok || bad "SIG$sig: files left in TMPDIR: $(ls -A "$tmp/spill")"
done
finish
