#!/usr/bin/env bash
# deps.sh -- install zonepuny's dependencies from Debian's packages: `deps.sh build` what
# building needs (make deps), `deps.sh test` that and every test oracle and peer as well (make
# deps-test, which the test command runs), `deps.sh bench` the test's and what the benchmarks
# build their own peers with (make bench runs it). `deps.sh --list build|test|bench` prints the
# packages.
# CI and new machines start bare; this is the only place that knows what zonepuny needs.
set -euo pipefail
build=(
  build-essential make flex bison pkg-config
  libldns-dev                        # RR types, RDATA, output
  libssl-dev                         # libcrypto: DNSSEC signatures verified
  libjansson-dev                     # JSON for the language server (--lsp)
)
test=(
  ldnsutils                          # ldns-read-zone peer
  libcriterion-dev                   # unit tests
  libidn-dev libidn2-dev idn         # oracles: GNU libidn (IDNA2003), libidn2
  unicode-data unicode-idna          # Unicode 15.0.0 UCD and IdnaMappingTable: IDNA2008 tables
  libicu-dev python3-idna            # oracles: ICU 72 (UTS #46), python3-idna (IDNA2008)
  python3 python3-dnspython          # oracles: encodings.idna, dnspython; table generator
  python3-jsonschema                 # validates --format=sarif against the SARIF schema
  python3-yaml                       # parses the README's CI snippets
  bind9-utils nsd                    # peers: named-checkzone, nsd-checkzone, dnssec-*
  bind9 bind9-dnsutils               # named, rndc, named-rrchecker; dig (the reload test)
  knot-dnssecutils libknot-dev       # peers: kzonecheck, libzscanner (Knot DNS)
  clang libclang-rt-14-dev           # libFuzzer and sanitizers
  valgrind time bzip2 strace
  acl attr                           # setfacl, setfattr: -o keeps ACLs and extended attributes
  pre-commit git                     # the pre-commit hook, tested with the real framework
  util-linux                         # script(1): a terminal for --color=auto
  neovim emacs-nox elpa-eglot        # --lsp under real clients (doc/editors.md's set-up)
  vim-ale                            # ALE, doc/editors.md's linter definition
)
bench=(
  autoconf automake libevent-dev     # NSD 4.15.1 from ../shared/peers (bench/build_peers.sh)
  cmake                              # simdzone's zone-bench, from the same tarball
)
# the servers these packages bring: tests start their own on loopback, never these
services=(named.service nsd.service knot.service)

list=false
[ "${1:-}" = --list ] && { list=true; shift; }
case ${1:-build} in
  build) pkgs=("${build[@]}") ;;
  test) pkgs=("${build[@]}" "${test[@]}") ;;
  bench) pkgs=("${build[@]}" "${test[@]}" "${bench[@]}") ;;
  *) echo "usage: deps.sh [--list] build|test|bench" >&2; exit 2 ;;
esac
if $list; then
  printf '%s\n' "${pkgs[@]}"
  exit 0
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "deps: all ${#pkgs[@]} packages present"; exit 0; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
# A server package starts and enables its service on install; ours are test oracles only. While
# installing, policy-rc.d (Debian's policy layer for invoke-rc.d) forbids starting anything,
# unless the machine already has one; afterwards the services of the packages installed here,
# and only those, are disabled (a server the machine already ran is left as it was).
policy=/usr/sbin/policy-rc.d
made_policy=false
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" > /dev/null
  $sudo chmod 755 "$policy"
  made_policy=true
fi
cleanup() { if $made_policy; then $sudo rm -f "$policy"; fi; }
trap cleanup EXIT
before=()
for s in "${services[@]}"; do
  [ -e "/lib/systemd/system/$s" ] && before+=("$s")
done
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
if command -v systemctl > /dev/null; then
  for s in "${services[@]}"; do
    [[ " ${before[*]} " == *" $s "* ]] && continue
    [ -e "/lib/systemd/system/$s" ] && $sudo systemctl disable --now "$s" > /dev/null 2>&1 || true
  done
fi
