#!/usr/bin/env bash
# check_named_conf.sh -- `zonepuny --named-conf FILE` end to end, against named-checkconf -z on
# the same named.conf: per zone the same verdict (named prints "zone NAME/IN: loaded serial" or
# "not loaded due to errors"), with a relative $INCLUDE taken from the directory option as named
# takes it, a zone file that cannot be read as that zone's error at its file clause (exit 1),
# a view, and the usage errors of the option. (Which zones a conf loads, and its grammar, are
# tests/cli/check_named_conf_zones.sh's; verdicts over many zones, check_named_verdicts.py's.)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
export PATH=$PATH:/usr/sbin:/sbin
command -v named-checkconf > /dev/null || { skip "named-checkconf not installed (make deps-test)"; finish; }
make_tmp
d=$tmp/etc
mkdir -p "$d/zones" "$d/other"
soa='$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n'
# zones/good.db includes common.inc, which stands in the directory option's folder: named takes
# the path from there; zonepuny alone would take it from zones/ (where there is another file,
# with an error, to tell the two apart)
printf "$soa"'$INCLUDE common.inc\n' > "$d/zones/good.db"
printf 'www A 192.0.2.2\n' > "$d/common.inc"
printf 'www A 192.0.2.300\n' > "$d/zones/common.inc"
printf "$soa"'bad CNAME www\nbad A 192.0.2.3\nwww A 192.0.2.4\n' > "$d/zones/bad.db"
printf "$soa"'münchen A 192.0.2.5\n' > "$d/other/idn.db"
cat > "$d/named.conf" <<EOF
options { directory "$d"; };   // the zones' paths start here
view "inside" {
  zone "example.com" { type primary; file "zones/good.db"; };
  zone "example.org" { type primary; file "zones/bad.db"; };
  zone "example.net" { type primary; file "zones/missing.db"; };
  zone "example.info" { type secondary; primaries { 192.0.2.1; }; file "zones/sec.db"; };
};
view "outside" {
  zone "example.com" { type primary; file "zones/good.db"; };
};
EOF

named=$(named-checkconf -z "$d/named.conf" 2>/dev/null)
"$ZONEPUNY" --named-conf "$d/named.conf" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] && ok || bad "exit $rc, expected 1: $(cat "$tmp/err")"
for z in example.com example.org example.net; do
  theirs=loads
  grep -q "^zone $z/IN: not loaded due to errors" <<< "$named" && theirs=refuses
  ours=loads
  case $z in
    example.com) grep -q "error" <<< "$(grep -v 'zones/bad.db\|missing.db\|^ \|^zonepuny:' "$tmp/err")" && ours=refuses ;;
    example.org) grep -q "zones/bad.db:[0-9]*:[0-9]*: error:" "$tmp/err" && ours=refuses ;;
    # (the file clause's opening quote: column 43)
    example.net) grep -q "named.conf:5:43: error: zone example.net in view inside: cannot read $d/zones/missing.db: No such file or directory" "$tmp/err" && ours=refuses ;;
  esac
  [ "$theirs" = "$ours" ] && ok || bad "$z: named $theirs it, zonepuny $ours: $(cat "$tmp/err")"
done
grep -q "^zonepuny: 4 zones of $d/named.conf, 14 records, 2 errors, 0 warnings$" "$tmp/err" &&
  ok || bad "summary: $(tail -1 "$tmp/err")"   # good.db 3+1 (twice), bad.db 3+3

# a UTF-8 zone: named reads the file itself and would serve the octets (here it refuses the
# host name, check-names); zonepuny says the zone to serve is the one it writes, at the label
printf 'options { directory "%s"; };\nzone "example.edu" { type primary; file "other/idn.db"; };\n' \
  "$d" > "$tmp/idn.conf"
named-checkconf -z "$tmp/idn.conf" > /dev/null 2>&1 && bad "named-checkconf loaded the UTF-8 zone"
"$ZONEPUNY" --check --named-conf "$tmp/idn.conf" > "$tmp/out" 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "^$d/other/idn.db:5:2: error: label \"münchen\" is not ASCII: named reads this file as it is" "$tmp/err" &&
  ok || bad "an IDN zone: $(cat "$tmp/err")"
# a UTF-8 zone name in the conf: the same, at the zone statement, and no "no SOA" after it
printf 'options { directory "%s"; };\nzone "bücher.example" { type primary; file "zones/good.db"; };\n' \
  "$d" > "$tmp/idn.conf"
named-checkconf -z "$tmp/idn.conf" > /dev/null 2>&1 && bad "named-checkconf loaded the UTF-8 zone name"
"$ZONEPUNY" --check --named-conf "$tmp/idn.conf" > "$tmp/out" 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "^$tmp/idn.conf:2:1: error: zone bücher.example: label \"bücher\" is not ASCII" "$tmp/err" &&
  ! grep -q 'no SOA' "$tmp/err" && ok || bad "a UTF-8 zone name: $(cat "$tmp/err")"
