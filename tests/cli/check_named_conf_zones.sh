#!/usr/bin/env bash
# check_named_conf_zones.sh -- the named.conf reader (src/cli/conf.c, through
# tests/conf_driver.c) against named-checkconf of BIND 9.18 itself, on a tree built here:
# - the zones: named-checkconf -z prints "zone NAME/CLASS: loaded serial N" for each zone it
#   loads, in its order; the driver's zones (not its root hints) must be those, in that order
#   (two confs: one with a relative directory, includes before and after it, a glob include,
#   an include inside a zone, and primary, master, secondary, stub, forward, hint and
#   _builtin zones; one with views, in-view, redirect, slave and mirror zones);
# - the files: each file of the tree in turn made unreadable as a zone; named-checkconf -z
#   fails exactly when the driver lists that file (a zone's or root hints'), which shows both
#   which zones are read and where their relative paths lead;
# - check-names: each listed zone in turn given an owner name check-names refuses; named
#   refuses the zone where the driver says fail, loads it with a warning for warn, silently
#   for ignore (options, view and zone levels, primary and master spelled);
# - $INCLUDE: each listed zone in turn includes a file that only the driver's DIR holds;
#   named loads it (one zone file stands outside the directory: named resolves a relative
#   $INCLUDE against the directory option, not against the zone file's directory);
# - max-zone-ttl: each zone the driver gives a maximum TTL, loaded by named-checkconf -z with a
#   record at that TTL, and at one more;
# - syntax and meaning: confs named-checkconf (without -z) refuses, the driver must refuse
#   (exit 1 and a located error); confs it takes, the driver must take. (Syntax over many
#   confs is check_named_conf_grammar.py's.)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
command -v named-checkconf > /dev/null || { skip "named-checkconf not installed"; finish; }
build=${BUILD:-build}
case $build in /*) ;; *) build=$repo_dir/$build ;; esac
driver=$build/tests/conf_driver
[ -x "$driver" ] || { bad "no $driver (make $build/tests/conf_driver)"; finish; }
make_tmp
t=$tmp/t
mkdir -p "$t/etc/inc" "$t/zones"
cd "$t" || exit 1

zone_text() { # zone_text [EXTRA] -- a zone named-checkconf -z loads under any origin
  printf '$TTL 60\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n%s' "${1-}"
}
for f in a abs before after g1 g2 g3 sec stub emptydb cls v shared v-out sec2 redirect \
         mirror; do
  zone_text > "zones/$f.db"
done
zone_text > 'zones/q"t.db'     # named undoes \" in a string, and keeps every other backslash
zone_text > 'zones/b\\s.db'
printf '. 3600 NS a.root.test.\na.root.test. 3600 A 192.0.2.1\n' > zones/root.hints
cp zones/root.hints zones/view.hints

# conf A: no views; "zones" relative to the working directory, includes relative to it before
# the directory option and to the directory after it
cat > etc/a.conf << EOF
include "etc/before.conf"; // before options: relative to the working directory
options {
  directory "zones";  /* from here on, relative to zones/ */
  check-names primary warn;
};
include "../etc/after.conf";
# a glob: named reads the matches last first
include "../etc/inc/*.conf";
zone "a.test" { type primary; file "a.db"; };
zone "abs.test" { type master; file "$t/zones/abs.db"; check-names fail; };
zone "sec.test" { type secondary; primaries { 192.0.2.1; }; file "sec.db"; };
zone "fwd.test" { type forward; forwarders { 192.0.2.1; }; };
zone "stub.test" { type stub; primaries { 192.0.2.1; }; file "stub.db"; };
zone "." { type hint; file "root.hints"; };
zone "empty.test" { type primary; file "emptydb.db"; database "_builtin empty"; };
zone "cls.test" IN { type primary; file "cls.db"; check-names ignore; };
zone "q.test" { type primary; file "q\\"t.db"; };
zone "bs.test" { type primary; file "b\\\\s.db"; };
zone "out.test" { type primary; file "../etc/out.db"; };
EOF
zone_text > etc/out.db
echo 'zone "before.test" { type primary; file "before.db"; };' > etc/before.conf
echo 'zone "after.test" { include "../etc/after-body.conf"; };' > etc/after.conf
echo 'type primary; file "after.db";' > etc/after-body.conf
for i in 1 2 3; do
  echo "zone \"g$i.test\" { type primary; file \"g$i.db\"; };" > "etc/inc/$i.conf"
done

# conf B: views, an absolute directory
cat > etc/b.conf << EOF
options { directory "$t/zones"; check-names master ignore; };
view "inside" {
  check-names primary warn;
  zone "v.test" { type primary; file "v.db"; };
  zone "shared.test" { type primary; file "shared.db"; check-names fail; };
  zone "." { type hint; file "view.hints"; };
  zone "sec2.test" { type slave; masters { 192.0.2.1; }; file "sec2.db"; };
};
view "outside" {
  zone "shared.test" { in-view "inside"; };
  zone "v.test" { type primary; file "v-out.db"; };
  zone "." { type redirect; file "redirect.db"; };
  zone "mirror.test" { type mirror; primaries { 192.0.2.1; }; file "mirror.db"; };
};
EOF

loaded() { # loaded CONF -- the zones named-checkconf -z loads, one name a line
  named-checkconf -z "$1" 2>&1 | sed -n 's|^zone \(.*\)/IN: loaded serial [0-9]*$|\1|p'
}
both_take() { # both_take WHAT CONF -- named-checkconf -z and the driver (rows to $tmp/rows)
  # take CONF; else a failure told as WHAT's, and false
  if ! named-checkconf -z "$2" > "$tmp/named.out" 2>&1; then
    bad "$1: named-checkconf -z refuses it: $(head -3 "$tmp/named.out")"
    return 1
  fi
  "$driver" "$2" > "$tmp/rows" 2> "$tmp/err" && return 0
  bad "$1: the driver refuses it: $(head -3 "$tmp/err")"
  return 1
}
for conf in etc/a.conf etc/b.conf; do
  both_take "$conf" "$conf" || continue
  if diff -u <(loaded "$conf") <(awk -F'\t' '$5 == "zone" { print $2 }' "$tmp/rows") \
       > "$tmp/diff"; then
    ok
  else
    bad "$conf: zones differ (- named, + driver)"
    cat "$tmp/diff"
  fi

  # each file of the tree broken in turn: named fails exactly for the files the driver lists
  cut -f3 "$tmp/rows" | while read -r f; do realpath -m "$f"; done | sort > "$tmp/listed"
  [ -s "$tmp/listed" ] && ok || bad "$conf: the driver lists no file"
  for f in zones/* etc/out.db; do
    cp "$f" "$tmp/saved"
    echo 'not a zone (' > "$f"
    named-checkconf -z "$conf" > /dev/null 2>&1 && fails=0 || fails=1
    cp "$tmp/saved" "$f"
    grep -qxF "$(realpath "$f")" "$tmp/listed" && listed=1 || listed=0
    [ $fails = $listed ] && ok ||
      bad "$conf: $f broken: named-checkconf -z fails=$fails, the driver lists it=$listed"
  done

  # check-names: each zone given a name the check refuses
  while IFS=$'\t' read -r view name file level kind dir _; do
    [ "$kind" = zone ] || continue
    cp "$file" "$tmp/saved"
    zone_text $'bad_name A 192.0.2.2\n' > "$file"
    named-checkconf -z "$conf" > "$tmp/named.out" 2>&1 && rc=0 || rc=1
    cp "$tmp/saved" "$file"
    grep -q 'bad owner name' "$tmp/named.out" && said=1 || said=0
    case $level:$rc:$said in
      fail:1:1 | warn:0:1 | ignore:0:0) ok ;;
      *) bad "$conf: view $view zone $name: driver says $level; named: exit $rc, told=$said" ;;
    esac
    # the same zone, its name server's address in a file $INCLUDE names, in DIR only
    zone_text | sed '/^ns A /d' > "$file"
    printf '$INCLUDE "probe.inc"\n' >> "$file"
    printf 'ns A 192.0.2.1\n' > "$dir/probe.inc"
    named-checkconf -z "$conf" > "$tmp/named.out" 2>&1 && ok ||
      bad "$conf: view $view zone $name: an \$INCLUDE relative to $dir: $(head -2 "$tmp/named.out")"
    rm -f "$dir/probe.inc"
    cp "$tmp/saved" "$file"
  done < "$tmp/rows"
done

# Confs named-checkconf refuses: the driver refuses them with a located error (the exact
# places are tests/test_conf.c's). Each line: a name, then the conf (printf's escapes).
Z=$t/zones/a.db
refused=(
  "open-brace|zone \"ex\" { type primary; file \"$Z\";\n"
  "stray-close|zone \"ex\" { type primary; file \"$Z\"; };\n};\n"
  "no-semi-between|zone \"a\" { type primary; file \"$Z\"; }\nzone \"b\" { type primary; file \"$Z\"; };\n"
  "no-semi-clause|zone \"ex\" { type primary file \"$Z\"; };\n"
  "no-semi-before-close|zone \"ex\" { type primary; file \"$Z\" };\n"
  "no-semi-at-eof|zone \"ex\" { type primary; file \"$Z\"; }"
  "open-string|zone \"ex\" { type primary; file \"$Z; };\n"
  "open-comment|zone \"ex\" { type primary; file \"$Z\"; }; /* to the end\n"
  "empty-statement|;\n"
  "double-semi|zone \"ex\" { type primary; file \"$Z\"; };;\n"
  "bare-block|{ };\n"
  "quoted-name|\"zone\" \"ex\" { type primary; file \"$Z\"; };\n"
  "unquoted-file|zone \"ex\" { type primary; file a.db; };\n"
  "unquoted-include|include etc/before.conf;\n"
  "include-no-semi|include \"etc/before.conf\"\n"
  "include-missing|include \"etc/none.conf\";\n"
  "include-in-acl|acl a { include \"etc/before.conf\"; };\n"
  "glued-comment|zone \"ex\" { type primary/*x*/; file \"$Z\"; };\n"
  "after-block|options { allow-query { any; } notify yes; };\n"
  "after-list-block|acl a { { 192.0.2.1; } 192.0.2.2; };\n"
  "unknown-statement|zon \"ex\" { type primary; file \"$Z\"; };\n"
  "no-block|acl a;\n"
  "quoted-type|zone \"ex\" { type \"primary\"; file \"$Z\"; };\n"
  "two-files|zone \"ex\" { type primary; file \"$Z\" \"x\"; };\n"
  "file-twice|zone \"ex\" { type primary; file \"$Z\"; file \"$Z\"; };\n"
  "directory-missing|options { directory \"none\"; };\n"
  "directory-in-zone|zone \"ex\" { type primary; file \"$Z\"; directory \"/\"; };\n"
  "options-twice|options { }; options { };\n"
  "zone-twice|zone \"ex\" { type primary; file \"$Z\"; }; zone \"EX.\" { type primary; file \"$Z\"; };\n"
  "no-type|zone \"ex\" { file \"$Z\"; };\n"
  "no-file|zone \"ex\" { type primary; };\n"
  "hint-no-file|zone \".\" { type hint; };\n"
  "bad-type|zone \"ex\" { type bogus; file \"$Z\"; };\n"
  "bad-class|zone \"ex\" bogus { type primary; file \"$Z\"; };\n"
  "class-of-view|view v CH { zone \"ex\" IN { type primary; file \"$Z\"; }; };\n"
  "zone-and-view|view v { zone \"a\" { type primary; file \"$Z\"; }; }; zone \"b\" { type primary; file \"$Z\"; };\n"
  "view-twice|view a { }; view a { };\n"
  "in-view-later|view b { zone \"ex\" { in-view \"a\"; }; }; view a { zone \"ex\" { type primary; file \"$Z\"; }; };\n"
  "in-view-case|view a { zone \"ex\" { type primary; file \"$Z\"; }; }; view b { zone \"ex\" { in-view \"A\"; }; };\n"
  "in-view-type|view a { zone \"ex\" { type primary; file \"$Z\"; }; }; view b { zone \"ex\" { in-view \"a\"; type primary; }; };\n"
  "bad-name|zone \"a..b\" { type primary; file \"$Z\"; };\n"
  "redirect-name|zone \"ex\" { type redirect; file \"$Z\"; };\n"
  "check-names-both|options { check-names primary warn; check-names master fail; };\n"
  "check-names-value|zone \"ex\" { type primary; file \"$Z\"; check-names bogus; };\n"
  "check-names-kind-in-zone|zone \"ex\" { type primary; file \"$Z\"; check-names primary warn; };\n"
  "check-names-no-kind|options { check-names warn; };\n"
  "boolean|zone \"ex\" { type primary; file \"$Z\"; check-integrity on; };\n"
  "check-spf-fail|zone \"ex\" { type primary; file \"$Z\"; check-spf fail; };\n"
  "unknown-check|zone \"ex\" { type primary; file \"$Z\"; check-svcb no; };\n"
  "masterfile-map|zone \"ex\" { type primary; file \"$Z\"; masterfile-format map; };\n"
)
for case in "${refused[@]}"; do
  name=${case%%|*}
  printf -- "${case#*|}" > "$tmp/c.conf"
  if named-checkconf "$tmp/c.conf" > /dev/null 2>&1; then
    bad "refused/$name: named-checkconf takes it (the case is wrong)"
    continue
  fi
  "$driver" "$tmp/c.conf" > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -eq 1 ] && grep -q "^$tmp/c.conf:[0-9]*:[0-9]*: error: " "$tmp/err" && ok ||
    bad "refused/$name: driver exit $rc: $(head -2 "$tmp/err")"
