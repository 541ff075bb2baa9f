#!/usr/bin/env bash
# deps.sh -- install every build, test and oracle dependency from Debian's packages.
# CI and new machines start bare; this is the only place that knows what zonepuny needs.
set -euo pipefail
pkgs=(
  build-essential make flex bison pkg-config
  libldns-dev ldnsutils              # RR types, RDATA, output; ldns-read-zone peer
  libcriterion-dev                   # unit tests
  libidn-dev libidn2-dev idn         # oracles: GNU libidn (IDNA2003), libidn2
  unicode-data unicode-idna          # Unicode 15.0.0 UCD and IdnaMappingTable: IDNA2008 tables
  libicu-dev python3-idna            # oracles: ICU 72 (UTS #46), python3-idna (IDNA2008)
  python3 python3-dnspython          # oracles: encodings.idna, dnspython; table generator
  python3-jsonschema                 # validates --format=sarif against the SARIF schema
  bind9-utils nsd                    # peers: named-checkzone, nsd-checkzone, dnssec-*
  bind9 bind9-dnsutils               # named, rndc, named-rrchecker; dig (the reload test)
  knot-dnssecutils libknot-dev       # peers: kzonecheck, libzscanner (Knot DNS)
  clang libclang-rt-14-dev           # libFuzzer and sanitizers
  valgrind time bzip2
  acl attr                           # setfacl, setfattr: -o keeps ACLs and extended attributes
  pre-commit git                     # the pre-commit hook, tested with the real framework
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "deps: all ${#pkgs[@]} packages present"; exit 0; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