# root hints: named's loader refuses a CNAME beside other data there, and so does zonepuny
printf '. 3600000 NS a.root-servers.net.\na.root-servers.net. 3600000 A 198.41.0.4\n' > "$d/hints"
printf 'options { directory "%s"; };\nzone "." { type hint; file "hints"; };\n' "$d" > "$tmp/h.conf"
named-checkconf -z "$tmp/h.conf" > /dev/null 2>&1; named=$?
"$ZONEPUNY" --named-conf "$tmp/h.conf" > /dev/null 2> "$tmp/err"; ours=$?
[ $named -eq 0 ] && [ $ours -eq 0 ] && ok || bad "root hints: named $named, zonepuny $ours: $(cat "$tmp/err")"
printf 'foo.example. 300 CNAME x.\nfoo.example. 300 A 192.0.2.1\n' >> "$d/hints"
named-checkconf -z "$tmp/h.conf" > /dev/null 2>&1; named=$?
"$ZONEPUNY" --named-conf "$tmp/h.conf" > /dev/null 2> "$tmp/err"; ours=$?
[ $named -eq 1 ] && [ $ours -eq 1 ] && ok || bad "bad root hints: named $named, zonepuny $ours: $(cat "$tmp/err")"

# a conf that cannot be read: exit 2; one with a syntax error: exit 1, at its place
"$ZONEPUNY" --named-conf "$tmp/none.conf" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && ok || bad "a missing conf: not exit 2: $(cat "$tmp/err")"
printf 'zone "example.com" { type primary; file "x.db" };\n' > "$tmp/syntax.conf"
named-checkconf "$tmp/syntax.conf" > /dev/null 2>&1 && bad "named-checkconf took the broken conf"
"$ZONEPUNY" --named-conf "$tmp/syntax.conf" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "^$tmp/syntax.conf:1:[0-9]*: error: " "$tmp/err" && ok ||
  bad "a syntax error: $(cat "$tmp/err")"

# a ';' missing after a one-word option, before a zone: named-checkconf refuses the conf there
# ("missing ';' before 'zone'"); zonepuny too, at that token, and checks no zone; so for an
# unknown statement
printf 'options {\n  directory "%s";\n  recursion no\n  zone "example.com" { type primary; file "zones/good.db"; };\n};\n' \
  "$d" > "$tmp/semi.conf"
printf 'options { directory "%s"; };\nzone "example.com" { type primary; file "zones/good.db"; };\nlogin { };\n' \
  "$d" > "$tmp/unknown.conf"
for c in semi:4:3 unknown:3:1; do
  f=$tmp/${c%%:*}.conf where=${c#*:}
  named-checkconf "$f" > /dev/null 2>&1 && bad "named-checkconf took $f"
  "$ZONEPUNY" --named-conf "$f" > /dev/null 2> "$tmp/err"
  [ $? -eq 1 ] && grep -q "^$f:$where: error: " "$tmp/err" &&
    grep -q "^zonepuny: 0 zones of $f, 0 records, 1 error, 0 warnings$" "$tmp/err" && ok ||
    bad "${c%%:*}.conf: $(cat "$tmp/err")"
done

# max-zone-ttl (the zone's, else its view's, else options'): named-checkconf -z refuses a zone
# with a record above it, and zonepuny too (its load-limit check); at the maximum both load it
printf 'options { directory "%s"; max-zone-ttl 1d; };\nzone "example.com" { type primary; file "zones/ttl.db"; max-zone-ttl 1h; };\n' \
  "$d" > "$tmp/ttl.conf"
for ttl in 3600 3601; do
  printf "$soa"'www %s A 192.0.2.2\n' "$ttl" > "$d/zones/ttl.db"
  named-checkconf -z "$tmp/ttl.conf" > /dev/null 2>&1; named=$?
  "$ZONEPUNY" --named-conf "$tmp/ttl.conf" > /dev/null 2> "$tmp/err"; ours=$?
  [ $named -eq $ours ] && [ $ours -eq $((ttl - 3600)) ] && ok ||
    bad "TTL $ttl under max-zone-ttl 1h: named $named, zonepuny $ours: $(cat "$tmp/err")"
done

# a run that stops short (--max-errors 1 at the first of three zones in error) says so, and fails
for z in a b c; do printf "$soa"'bad A 300.1.1.1\n' > "$d/zones/short-$z.db"; done
{ printf 'options { directory "%s"; };\n' "$d"
  for z in a b c; do printf 'zone "%s.example" { type primary; file "zones/short-%s.db"; };\n' $z $z; done
} > "$tmp/short.conf"
"$ZONEPUNY" --named-conf "$tmp/short.conf" --max-errors 1 > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "^zonepuny: 1 zone of the 3 $tmp/short.conf loads, stopped before the others, " "$tmp/err" &&
  ok || bad "a run stopped short: $(tail -2 "$tmp/err")"

# what does not go with it
for args in "--named-conf $d/named.conf $d/zones/good.db" "--named-conf $d/named.conf -z example.com" \
            "--named-conf $d/named.conf --fragment" "--named-conf $d/named.conf --to-ascii" \
            "--named-conf $d/named.conf --named-conf $d/named.conf"; do
  # shellcheck disable=SC2086
  "$ZONEPUNY" $args > /dev/null 2> "$tmp/err"
  [ $? -eq 2 ] && grep -q "^zonepuny: error: " "$tmp/err" && ok || bad "usage '$args': $(cat "$tmp/err")"
done
finish
