#!/usr/bin/env bash
# check_bump_serial.sh -- zonepuny --bump-serial[=increment|date|unixtime] -o FILE: when the
# zone's records (the SOA's serial aside) differ from FILE's, the serial written is FILE's
# raised by the policy, or the zone's own when that is higher (RFC 1982); when they do not,
# FILE's serial is kept and FILE is written byte for byte as it was (a second run changes
# nothing). Expected serials are derived by hand beside each case; --time fixes "today".
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
cd "$tmp"
T=--time=20261202120000   # 2026-12-02 12:00 UTC: 1796212800 seconds since 1970

zone() {   # zone SERIAL [LINE...] > in.zone
  printf '$ORIGIN example.\n$TTL 300\n@ SOA ns h %s 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n' "$1"
  shift
  [ $# -eq 0 ] || printf '%s\n' "$@"
}
serial() { awk '$4 == "SOA" { print $7 }' out.zone; }
# run WANT-SERIAL WHAT [OPTIONS...]: zonepuny --bump-serial... -o out.zone in.zone exits 0 and
# out.zone has the serial
run() {
  local want=$1 what=$2 rc
  shift 2
  "$ZONEPUNY" "$@" -o out.zone in.zone 2> err
  rc=$?
  [ $rc -eq 0 ] && [ "$(serial)" = "$want" ] && ok ||
    bad "$what: exit $rc, serial '$(serial)', want $want: $(cat err)"
}

zone 7 > in.zone
rm -f out.zone
run 7 "no FILE yet: the zone's own" --bump-serial
run 7 "the same records: FILE's kept" --bump-serial
grep -q '^zonepuny: serial 7 kept: the records are out.zone.s$' err && ok || bad "kept: $(cat err)"
cp out.zone before && touch -d '2020-01-01' out.zone
zone 1 > in.zone   # (the zone's own serial below FILE's: the records are FILE's all the same)
run 7 "the same records, a lower serial in the zone" --bump-serial
cmp -s before out.zone && ok || bad "idempotent: out.zone changed"
zone 1 'www A 192.0.2.2' > in.zone
run 8 "a record added: 7 + 1" --bump-serial
grep -q '^zonepuny: serial 7 -> 8: the records differ from out.zone.s$' err && ok || bad "said: $(cat err)"
zone 1 'www 60 A 192.0.2.2' > in.zone
run 9 "a TTL changed: 8 + 1" --bump-serial=increment
printf '$ORIGIN example.\n$TTL 300\n@ SOA ns h 1 2 3 4 6\n@ NS ns\nns A 192.0.2.1\nwww 60 A 192.0.2.2\n' > in.zone
run 10 "the SOA's minimum changed: 9 + 1" --bump-serial
zone 500 'www 60 A 192.0.2.3' > in.zone
run 500 "the zone's own serial above FILE's + 1" --bump-serial
# date: today's first (2026120200) above 500; then the day's next; nn 99 moves to the next day
zone 1 'www A 192.0.2.4' > in.zone
run 2026120200 "date: today's first" --bump-serial=date "$T"
zone 1 'www A 192.0.2.5' > in.zone
run 2026120201 "date: the day's next" --bump-serial=date "$T"
zone 2026120299 'www A 192.0.2.6' > in.zone && rm out.zone
run 2026120299 "date: written as the zone has it" --bump-serial=date "$T"
zone 1 'www A 192.0.2.7' > in.zone
run 2026120300 "date: after nn 99, the next day's first" --bump-serial=date "$T"
# unixtime: 1796212800 is below 2026120300 (RFC 1982): + 1; above a small serial: the time
zone 1 'www A 192.0.2.8' > in.zone
run 2026120301 "unixtime below FILE's: + 1" --bump-serial=unixtime "$T"
zone 5 > in.zone && rm out.zone && run 5 "start again at 5" --bump-serial
zone 5 'x A 192.0.2.9' > in.zone
run 1796212800 "unixtime: the time" --bump-serial=unixtime "$T"
# RFC 1982: 4294967295 + 1 is 0, above it (and above the zone's own 4294967295; a zone's own 1
# would be above 0, and written)
zone 4294967295 > in.zone && rm out.zone && run 4294967295 "start at 2^32 - 1" --bump-serial
zone 4294967295 'y A 192.0.2.10' > in.zone
run 0 "increment wraps to 0" --bump-serial
zone 1 'y A 192.0.2.11' > in.zone
run 1 "after 0: 1" --bump-serial

# a FILE that is no zone: warned, the zone's own serial written
echo 'not a zone' > out.zone
zone 3 > in.zone
run 3 "FILE no zone: the zone's own" --bump-serial
grep -q 'warning: --bump-serial: out.zone does not read as a zone' err && ok || bad "no zone: $(cat err)"
# trouble: standard input, no -o, --check, a bad policy
"$ZONEPUNY" --bump-serial -o out.zone - < in.zone > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "stdin"
"$ZONEPUNY" --bump-serial in.zone > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "no -o"
"$ZONEPUNY" --check --bump-serial in.zone > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "--check"
"$ZONEPUNY" --bump-serial=weekly -o out.zone in.zone > /dev/null 2>&1; [ $? -eq 2 ] && ok ||
  bad "a bad policy"
finish
