#!/usr/bin/env bash
# check_ldns_diff.sh -- end to end against ldns: a generated 20,000-record zone with 30% UTF-8
# owner names (tools/genzone.py), converted by zonepuny, must be byte for byte what
# ldns-read-zone prints for the same zone written in ACE by Python's encodings.idna.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp
for seed in 1 2; do
  "$PYTHON" tools/genzone.py --records 20000 --seed $seed --ace "$tmp/ace.zone" "$tmp/idn.zone"
  # (genzone.py's deviation labels draw -W idna-divergence, which is not what this compares)
  "$ZONEPUNY" -W no-idna-divergence "$tmp/idn.zone" > "$tmp/ours" 2> "$tmp/err"
  rc=$?
  ldns-read-zone "$tmp/ace.zone" > "$tmp/ldns" 2>/dev/null
  if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/ours" "$tmp/ldns"; then
    ok "seed $seed"
  else
    bad "seed $seed (exit $rc)"; head -5 "$tmp/err"; diff "$tmp/ldns" "$tmp/ours" | head -10
  fi
done
finish
