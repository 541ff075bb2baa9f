#!/usr/bin/env bash
# check_jobs.sh -- -j: with 2 or more threads the whole-zone checks take records in on a thread
# of their own, and nothing a user sees may depend on it. For every golden zone, and for a large
# zone whose tuples spill to $TMPDIR and are merged, -j 1, 2 and 3 give the same output, the
# same messages in the same order and the same exit status; so do wildcard names past their
# share (the reader's thread counts them), and a signed zone whose signatures are verified in
# batches on the threads. A resource failing on the intake's thread gives the
# same exit status and error, and a fault on it runs the handlers that clean up. The races
# themselves are ThreadSanitizer's to find: the same runs through a -fsanitize=thread build must
# report none. -j takes 1 to 1024.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp
mkdir "$tmp/spill"

# same ZP NAME ARGS...: ZP gives the same stdout, stderr and exit status at -j 1, 2 and 3
same() {
  local zp=$1 name=$2 j
  shift 2
  for j in 1 2 3; do
    TMPDIR=$tmp/spill "$zp" -j "$j" "$@" > "$tmp/out.$j" 2> "$tmp/err.$j"
    echo "exit $?" >> "$tmp/out.$j"
  done
  for j in 2 3; do
    if cmp -s "$tmp/out.1" "$tmp/out.$j" && cmp -s "$tmp/err.1" "$tmp/err.$j"; then
      ok "$name -j $j"
    else
      bad "$name: -j $j differs from -j 1"
      diff "$tmp/err.1" "$tmp/err.$j" | head -5
      diff "$tmp/out.1" "$tmp/out.$j" | head -5
    fi
  done
}