done

# Confs named-checkconf takes: the driver takes them, with the zones named-checkconf -z loads.
taken=(
  "comments|# shell\n// C++\n/* C\n */ zone \"ex\" { type primary; file \"$Z\"; }; // end"
  "comment-in-word|zone \"ex\" { type primary# a comment ends the word\n; file \"$Z\"; };\n"
  "comment-after-word|zone \"ex\" { type primary// too\n; file \"$Z\"; };\n"
  "no-blanks|zone\"ex\"{type primary;file\"$Z\";};"
  "case|ZONE \"ex\" IN { TYPE MASTER; FILE \"$Z\"; CHECK-NAMES Warn; };\n"
  "multiline-string|acl \"a\nb\" { any; };\nzone \"ex\" { type primary; file \"$Z\"; };\n"
  "unquoted-zone-name|zone ex { type primary; file \"$Z\"; };\n"
  "root-zone|zone \".\" { type primary; file \"$Z\"; };\n"
  "controls|controls { inet 127.0.0.1 port 953 allow { localhost; } keys { \"k\"; } read-only yes; };\nkey \"k\" { algorithm hmac-sha256; secret \"aaaa\"; };\n"
  "response-policy|options { response-policy { zone \"rpz\"; } break-dnssec yes; };\nzone \"rpz\" { type primary; file \"$Z\"; };\n"
  "catalog-zones|options { catalog-zones { zone \"cat\" default-primaries { 192.0.2.1; } in-memory yes; }; };\nzone \"cat\" { type primary; file \"$Z\"; };\n"
  "nested-lists|options { sortlist { { localhost; { localnets; 192.0.2.0/24; }; }; }; };\n"
  "in-view-forward|view a { zone \"ex\" { type primary; file \"$Z\"; }; }; view b { zone \"ex\" { in-view a; forward only; }; };\n"
  "same-zone-two-classes-of-view|view a { zone \"ex\" { type primary; file \"$Z\"; }; }; view a CH { zone \"ex\" { type secondary; primaries { 192.0.2.1; }; }; };\n"
  "include-opens-block|include \"$tmp/open.conf\"; type primary; file \"$Z\"; };\n"
  "include-in-zone|zone \"ex\" { include \"$tmp/body.conf\"; };\n"
  "check-options|options { check-mx warn; check-mx-cname ignore; check-srv-cname warn; check-integrity no; check-sibling yes; check-wildcard no; check-spf ignore; check-dup-records warn; masterfile-format text; max-zone-ttl 0; };\nzone \"ex\" { type primary; file \"$Z\"; };\n"
  "refused-but-unused|options { check-mx-cname fail; };\nzone \"ex\" { type primary; file \"$Z\"; check-mx-cname warn; };\n"
  "max-zone-ttl|options { max-zone-ttl 1d; };\nzone \"ex\" { type primary; file \"$Z\"; };\n"
  "load-limits|options { max-records-per-type 0; };\nview v { max-types-per-name 5; zone \"ex\" { type primary; file \"$Z\"; max-zone-ttl P1D; }; };\n"
)
printf 'zone "ex" {\n' > "$tmp/open.conf"
printf 'type primary; file "%s";\n' "$Z" > "$tmp/body.conf"
for case in "${taken[@]}"; do
  name=${case%%|*}
  printf -- "${case#*|}" > "$tmp/c.conf"
  both_take "taken/$name" "$tmp/c.conf" || continue
  diff <(loaded "$tmp/c.conf") <(cut -f2 "$tmp/rows") > /dev/null && ok ||
    bad "taken/$name: zones differ: named $(loaded "$tmp/c.conf" | tr '\n' ' '), driver $(cut -f2 "$tmp/rows" | tr '\n' ' ')"
