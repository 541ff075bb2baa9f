#!/usr/bin/env bash
# check_reload_states.sh -- tools/zonepuny-reload's states against a real named
# (tests/cli/reload_named.sh): whatever happens, the served file and the serial named serves
# (dig) agree afterwards, also after one more rndc reload, and the exit status says which zone
# is served (0 the new one, 1 the previous one).
# - a slow load (a zone of 100,000 records) with --wait 0: named takes the new zone after the
#   wait; the run follows it (exit 0) instead of putting back a file named would never load
#   again ("up-to-date"). The run is held after its rndc reload until named has begun to load
#   the new file; whether named is done before the run's one look is the machine's doing:
#   when named was quicker, the run must still exit 0 serving the new zone, and the slow path
#   is counted as skipped, not failed;
# - a slow load named refuses (a TTL over max-zone-ttl in its last record), --wait 0, no log:
#   the previous file back and loaded again (exit 1);
# - a signal at each state (ZONEPUNY_RELOAD_STOP_AT stops the run there): TERM at locked,
#   staged, checked and renamed leaves the previous zone (exit 1); at reloaded and waiting
#   either zone, as the exit status says; HUP and INT too; TERM while a slow load runs, and
#   while the run waits for the lock;
# - two runs at once onto the same file, 20 rounds: each says the truth (the one that serves
#   says its own serial; the one refused names the other's serial as served), the final zone
#   is one of the two, whole, and the file holds the same (whether a round overlapped, so that
#   a run waited for the lock, is counted as skipped when none did);
# - after an unsettled run whose new file named took after all, the next run puts that file in
#   place first (a kept file of SERVED's own serial is dropped; one of neither is said, exit 3).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
make_tmp
. "$tests_dir/cli/reload_named.sh"

served=$tmp/served.zone
zone_text example. 1 > "$served"
named_start "zone \"example.\" { type primary; file \"$served\"; max-zone-ttl 3600; };"
rndc=(rndc -c "$rndc_conf")
cur=1

big() {   # SERIAL [LAST LINE]: 100,000 records
  zone_text example. "$1"
  seq 100000 | awk '{ print "h" $1 " A 192.0.2." ($1 % 250 + 1) }'
  [ -z "${2-}" ] || echo "$2"
}
# settled WHAT RC OLD NEW: the file and named agree, now and after one more reload; the exit
# status says which; sets cur
settled() {
  local what=$1 rc=$2 old=$3 new=$4 s f want
  s=$(soa example.) f=$(file_serial "$served")
  [ -n "$s" ] && [ "$s" = "$f" ] && ok || bad "$what: named serves '$s', the file holds '$f': $(cat "$tmp/err")"
  case $rc in 0) want=$new ;; 1) want=$old ;; *) want="exit $rc" ;; esac
  [ "$s" = "$want" ] && ok || bad "$what: exit $rc, and named serves '$s' (previous $old, new $new): $(cat "$tmp/err")"
  reload_zone example.
  s=$(soa example.)
  [ "$s" = "$f" ] && ok || bad "$what: after one more rndc reload named serves '$s', the file holds '$f'"
  [ -z "$(find "$tmp" -name '.*zonepuny*')" ] && ok || bad "$what: left: $(find "$tmp" -name '.*zonepuny*')"
  cur=$f
}

