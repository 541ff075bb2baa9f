#!/usr/bin/env bash
# check_reload.sh -- tools/zonepuny-reload against a real named (tests/cli/reload_named.sh).
# After each case dig says which serial named serves, and the served file must hold the same:
# - a good change, with a UTF-8 owner name, is served, and nothing is left beside the file;
# - a zone BIND refuses, a name only check-names refuses, and a zone named itself refuses after
#   BIND's check passed (a TTL over named.conf's max-zone-ttl), with named's log and without,
#   leave the previous zone served and its file in place (exit 1); so do a file this user
#   cannot replace or read (exit 2);
# - an $INCLUDE outside SOURCE's directory is refused until --include-root (either spelling,
#   or after --) lets it in;
# - zonepuny's options after --: --idna=2008 keeps an IDNA2008-only name, -W error makes a
#   warning a refusal, -t sets the default TTL, --check-names=warn reaches named-checkzone too;
#   -o, abbreviated --unicode and a stray file name are refused;
# - serials under RFC 1982 serial arithmetic: backwards and equal refused, --allow-serial-reset,
#   the wrap past 2^32, and 2^31 apart (undefined) refused;
# - a UTF-8 zone name (ACE for rndc; Python's IDNA2003 codec gives the expected name) through a
#   symlinked served file, which stays a symlink;
# - a dynamic zone and a zone named does not have are refused up front, without waiting; a
#   wrong rndc key is reported in rndc's own words; a full disk (a 64 KiB tmpfs) exits 2;
# - --help, usage errors, and a man page that documents every option --help lists; the
#   command's table of zonepuny's long options is the one zonepuny --help lists.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
make_tmp
. "$tests_dir/cli/reload_named.sh"
chmod 0711 "$tmp"   # (the unprivileged case reads through it)
PY=${PYTHON:-/usr/bin/python3}

ace_b=$("$PY" -c 'print("bäckerei".encode("idna").decode())').example.   # IDNA2003, stdlib
zone_text example. 1 > "$tmp/served.zone"
zone_text "$ace_b" 1 > "$tmp/b-real.zone"
ln -s b-real.zone "$tmp/b.zone"
zone_text dyn.example. 1 > "$tmp/dyn.zone"
cp "$tmp/dyn.zone" "$tmp/dyn.orig"
mkdir "$tmp/small"
mounted=0
if mount -t tmpfs -o size=64k,mode=0755 tmpfs "$tmp/small" 2> /dev/null; then
  mounted=1
  on_exit "umount '$tmp/small'"
fi
zone_text full.example. 1 > "$tmp/small/full.zone"
named_start \
  "zone \"example.\" { type primary; file \"$tmp/served.zone\"; max-zone-ttl 3600; };" \
  "zone \"$ace_b\" { type primary; file \"$tmp/b.zone\"; check-names warn; };" \
  "zone \"dyn.example.\" { type primary; file \"$tmp/dyn.zone\"; allow-update { 127.0.0.1; }; };" \
  "zone \"full.example.\" { type primary; file \"$tmp/small/full.zone\"; };"

# (--wait: named is given as long as $hang to serve a new zone; a run ends as soon as it does,
# or its log says it refused the zone)
run() { "$reload" --rndc "rndc -c $rndc_conf" --log "$tmp/named.log" --wait "$hang" "$@" > "$tmp/out" 2> "$tmp/err"; }
# agree WHAT ZONE FILE SERIAL: named serves SERIAL for ZONE, and FILE holds it
agree() {
  local s f
  s=$(soa "$2") f=$(file_serial "$3")
  [ "$s" = "$4" ] && [ "$f" = "$4" ] && ok ||
    bad "$1: named serves '$s', $3 holds '$f', want $4: $(cat "$tmp/err")"
}
# status WHAT RC WANT
status() { [ "$2" -eq "$3" ] && ok || bad "$1: exit $2, want $3: $(cat "$tmp/err")"; }
said() { grep -q -- "$2" "$tmp/err" && ok || bad "$1: no '$2' in: $(cat "$tmp/err")"; }
leftovers() { [ -z "$(find "$tmp" -name '.*zonepuny*')" ] && ok || bad "$1: left beside: $(find "$tmp" -name '.*zonepuny*')"; }
src=$tmp/src.zone