done

# What zonepuny cannot check as named would: named-checkconf -z takes the conf, or refuses
# every such zone for a reason zonepuny has no check for; the driver refuses the conf.
unsupported=(
  "check-mx-fail|zone \"ex\" { type primary; file \"$Z\"; check-mx fail; };\n"
  "check-mx-cname-fail|view v { check-mx-cname fail; zone \"ex\" { type primary; file \"$Z\"; }; };\n"
  "check-srv-cname-fail|options { check-srv-cname fail; };\nzone \"ex\" { type primary; file \"$Z\"; };\n"
  "check-dup-records-fail|zone \"ex\" { type primary; file \"$Z\"; check-dup-records fail; };\n"
  "masterfile-raw|zone \"ex\" { type primary; file \"$Z\"; masterfile-format raw; };\n"
  "class-ch|view c CH { zone \"ex\" { type primary; file \"$Z\"; }; };\n"
)
for case in "${unsupported[@]}"; do
  name=${case%%|*}
  printf -- "${case#*|}" > "$tmp/c.conf"
  "$driver" "$tmp/c.conf" > /dev/null 2> "$tmp/err"
  rc=$?
  [ $rc -eq 1 ] && grep -q "^$tmp/c.conf:[0-9]*:[0-9]*: error: " "$tmp/err" && ok ||
    bad "unsupported/$name: driver exit $rc: $(head -2 "$tmp/err")"