# state PID: the process's state (R, S, T...: /proc/PID/stat), empty when it has gone
state() { sed 's/.*) //' "/proc/$1/stat" 2> /dev/null | cut -d' ' -f1; }
# stopped PID: the run PID has stopped itself (or has ended)
stopped() { [ "$(state "$1")" = T ] || ! running "$1"; }
# begun OFFSET PID: named has the served file open, or its log has told of a load of the zone
# since OFFSET (or the run PID has ended)
begun() {
  local f
  for f in /proc/"$named_pid"/fd/*; do [ "$(readlink "$f" 2> /dev/null)" = "$served" ] && return 0; done
  zone_load_told example "$1" || ! running "$2"
}
# slow: the run of $tmp/src.zone at --wait 0, stopped once it has asked named to reload
# (ZONEPUNY_RELOAD_STOP_AT=waiting) and let go on once named has begun to load the new file: its
# one look then finds named loading the new zone or done with it, never yet to begin (the file
# put back would then be the one named loads, and the new zone never tried); sets rc
slow() {
  local p mark
  mark=$(log_size)
  ZONEPUNY_RELOAD_STOP_AT=waiting "$reload" --rndc "${rndc[*]}" --wait 0 example. \
    "$tmp/src.zone" "$served" > "$tmp/out" 2> "$tmp/err" &
  p=$!
  wait_until stopped $p
  wait_until begun "$mark" $p
  kill -CONT $p
  wait $p
  rc=$?
}

# 1. a slow load and --wait 0: named takes the new zone after the wait
big $((cur + 1)) > "$tmp/src.zone"
slow
[ $rc -eq 0 ] && ok || bad "slow load: exit $rc, want 0: $(cat "$tmp/err")"
if grep -q "after all: its load outlasted --wait" "$tmp/err"; then
  ok
elif [ $rc -eq 0 ] && grep -q "serving serial $((cur + 1))" "$tmp/err"; then
  skip "slow load: named loaded 100,000 records before the run's one look at --wait 0"
else
  bad "slow load: neither served at once nor after the wait: $(cat "$tmp/err")"
fi
settled "slow load" $rc $cur $((cur + 1))

# 2. a slow load that named refuses, --wait 0, without named's log
big $((cur + 1)) 'last 86400 A 192.0.2.1' > "$tmp/src.zone"
slow
[ $rc -eq 1 ] && ok || bad "slow refusal: exit $rc, want 1: $(cat "$tmp/err")"
settled "slow refusal" $rc $cur $((cur + 1))

# 3. a signal at each state (--wait: named is given as long as $hang to serve a new zone; a
# run ends as soon as it does, or its log says it refused it)
# stopped_at STATE SIGNAL SOURCE [WANT]: the run stops itself on entering STATE, gets SIGNAL,
# goes on; WANT is the exit status wanted (any of 0 and 1 when not given)
stopped_at() {
  local st=$1 sig=$2 src=$3 want=${4-} p rc new
  new=$(file_serial "$src")
  # (a background job of a shell without job control starts with SIGINT ignored, and so does
  # a job of a shell that started so; a suite run under nohup starts with SIGHUP ignored: env
  # gives the run both defaults back, as a signal ignored at start stays ignored)
  ZONEPUNY_RELOAD_STOP_AT=$st env --default-signal=INT,HUP "$reload" --rndc "${rndc[*]}" \
    --log "$tmp/named.log" --wait "$hang" example. "$src" "$served" > "$tmp/out" 2> "$tmp/err" &
  p=$!
  wait_until stopped $p
  if [ "$(state $p)" != T ]; then
    bad "$sig at $st: the run did not stop there: $(cat "$tmp/err")"
    kill -CONT $p 2> /dev/null; wait $p
    return
  fi
  kill -"$sig" $p
  kill -CONT $p
  wait $p
  rc=$?
  if [ -n "$want" ]; then
    [ $rc -eq "$want" ] && ok || bad "$sig at $st: exit $rc, want $want: $(cat "$tmp/err")"
  else
    [ $rc -le 1 ] && ok || bad "$sig at $st: exit $rc: $(cat "$tmp/err")"
  fi
  grep -q "interrupted ($sig)" "$tmp/err" && ok || bad "$sig at $st: not told: $(cat "$tmp/err")"
  settled "$sig at $st" $rc $cur "$new"
}
for st in locked staged checked renamed; do
  zone_text example. $((cur + 1)) "s A 192.0.2.3" > "$tmp/src.zone"
  stopped_at $st TERM "$tmp/src.zone" 1
done
for st in reloaded waiting; do
  zone_text example. $((cur + 1)) "s A 192.0.2.3" > "$tmp/src.zone"
  stopped_at $st TERM "$tmp/src.zone"
done
zone_text example. $((cur + 1)) > "$tmp/src.zone"
stopped_at renamed HUP "$tmp/src.zone" 1
if env --default-signal=INT true 2> /dev/null; then
  zone_text example. $((cur + 1)) > "$tmp/src.zone"
  stopped_at staged INT "$tmp/src.zone" 1
  zone_text example. $((cur + 1)) > "$tmp/src.zone"
  stopped_at waiting INT "$tmp/src.zone"
else
  skip "env has no --default-signal (coreutils 8.31): SIGINT cannot be given back to a run"
  skip "env has no --default-signal: SIGINT at waiting"
fi
big $((cur + 1)) > "$tmp/src.zone"
stopped_at waiting TERM "$tmp/src.zone"

# 4. a run that waits for the lock (held here on the directory, until the holder is killed
# below: $hang only bounds a test that never gets there) and gets TERM: nothing changed
zone_text example. $((cur + 1)) > "$tmp/src.zone"
(exec 9< "$tmp" && flock 9 && exec sleep "$hang") &
holder=$!
locked() { ! flock -n "$tmp" true || ! running $holder; }
wait_until locked
"$reload" --rndc "${rndc[*]}" example. "$tmp/src.zone" "$served" > "$tmp/out" 2> "$tmp/err" &
p=$!
# (told, and asleep in its wait for the lock, with the lock's waiter its child: a signal that
# came before that wait would be acted on only once the lock came)
told_waiting() {
  { grep -q "waiting for another" "$tmp/err" && [ "$(state $p)" = S ] && pgrep -P $p > /dev/null; } ||
    ! running $p
}
wait_until told_waiting
grep -q "waiting for another" "$tmp/err" && ok || bad "lock: the run did not wait: $(cat "$tmp/err")"
kill -TERM $p
wait $p
rc=$?
kill $holder
wait $holder 2> /dev/null
[ $rc -eq 1 ] && grep -q "interrupted (TERM) while waiting for the lock" "$tmp/err" && ok ||
  bad "TERM waiting for the lock: exit $rc: $(cat "$tmp/err")"
settled "TERM waiting for the lock" $rc $cur $((cur + 1))

# 5. two runs at once onto the same file, 20 rounds; the higher serial must win
contended=0
for round in $(seq 20); do
  if [ $((RANDOM % 2)) -eq 0 ]; then sa=$((cur + 1)) sb=$((cur + 2)); else sa=$((cur + 2)) sb=$((cur + 1)); fi
  zone_text example. $sa 'who TXT "a"' > "$tmp/a.zone"
  zone_text example. $sb 'who TXT "b"' > "$tmp/b.zone"
  "$reload" --rndc "${rndc[*]}" --wait "$hang" example. "$tmp/a.zone" "$served" 2> "$tmp/a.err" &
  pa=$!
  "$reload" --rndc "${rndc[*]}" --wait "$hang" example. "$tmp/b.zone" "$served" 2> "$tmp/b.err" &
  pb=$!
  wait $pa; ra=$?
  wait $pb; rb=$?
  grep -q "waiting for another" "$tmp/a.err" "$tmp/b.err" && contended=$((contended + 1))
  s=$(soa example.) f=$(file_serial "$served")
  hi=$((sa > sb ? sa : sb)) lo=$((sa > sb ? sb : sa))
  who=$(ask +short who.example. TXT | tr -d '"')
  want_who=$([ "$s" = "$sa" ] && echo a || echo b)
  [ "$s" = "$hi" ] && [ "$f" = "$hi" ] && [ "$who" = "$want_who" ] && ok ||
    bad "round $round: named serves '$s' (who '$who'), the file holds '$f', want $hi"
  for x in a b; do
    if [ $x = a ]; then r=$ra own=$sa other=$sb; else r=$rb own=$sb other=$sa; fi
    case $r in
      0) grep -q "serving serial $own " "$tmp/$x.err" && ok ||
           bad "round $round: run $x exit 0 but: $(cat "$tmp/$x.err")" ;;
      1) [ $own = $lo ] && grep -q "does not follow the served $other " "$tmp/$x.err" && ok ||
           bad "round $round: run $x exit 1: $(cat "$tmp/$x.err")" ;;
      *) bad "round $round: run $x exit $r: $(cat "$tmp/$x.err")" ;;
    esac
  done
  cur=$f
done
# (whether two runs started together overlap is the machine's doing: the wait for the lock is
# held to its behaviour above, with a holder that keeps it)
[ $contended -gt 0 ] && ok ||
  skip "two runs at once: the runs never overlapped in 20 rounds, so none waited for the lock"
[ -z "$(find "$tmp" -name '.*zonepuny*')" ] && ok || bad "two runs at once: left: $(find "$tmp" -name '.*zonepuny*')"

# 6. what an unsettled run (exit 3, the previous file back) leaves when named takes the new
# file after all: named serves serial cur + 1, SERVED holds cur, the new file kept beside it as
# .served.zone.zonepuny.pending. The next run puts it in place first, then goes on; a kept
# file of the serial SERVED holds is dropped; one of neither is said, exit 3, nothing changed.
pending=$tmp/.served.zone.zonepuny.pending
cp "$served" "$tmp/previous.zone"
zone_text example. $((cur + 1)) 'late A 192.0.2.61' > "$tmp/late.zone"
cp "$tmp/late.zone" "$served" && touch -d '@1' "$served"   # (older than any load)
touch "$served"
reload_zone example.
[ "$(soa example.)" = $((cur + 1)) ] && ok || bad "unsettled: named did not take the late zone"
cp "$tmp/late.zone" "$pending"
cp "$tmp/previous.zone" "$served" && touch -d '@1' "$served"   # (behind named, not reloaded)
zone_text example. $((cur + 2)) 'next A 192.0.2.62' > "$tmp/src.zone"
"$reload" --rndc "${rndc[*]}" --wait "$hang" example. "$tmp/src.zone" "$served" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok || bad "after unsettled: exit $rc: $(cat "$tmp/err")"
grep -q "named serves serial $((cur + 1)), which an earlier unsettled run left beside" "$tmp/err" &&
  ok || bad "after unsettled: not said: $(cat "$tmp/err")"
[ "$(soa example.)" = $((cur + 2)) ] && [ "$(file_serial "$served")" = $((cur + 2)) ] && ok ||
  bad "after unsettled: named serves $(soa example.), the file holds $(file_serial "$served")"
[ ! -e "$pending" ] && ok || bad "after unsettled: $pending left"
cur=$((cur + 2))
# a kept file of SERVED's own serial: dropped; one of neither: said, exit 3, nothing changed
cp "$served" "$pending"
zone_text example. $((cur + 1)) > "$tmp/src.zone"
"$reload" --rndc "${rndc[*]}" --wait "$hang" example. "$tmp/src.zone" "$served" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ ! -e "$pending" ] && ok || bad "pending of SERVED's serial: exit $rc: $(cat "$tmp/err")"
cur=$((cur + 1))
cp "$served" "$tmp/previous.zone"
zone_text example. $((cur + 5)) > "$served" && touch -d '@1' "$served"   # (not loaded)
zone_text example. $((cur + 7)) > "$pending"
zone_text example. $((cur + 1)) > "$tmp/src.zone"
"$reload" --rndc "${rndc[*]}" --wait "$hang" example. "$tmp/src.zone" "$served" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "put that file in place" "$tmp/err" && [ "$(soa example.)" = $cur ] &&
  [ "$(file_serial "$served")" = $((cur + 5)) ] && [ -e "$pending" ] && ok ||
  bad "pending of neither: exit $rc, named serves $(soa example.): $(cat "$tmp/err")"
rm -f "$pending"
cp "$tmp/previous.zone" "$served"
finish
