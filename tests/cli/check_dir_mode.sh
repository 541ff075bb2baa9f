#!/usr/bin/env bash
# check_dir_mode.sh -- `zonepuny --check PATH...` over trees of zones, in one process:
#  1  which files a directory gives (*.zone, *.db, db.*; hidden entries skipped, symlinked
#     directories not followed, a symlinked file taken; journals, backups and binary files not;
#     64 levels at most), in byte order;
#  2  each zone's initial origin from its name, and the verdict equal to named-checkzone's with
#     that origin (run from the zone's directory, where BIND resolves $INCLUDE) and to
#     kzonecheck's, which takes the origin of a *.zone file from its name;
#  3  fragments: a file the others $INCLUDE (directly, through a file that is no zone, up a
#     chain) is read through them, never alone; a loop of $INCLUDEs is checked as it is; the
#     $INCLUDE found as the reader finds it (not in a record's parentheses, the name as written,
#     after a parenthesis, a long line, quotes, CRLF), never outside the include root;
#  4  -z, --no-origin-from-name and --fragment turn the origin from names off; a file given
#     twice is checked once; a directory with no zone is exit 2;
#  5  every diagnostic of --format=json names its file.
# The expected origins are derived by hand beside each file below.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
: "${PYTHON:=/usr/bin/python3}"
make_tmp
soa='$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n'
t=$tmp/zones
mkdir -p "$t/sub/deeper" "$t/.git" "$t/frag" "$tmp/elsewhere"
# origin example.com. (".zone" off); includes a fragment whose name is a zone's
printf "$soa"'www A 192.0.2.2\n$INCLUDE hosts.db\n' > "$t/example.com.zone"
printf 'mail A 192.0.2.3\n' > "$t/hosts.db"
# origin example.org. ("db." off); a CNAME beside other data: named refuses it
printf "$soa"'bad CNAME www\nbad A 192.0.2.4\nwww A 192.0.2.5\n' > "$t/sub/db.example.org"
# origin example.net. (".db" off), two levels down; relative names only; a file two levels up,
# inside the tree (the include root of a zone found below a directory is that directory)
printf "$soa"'host A 192.0.2.6\n$INCLUDE ../../shared.inc\n' > "$t/sub/deeper/example.net.db"
printf 'shared TXT "in the tree"\n' > "$t/shared.inc"
# origin example.edu.: its $ORIGIN says the same, so the name gives nothing it would not
printf '$ORIGIN example.edu.\n'"$soa" > "$t/example.edu.zone"
# a fragment reached through a file that is no zone (frag/chain.inc), from example.info.zone
# (the second path absolute: BIND takes a relative one from its working directory, zonepuny
# from the including file's, a difference the README gives)
printf "$soa"'$INCLUDE frag/chain.inc\n' > "$t/example.info.zone"
printf '$INCLUDE %s/frag/last.db\n' "$t" > "$t/frag/chain.inc"
printf 'deep A 192.0.2.7\n' > "$t/frag/last.db"
# a zone whose SOA is not at its name's origin: an error (zone-name), as named-checkzone
# example.other refuses it; the checks' zone is the SOA's (example.biz.), so www.example.other.
# is data outside it (a warning)
printf '$TTL 300\nexample.biz. SOA ns.example.biz. h 1 2 3 4 5\nexample.biz. NS ns.example.biz.\nns.example.biz. A 192.0.2.1\nwww A 192.0.2.8\n' > "$t/example.other.zone"
# not zones: a hidden directory, notes, a symlinked directory (not followed)
printf 'junk\n' > "$t/.git/x.zone"
printf 'junk\n' > "$t/README"
printf 'junk\n' > "$tmp/elsewhere/y.zone"
ln -s "$tmp/elsewhere" "$t/linked"
# a symlinked file is taken, by its own name: two zones served from one file of relative names
# (parked domains), each with the origin its link's name gives
printf "$soa"'www A 192.0.2.9\n' > "$t/parked.txt"
ln -s parked.txt "$t/example.link.zone"
ln -s parked.txt "$t/example.park.zone"