for z in zones/*.zone zones/checks/*.zone; do
  args=()
  [ -e "${z%.zone}.args" ] && read -ra args < "${z%.zone}.args"
  same "$ZONEPUNY" "$z" "${args[@]}" "$z"
  same "$ZONEPUNY" "$z --check" --check "${args[@]}" "$z"
done
need_pass "golden zones"

# a zone whose records meet their partners only through the merge of spilled runs
far_apart_zone 100000 11 "$tmp/big.zone"
{ printf '$ORIGIN example.\n$TTL 3600\n@ SOA ns hm 1 7200 3600 1209600 3600\n@ NS ns\n'
  printf 'ns A 192.0.2.1\n'; for i in $(seq 1 2000); do echo "*.w$i A 192.0.2.1"; done; } \
  > "$tmp/wild.zone"
# a signed zone with records changed after signing: its signatures verified in many batches
# (--check-memory 64K), on the threads from -j 2, must be judged the same as on one
signed=
if command -v dnssec-keygen > /dev/null && command -v dnssec-signzone > /dev/null; then
  { printf '$ORIGIN example.\n$TTL 3600\n@ SOA ns hm 1 7200 3600 1209600 3600\n@ NS ns\n'
    printf 'ns A 192.0.2.1\n'; for i in $(seq 1 3000); do echo "h$i A 192.0.2.$((i % 250 + 1))"; done
  } > "$tmp/unsigned.zone"
  (cd "$tmp" && k=$(dnssec-keygen -q -a ECDSAP256SHA256 -f KSK example.) &&
   z=$(dnssec-keygen -q -a ECDSAP256SHA256 example.) && cat unsigned.zone "$k.key" "$z.key" \
     > in.zone && dnssec-signzone -q -O full -o example. -f signed.zone in.zone) > /dev/null 2>&1
  awk '$1 ~ /^h[0-9]*7\.example\.$/ && $4 == "A" {sub(/192\.0\.2\./, "198.51.100.")} {print}' \
    "$tmp/signed.zone" > "$tmp/changed.zone"
  [ "$(grep -c 198.51.100 "$tmp/changed.zone")" -eq 300 ] && signed=$tmp/changed.zone ||
    bad "the signed zone: 300 records changed wanted"
fi
runs() {   # runs ZP: every run of this script's large zones through ZP
  local zp=$1
  if [ -n "$signed" ]; then
    same "$zp" "signed zone, 300 signatures bogus" --check --max-errors=0 --check-memory 64K \
      "$signed"
    grep -c "rrsig-bogus" "$tmp/err.2" | grep -qx 300 && ok ||
      bad "signed zone at -j 2: $(grep -c rrsig-bogus "$tmp/err.2") rrsig-bogus, 300 wanted"
  else
    skip "a signed zone at -j 1, 2, 3: no dnssec-signzone (make deps-test)"
  fi
  same "$zp" "large zone, spilled" --check --check-memory 256K "$tmp/big.zone"
  same "$zp" "large zone converted, spilled" --check-memory 256K "$tmp/big.zone"
  same "$zp" "large zone converted and sorted, spilled" --check-memory 256K --sort \
    --sort-memory 256K "$tmp/big.zone"
  same "$zp" "wildcard names past their share" --check --check-memory 64K "$tmp/wild.zone"
  # A resource that fails the intake's thread (here --tmp-limit, as a full disk or memory
  # would) is noticed by the reader a few blocks of records later: the exit status and the
  # error are the same, the records read (and told of) before it may not be.
  local j
  for j in 1 2 3; do
    TMPDIR=$tmp/spill "$zp" -j "$j" --check --check-memory 64K --tmp-limit 1M "$tmp/big.zone" \
      > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q '^zonepuny: error: temporary files in .* reached 1048576 bytes' \
      "$tmp/err" && ok || bad "--tmp-limit reached by the intake's runs at -j $j: exit $rc"
  done
}
runs "$ZONEPUNY"
for w in ttl-mismatch idna-collision glue mx-target; do
  "$ZONEPUNY" -j 2 --check --check-memory 256K "$tmp/big.zone" 2>&1 | grep -q "\[-W$w\]" &&
    ok || bad "large zone at -j 2: no -W$w"
done
[ -z "$(ls -A "$tmp/spill")" ] && ok || bad "files left in TMPDIR: $(ls -A "$tmp/spill")"

# A fault on the intake's thread (SIGSEGV sent to that thread alone, with tgkill) ends the run
# as one on the reader's would: killed by the signal, after the handler that removes -o's
# temporary file has run, so the -o file is as it was and nothing is left beside it. The zone
# comes through a FIFO held open, so the thread is there when the signal comes.
mkdir "$tmp/o" && mkfifo "$tmp/fifo"
echo "the zone before" > "$tmp/o/o.zone"
"$ZONEPUNY" -j 2 -o "$tmp/o/o.zone" - < "$tmp/fifo" 2> /dev/null &
pid=$!
exec 7> "$tmp/fifo"
head -n 20000 "$tmp/big.zone" >&7
# the intake's thread there (or zonepuny ended, which the FIFO held open here keeps it from
# doing but by a failure)
threads() { [ "$(ls /proc/$pid/task 2> /dev/null | wc -l)" -ge 2 ] || ! running $pid; }
wait_until threads
tid=$(ls /proc/$pid/task 2> /dev/null | grep -vx "$pid" | head -1)
if ! plain_binary; then
  exec 7>&-
  wait $pid
  skip "a signal to the intake's thread: a sanitizer handles SIGSEGV its own way"
elif [ -n "$tid" ] && "$PYTHON" -c 'import ctypes, os, sys
assert os.uname().machine == "x86_64"   # (SYS_tgkill is 234 there)
sys.exit(ctypes.CDLL(None).syscall(234, int(sys.argv[1]), int(sys.argv[2]), 11) != 0)' "$pid" "$tid"
then
  exec 7>&-
  { wait $pid; } 2> /dev/null
  rc=$?
  [ $rc -eq 139 ] && ok || bad "SIGSEGV on the intake's thread: exit $rc, want 139"
  [ "$(cat "$tmp/o/o.zone")" = "the zone before" ] && ok || bad "SIGSEGV on the intake's thread: -o changed"
  [ "$(ls -A "$tmp/o")" = o.zone ] && ok || bad "SIGSEGV on the intake's thread: left beside -o: $(ls -A "$tmp/o")"
else
  exec 7>&-
  wait $pid
  skip "a signal to the intake's thread: no second thread seen, or no tgkill here"
fi

for j in 0 -1 x 1025 ''; do
  "$ZONEPUNY" --check -j "$j" zones/checks/apex-ns-alias.zone > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -eq 2 ] && grep -q "^zonepuny: error: -j takes a number of threads" "$tmp/err" &&
    ok || bad "-j '$j': exit $rc, $(head -1 "$tmp/err")"
done

# the same runs under ThreadSanitizer
tsan=$repo_dir/build-tsan
if echo 'int main(void){return 0;}' | cc -fsanitize=thread -x c - -o "$tmp/t" 2> /dev/null &&
   "$tmp/t" 2> /dev/null; then
  if make -s -C "$repo_dir" BUILD="$tsan" OPT="-O1 -g" SAN="-fsanitize=thread" "$tsan/zonepuny" \
       > "$tmp/make" 2>&1; then
    export TSAN_OPTIONS="exitcode=66 log_path=$tmp/tsan"
    runs "$tsan/zonepuny"
    if ls "$tmp"/tsan.* > /dev/null 2>&1; then
      bad "ThreadSanitizer reports:"; head -30 "$tmp"/tsan.*
    else
      ok "ThreadSanitizer: no report"
    fi
  else
    bad "the -fsanitize=thread build failed"; tail -5 "$tmp/make"
  fi
else
  skip "ThreadSanitizer: the compiler cannot build with -fsanitize=thread"
fi
finish
