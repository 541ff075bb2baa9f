#!/usr/bin/env bash
# check_sort_spill.sh -- --sort in bounded memory (doc/limits.md): past --sort-memory N the
# records go to sorted runs in an unlinked temporary file and are merged, so the zone's size does
# not show in memory. (check_sort.py holds the order to dnspython's, spilled and not.)
#  - a 200,000-record zone with records repeated far apart and RDATA near the 65,535-octet
#    limit: the same output at 1G (in memory), 16M, 1M and the least memory there is;
#  - the output's records are the input's, each once: the set of the unsorted output's lines;
#  - peak RSS less that of the same run unsorted stays within N and 512 KiB;
#  - nothing left in TMPDIR; past --tmp-limit, exit 2, its message, and no output file;
#  - killed mid-way: the -o file as it was, nothing left beside it or in TMPDIR.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp
mkdir "$tmp/spill"

"$PYTHON" tools/genzone.py --records 200000 --seed 7 "$tmp/g.zone"
"$PYTHON" - "$tmp/g.zone" "$tmp/z.zone" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
body = [l for l in lines if l and not l.startswith("$") and " SOA " not in l and "\tSOA" not in l]
out = lines + body[::97]                   # every 97th record again, at the end of the file
# RDATA near the limit: a TXT of 256 strings of 254 octets and one of 182 (65,463 octets), two
# more that differ from it only in their last octets, and 65,500 octets in RFC 3597 form
strings = " ".join(['"' + "x" * 254 + '"'] * 256)
out.append("big 300 IN TXT %s \"%s\"" % (strings, "y" * 182))
out.append("big 300 IN TXT %s \"%s\"" % (strings, "y" * 181 + "z"))
out.append("big 300 IN TXT %s \"%s\"" % (strings, "y" * 181))
out.append("big 300 IN TYPE65280 \\# 65500 " + "ab" * 65500)
out.append("big 300 IN TXT %s \"%s\"" % (strings, "y" * 182))   # a duplicate of the first
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(out) + "\n")
PY

# the same run, its peak RSS in KiB to $tmp/rss
run() { TMPDIR=$tmp/spill /usr/bin/time -f '%M' -o "$tmp/rss" "$ZONEPUNY" --fragment "$@"; }

run "$tmp/z.zone" > "$tmp/unsorted" 2>/dev/null || bad "unsorted run: exit $?"
base=$(tail -1 "$tmp/rss")
LC_ALL=C sort -u "$tmp/unsorted" > "$tmp/set"
[ "$(grep -c '^big\.' "$tmp/set")" -eq 4 ] && ok || bad "the zone lacks its four big records"
for mem in 1G 16M 1M 1K; do
  if ! run --sort --sort-memory "$mem" "$tmp/z.zone" > "$tmp/out.$mem" 2> "$tmp/err"; then
    bad "--sort-memory $mem: exit non-zero"; head -3 "$tmp/err"; continue
  fi
  used=$(($(tail -1 "$tmp/rss") - base))
  if [ "$mem" = 1G ]; then
    LC_ALL=C sort "$tmp/out.$mem" | cmp -s - "$tmp/set" && ok ||
      bad "--sort: not the input's records, each once"
  else
    cmp -s "$tmp/out.$mem" "$tmp/out.1G" && ok || bad "--sort-memory $mem: another output"
  fi
  case $mem in
    1M) budget=1024 ;;
    1K) budget=$((4 * (70000 / 1024 + 1))) ;;   # the least: four of its largest entries
    *) budget= ;;
  esac
  [ -z "$budget" ] || within "--sort-memory $mem" "$used" "$budget"
done
[ -z "$(ls -A "$tmp/spill")" ] && ok || bad "files left in TMPDIR: $(ls -A "$tmp/spill")"

TMPDIR=$tmp/spill "$ZONEPUNY" --fragment --sort --sort-memory 1M --tmp-limit 1M -o "$tmp/o.zone" \
  "$tmp/z.zone" 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && ok || bad "past --tmp-limit: exit $rc"
grep -q 'reached 1048576 bytes, their limit (--tmp-limit)' "$tmp/err" && ok ||
  bad "past --tmp-limit: $(tail -1 "$tmp/err")"
[ ! -e "$tmp/o.zone" ] && ok || bad "past --tmp-limit: an output file was written"
[ -z "$(ls -A "$tmp/spill")" ] && ok || bad "files left in TMPDIR: $(ls -A "$tmp/spill")"

# killed mid-way (SIGTERM, SIGKILL) while its runs are on disk: the unlinked file goes with the
# process, and the -o file is the one that was there. The zone comes through a FIFO that this
# shell holds open, so zonepuny cannot reach its end: the signal comes once a run is on disk,
# however long that takes.
mkdir "$tmp/o"
mkfifo "$tmp/fifo"
# on_disk PID: PID has a file in $tmp/spill open with something in it (or PID has ended)
on_disk() { writes_in "$1" "$tmp/spill" || ! running "$1"; }
for sig in TERM KILL; do
  echo "the zone before" > "$tmp/o/o.zone"
  TMPDIR=$tmp/spill "$ZONEPUNY" --fragment --sort --sort-memory 1M -o "$tmp/o/o.zone" - \
    < "$tmp/fifo" 2>/dev/null &
  pid=$!
  exec 7> "$tmp/fifo"
  cat "$tmp/z.zone" >&7 &
  feeder=$!
  wait_until on_disk $pid
  kill -$sig $pid 2>/dev/null
  { wait $pid; } 2>/dev/null
  rc=$?
  exec 7>&-
  wait $feeder 2>/dev/null   # (done, or ended by its reader's end)
  if [ $rc -eq $((128 + $(kill -l $sig))) ]; then
    [ "$(cat "$tmp/o/o.zone")" = "the zone before" ] && ok || bad "SIG$sig: -o file changed"
  else
    bad "SIG$sig: exit $rc: ended before the signal, or not by it"
  fi
  [ "$(ls -A "$tmp/o")" = o.zone ] && ok || bad "SIG$sig: left beside -o: $(ls -A "$tmp/o")"
  [ -z "$(ls -A "$tmp/spill")" ] && ok || bad "SIG$sig: files left in TMPDIR: $(ls -A "$tmp/spill")"
done

"$ZONEPUNY" --sort --sort-memory 0 "$tmp/z.zone" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q -- "--sort-memory takes a size" "$tmp/err" && ok ||
  bad "--sort-memory 0: exit $rc, $(head -1 "$tmp/err")"
finish