done

# max-zone-ttl, from the zone, else its view, else options: each zone the driver lists with a
# maximum N, given one record of TTL N, named-checkconf -z loads; of TTL N+1, refuses ("TTL
# N+1 exceeds configured max-zone-ttl N"); a zone with none (0 sets none) loads 2^31-1. (What
# named-checkconf -z leaves to named, max-records-per-type and max-types-per-name, is
# tests/test_conf.c's.)
mkdir -p "$t/ttl"
cat > etc/ttl.conf << EOF
options { directory "$t/ttl"; max-zone-ttl 1d; };
view "one" {
  max-zone-ttl 3600;
  zone "a.test" { type primary; file "a.db"; };
  zone "b.test" { type primary; file "b.db"; max-zone-ttl P1DT2H; };
  zone "c.test" { type primary; file "c.db"; max-zone-ttl 0; };
};
view "two" {
  zone "a.test" { type primary; file "a2.db"; };
  zone "d.test" { type primary; file "d.db"; max-zone-ttl 1w2d3h4m5s; };
  zone "e.test" { type primary; file "e.db"; max-zone-ttl P1M; };
};
EOF
for f in a b c a2 d e; do zone_text > "$t/ttl/$f.db"; done
if "$driver" etc/ttl.conf > "$tmp/rows" 2> "$tmp/err"; then
  [ "$(cut -f9 "$tmp/rows" | tr '\n' ' ')" = "3600 93600 - 86400 788645 2678400 " ] && ok ||
    bad "max-zone-ttl: the driver's $(cut -f9 "$tmp/rows" | tr '\n' ' ')"
  while IFS=$'\t' read -r view name file _ _ _ _ _ ttl; do
    for over in 0 1; do
      [ "$ttl" = - ] && { [ $over = 1 ] && continue; n=2147483647; } || n=$((ttl + over))
      zone_text "big $n A 192.0.2.9"$'\n' > "$file"
      named-checkconf -z etc/ttl.conf > "$tmp/named.out" 2>&1 && loads=1 || loads=0
      [ $loads = $((1 - over)) ] && ok ||
        bad "max-zone-ttl: view $view zone $name ($ttl): TTL $n: named-checkconf -z loads=$loads"
    done
    zone_text > "$file"
  done < "$tmp/rows"
else
  bad "max-zone-ttl: the driver refuses etc/ttl.conf: $(head -2 "$tmp/err")"
fi

# the conf itself unreadable: exit 2, not a located error
"$driver" "$tmp/none.conf" > /dev/null 2>&1
[ $? -eq 2 ] && ok || bad "a missing conf: the driver did not exit 2"
need_pass "named.conf confs"
finish
