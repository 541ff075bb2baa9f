#!/usr/bin/env bash
# check_git_diff.sh -- tools/zonepuny-git-diff as git's external diff driver for *.zone files
# (.gitattributes "*.zone diff=zone", diff.zone.command), run by real git: `git log -p
# --ext-diff` shows each commit's record-level changes with each side's $INCLUDE files read from
# its own commit (a host changed in an included file is the zone's change in that commit, and
# the next commit's diff reads the include as it was then); a respelled zone shows no change; a
# renamed zone is compared with its old self; a side that does not read falls back to diff -u
# with zonepuny's message naming the file a/ or b/; `git diff` compares the work tree; the
# driver always exits 0 (git stops at a failing one). Expected lines are written by hand from
# each commit's records.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
command -v git > /dev/null || { skip "no git"; finish; }
export HOME=$tmp GIT_CONFIG_NOSYSTEM=1 TMPDIR=$tmp/t
mkdir "$TMPDIR"
# the driver finds the zonepuny under test first on PATH
mkdir "$tmp/bin" && ln -s "$ZONEPUNY" "$tmp/bin/zonepuny"
export PATH=$tmp/bin:$PATH
git config --global user.email t@example.org
git config --global user.name t
git config --global init.defaultBranch main

r=$tmp/repo
mkdir -p "$r/zones" && cd "$r" && git init -q
echo '*.zone diff=zone' > .gitattributes
git config diff.zone.command "$repo_dir/tools/zonepuny-git-diff"
zone() {   # zone SERIAL [LINE...]
  printf '$ORIGIN example.\n$TTL 300\n@ SOA ns h %s 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n$INCLUDE hosts.inc\n' "$1"
  shift
  [ $# -eq 0 ] || printf '%s\n' "$@"
}
zone 1 > zones/example.zone
echo 'www A 192.0.2.10' > zones/hosts.inc
git add -A && git commit -qm one
echo 'www A 192.0.2.11' > zones/hosts.inc
zone 2 > zones/example.zone
git commit -qam two
printf '$ORIGIN example.\n$TTL 5m\n@ SOA NS H 2 2 3 4 5\nNS.example. A 192.0.2.1\n@ NS ns\n$INCLUDE hosts.inc\n' > zones/example.zone
git commit -qam respelled
echo 'www A 192.0.2.12' > zones/hosts.inc
git commit -qam include-alone
git mv zones/example.zone zones/example2.zone
sed -i 's/ H 2 / H 3 /' zones/example2.zone
echo 'x A 192.0.2.9' >> zones/example2.zone
git commit -qam renamed
echo 'bad A 192.0.2.999' >> zones/example2.zone
git commit -qam broken
sed -i '$d' zones/example2.zone
git commit -qam fixed

show() {   # show COMMIT: the driver's part of its diff of the zone files
  git show --ext-diff -M --format= "$1" -- 'zones/*.zone' 2> "$tmp/err"
}
expect() {   # expect WHAT: stdin is what is wanted of $tmp/got
  if diff -u - "$tmp/got" > "$tmp/d"; then ok; else bad "$1: $(cat "$tmp/d")"; fi
}
T=$'\t'
# two: serial 1 -> 2, and www's address from the include of each commit
show HEAD~5 > "$tmp/got"
expect "a change through an \$INCLUDE and the serial" << EOF
zonepuny --diff a/zones/example.zone b/zones/example.zone
-example.${T}300${T}IN${T}SOA${T}ns.example. h.example. 1 2 3 4 5
+example.${T}300${T}IN${T}SOA${T}ns.example. h.example. 2 2 3 4 5
-www.example.${T}300${T}IN${T}A${T}192.0.2.10
+www.example.${T}300${T}IN${T}A${T}192.0.2.11
# 2 records removed, 2 added, 0 with another TTL (serial 1 -> 2)
EOF
# respelled: case, TTL units, order; the include unchanged
show HEAD~4 > "$tmp/got"
expect "respelled" << EOF
zonepuny --diff a/zones/example.zone b/zones/example.zone
# the zones hold the same records
EOF
# renamed (after the include changed alone, which git shows for hosts.inc only): both sides
# read www .12 from their commits' include
show HEAD~2 > "$tmp/got"
expect "renamed, serial raised" << EOF
zonepuny --diff a/zones/example.zone b/zones/example2.zone
-example.${T}300${T}IN${T}SOA${T}ns.example. h.example. 2 2 3 4 5
+example.${T}300${T}IN${T}SOA${T}ns.example. h.example. 3 2 3 4 5
+x.example.${T}300${T}IN${T}A${T}192.0.2.9
# 1 record removed, 2 added, 0 with another TTL (serial 2 -> 3)
EOF
# broken: the new side does not read
show HEAD~1 > "$tmp/got"
grep -q '^# b/zones/example2.zone:8:7: error: invalid IPv4 address' "$tmp/got" && ok ||
  bad "broken: zonepuny's message: $(cat "$tmp/got")"
grep -q '^+bad A 192.0.2.999$' "$tmp/got" && ok || bad "broken: no diff -u: $(cat "$tmp/got")"
# the first commit: every record added
show HEAD~6 > "$tmp/got"
expect "the first commit" << EOF
zonepuny --diff a/zones/example.zone b/zones/example.zone
+example.${T}300${T}IN${T}NS${T}ns.example.
+example.${T}300${T}IN${T}SOA${T}ns.example. h.example. 1 2 3 4 5
+ns.example.${T}300${T}IN${T}A${T}192.0.2.1
+www.example.${T}300${T}IN${T}A${T}192.0.2.10
# 0 records removed, 4 added, 0 with another TTL
EOF
# git log -p runs the driver once for each commit that touches a zone, and ends well
n=$(git log -p --ext-diff -M --format= -- 'zones/*.zone' | grep -c '^zonepuny --diff ')
[ "$n" -eq 6 ] && ok || bad "git log -p: $n driver runs, want 6 (the include-alone commit touches no zone)"
# the work tree: a record added, serial kept
echo 'y A 192.0.2.7' >> zones/example2.zone
git diff -- zones > "$tmp/got"
expect "the work tree" << EOF
zonepuny --diff a/zones/example2.zone b/zones/example2.zone
+y.example.${T}300${T}IN${T}A${T}192.0.2.7
# 0 records removed, 1 added, 0 with another TTL (serial 3 unchanged)
EOF
[ -z "$(ls -A "$TMPDIR")" ] && ok || bad "left in \$TMPDIR: $(ls -A "$TMPDIR")"
finish
