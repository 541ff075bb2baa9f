# lib.sh -- the shared harness of the shell script tests (tests/*/check_*.sh), sourced first:
#   . "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
#
#   ok [WHAT]        count a pass (WHAT is for the reader; nothing is printed)
#   bad WHAT...      count a failure and print "FAIL: WHAT"
#   skip WHY...      count a case not run and print "SKIP: WHY"
#   need_pass WHAT   count a failure ("FAIL: nothing checked: WHAT") when nothing has passed or
#                    failed yet: for tests whose cases come from a directory listing
#   finish           print "N passed, N failed, N skipped" and exit: 1 if any failed; 77 (the
#                    runner's "skipped") if nothing passed or failed and something was skipped;
#                    else 0
#   wait_until CMD...
#                    run CMD every 0.05 s until it succeeds (true) or $hang seconds have
#                    passed (false): a wait for a state, never for a time
#   running PID      true while the process PID runs (stopped too); false once it has ended,
#                    reaped or not (a zombie): a wait for a state that PID should reach takes
#                    "or ! running PID" into its CMD, so that it ends when PID ends short of it
#   writes_in PID DIR
#                    true when PID has a file below DIR open with something in it (a
#                    temporary file with no name shows as DIR/#NNN (deleted) there)
#   make_tmp         tmp=a new temporary directory, removed on EXIT
#   on_exit CMD      run the shell command CMD on EXIT, before the temporary directory goes
#   plain_binary     true when $ZONEPUNY is an ELF binary (not a valgrind wrapper) built without
#                    a sanitizer: one whose peak RSS means what it says (a sanitizer keeps freed
#                    memory) and whose faults reach zonepuny's own signal handlers
#   within WHAT USED_KB BUDGET_KB
#                    a pass when USED_KB is at most BUDGET_KB and 512 KiB (the process's own
#                    state), else a failure; a skip when not plain_binary
#   far_apart_zone RECORDS SEED OUT
#                    OUT=a zone of tools/genzone.py (RECORDS records, SEED) with problems whose
#                    records lie at both ends of it, which only a sort brings together: one
#                    name's records with two TTLs, spellings that collide into CNAME and other
#                    data, an NS without glue, an MX without address, MX targets a wildcard
#                    answers but for one below an empty non-terminal (RFC 4592 section 2.2.2)
#
# Also set: repo_dir (the repository, absolute), tests_dir (its tests/ folder), and hang (the
# seconds after which `timeout "$hang"` stops a run that would otherwise never end: a safety
# net, never a verdict on speed, so generous that a busy machine under a sanitizer stays within
# it; HANG_LIMIT sets it, default 900).

tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(dirname "$tests_dir")
_lib_passed=0 _lib_failed=0 _lib_skipped=0
hang=${HANG_LIMIT:-900}
_lib_exit_cmds=()

ok() { _lib_passed=$((_lib_passed + 1)); }
bad() { _lib_failed=$((_lib_failed + 1)); echo "FAIL: $*"; }
skip() { _lib_skipped=$((_lib_skipped + 1)); echo "SKIP: $*"; }

# golden_cases ARGS...: the zones of the folder a golden script runs: those its arguments name
# (NAME or NAME.zone), to run one case, or every *.zone when it has none
golden_cases() {
  if [ $# -gt 0 ]; then
    local a
    for a; do
      [ -e "${a%.zone}.zone" ] || { echo "FAIL: no case ${a%.zone}.zone here" >&2; return 1; }
      echo "${a%.zone}.zone"
    done
  else
    printf '%s\n' *.zone
  fi
}

wait_until() {
  local end=$((SECONDS + hang))
  until "$@"; do
    [ "$SECONDS" -ge "$end" ] && return 1
    sleep 0.05
  done
}

running() {
  local st
  st=$(sed 's/.*) //' "/proc/$1/stat" 2> /dev/null) || return 1
  case ${st%% *} in "" | Z | X) return 1 ;; esac
}

writes_in() {
  local f
  for f in /proc/"$1"/fd/*; do
    case $(readlink "$f" 2> /dev/null) in
      "$2/"*) [ "$(stat -L -c %s "$f" 2> /dev/null || echo 0)" -gt 0 ] && return 0 ;;
    esac
  done
  return 1
}

need_pass() {
  if [ "$_lib_passed" -eq 0 ] && [ "$_lib_failed" -eq 0 ]; then bad "nothing checked: $*"; fi
}

finish() {
  echo "$_lib_passed passed, $_lib_failed failed, $_lib_skipped skipped"
  if [ "$_lib_failed" -ne 0 ]; then exit 1; fi
  if [ "$_lib_passed" -eq 0 ] && [ "$_lib_skipped" -ne 0 ]; then exit 77; fi
  exit 0
}

_lib_on_exit() {
  local cmd
  for cmd in ${_lib_exit_cmds[@]+"${_lib_exit_cmds[@]}"}; do eval "$cmd"; done
  if [ -n "${tmp-}" ]; then rm -rf "$tmp"; fi
}
trap _lib_on_exit EXIT

on_exit() { _lib_exit_cmds+=("$1"); }

# instructions ARGS...: the instructions one `$ZONEPUNY --check ARGS` spends, as valgrind's
# callgrind counts them: the same for the same input whatever else the machine is doing, where a
# time is not (after make_tmp; plain_binary first)
instructions() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$ZONEPUNY" --check "$@" \
    > /dev/null 2> "$tmp/cg.err"
  awk '/^summary:/ { print $2 }' "$tmp/cg.out"
}

plain_binary() {
  head -c 4 "$ZONEPUNY" | grep -q 'ELF' && ! nm "$ZONEPUNY" 2>/dev/null | grep -q __asan_init
}

within() {
  if ! plain_binary; then
    skip "$1: peak RSS not judged under a sanitizer or valgrind"
  else
    [ "$2" -le $(($3 + 512)) ] && ok || bad "$1: $2 KiB held, more than $3 + 512"
  fi
}

far_apart_zone() {
  local body=$3.body
  "${PYTHON:-/usr/bin/python3}" "$repo_dir/tools/genzone.py" --records "$1" --seed "$2" "$body" || return 1
  { head -5 "$body"
    printf '%s\n' 'www0.münchen 600 IN TXT "start"' 'strasse.zz IN CNAME www.news' 'z.b.w9 IN TXT "start"'
    tail -n +6 "$body"
    printf '%s\n' 'www0.münchen 300 IN TXT "end of the zone"' 'straße.zz IN A 192.0.2.1' \
      'sub9 IN NS ns.sub9' 'last IN MX 10 nowhere' '*.w9 IN A 192.0.2.9' 'last IN MX 20 x.b.w9' \
      'last IN MX 30 y.w9'; } > "$3"
  rm -f "$body"
}

make_tmp() {
  tmp=$(mktemp -d) || { echo "FAIL: mktemp -d"; exit 1; }
}
