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

# ---- Adversarial inputs (issue 5): time must grow linearly with the input ----
bench_adversarial() {
  section "Adversarial inputs (bench/bench_adversarial.c)"
  "$BUILD/bench/bench_adversarial"
}

SECTIONS="bench_idna bench_nameprep bench_adversarial"
status=0
for s in $SECTIONS; do
  "$s" || { echo "FAILED: $s"; status=1; }
done
exit $status