# 1. a good change, with a UTF-8 name: served
zone_text example. 2 'münchen A 192.0.2.2' > "$src"
run example. "$src" "$tmp/served.zone"; status "good change" $? 0
agree "good change" example. "$tmp/served.zone" 2
[ "$(ask +short xn--mnchen-3ya.example. A)" = 192.0.2.2 ] && ok ||
  bad "good change: the converted name is not served"
said "good change" "serving serial 2 (was 1)"
leftovers "good change"

# 2. a zone BIND refuses (CNAME and other data; zonepuny's whole-zone check refuses it first)
zone_text example. 3 'www A 192.0.2.3' 'www CNAME ns' > "$src"
run example. "$src" "$tmp/served.zone"; status "CNAME and other data" $? 1
said "CNAME and other data" "CNAME and other data"
agree "CNAME and other data" example. "$tmp/served.zone" 2

# 3. a name only named's check-names refuses (named-checkzone alone would only warn), which
# zonepuny's check-names refuses first
zone_text example. 3 'mail_relay A 192.0.2.4' > "$src"
run example. "$src" "$tmp/served.zone"; status "check-names" $? 1
said "check-names" "mail_relay.example., is not a host name.*check-names"
agree "check-names" example. "$tmp/served.zone" 2

# 4. a served file this user cannot replace (nobody, in a directory of root's), and one it
# cannot read, so could not put back: refused before anything
if command -v setpriv > /dev/null; then
  # (a copy nobody can run: the repository may sit in a directory only root can enter; it
  # finds zonepuny in PATH, in $tmp/zpbin)
  mkdir "$tmp/bin" && cp "$reload" "$tmp/bin/" && chmod 0755 "$tmp/bin" "$tmp/bin/"*
  zone_text example. 3 > "$src" && chmod 0644 "$src"
  nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/bin/zonepuny-reload" \
    --rndc true example. "$src" "$tmp/served.zone" > "$tmp/out" 2> "$tmp/err"; }
  nobody; status "unwritable" $? 2
  said "unwritable" "cannot write beside"
  agree "unwritable" example. "$tmp/served.zone" 2
  chmod 0600 "$tmp/served.zone"
  nobody; status "unreadable" $? 2
  said "unreadable" "cannot read $tmp/served.zone"
  chmod 0644 "$tmp/served.zone"
  agree "unreadable" example. "$tmp/served.zone" 2
else
  skip "setpriv not installed: the unwritable case"
fi

# 5. a zone BIND's check passes and named refuses (a TTL over the max-zone-ttl of named.conf,
# which named-checkzone does not see): the previous file back, named's reason quoted...
zone_text example. 5 'slow 86400 A 192.0.2.5' > "$src"
run example. "$src" "$tmp/served.zone"; status "named refuses" $? 1
said "named refuses" "named refuses the new example."
said "named refuses" "max-zone-ttl"
agree "named refuses" example. "$tmp/served.zone" 2
reload_zone example.
agree "named refuses, another reload" example. "$tmp/served.zone" 2
# ... and without named's log: found out after --wait, named loads the previous file again
# (named refuses the new zone whenever it gets to it: --wait 1 only says how soon the run stops
# waiting for it)
"$reload" --rndc "rndc -c $rndc_conf" --wait 1 example. "$src" "$tmp/served.zone" > "$tmp/out" 2> "$tmp/err"
status "named refuses, no log" $? 1
said "named refuses, no log" "named has loaded the previous file again"
agree "named refuses, no log" example. "$tmp/served.zone" 2
reload_zone example.
agree "named refuses, no log, another reload" example. "$tmp/served.zone" 2