run() { "$ZONEPUNY" --check "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }

# ---- 1, 3: the files, the fragments, one summary ----
run "$t"
[ $rc -eq 1 ] && ok || bad "tree: exit $rc, expected 1: $(cat "$tmp/err")"
# records: $soa is 3; example.com 3+2, db.example.org 3+3, example.net 3+2, example.edu 3,
# example.info 3+1, example.other 4, the two parked 3+1 each: 35
grep -qx 'zonepuny: 8 files (and 2 files they include, read through them), 35 records, 2 errors, 1 warning' \
  "$tmp/err" && ok || bad "tree: summary: $(tail -1 "$tmp/err")"
# the CNAME error, in sub/db.example.org, at the relative owner made example.org.
grep -q "^$t/sub/db.example.org:6:1: error: CNAME and other data at bad.example.org." "$tmp/err" &&
  ok || bad "tree: the CNAME error: $(cat "$tmp/err")"
grep -q "^$t/example.other.zone:5:1: warning: .*www.example.other." "$tmp/err" && ok ||
  bad "tree: data outside the SOA's zone: $(cat "$tmp/err")"
! grep -q 'hosts.db:1\|last.db:1\|\.git\|linked\|README' "$tmp/err" && ok ||
  bad "tree: a fragment alone, or a file not a zone: $(cat "$tmp/err")"

# ---- 2: verdicts per zone against named-checkzone and kzonecheck, origin from the name ----
origin_of() {   # by hand: the rules zonepuny documents
  local b=${1##*/}
  case $b in *.zone) b=${b%.zone} ;; *.db) b=${b%.db} ;; db.*) b=${b#db.} ;; esac
  echo "$b."
}
json=$("$ZONEPUNY" --check --format=json "$t" 2>/dev/null)
for f in example.com.zone sub/db.example.org sub/deeper/example.net.db example.edu.zone \
         example.info.zone example.link.zone example.park.zone; do
  errs=$(printf '%s\n' "$json" | F="$t/$f" "$PYTHON" -c '
import json, os, sys
n = 0
for line in sys.stdin:
    d = json.loads(line)
    n += d["file"] == os.environ["F"] and d["severity"] == "error"
print(n)')
  if command -v named-checkzone > /dev/null; then
    (cd "$(dirname "$t/$f")" && named-checkzone -q "$(origin_of "$f")" "${f##*/}")
    named=$?
    [ $((errs > 0)) -eq $((named != 0)) ] && ok ||
      bad "$f: zonepuny $errs errors, named-checkzone -q $(origin_of "$f") exit $named"
  else
    skip "named-checkzone not installed (make deps-test)"
  fi
  case $f in
    *.zone)
      if command -v kzonecheck > /dev/null; then
        (cd "$(dirname "$t/$f")" && kzonecheck "${f##*/}" > /dev/null 2>&1)
        knot=$?
        [ $((errs > 0)) -eq $((knot != 0)) ] && ok ||
          bad "$f: zonepuny $errs errors, kzonecheck (origin from the name) exit $knot"
      else
        skip "kzonecheck not installed (make deps-test)"
      fi ;;
  esac
done
# the zone whose SOA is elsewhere: named-checkzone with the name's origin refuses it, and
# zonepuny warns (a difference the README's list of differences from BIND gives)
(cd "$t" && named-checkzone -q example.other example.other.zone) 2>/dev/null
[ $? -ne 0 ] && ok || bad "named-checkzone accepted example.other.zone"

# ---- 5: every diagnostic names a file ----
printf '%s\n' "$json" | "$PYTHON" -c '
import json, sys
ds = [json.loads(l) for l in sys.stdin]
sys.exit(0 if ds and all(d.get("file") for d in ds) else 1)' && ok ||
  bad "--format=json: a diagnostic without a file: $json"

