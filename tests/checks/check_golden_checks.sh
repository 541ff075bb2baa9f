#!/usr/bin/env bash
# check_golden_checks.sh -- zones/checks/NAME.zone, one whole-zone check or one near miss each
# (the zone's first line says which, and what BIND, NSD and Knot do with it): `zonepuny --check`
# with NAME.args prints exactly NAME.err and exits 1 exactly when NAME.err has an error. The
# messages are zonepuny's own words, read line by line against the rule each zone states; the
# verdict is BIND's: the zone's ASCII twin (tools/ace_twin.py, Python's IDNA2003) goes to
# `named-checkzone -k fail -i full` (with NAME.bind-args: a zone of class CH takes "-c CH"), and
# BIND must refuse it exactly when zonepuny has an error, but for the zones below where
# zonepuny's options ask otherwise than named's defaults. Arguments name the cases to run
# (NAME or NAME.zone); none: every zone.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir/zones/checks"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp
# zones whose verdict is not BIND's, and why
declare -A not_bind=(
  [check-names-warn.zone]="--check-names=warn: a warning where named's default is fail"
  [options.zone]="-W error=null-mx makes an error of what BIND does not check"
  [mixed-script-error.zone]="-W error=mixed-script makes an error of what BIND does not check"
  [idna2008-collision.zone]="--idna=2008: the ASCII twin is written with IDNA2003, which merges straße and strasse"
  [idna-divergence.zone]="labels IDNA2003 refuses (ẞ, xn--fa-hia) have no ASCII twin"
  [idna2008-divergence.zone]="--idna=2008, and labels it refuses (☃, xn--n3h)"
  [load-limit-records.zone]="named-checkzone skips max-records-per-type, which named applies as it loads"
  [load-limit-types.zone]="named-checkzone skips max-types-per-name, which named applies as it loads"
  [load-limit-written.zone]="named loads the file; the zone zonepuny writes, one run of lines, it refuses"
)
have_bind=
command -v named-checkzone >/dev/null && have_bind=1
cases=$(golden_cases "$@") || exit 1
for z in $cases; do
  base=${z%.zone}
  args=()
  [ -e "$base.args" ] && read -ra args < "$base.args"
  "$ZONEPUNY" --check "${args[@]}" "$z" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  want_rc=0
  grep -q ': error: ' "$base.err" && want_rc=1
  if cmp -s "$tmp/err" "$base.err" && [ $rc -eq $want_rc ] && [ ! -s "$tmp/out" ]; then
    ok "$z"
  else
    bad "$z (exit $rc, expected $want_rc)"; diff -u "$base.err" "$tmp/err" | head -20
  fi
  [ -n "$have_bind" ] && [ -z "${not_bind[$z]+x}" ] || continue
  "$PYTHON" "$repo_dir/tools/ace_twin.py" "$z" "$tmp/twin.zone"
  origin=$(awk 'toupper($1) == "$ORIGIN" { print $2; exit }' "$z")
  bind_args=()
  [ -e "$base.bind-args" ] && read -ra bind_args < "$base.bind-args"
  named-checkzone "${bind_args[@]}" -k fail -i full "${origin:-example.}" "$tmp/twin.zone" \
    > "$tmp/bind" 2>&1
  bind_rc=$?
  if [ $((bind_rc != 0)) -eq $want_rc ]; then
    ok "$z: BIND agrees"
  else
    bad "$z: BIND exits $bind_rc, zonepuny $want_rc"; grep -v '^zone .*loaded serial' "$tmp/bind" | head -5
  fi
done
[ -n "$have_bind" ] || skip "BIND's verdicts: named-checkzone not installed (bind9-utils)"
finish
