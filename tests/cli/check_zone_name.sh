#!/usr/bin/env bash
# check_zone_name.sh -- a file named after a zone whose SOA record is at another name.
# `zonepuny --check FILE` takes the initial origin from the file's name (example.com.zone gives
# example.com.); when the file's SOA is elsewhere (a mistyped $ORIGIN), named-checkzone given the
# zone the name says refuses the file, and so must zonepuny (-Wzone-name), in the CLI and through
# the pre-commit hook. The verdict of each case is named-checkzone's, run here with the zone the
# file's name gives; the cases where zonepuny stays silent are those where the name gives no
# zone (one label: internal.zone) or names the zone itself (db.192.168.1 for
# 1.168.192.in-addr.arpa., the reverse-zone naming of BIND's own examples), each counted.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
PATH=$PATH:/usr/sbin:/sbin
d=$tmp/zones
mkdir -p "$d"
body='$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\nwww A 192.0.2.2\n'
# file | zone the name gives (named-checkzone's) | the $ORIGIN written at the top ("" none)
cases=(
  "example.com.zone|example.com|exmaple.com."
  "example.org.zone|example.org|example.org."
  "example.net.zone|example.net|"
  "db.example.info|example.info|example.org."
  "bäckerei.example.zone|xn--bckerei-5wa.example|xn--bckerei-5wa.example."
  "bäckerei.example.db|xn--bckerei-5wa.example|baeckerei.example."
  "db.192.168.1|192.168.1|2.168.192.in-addr.arpa."
)
for c in "${cases[@]}"; do
  IFS='|' read -r f zone origin <<< "$c"
  { [ -n "$origin" ] && printf '$ORIGIN %s\n' "$origin"; printf "$body"; } > "$d/$f"
  named-checkzone -q "$zone" "$d/$f"
  want=$(($? != 0))
  "$ZONEPUNY" --check "$d/$f" > /dev/null 2> "$tmp/err"
  rc=$?
  if [ "$rc" -eq "$want" ] && { [ "$want" -eq 0 ] || grep -q "zone-name" "$tmp/err"; }; then
    ok
  else
    bad "$f (\$ORIGIN '$origin'): zonepuny exits $rc, named-checkzone $zone $( [ $want -eq 1 ] && echo refuses || echo loads) it: $(head -1 "$tmp/err")"
  fi
done
# both names said in the message
"$ZONEPUNY" --check "$d/example.com.zone" 2>&1 | grep -q "at exmaple.com., but the file's name gives the zone example.com." &&
  ok || bad "the message names both the SOA's owner and the file's zone"
# silent where the name gives no zone, or names the file's zone in reverse-zone form
printf '$ORIGIN example.com.\n'"$body" > "$d/internal.zone"
printf '$ORIGIN 1.168.192.in-addr.arpa.\n$TTL 300\n@ SOA ns.example. h.example. 1 2 3 4 5\n@ NS ns.example.\n5 PTR www.example.\n' > "$d/db.192.168.1"
silent=0
for f in internal.zone db.192.168.1; do
  if "$ZONEPUNY" --check "$d/$f" > /dev/null 2>&1; then ok; silent=$((silent + 1)); else bad "$f: an error, though its name gives no other zone"; fi
done
# -z and --no-origin-from-name say the zone otherwise
"$ZONEPUNY" --check -z exmaple.com "$d/example.com.zone" > /dev/null 2>&1 && ok || bad "-z exmaple.com: still refused"
"$ZONEPUNY" --check --no-origin-from-name "$d/example.com.zone" > /dev/null 2>&1 && ok || bad "--no-origin-from-name: still refused"
# the pre-commit hook, in a repository (it runs zonepuny --check on the files committed)
if command -v git > /dev/null; then
  r=$tmp/repo
  mkdir -p "$r" && cp "$d/example.com.zone" "$d/example.org.zone" "$r/"
  git -C "$r" init -q && git -C "$r" add .
  mkdir -p "$tmp/hookrepo/tools" "$tmp/hookrepo/build"
  cp "$repo_dir/tools/pre-commit-hook" "$tmp/hookrepo/tools/"
  cp "$ZONEPUNY" "$tmp/hookrepo/build/zonepuny" 2> /dev/null || ln -s "$ZONEPUNY" "$tmp/hookrepo/build/zonepuny"
  mkdir -p "$tmp/hookrepo/src" "$tmp/hookrepo/grammar"
  (cd "$r" && bash "$tmp/hookrepo/tools/pre-commit-hook" example.com.zone example.org.zone) > /dev/null 2> "$tmp/hook"
  rc=$?
  [ $rc -eq 1 ] && grep -q "example.com.zone:.*zone-name" "$tmp/hook" && ! grep -q "example.org.zone:" "$tmp/hook" &&
    ok || bad "pre-commit hook: exit $rc: $(head -2 "$tmp/hook")"
fi
echo "zone names: ${#cases[@]} files against named-checkzone; $silent named so that zonepuny stays silent (one label; reverse-zone form)"
finish