# ---- 3: a loop of $INCLUDEs only: each checked as it is, the loop reported ----
l=$tmp/loop
mkdir "$l"
printf "$soa"'$INCLUDE b.db\n' > "$l/a.db"
printf '$INCLUDE a.db\n' > "$l/b.db"
run "$l"
[ $rc -eq 1 ] && grep -q 'zonepuny: 2 files, ' "$tmp/err" && grep -qi 'loop\|already' "$tmp/err" &&
  ok || bad "a loop: exit $rc: $(cat "$tmp/err")"
# a fragment given alone is checked alone (nothing of the list includes it)
run "$t/hosts.db"
[ $rc -eq 1 ] && grep -q '^zonepuny: 1 file, ' "$tmp/err" && ok ||
  bad "a fragment alone: exit $rc: $(tail -1 "$tmp/err")"

# ---- 4: what turns names off; a file twice; nothing to check ----
run --no-origin-from-name "$t/sub/deeper/example.net.db"
[ $rc -eq 1 ] && grep -q 'needs an origin' "$tmp/err" && ok ||
  bad "--no-origin-from-name: exit $rc: $(cat "$tmp/err")"
run -z example.net. "$t/sub/db.example.org"
grep -q 'CNAME and other data at bad.example.net.' "$tmp/err" && ok ||
  bad "-z over the name: $(cat "$tmp/err")"
run --fragment "$t/frag/last.db"
[ $rc -eq 1 ] && grep -q 'needs an origin' "$tmp/err" && ok ||
  bad "--fragment takes no origin from a name: exit $rc: $(cat "$tmp/err")"
# given itself, a zone keeps its own directory as the include root
run "$t/sub/deeper/example.net.db"
[ $rc -eq 1 ] && grep -q 'not found below the include root' "$tmp/err" && ok ||
  bad "a zone given itself: the include root: exit $rc: $(cat "$tmp/err")"
run "$t/example.edu.zone" "$t" "$t/example.edu.zone"
grep -q 'zonepuny: 8 files' "$tmp/err" && ok || bad "a file given twice: $(tail -1 "$tmp/err")"
mkdir "$tmp/none"
run "$tmp/none"
[ $rc -eq 2 ] && grep -qx "zonepuny: error: $tmp/none: no zone file below it (named \*.zone, \*.db or db.\*)" "$tmp/err" &&
  ok || bad "a directory with no zone: exit $rc: $(cat "$tmp/err")"
# a name that gives no name (an ACE label that does not decode) gives no origin: a zone that
# sets its own is checked as written, one that does not needs one
printf "$soa" > "$tmp/xn--a.zone"
run "$tmp/xn--a.zone"
[ $rc -eq 1 ] && grep -q 'needs an origin' "$tmp/err" && ok ||
  bad "a bad origin from a name: exit $rc: $(cat "$tmp/err")"
printf '$ORIGIN example.net.\n'"$soa" > "$tmp/xn--a.zone"
run "$tmp/xn--a.zone"
[ $rc -eq 0 ] && ok || bad "a bad name, a zone with its \$ORIGIN: exit $rc: $(cat "$tmp/err")"

# ---- 3: fragments as the reader reads $INCLUDE; the scan stays inside the include root ----
bad_frag='bad CNAME x\nbad A 192.0.2.1\n'   # an error, wherever it is read
f=$tmp/frags
fragcase() {   # fragcase NAME WANT-SUMMARY WANT-RC INCLUDER-TEXT: a zone and frag.db beside it
  rm -rf "$f" && mkdir "$f"
  printf "$soa$4" > "$f/example.com.zone"
  printf "$bad_frag" > "$f/frag.db"
  run "$f"
  [ $rc -eq "$3" ] && grep -q "^zonepuny: $2" "$tmp/err" && ok ||
    bad "$1: exit $rc, expected $3 and '$2': $(tail -1 "$tmp/err")"
}
# the reader takes an $INCLUDE name as written (no escape undone), so frag.db is not included
fragcase 'an escape in the name' '2 files, ' 1 '$INCLUDE fr\\097g.db\n'
# inside parentheses a line is record data, not a directive
fragcase '$INCLUDE inside a record' '2 files, ' 1 'txt TXT (\n$INCLUDE frag.db\n)\n'
# the name after an opening parenthesis, and after 5000 blanks, is the file
fragcase 'a name in parentheses' '1 file (and 1 file they include' 1 '$INCLUDE ( frag.db )\n'
fragcase 'a line of 5000 octets' '1 file (and 1 file they include' 1 \
  "\$INCLUDE $(printf '%5000s' '') frag.db\n"
