#!/usr/bin/env bash
# check_resources.sh -- the bounds on what a zone may make zonepuny use (doc/limits.md): the
# records $GENERATE may make in one zone (--max-generate) and the octets temporary files in
# $TMPDIR may hold (--tmp-limit). Each bound reached is an error that names its option, comes
# promptly, and leaves nothing behind: no output, -o as it was, an empty TMPDIR.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp
mkdir "$tmp/tmpdir"

head='$ORIGIN example.
$TTL 3600
@ IN SOA ns hostmaster 1 7200 3600 1209600 3600
@ IN NS ns
ns IN A 192.0.2.1'

# ---- $GENERATE: 4,000,000 records in one zone by default, all its lines together ----

# 100 lines of a million records each, a file of some 4 KB: the first four make 4,000,000
# records, the fifth (line 5 + 5 = 10) is refused at its range (column 11), before it makes any,
# and so is every line after it until --max-errors (50) stops the reading. Converted to a pipe,
# nothing comes out and nothing is left in TMPDIR. That a refused line makes no record is
# counted, not timed: the same at --max-generate 1000 (100 lines of 1,000) reads 1,003 records.
{ echo "$head"; for i in $(seq 1 100); do echo "\$GENERATE 0-999999 h\$.g$i A 10.0.0.1"; done; } \
  > "$tmp/gen100.zone"
TMPDIR=$tmp/tmpdir timeout "$hang" "$ZONEPUNY" "$tmp/gen100.zone" 2> "$tmp/err" | cat > "$tmp/out"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 1 ] && ok || bad "100 \$GENERATE lines: exit $rc, want 1"
want='gen100.zone:10:11: error: $GENERATE range "0-999999" makes 1000000 records: with the 4000000 made before it, more than the 4000000 $GENERATE may make in one zone (--max-generate)'
[ "$(head -1 "$tmp/err")" = "$tmp/$want" ] && ok ||
  bad "100 \$GENERATE lines: first message $(head -1 "$tmp/err")"
[ "$(grep -c 'error: \$GENERATE range' "$tmp/err")" = 50 ] && ok ||
  bad "100 \$GENERATE lines: $(grep -c 'error: \$GENERATE range' "$tmp/err") refusals, want 50"
[ ! -s "$tmp/out" ] && ok || bad "100 \$GENERATE lines: $(wc -c < "$tmp/out") bytes written"
[ -z "$(ls -A "$tmp/tmpdir")" ] && ok || bad "100 \$GENERATE lines: left in TMPDIR: $(ls -A "$tmp/tmpdir")"
{ echo "$head"; for i in $(seq 1 100); do echo "\$GENERATE 0-999 h\$.g$i A 10.0.0.1"; done; } \
  > "$tmp/gen100k.zone"
"$ZONEPUNY" --check --max-generate 1000 "$tmp/gen100k.zone" > /dev/null 2> "$tmp/err"
[ "$(tail -1 "$tmp/err")" = "zonepuny: 1 file, 1003 records, 50 errors, 0 warnings" ] && ok ||
  bad "100 \$GENERATE lines at --max-generate 1000: $(tail -1 "$tmp/err")"

# --max-generate 10: lines of 6 and 4 records fill it, a line of one more is refused where its
# range is (line 8, column 11); the zone's own 3 records and the 10 made are read
{ echo "$head"; echo '$GENERATE 1-6 a$ A 192.0.2.1'; echo '$GENERATE 1-7/2 b$ A 192.0.2.2'
  echo '$GENERATE 5-5 c$ A 192.0.2.3'; echo 'd IN A 192.0.2.4'; } > "$tmp/gen10.zone"
"$ZONEPUNY" --check --max-generate 10 "$tmp/gen10.zone" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && ok || bad "--max-generate 10: exit $rc, want 1"
grep -qxF "$tmp/gen10.zone:8:11: error: \$GENERATE range \"5-5\" makes 1 records: with the 10 made before it, more than the 10 \$GENERATE may make in one zone (--max-generate)" "$tmp/err" &&
  ok || { bad "--max-generate 10: message"; cat "$tmp/err"; }
grep -qxF 'zonepuny: 1 file, 14 records, 1 error, 0 warnings' "$tmp/err" && ok ||
  bad "--max-generate 10: $(tail -1 "$tmp/err")"
"$ZONEPUNY" --check --max-generate 11 "$tmp/gen10.zone" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && grep -qxF 'zonepuny: 1 file, 15 records, 0 errors, 0 warnings' "$tmp/err" && ok ||
  bad "--max-generate 11: exit $rc, $(tail -1 "$tmp/err")"
# one line past the bound on its own: told as such
{ echo "$head"; echo '$GENERATE 0-10 a$ A 192.0.2.1'; } > "$tmp/gen11.zone"
"$ZONEPUNY" --check --max-generate 10 "$tmp/gen11.zone" 2> "$tmp/err"
grep -qxF "$tmp/gen11.zone:6:11: error: \$GENERATE range \"0-10\" makes 11 records, more than the 10 \$GENERATE may make in one zone (--max-generate)" "$tmp/err" &&
  ok || { bad "--max-generate 10, one line of 11"; cat "$tmp/err"; }

