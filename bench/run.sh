#!/usr/bin/env bash
# run.sh -- `make bench`: every benchmark section in turn. One function per section, each owned
# by the module's author; add yours to SECTIONS. Speed is measured here only, never in tests.
set -u
cd "$(dirname "$0")/.."
: "${BUILD:=build}" "${ZONEPUNY:=$PWD/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
export BUILD ZONEPUNY PYTHON

section() { printf '\n== %s\n' "$1"; }

# ---- IDNA: ToASCII per label against libidn and libidn2, Punycode encode against libidn ----
bench_idna() {
  section "IDNA ToASCII and Punycode (bench/bench_idna.c)"
  "$BUILD/bench/bench_idna"
}

# ---- Nameprep: ns per code point against libidn ----
bench_nameprep() {
  section "Nameprep (bench/bench_nameprep.c)"
  "$BUILD/bench/bench_nameprep"
}

SECTIONS="bench_idna bench_nameprep"
status=0
for s in $SECTIONS; do
  "$s" || { echo "FAILED: $s"; status=1; }
done
exit $status
