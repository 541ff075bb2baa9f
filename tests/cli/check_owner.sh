#!/usr/bin/env bash
# check_owner.sh -- -o keeps the owner, group and permission bits of the file it replaces, so
# that a name server reading it as another user still can (a zone root:bind 0640 that became
# root:root made named keep serving the old zone). Where this user may not give the new file that
# owner and group, -o refuses (exit 2, the file untouched) unless --allow-owner-change.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
leftovers() { find "$1" -name '.zonepuny.*' | wc -l; }
owner() { stat -c '%u:%g %a' "$1"; }

printf '$ORIGIN example.\n$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n' > "$tmp/in.zone"

if [ "$(id -u)" -ne 0 ]; then
  # a group of this user's other than its first, if it has one
  g=$(id -G | tr ' ' '\n' | grep -vx "$(id -g)" | head -1)
  if [ -z "$g" ]; then
    skip "not root and in no second group: ownership cannot be tried here"
    finish
  fi
  echo old > "$tmp/out.zone"
  chgrp "$g" "$tmp/out.zone" && chmod 0640 "$tmp/out.zone"
  "$ZONEPUNY" -o "$tmp/out.zone" "$tmp/in.zone" && ok || bad "-o with a second group: exit $?"
  [ "$(owner "$tmp/out.zone")" = "$(id -u):$g 640" ] && ok ||
    bad "group not kept: $(owner "$tmp/out.zone")"
  skip "not root: another owner cannot be tried"
  finish
fi

# 1. root replaces a file of another group and mode: both kept (daemon's group, 1, is on every
# Debian system; no group is made or left behind)
echo old > "$tmp/out.zone"
chown 0:1 "$tmp/out.zone" && chmod 0640 "$tmp/out.zone"
"$ZONEPUNY" -o "$tmp/out.zone" "$tmp/in.zone" && ok || bad "root -o: exit $?"
[ "$(owner "$tmp/out.zone")" = "0:1 640" ] && ok || bad "root: $(owner "$tmp/out.zone")"
grep -q SOA "$tmp/out.zone" && ok || bad "root: not converted"

# 2. an owner other than root and a mode with group write
chown 65534:1 "$tmp/out.zone" && chmod 0664 "$tmp/out.zone"
"$ZONEPUNY" -o "$tmp/out.zone" "$tmp/in.zone" && ok || bad "root -o, nobody's file: exit $?"
[ "$(owner "$tmp/out.zone")" = "65534:1 664" ] && ok || bad "nobody's file: $(owner "$tmp/out.zone")"

# 3. nobody (not in group 1) replaces its own file of group 1: refused, nothing changes
command -v setpriv >/dev/null || { skip "setpriv not installed (util-linux)"; finish; }
d=$tmp/nobody
chmod 0711 "$tmp"   # (nobody passes through it to its own directory)
mkdir "$d" && chown 65534:65534 "$d"
cp "$tmp/in.zone" "$d/in.zone" && chmod 0644 "$d/in.zone"
echo old > "$d/out.zone" && chown 65534:1 "$d/out.zone" && chmod 0640 "$d/out.zone"
# (a copy nobody can reach: the repository may sit in a directory only root can enter)
cp "$ZONEPUNY" "$tmp/zonepuny" && chmod 0755 "$tmp/zonepuny"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/zonepuny" "$@"; }
as_nobody -o "$d/out.zone" "$d/in.zone" 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && ok || bad "nobody, another group: exit $rc, want 2"
grep -q "is owned by uid 65534, gid 1, and this user cannot give a new file that owner and group" \
  "$tmp/err" && ok || bad "message: $(cat "$tmp/err")"
[ "$(cat "$d/out.zone")" = old ] && [ "$(owner "$d/out.zone")" = "65534:1 640" ] && ok ||
  bad "the refused target changed: $(owner "$d/out.zone")"
[ "$(leftovers "$d")" -eq 0 ] && ok || bad "a temporary file was left"

# 4. the same with --allow-owner-change: written, with nobody's own group, the mode kept
as_nobody --allow-owner-change -o "$d/out.zone" "$d/in.zone" 2> "$tmp/err" && ok ||
  bad "--allow-owner-change: exit $?: $(cat "$tmp/err")"
[ "$(owner "$d/out.zone")" = "65534:65534 640" ] && ok || bad "allowed: $(owner "$d/out.zone")"
grep -q SOA "$d/out.zone" && ok || bad "allowed: not converted"
finish