fragcase 'a quoted name, CRLF, a comment' '1 file (and 1 file they include' 1 \
  '$INCLUDE "frag.db" ; the hosts\r\n'
# --no-include: nothing is included, so nothing is a fragment (and every $INCLUDE an error)
run --no-include "$f"
[ $rc -eq 1 ] && grep -q '^zonepuny: 2 files, ' "$tmp/err" && ok ||
  bad "--no-include: exit $rc: $(tail -1 "$tmp/err")"
# a file outside the include root is never read by the scan, nor is it a fragment
mkdir -p "$tmp/outside" && printf "$soa" > "$tmp/outside/example.org.zone"
printf "$soa"'$INCLUDE %s\n' "$tmp/outside/example.org.zone" > "$f/example.com.zone"
run "$f" "$tmp/outside/example.org.zone"
grep -q '^zonepuny: 3 files, ' "$tmp/err" && grep -q 'not found below the include root' "$tmp/err" &&
  ok || bad "an include outside the root: $(cat "$tmp/err")"
# the verdict does not hang on the order a file is given in beside its tree
mkdir -p "$tmp/ord/sub" && printf 'shared A 192.0.2.9\n' > "$tmp/ord/common.inc"
printf "$soa"'$INCLUDE ../common.inc\n' > "$tmp/ord/sub/example.com.zone"
run "$tmp/ord" "$tmp/ord/sub/example.com.zone"; a=$rc
run "$tmp/ord/sub/example.com.zone" "$tmp/ord"; b=$rc
[ $a -eq 0 ] && [ $b -eq 0 ] && ok || bad "the order of arguments: exit $a, then $b"

# ---- 1: what a directory does not give: journals, backups, binary files; too deep ----
j=$tmp/bind
mkdir "$j"
printf "$soa" > "$j/db.example.com"
head -c 300 /dev/urandom | tr -d '\n' | { printf 'JNL\0'; cat; } > "$j/db.example.com.jnl"
cp "$j/db.example.com" "$j/db.example.com~"
cp "$j/db.example.com" "$j/db.example.com.bak"
printf 'SQLite format 3\0' > "$j/cache.db"
run "$j"
[ $rc -eq 0 ] && grep -q '^zonepuny: 1 file, ' "$tmp/err" && ok ||
  bad "a server's directory: exit $rc: $(cat "$tmp/err")"
deep=$tmp/deep
d=$deep
for i in $(seq 1 70); do d=$d/d; done
mkdir -p "$d" && printf "$bad_frag" > "$d/example.com.zone" && printf "$soa" > "$deep/example.org.zone"
run "$deep"
[ $rc -eq 2 ] && grep -q 'more than 64 directories below' "$tmp/err" && ok ||
  bad "a tree too deep: exit $rc: $(tail -2 "$tmp/err")"
# a zone's symlink that leads nowhere is a zone that cannot be read; stdin twice is refused
mkdir "$tmp/dangle" && ln -s nowhere "$tmp/dangle/example.com.zone"
run "$tmp/dangle"
[ $rc -eq 2 ] && grep -q 'example.com.zone' "$tmp/err" && ok || bad "a dangling link: exit $rc"
run - - < /dev/null
[ $rc -eq 2 ] && grep -q 'given twice' "$tmp/err" && ok || bad "- twice: exit $rc: $(cat "$tmp/err")"
finish