# --max-generate 0 lifts the bound, as named has none: 4,000,001 records from one line
{ echo "$head"; echo '$GENERATE 0-4000000 h$ A 192.0.2.1'; } > "$tmp/gen4m.zone"
timeout "$hang" "$ZONEPUNY" --check --max-generate 0 "$tmp/gen4m.zone" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && grep -qxF 'zonepuny: 1 file, 4000004 records, 0 errors, 0 warnings' "$tmp/err" &&
  ok || bad "--max-generate 0: exit $rc, $(tail -1 "$tmp/err")"
"$ZONEPUNY" --check "$tmp/gen4m.zone" 2> "$tmp/err"
[ $? -eq 1 ] && grep -qF 'makes 4000001 records, more than the 4000000' "$tmp/err" && ok ||
  bad "the default bound: $(head -1 "$tmp/err")"
for arg in -1 x 10K '' 99999999999999999999; do
  "$ZONEPUNY" --check --max-generate "$arg" "$tmp/gen10.zone" 2> "$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] && grep -qF -- "--max-generate takes a number of records, not '$arg'" "$tmp/err" &&
    ok || bad "--max-generate '$arg': exit $rc, $(head -1 "$tmp/err")"
done

# ---- temporary files: --tmp-limit ----

# 200,000 records (some 8.5 MB) with the checks' runs of a 64 KiB memory: their tuples alone
# are some 14 MB in TMPDIR, so a bound of 1 MiB is reached while the zone is read
"$PYTHON" "$repo_dir/tools/genzone.py" --records 200000 --seed 7 "$tmp/big.zone"
run_limited() {  # run_limited NAME WANT_RC ARGS...: zonepuny ARGS with TMPDIR=$tmp/tmpdir
  local name=$1 want=$2
  shift 2
  TMPDIR=$tmp/tmpdir timeout "$hang" "$ZONEPUNY" "$@" 2> "$tmp/err" | cat > "$tmp/out"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq "$want" ] && ok || bad "$name: exit $rc, want $want"
  [ -z "$(ls -A "$tmp/tmpdir")" ] && ok || bad "$name: left in TMPDIR: $(ls -A "$tmp/tmpdir")"
}
reached="zonepuny: error: temporary files in TMPDIR=$tmp/tmpdir reached 1048576 bytes, their limit (--tmp-limit)"
echo 'the zone as it was' > "$tmp/kept.zone"
cp "$tmp/kept.zone" "$tmp/want.zone"
run_limited "-o, --tmp-limit 1M" 2 --check-memory 64K --tmp-limit 1M -o "$tmp/kept.zone" "$tmp/big.zone"
grep -qxF "$reached" "$tmp/err" && ok || { bad "-o, --tmp-limit 1M: message"; tail -3 "$tmp/err"; }
cmp -s "$tmp/kept.zone" "$tmp/want.zone" && ok || bad "-o, --tmp-limit 1M: the -o file changed"
[ ! -s "$tmp/out" ] && ok || bad "-o, --tmp-limit 1M: standard output written"
run_limited "a pipe, --tmp-limit 1M" 2 --check-memory 64K --tmp-limit 1M "$tmp/big.zone"
grep -qxF "$reached" "$tmp/err" && ok || bad "a pipe, --tmp-limit 1M: $(tail -1 "$tmp/err")"
[ ! -s "$tmp/out" ] && ok || bad "a pipe, --tmp-limit 1M: $(wc -c < "$tmp/out") bytes written"
run_limited "--check, --tmp-limit 1M" 2 --check --check-memory 64K --tmp-limit 1M "$tmp/big.zone"
grep -qxF "$reached" "$tmp/err" && ok || bad "--check, --tmp-limit 1M: message"
# a zone held back from a pipe counts too: 8.5 MB of zone, no checks, a bound of 4 MiB
run_limited "the output held back, --tmp-limit 4M" 2 --fragment --tmp-limit 4M "$tmp/big.zone"
grep -qxF "${reached/1048576/4194304}" "$tmp/err" && ok || bad "output held back: $(tail -1 "$tmp/err")"
[ ! -s "$tmp/out" ] && ok || bad "output held back, --tmp-limit 4M: $(wc -c < "$tmp/out") bytes written"
# what fits: the same zone converted to a pipe as without a bound, 64 MiB or none (0)
"$ZONEPUNY" --check-memory 64K "$tmp/big.zone" 2> "$tmp/err.free" > "$tmp/out.free"
for limit in 64M 0; do
  run_limited "--tmp-limit $limit" 0 --check-memory 64K --tmp-limit "$limit" "$tmp/big.zone"
  cmp -s "$tmp/out" "$tmp/out.free" && cmp -s "$tmp/err" "$tmp/err.free" && ok ||
    bad "--tmp-limit $limit: not what an unbounded run writes"
done
# the default bound (64 times the zone's octets read, at least 1 GiB) is far above all of it
run_limited "the default bound" 0 --check-memory 64K "$tmp/big.zone"
for arg in -1 1T x 10KB ''; do
  "$ZONEPUNY" --check --tmp-limit "$arg" "$tmp/gen10.zone" 2> "$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] && grep -qF -- "--tmp-limit takes a size in bytes (suffix K, M or G), not '$arg'" "$tmp/err" &&
    ok || bad "--tmp-limit '$arg': exit $rc, $(head -1 "$tmp/err")"
done

finish