# 6. an $INCLUDE beside the source's directory: outside the default fence, nothing changes;
# --include-root lets it in, in either spelling, or after --
mkdir -p "$tmp/src" "$tmp/keys"
printf 'key A 192.0.2.6\n' > "$tmp/keys/k.inc"
zone_text example. 6 '$INCLUDE ../keys/k.inc' > "$tmp/src/src.zone"
run example. "$tmp/src/src.zone" "$tmp/served.zone"; status "include outside" $? 1
said "include outside" 'not found below the include root'
agree "include outside" example. "$tmp/served.zone" 2
run --include-root "$tmp" example. "$tmp/src/src.zone" "$tmp/served.zone"; status "--include-root" $? 0
agree "--include-root" example. "$tmp/served.zone" 6
zone_text example. 7 '$INCLUDE ../keys/k.inc' > "$tmp/src/src.zone"
run --include-root="$tmp" example. "$tmp/src/src.zone" "$tmp/served.zone"; status "--include-root=" $? 0
agree "--include-root=" example. "$tmp/served.zone" 7
zone_text example. 8 '$INCLUDE ../keys/k.inc' > "$tmp/src/src.zone"
run example. "$tmp/src/src.zone" "$tmp/served.zone" -- --include-root "$tmp"; status "-- --include-root" $? 0
agree "-- --include-root" example. "$tmp/served.zone" 8

# 7. zonepuny's options after --. faß is "fass" under IDNA2003 and its own label under IDNA2008
# (the idna package, when Python has it, gives the expected ACE)
zone_text example. 9 'faß A 192.0.2.7' > "$src"
run example. "$src" "$tmp/served.zone" -- -W error; status "-- -W error" $? 1
said "-- -W error" "idna-divergence"
agree "-- -W error" example. "$tmp/served.zone" 8
run example. "$src" "$tmp/served.zone" -- --idna=2008; status "-- --idna=2008" $? 0
agree "-- --idna=2008" example. "$tmp/served.zone" 9
if ace=$("$PY" -c 'import idna; print(idna.encode("faß").decode())' 2> /dev/null); then
  [ "$(ask +short "$ace.example." A)" = 192.0.2.7 ] && ok ||
    bad "-- --idna=2008: $ace.example. is not served"
  [ -z "$(ask +short fass.example. A)" ] && ok ||
    bad "-- --idna=2008: the IDNA2003 form fass.example. is served"
else
  skip "Python has no idna package: the IDNA2008 name is not looked up"
fi
# -t: a zone without $TTL takes the SOA's minimum (300) unless -t says otherwise
printf '$ORIGIN example.\n@ SOA ns hostmaster 10 3600 600 86400 300\n@ NS ns\nns A 192.0.2.1\n' > "$src"
run example. "$src" "$tmp/served.zone" -- -t 600; status "-- -t 600" $? 0
agree "-- -t 600" example. "$tmp/served.zone" 10
[ "$(ask +noall +answer ns.example. A | awk '{print $2}')" = 600 ] && ok ||
  bad "-- -t 600: TTL $(ask +noall +answer ns.example. A)"
# refused: what would make zonepuny write something else than the zone to serve
zone_text example. 11 > "$src"
for opts in "-o $tmp/x" "-z other." "--uni" "--to-a" "--check" "$tmp/other.zone"; do
  # shellcheck disable=SC2086 # (the words of opts)
  run example. "$src" "$tmp/served.zone" -- $opts; status "-- $opts" $? 2
done
agree "refused zonepuny options" example. "$tmp/served.zone" 10

