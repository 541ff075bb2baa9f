#!/usr/bin/env bash
# check_golden.sh -- zones/NAME.zone converted by zonepuny gives exactly NAME.out on stdout and
# NAME.err on stderr (missing .err: nothing). NAME.args holds extra arguments. Exit status: 1
# when .err has an "error:" line, else 0. The .out files come from tools/gen_golden.py (oracles);
# a zone with an error writes nothing, so its .out is empty. Arguments name the cases to run
# (NAME or NAME.zone); none: every zone.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir/zones"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
cases=$(golden_cases "$@") || exit 1
for z in $cases; do
  base=${z%.zone}
  [ -e "$base.out" ] || continue
  args=()
  [ -e "$base.args" ] && read -ra args < "$base.args"
  "$ZONEPUNY" "${args[@]}" "$z" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  want_err=/dev/null
  [ -e "$base.err" ] && want_err=$base.err
  want_rc=0
  grep -q ': error: ' "$want_err" && want_rc=1
  why=
  cmp -s "$tmp/out" "$base.out" || why="$why; stdout differs from $base.out"
  cmp -s "$tmp/err" "$want_err" || why="$why; stderr differs from $want_err"
  [ "$rc" -eq "$want_rc" ] || why="$why; exit status $rc, expected $want_rc"
  if [ -z "$why" ]; then
    ok "$z"
  else
    bad "$z: ${why#; }"
    cmp -s "$tmp/out" "$base.out" || diff -u "$base.out" "$tmp/out" | head -40
    cmp -s "$tmp/err" "$want_err" || diff -u "$want_err" "$tmp/err" | head -40
  fi
done
need_pass "no zones/*.zone with a .out"
finish