# 8. serials, under RFC 1982: S2 follows S1 when (S2 - S1) mod 2^32 is in 1 .. 2^31 - 1
zone_text example. 9 > "$src"
run example. "$src" "$tmp/served.zone"; status "serial backwards" $? 1
said "serial backwards" "does not follow the served 10"
agree "serial backwards" example. "$tmp/served.zone" 10
zone_text example. 10 > "$src"
run --allow-serial-reset example. "$src" "$tmp/served.zone"; status "same serial" $? 1
agree "same serial" example. "$tmp/served.zone" 10
zone_text example. 9 > "$src"
run --allow-serial-reset example. "$src" "$tmp/served.zone"; status "--allow-serial-reset" $? 0
agree "--allow-serial-reset" example. "$tmp/served.zone" 9
zone_text example. 4294967290 > "$src"   # 9 + 4294967281: backwards
run example. "$src" "$tmp/served.zone"; status "serial 9 to 4294967290" $? 1
agree "serial 9 to 4294967290" example. "$tmp/served.zone" 9
run --allow-serial-reset example. "$src" "$tmp/served.zone"; status "reset to 4294967290" $? 0
agree "reset to 4294967290" example. "$tmp/served.zone" 4294967290
zone_text example. 5 > "$src"            # 4294967290 + 11, past 2^32: forwards
run example. "$src" "$tmp/served.zone"; status "serial wraps" $? 0
agree "serial wraps" example. "$tmp/served.zone" 5
zone_text example. 2147483653 > "$src"   # 5 + 2^31: undefined, not an increase
run example. "$src" "$tmp/served.zone"; status "2^31 apart" $? 1
agree "2^31 apart" example. "$tmp/served.zone" 5

# 9. a UTF-8 zone name, served through a symlink
printf '$ORIGIN bäckerei.example.\n' > "$src"
zone_text @ 2 'www A 192.0.2.9' | sed 1d >> "$src"
run bäckerei.example. "$src" "$tmp/b.zone"; status "UTF-8 zone name" $? 0
agree "UTF-8 zone name" "$ace_b" "$tmp/b-real.zone" 2
[ "$(ask +short "www.$ace_b" A)" = 192.0.2.9 ] && ok || bad "UTF-8 zone name: www"
[ -L "$tmp/b.zone" ] && ok || bad "UTF-8 zone name: the symlink was replaced"
# --check-names=warn (this zone's check-names in named.conf) reaches named-checkzone too
sed -i 's/ 2 3600 / 3 3600 /; $a mail_relay A 192.0.2.10' "$src"
run bäckerei.example. "$src" "$tmp/b.zone"; status "check-names fail" $? 1
agree "check-names fail" "$ace_b" "$tmp/b-real.zone" 2
run bäckerei.example. "$src" "$tmp/b.zone" -- --check-names=warn; status "--check-names=warn" $? 0
agree "--check-names=warn" "$ace_b" "$tmp/b-real.zone" 3
[ "$(ask +short "mail_relay.$ace_b" A)" = 192.0.2.10 ] && ok ||
  bad "--check-names=warn: mail_relay not served"

# 10. a dynamic zone: refused up front, without waiting, without named's log. Each rndc command
# the run gives is noted: no reload, so nothing waited for, only named's state asked
zone_text dyn.example. 2 > "$src"
printf '#!/bin/sh\necho "$*" >> "%s"\nexec rndc -c "%s" "$@"\n' "$tmp/rndc.said" "$rndc_conf" \
  > "$tmp/rndc-noted"
chmod 0755 "$tmp/rndc-noted"
run --rndc "$tmp/rndc-noted" dyn.example. "$src" "$tmp/dyn.zone"; status "dynamic zone" $? 2
! grep -qsv '^zonestatus ' "$tmp/rndc.said" && ok ||
  bad "dynamic zone: rndc given more than zonestatus: $(tr '\n' ' ' < "$tmp/rndc.said")"
said "dynamic zone" "dynamic zone"
! grep -q "named's log" "$tmp/err" && ok || bad "dynamic zone: quotes named's log: $(cat "$tmp/err")"
[ "$(soa dyn.example.)" = 1 ] && cmp -s "$tmp/dyn.zone" "$tmp/dyn.orig" && ok || bad "dynamic zone: changed"
# and a zone named does not have
run nothere.example. "$src" "$tmp/nothere.zone"; status "unknown zone" $? 2
said "unknown zone" "named has no zone nothere.example."
[ ! -e "$tmp/nothere.zone" ] && ok || bad "unknown zone: a file was written"

# 11. a wrong rndc key: rndc's own words, nothing changed
sed 's|secret "[^"]*"|secret "'"$(head -c 32 /dev/urandom | base64)"'"|' "$rndc_conf" > "$tmp/bad.conf"
zone_text example. 12 > "$src"
"$reload" --rndc "rndc -c $tmp/bad.conf" example. "$src" "$tmp/served.zone" > "$tmp/out" 2> "$tmp/err"
status "wrong key" $? 2
said "wrong key" "rndc: connection to remote host closed"
! grep -q "serves nothing\|no version" "$tmp/err" && ok || bad "wrong key: $(cat "$tmp/err")"
agree "wrong key" example. "$tmp/served.zone" 5

# 12. a full disk: zonepuny cannot write the new file (3,000 records, some 100 KB), exit 2
if [ $mounted -eq 1 ]; then
  { zone_text full.example. 2; for i in $(seq 3000); do echo "h$i A 192.0.2.1"; done; } > "$src"
  run full.example. "$src" "$tmp/small/full.zone"; status "full disk" $? 2
  said "full disk" "No space left on device"
  agree "full disk" full.example. "$tmp/small/full.zone" 1
  [ "$(ls -A "$tmp/small")" = full.zone ] && ok || bad "full disk: left: $(ls -A "$tmp/small")"
else
  skip "cannot mount a small tmpfs here: the full disk case"
fi

# 13. --help, usage errors (nothing changed), and the man page documents every option
"$reload" --help > "$tmp/out" 2> "$tmp/err"; status "--help" $? 0
grep -q '^usage: zonepuny-reload ' "$tmp/out" && ok || bad "--help: $(cat "$tmp/out")"
opts=$(grep -oE -- '--[a-z][a-z-]+' "$tmp/out" | sort -u)
[ "$(wc -l <<< "$opts")" -ge 6 ] && ok || bad "--help lists: $opts"
for o in $opts; do
  grep -qF -- "${o//-/\\-}" "$repo_dir/man/zonepuny-reload.1" && ok || bad "man page: no $o"
done
for args in "" "example." "--wait" "--wait x example. $src $tmp/served.zone" "--bogus example. $src $tmp/served.zone"; do
  # shellcheck disable=SC2086
  "$reload" $args > "$tmp/out" 2> "$tmp/err"; status "usage '$args'" $? 2
done
agree "usage errors" example. "$tmp/served.zone" 5
# 14. --bump-serial: the source keeps serial 5 (named serves 5); a record added is served as 6,
# the same source again is nothing to reload (exit 0, still 6)
zone_text example. 5 'bumped A 192.0.2.55' > "$src"
run --bump-serial example. "$src" "$tmp/served.zone"; status "--bump-serial" $? 0
agree "--bump-serial" example. "$tmp/served.zone" 6
said "--bump-serial" "serial 5 -> 6: the records differ"
[ "$(ask +short bumped.example. A)" = 192.0.2.55 ] && ok || bad "--bump-serial: not served"
run --bump-serial example. "$src" "$tmp/served.zone"; status "--bump-serial again" $? 0
said "--bump-serial again" "holds the records named serves (serial 6): nothing to reload"
agree "--bump-serial again" example. "$tmp/served.zone" 6
# the table of zonepuny's long options the command resolves abbreviations with is zonepuny's
table=$(sed -n '/^zp_long=(/,/)/p' "$reload" | tr -d '()' | sed 's/zp_long=//' | tr -s ' \n' '\n' |
  sed '/^$/d' | sort)
help=$("$ZONEPUNY" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sed 's/^--//' | sort -u)
[ -n "$table" ] && [ "$table" = "$help" ] && ok ||
  bad "zonepuny's options: the command's table and zonepuny --help differ: $(diff <(echo "$table") <(echo "$help") | tr '\n' ' ')"
leftovers "at the end"
finish
