#!/usr/bin/env bash
# run.sh -- `make bench`: every benchmark section in turn. One function per section, each owned
# by the module's author; add yours to SECTIONS (set SECTIONS in the environment to run only some).
# Speed is measured here only, never in tests.
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

# ---- Zone end to end: zonepuny against ldns-read-zone, named-compilezone, nsd-checkzone ----
# One generated zone per size (tools/genzone.py, 30% internationalized owners). The peers get
# the same zone in ACE form, written by Python's encodings.idna (they cannot convert). Each tool
# reads the whole zone and writes or checks it, three times; the best wall time and its peak RSS
# from /usr/bin/time (one run's figure moved by 30% on a busy machine).
bench_zone() {
  section "Zone end to end (tools/genzone.py, 30% IDN owners; peers read the ACE zone)"
  local dir=$BUILD/bench/zones sizes=${ZONE_SIZES:-"250000 1000000"} n
  mkdir -p "$dir"
  PATH=$PATH:/usr/sbin:/sbin
  printf '%-20s %9s %8s %9s %9s %8s\n' tool records seconds "MB/s" "RSS MB" "x ours"
  for n in $sizes; do
    local z=$dir/idn-$n.zone a=$dir/ace-$n.zone
    [ -s "$z" ] && [ -s "$a" ] || "$PYTHON" tools/genzone.py --records "$n" --ace "$a" "$z"
    local mb ours=""
    mb=$(stat -c %s "$z" | awk '{ print $1 / 1048576 }')
    for tool in zonepuny ldns-read-zone named-compilezone nsd-checkzone; do
      local cmd
      case $tool in
        zonepuny) cmd=("$ZONEPUNY" "$z") ;;
        ldns-read-zone) cmd=(ldns-read-zone "$a") ;;
        named-compilezone) cmd=(named-compilezone -q -o /dev/null example. "$a") ;;
        nsd-checkzone) cmd=(nsd-checkzone example. "$a") ;;
      esac
      command -v "${cmd[0]}" >/dev/null || { echo "$tool: not installed"; continue; }
      local t run
      : > "$dir/times"
      for run in 1 2 3; do
        /usr/bin/time -o "$dir/time" -f '%e %M' "${cmd[@]}" > /dev/null 2>&1
        tail -1 "$dir/time" >> "$dir/times"
      done
      t=$(sort -n "$dir/times" | head -1)
      local secs=${t% *} kb=${t#* }
      [ -z "$ours" ] && ours=$secs
      awk -v tool="$tool" -v n="$n" -v s="$secs" -v kb="$kb" -v mb="$mb" -v o="$ours" \
        'BEGIN { printf "%-20s %9d %8.2f %9.1f %9.1f %8.2f\n", tool, n, s, (s > 0 ? mb / s : 0), kb / 1024, (o > 0 ? s / o : 0) }'
    done
  done
}

# ---- IDNA divergence warnings: a conversion with -W idna-divergence (the default) against one
# with -W no-idna-divergence, CPU seconds (user + system), best of 9 (three alternating rounds of
# cpu_best's three). Two 1M
# zones: genzone.py's (its IDN labels repeat, and the label cache answers), and one whose every
# internationalized owner is a label of its own, so each costs a conversion (and, for the
# warning, a look at the other standard's) ----
bench_divergence() {
  section "IDNA divergence warnings: on against off, CPU seconds"
  local dir=$BUILD/bench/zones n=${DIVERGENCE_SIZE:-1000000} kind
  mkdir -p "$dir"
  printf '%-28s %9s %8s %8s %8s\n' zone records on off "on/off"
  for kind in repeated distinct; do
    local z=$dir/div-$kind-$n.zone
    [ -s "$z" ] || "$PYTHON" tools/genzone.py --records "$n" \
      $([ $kind = distinct ] && echo --distinct-idn) "$z"
    local on="" off="" i t
    for i in 1 2 3; do
      t=$(ok_rc=0 cpu_best "$ZONEPUNY" "$z") || return 1
      [ -z "$on" ] || awk -v a="${t% *}" -v b="$on" 'BEGIN { exit !(a < b) }' && on=${t% *}
      t=$(ok_rc=0 cpu_best "$ZONEPUNY" -W no-idna-divergence "$z") || return 1
      [ -z "$off" ] || awk -v a="${t% *}" -v b="$off" 'BEGIN { exit !(a < b) }' && off=${t% *}
    done
    awk -v k="genzone.py $kind IDN" -v n="$n" -v a="$on" -v b="$off" \
      'BEGIN { printf "%-28s %9d %8.2f %8.2f %8.3f\n", k, n, a, b, a / b }'
  done
}

# ---- Adversarial inputs (issue 5): time must grow linearly with the input ----
bench_adversarial() {
  section "Adversarial inputs (bench/bench_adversarial.c)"
  "$BUILD/bench/bench_adversarial"
}

# ---- Adversarial zones (issue 5): zonepuny's cost per unit of input must not grow with it ----
# tools/genadversarial.py writes each worst-case zone at bench time, at sizes ten times apart;
# zonepuny converts it (exit 1 is expected where a limit is hit). CPU seconds, best of 3, per MB
# of zone or per $INCLUDE file opened. A family whose cost per unit at its largest size is more
# than twice that at its smallest size taking at least 0.05 s (below that, timer noise) is
# flagged SUPERLINEAR; peak RSS is shown at each size. Zones are deleted once timed (the largest
# is 1 GB).
adv_family() {   # adv_family KIND "SIZES" UNIT
  local kind=$1 sizes=$2 unit=$3 dir=$BUILD/bench/adversarial n z t units first="" last=""
  local rss_first="" rss_last=""
  for n in $sizes; do
    z=$dir/$kind-$n.zone
    if [ "$kind" = include ]; then
      "$PYTHON" tools/genadversarial.py include "$n" "$z" || return 1
      units=$(awk -v l="$n" 'BEGIN { for (i = 1; i <= l; i++) s += 10 ^ i; print (s > 10000 ? 10000 : s) }')
    else
      "$PYTHON" tools/genadversarial.py "$kind" $((n * 1048576)) "$z" || return 1
      units=$(stat -c %s "$z" | awk '{ print $1 / 1048576 }')
    fi
    t=$(ok_rc=1 cpu_best "$ZONEPUNY" "$z") || { echo "$kind $n: zonepuny exited above 1"; return 1; }
    rm -rf "$z" "$z.d"
    local per
    per=$(awk -v s="${t% *}" -v u="$units" 'BEGIN { printf "%.6f", s / u }')
    awk -v k="$kind" -v n="$n" -v u="$units" -v unit="$unit" -v s="${t% *}" -v p="$per" -v kb="${t#* }" \
      'BEGIN { printf "%-10s %8s %10.0f %-6s %8.2f %12.6f %8.1f\n", k, n, u, unit, s, p, kb / 1024 }'
    if [ -z "$first" ] && awk -v s="${t% *}" 'BEGIN { exit !(s >= 0.05) }'; then first=$per; fi
    [ -n "$first" ] && last=$per
    [ -z "$rss_first" ] && rss_first=${t#* }
    rss_last=${t#* }
  done
  awk -v k="$kind" -v a="$first" -v b="$last" -v r0="$rss_first" -v r1="$rss_last" 'BEGIN {
    if (a == "") { printf "%-10s too fast to judge (every size under 0.05 s)\n", k; exit }
    printf "%-10s %s: cost per unit x%.2f from the smallest timed size to the largest, peak RSS x%.2f\n",
      k, (b / a > 2 ? "SUPERLINEAR" : "linear"), b / a, r1 / r0 }'
}

bench_adversarial_zones() {
  section "Adversarial zones (tools/genadversarial.py): CPU seconds per unit, best of 3"
  mkdir -p "$BUILD/bench/adversarial"
  printf '%-10s %8s %10s %-6s %8s %12s %8s\n' kind size units unit seconds "s/unit" "RSS MB"
  adv_family paren "${ADV_PAREN_MB:-1 10 100 1000}" MB &&
  adv_family escapes "${ADV_MB:-1 10 100}" MB &&
  adv_family punycode "${ADV_MB:-1 10 100}" MB &&
  adv_family include "${ADV_INCLUDE_LEVELS:-2 3 4 5}" files
}

# ---- Hostile zones against the peers: what a zone written to cost the most costs zonepuny
# --check and each peer's check, CPU seconds (best of 3, any exit status: a peer may refuse
# the zone, and its figure is what refusing costs). Kinds from tools/genadversarial.py: NULs
# in a comment, one name of many types, a delegation of many NS records and their glue; each
# at HOSTILE_KB (256 and 1024 KB), so that a cost growing faster than the zone shows as a
# column growing more than 4-fold. A run is stopped after HOSTILE_LIMIT seconds (60), shown
# as ">60", and not tried again. named-checkzone runs with -i local: its full checks look glue
# names up in the DNS, and wait for an answer no CPU figure shows ----
bench_hostile() {
  section "Hostile zones: zonepuny --check against the peers' checks, CPU seconds, best of 3"
  local dir=$BUILD/bench/hostile kind kb z t tool limit=${HOSTILE_LIMIT:-60}
  local -a cmd
  mkdir -p "$dir"
  printf '%-6s %6s %10s %10s %10s %10s %10s\n' kind KB zonepuny named-cz kzonecheck nsd-cz ldns-read
  for kind in nul types glue; do
    for kb in ${HOSTILE_KB:-256 1024}; do
      z=$dir/$kind-$kb.zone
      "$PYTHON" tools/genadversarial.py "$kind" $((kb * 1024)) "$z" || return 1
      printf '%-6s %6s' "$kind" "$kb"
      for tool in zonepuny named-checkzone kzonecheck nsd-checkzone ldns-read-zone; do
        case $tool in
          zonepuny) cmd=("$ZONEPUNY" --check -q "$z") ;;
          named-checkzone) cmd=(named-checkzone -q -i local example. "$z") ;;
          kzonecheck) cmd=(kzonecheck -o example. "$z") ;;
          nsd-checkzone) cmd=(nsd-checkzone example. "$z") ;;
          ldns-read-zone) cmd=(ldns-read-zone "$z") ;;
        esac
        if ! command -v "${cmd[0]}" > /dev/null; then
          printf ' %10s' -
          continue
        fi
        /usr/bin/time -o "$BUILD/bench/time" -f '%x' timeout "$limit" "${cmd[@]}" > /dev/null 2>&1
        if [ "$(tail -1 "$BUILD/bench/time")" = 124 ]; then
          printf ' %10s' ">$limit"
        elif t=$(ok_rc=255 cpu_best "${cmd[@]}"); then
          printf ' %10s' "${t% *}"
        else
          printf ' %10s' -
        fi
      done
      printf '\n'
      rm -f "$z"
    done
  done
}

# ---- Front end alone: zp_zone_parse with a counting callback, against ldns-read-zone ----
# Same generated zones as bench_zone (ldns reads the ACE one). CPU time (user + system, from
# /usr/bin/time) for both, so other work on the shared machine weighs less; best of 3. Two sizes
# show that peak RSS does not grow with the zone.
cpu_best() {   # cpu_best CMD...: prints "seconds peak-KB", the fastest of three runs; fails
  local best="" i t  # when CMD exits above $ok_rc (default 0)
  for i in 1 2 3; do
    /usr/bin/time -o "$BUILD/bench/time" -f '%U %S %M %x' "$@" > /dev/null 2>&1
    t=$(tail -1 "$BUILD/bench/time")
    [ "${t##* }" -le "${ok_rc:-0}" ] 2>/dev/null || return 1
    t=$(awk '{ printf "%.2f %d", $1 + $2, $3 }' <<< "$t")
    if [ -z "$best" ] || awk -v a="${t% *}" -v b="${best% *}" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  echo "$best"
}

bench_parse() {
  section "Front end parse only (bench/bench_parse.c) vs ldns-read-zone, CPU seconds"
  local dir=$BUILD/bench/zones sizes=${PARSE_SIZES:-"250000 1000000"} n
  mkdir -p "$dir"
  printf '%-24s %9s %8s %11s %8s %8s %8s\n' tool records seconds "records/s" "MB/s" "RSS MB" "x ours"
  for n in $sizes; do
    local z=$dir/idn-$n.zone a=$dir/ace-$n.zone t ours=""
    [ -s "$z" ] && [ -s "$a" ] || "$PYTHON" tools/genzone.py --records "$n" --ace "$a" "$z"
    for f in "$a" "$z"; do
      t=$(cpu_best "$BUILD/bench/bench_parse" "$f") || return 1
      [ -z "$ours" ] && ours=${t% *}
      awk -v tool="front end ${f##*/}" -v n="$n" -v s="${t% *}" -v kb="${t#* }" -v mb="$(stat -c %s "$f")" -v o="$ours" \
        'BEGIN { printf "%-24s %9d %8.2f %11d %8.1f %8.1f %8.2f\n", tool, n, s, n / s, mb / 1048576 / s, kb / 1024, s / o }'
    done
    command -v ldns-read-zone >/dev/null || { echo "ldns-read-zone: not installed"; continue; }
    t=$(cpu_best ldns-read-zone "$a") || return 1
    awk -v tool="ldns-read-zone ${a##*/}" -v n="$n" -v s="${t% *}" -v kb="${t#* }" -v mb="$(stat -c %s "$a")" -v o="$ours" \
      'BEGIN { printf "%-24s %9d %8.2f %11d %8.1f %8.1f %8.2f\n", tool, n, s, n / s, mb / 1048576 / s, kb / 1024, s / o }'
  done
}

# ---- Whole-zone checks: --check with every check against --check as it was before them, and
# against the peers' own checks, CPU seconds (user + system, best of 3) and peak RSS ----
# "--check before the checks" is the commit before them (BEFORE_CHECKS), built once from git: the
# whole-zone checks were asked to cost at most 1.6 times its time. --fragment is the same build
# with the whole-zone checks off (records and labels only), so the checks' own share shows too.
# The zones come from tools/genzone.py, clean by construction; the peers read the ACE twin.
BEFORE_CHECKS=6c3463d
before_checks_bin() {
  local d=$BUILD/bench/before-checks
  if [ ! -x "$d/build/zonepuny" ]; then
    git cat-file -e "$BEFORE_CHECKS^{commit}" 2>/dev/null || return 1
    rm -rf "$d" && mkdir -p "$d" && git archive "$BEFORE_CHECKS" | tar -x -C "$d" &&
      make -s -C "$d" build/zonepuny > "$d.log" 2>&1 || return 1
  fi
  echo "$d/build/zonepuny"
}

bench_checks() {
  section "Whole-zone checks: zonepuny --check against kzonecheck and named-checkzone, CPU seconds"
  local dir=$BUILD/bench/zones sizes=${CHECK_SIZES:-"1000000 5000000"} n before
  mkdir -p "$dir"
  PATH=$PATH:/usr/sbin:/sbin
  before=$(before_checks_bin) || echo "--check before the checks: not built (no git history at $BEFORE_CHECKS)"
  printf '%-34s %9s %8s %8s %8s\n' tool records seconds "RSS MB" "x ours"
  for n in $sizes; do
    local z=$dir/idn-$n.zone a=$dir/ace-$n.zone t ours="" tool
    [ -s "$z" ] && [ -s "$a" ] || "$PYTHON" tools/genzone.py --records "$n" --ace "$a" "$z"
    for tool in "zonepuny --check" "zonepuny --check before the checks" "zonepuny --check --fragment" \
                kzonecheck named-checkzone; do
      local cmd
      case $tool in
        "zonepuny --check") cmd=("$ZONEPUNY" --check "$z") ;;
        "zonepuny --check before the checks") [ -n "$before" ] || continue; cmd=("$before" --check "$z") ;;
        "zonepuny --check --fragment") cmd=("$ZONEPUNY" --check --fragment "$z") ;;
        kzonecheck) cmd=(kzonecheck -o example. "$a") ;;
        named-checkzone) cmd=(named-checkzone -k fail -i full example. "$a") ;;
      esac
      command -v "${cmd[0]}" >/dev/null || { echo "$tool: not installed"; continue; }
      t=$(cpu_best "${cmd[@]}") || { echo "$tool: failed on $z"; return 1; }
      [ -z "$ours" ] && ours=${t% *}
      awk -v tool="$tool" -v n="$n" -v s="${t% *}" -v kb="${t#* }" -v o="$ours" \
        'BEGIN { printf "%-34s %9d %8.2f %8.1f %8.2f\n", tool, n, s, kb / 1024, s / o }'
    done
  done
}

# ---- The pre-commit hook (tools/pre-commit-hook) against zonepuny alone, over a repository of
# HOOK_ZONES (2000) small zones (17 records, 5 of them IDN), all given at once as `pre-commit run
# --all-files` gives them: wall seconds and CPU seconds (user + system), best of HOOK_RUNS (7;
# 3 for "origin by name"); "over" is the hook's wall time less zonepuny's for the same zones,
# what the hook itself costs (the goal: under 0.3 s).
#   own $ORIGIN     every zone sets its $ORIGIN: one zonepuny process checks them all
#   a fragment      the one file every zone $INCLUDEs, given alone: all 2000 zones checked
#   pre-commit      `pre-commit run --all-files` with the hook as `repo: local`: pre-commit's
#                   own start and its reading of every file (`types: [text]`) included; the
#                   line under the table is pre-commit with `entry: true` on the same files
#   origin by name  no $ORIGIN: each zone's origin from its name (kzonecheck's rule); zonepuny's
#                   -z names one zone per process, so zonepuny alone is a run per zone too
# The repositories are generated once into $BUILD/bench/hook-*, with git. ----
hook_repo() {   # hook_repo DIR N ORIGIN(yes|no): N zones in DIR/zNN/, each including common.inc
  local dir=$1 n=$2 own=$3
  [ -f "$dir/.done" ] && return 0
  rm -rf "$dir" && mkdir -p "$dir" || return 1
  awk -v dir="$dir" -v n="$n" -v own="$own" 'BEGIN {
    for (i = 0; i < n; i++) {
      d = sprintf("%s/z%02d", dir, i % 20); f = sprintf("%s/zone%d.example.zone", d, i)
      if (i < 20) system("mkdir -p " d)
      if (own == "yes") printf "$ORIGIN zone%d.example.\n", i > f
      printf "$TTL 3600\n@ SOA ns1 hostmaster %d 7200 900 1209600 300\n@ NS ns1\n@ NS ns2\n", i > f
      printf "ns1 A 192.0.2.1\nns2 A 192.0.2.2\n@ MX 10 mail\nmail A 192.0.2.3\n" > f
      printf "www A 192.0.2.4\nwww AAAA 2001:db8::4\nbücher A 192.0.2.5\n" > f
      printf "münchen CNAME www\nzürich TXT \"zone %d\"\n_sip._tcp SRV 0 5 5060 mail\n", i > f
      printf "köln A 192.0.2.6\nshop CNAME köln\n$INCLUDE ../common.inc\n" > f
      close(f)
    }
    printf "info TXT \"shared\"\nzürich A 192.0.2.7\n" > (dir "/common.inc")
  }' || return 1
  (cd "$dir" && git init -q && git add -A &&
    git -c user.name=bench -c user.email=bench@example.org commit -qm zones) || return 1
  touch "$dir/.done"
}

wall_best() {   # wall_best RUNS CMD...: "wall cpu" seconds of the fastest run (each exit 0 or
  local best="" i t t0 t1 # 1); wall from bash's clock (time's %e has 1/100 s), CPU from time
  for ((i = 0; i < $1; i++)); do
    t0=$EPOCHREALTIME
    /usr/bin/time -o "$hook_dir/time" -f '%U %S %x' "${@:2}" > /dev/null 2>&1
    t1=$EPOCHREALTIME
    t=$(tail -1 "$hook_dir/time")
    [ "${t##* }" -le 1 ] 2>/dev/null || return 1
    t=$(awk -v a="$t0" -v b="$t1" '{ printf "%.3f %.3f", b - a, $1 + $2 }' <<< "$t")
    if [ -z "$best" ] || awk -v a="${t% *}" -v b="${best% *}" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  echo "$best"
}

bench_hook() {
  section "pre-commit hook against zonepuny alone, ${HOOK_ZONES:-2000} zones (seconds, best of ${HOOK_RUNS:-7})"
  mkdir -p "$BUILD/bench"
  local hook_dir n=${HOOK_ZONES:-2000} runs=${HOOK_RUNS:-7} own byname
  hook_dir=$(cd "$BUILD/bench" && pwd) own=$hook_dir/hook-own byname=$hook_dir/hook-byname
  local hook=$PWD/tools/pre-commit-hook
  # the hook runs the zonepuny of its own repository's build/: this one, built (make bench)
  [ "$ZONEPUNY" -ef build/zonepuny ] ||
    { echo "the hook runs build/zonepuny; ZONEPUNY is $ZONEPUNY: not timed"; return 0; }
  hook_repo "$own" "$n" yes && hook_repo "$byname" "$n" no || { echo "hook_repo failed"; return 1; }
  printf '%-18s %6s %9s %9s %9s %9s %9s\n' case zones zonepuny hook over "zp CPU" "hook CPU"
  row() {   # row CASE ZONES "zp-wall zp-cpu" "hook-wall hook-cpu"
    awk -v c="$1" -v n="$2" -v z="$3" -v h="$4" 'BEGIN { split(z, a, " "); split(h, b, " ")
      printf "%-18s %6d %9.3f %9.3f %9.3f %9.3f %9.3f\n", c, n, a[1], b[1], b[1] - a[1], a[2], b[2] }'
  }
  local zp hk files
  files=$(cd "$own" && git ls-files '*.zone')
  zp=$(cd "$own" && wall_best "$runs" "$ZONEPUNY" --check --include-root "$PWD" $files) || { echo "zonepuny failed"; return 1; }
  hk=$(cd "$own" && wall_best "$runs" bash "$hook" $files) || { echo "the hook failed"; return 1; }
  row "own \$ORIGIN" "$n" "$zp" "$hk"
  hk=$(cd "$own" && wall_best "$runs" bash "$hook" common.inc) || { echo "the hook failed"; return 1; }
  row "a fragment" "$n" "$zp" "$hk"
  local pc=""
  if command -v pre-commit > /dev/null; then
    local entry cfg
    for entry in "$hook" true; do
      cfg=$hook_dir/hook-config-${entry##*/}.yaml
      printf 'repos:\n  - repo: local\n    hooks:\n      - id: zonepuny-check\n        name: zonepuny\n        entry: %s\n        language: system\n        files: %s\n        types: [text]\n        require_serial: true\n' \
        "$entry" "'(^|/)(db\\.[^/]+|[^/]+\\.(zone|db))\$'" > "$cfg"
      hk=$(cd "$own" && PRE_COMMIT_HOME=$hook_dir/hook-cache wall_best "$runs" pre-commit run \
        -c "$cfg" --all-files) || { echo "pre-commit failed ($entry)"; return 1; }
      [ "$entry" = true ] && pc=$hk || row "pre-commit" "$n" "$zp" "$hk"
    done
  fi
  files=$(cd "$byname" && git ls-files '*.zone')
  zp=$(cd "$byname" && wall_best "$runs" "$ZONEPUNY" --check --include-root "$PWD" $files) ||
    { echo "zonepuny failed (origin by name)"; return 1; }
  hk=$(cd "$byname" && wall_best "$runs" bash "$hook" $files) || { echo "the hook failed (origin by name)"; return 1; }
  row "origin by name" "$n" "$zp" "$hk"
  if [ -n "$pc" ]; then
    echo "pre-commit itself (entry: true, the same $n files): ${pc% *} s wall, ${pc#* } s CPU"
  else
    echo "pre-commit: not installed"
  fi
}

# ---- a tree of zones in one process: --check DIR and --named-conf against named-checkconf -z ----
# The hook's tree of zones whose origins come from their names (2,000 by default), and a
# named.conf of them; named gets the same tree in ACE form (the four UTF-8 labels replaced by
# their ACE, from RFC 3492's algorithm as Python's encodings.idna has it) with `directory` at
# z00/ so that BIND, which takes $INCLUDE paths from there, finds ../common.inc as zonepuny does;
# `zonepuny --named-conf` reads the same ACE tree through the same named.conf.
bench_tree() {
  local n=${HOOK_ZONES:-2000} runs=${HOOK_RUNS:-7} hook_dir tree ace
  section "a tree of $n zones in one process against named-checkconf -z (seconds, best of $runs)"
  mkdir -p "$BUILD/bench"
  hook_dir=$(cd "$BUILD/bench" && pwd) tree=$hook_dir/hook-byname ace=$hook_dir/tree-ace
  hook_repo "$tree" "$n" no || { echo "hook_repo failed"; return 1; }
  if [ ! -f "$ace/.done" ]; then
    rm -rf "$ace" && cp -r "$tree" "$ace" && rm -rf "$ace/.git" || return 1
    local words
    words=$("$PYTHON" -c 'import sys
for w in ("bücher", "münchen", "zürich", "köln"):
    print("s/%s/%s/g" % (w, w.encode("idna").decode()))')
    find "$ace" -name '*.zone' -o -name '*.inc' | xargs sed -i "$words" || return 1
    touch "$ace/.done"
  fi
  conf() {   # conf TREE: a named.conf of TREE's zones, directory TREE/z00
    { printf 'options { directory "%s/z00"; };\n' "$1"
      (cd "$1" && find . -name '*.zone' | sort) | while read -r f; do
        f=${f#./} z=${f##*/}
        printf 'zone "%s" { type primary; file "../%s"; };\n' "${z%.zone}" "$f"
      done; } > "$1.conf"
  }
  conf "$tree" && conf "$ace" || return 1
  local zp zc nc
  zp=$(wall_best "$runs" "$ZONEPUNY" --check "$tree") || { echo "zonepuny --check DIR failed"; return 1; }
  # (--named-conf reads what named reads, the ACE tree: a UTF-8 label there is an error)
  zc=$(wall_best "$runs" "$ZONEPUNY" --named-conf "$ace.conf") || { echo "zonepuny --named-conf failed"; return 1; }
  nc=$(wall_best "$runs" named-checkconf -z "$ace.conf") || { echo "named-checkconf -z failed"; return 1; }
  printf '%-32s %9s %9s %9s\n' case wall CPU "ratio (named ÷ this, wall)"
  local r
  for r in "zonepuny --check DIR|$zp" "zonepuny --named-conf|$zc" "named-checkconf -z|$nc"; do
    awk -v c="${r%%|*}" -v t="${r#*|}" -v p="$nc" 'BEGIN { split(t, a, " "); split(p, b, " ")
      printf "%-32s %9.3f %9.3f %9.2f\n", c, a[1], a[2], b[1] / a[1] }'
  done
}

# ---- The same zones one process each, as a CI step or an editor runs them: zonepuny --check
# FILE against named-checkzone and kzonecheck on the ACE twin (from z00, so that every file's
# $INCLUDE ../common.inc is the tree's), and zonepuny's start alone (a zone of two records,
# best of 50; the goal: under 5 ms) ----
bench_many() {
  local n=${HOOK_ZONES:-2000} runs=${MANY_RUNS:-3} hook_dir tree ace
  section "$n zones, one process each (seconds, best of $runs; per process in ms)"
  mkdir -p "$BUILD/bench"
  hook_dir=$(cd "$BUILD/bench" && pwd) tree=$hook_dir/hook-byname ace=$hook_dir/tree-ace
  [ -f "$ace/.done" ] || bench_tree > /dev/null || return 1
  local list=$hook_dir/many-files
  (cd "$tree" && find . -name '*.zone' | sort | sed 's|^\./|../|') > "$list"
  # each file's zone is its name less .zone: zoneN.example.
  local each='while read -r f; do z=${f##*/}; '
  local zp nc kc tiny start
  zp=$(cd "$tree/z00" && wall_best "$runs" bash -c "$each"'"$0" --check --include-root .. "$f" || exit 1; done < "$1"' \
    "$ZONEPUNY" "$list") || { echo "zonepuny per file failed"; return 1; }
  nc=$(cd "$ace/z00" && wall_best "$runs" bash -c "$each"'named-checkzone -q "${z%.zone}." "$f" || exit 1; done < "$0"' \
    "$list") || { echo "named-checkzone per file failed"; return 1; }
  kc=$(cd "$ace/z00" && wall_best "$runs" bash -c "$each"'kzonecheck -o "${z%.zone}." "$f" > /dev/null || exit 1; done < "$0"' \
    "$list") || { echo "kzonecheck per file failed"; return 1; }
  tiny=$hook_dir/tiny.zone
  printf '$ORIGIN tiny.example.\n@ 3600 SOA ns hm 1 7200 900 1209600 300\n@ 3600 NS ns.example.org.\n' > "$tiny"
  start=$(wall_best 50 "$ZONEPUNY" --check "$tiny") || { echo "zonepuny on a tiny zone failed"; return 1; }
  printf '%-32s %9s %9s %12s %9s\n' case wall CPU "per process" "ratio"
  local r
  for r in "zonepuny --check FILE|$zp" "named-checkzone FILE|$nc" "kzonecheck FILE|$kc"; do
    awk -v c="${r%%|*}" -v t="${r#*|}" -v z="$zp" -v n="$n" 'BEGIN { split(t, a, " "); split(z, b, " ")
      printf "%-32s %9.3f %9.3f %12.2f %9.2f\n", c, a[1], a[2], a[1] / n * 1000, a[1] / b[1] }'
  done
  awk -v t="$start" 'BEGIN { split(t, a, " "); printf "%-32s %9.4f  goal < 0.005  %s\n",
    "zonepuny start (a 2-record zone)", a[1], a[1] < 0.005 ? "met" : "not met" }'
}

# ---- The goals: each figure the performance goals name, against its peer on the same file ----
# The zones come from the shared generator (../shared/genzone.py N: about 6N records, 30% UTF-8
# names): GOAL_N (205000, some 1.23M records) and SORT_N (1000000, some 6.15M). The peers read its
# --ascii twin with every octet above 127 (UTF-8 in TXT strings) written \DDD, the same records:
# Knot's scanner refuses raw UTF-8 in text, and a peer that stops at the first error measures
# nothing. Each row runs zonepuny and its peer alternately, GOAL_ROUNDS times (5; 3 for --sort),
# and prints the medians of CPU seconds (user + system) and peak RSS; "ratio" is the peer's CPU
# over zonepuny's (zonepuny's over --fragment's for the checks' cost, over the unsorted
# conversion's for --sort), "goal" what it should reach ("-": none, a figure to set beside
# ours). NSD 4.15.1 and simdzone's own benchmark, which Debian 12 lacks (its NSD 4.6 predates
# simdzone), are built from ../shared/peers (bench/build_peers.sh).
goal_zone() {   # goal_zone N: prints "UTF8-ZONE ACE-ZONE", made once into $BUILD/bench/zones
  local dir=$BUILD/bench/zones n=$1 gen=${SHARED_GENZONE:-../shared/genzone.py}
  local z=$dir/goal-$n.zone a=$dir/goal-$n.ace.zone
  mkdir -p "$dir"
  if [ ! -s "$z" ] || [ ! -s "$a" ]; then
    [ -f "$gen" ] || { echo "goal zones: $gen not found (set SHARED_GENZONE)" >&2; return 1; }
    "$PYTHON" "$gen" "$n" > "$z" && "$PYTHON" "$gen" "$n" --ascii | "$PYTHON" -c '
import re, sys
sys.stdout.buffer.write(re.sub(rb"[\x80-\xff]", lambda m: b"\\%03d" % m.group()[0],
                               sys.stdin.buffer.read()))' > "$a" || return 1
  fi
  echo "$z $a"
}
one_run() {   # one_run CMD...: "cpu-seconds rss-kb wall-seconds" of one run; fails when CMD exits above 0
  /usr/bin/time -o "$BUILD/bench/time" -f '%U %S %M %e %x' "$@" > /dev/null 2>&1
  local t
  t=$(tail -1 "$BUILD/bench/time")
  [ "${t##* }" = 0 ] || return 1
  awk '{ printf "%.3f %d %.3f\n", $1 + $2, $3, $4 }' <<< "$t"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# goal_row NAME GOAL ROUNDS -- OURS... -- PEER...: the row, from alternated runs; the seconds
# are CPU (user and system, every thread), or elapsed with GOAL_WALL=1
goal_row() {
  local name=$1 goal=$2 rounds=$3 i ours=() peer=() r
  shift 4
  while [ "$1" != -- ]; do ours+=("$1"); shift; done
  shift
  peer=("$@")
  command -v "${peer[0]}" > /dev/null || { printf '%-40s %s: not installed\n' "$name" "${peer[0]}"; return 0; }
  : > "$BUILD/bench/ours" && : > "$BUILD/bench/peer"
  for ((i = 0; i < rounds; i++)); do
    r=$(one_run "${ours[@]}") || { echo "$name: ${ours[*]} failed"; return 1; }
    echo "$r" >> "$BUILD/bench/ours"
    r=$(one_run "${peer[@]}") || { echo "$name: ${peer[*]} failed"; return 1; }
    echo "$r" >> "$BUILD/bench/peer"
  done
  local oc om pc pm
  local f=1
  [ "${GOAL_WALL:-}" = 1 ] && f=3
  oc=$(cut -d' ' -f$f "$BUILD/bench/ours" | median) om=$(cut -d' ' -f2 "$BUILD/bench/ours" | median)
  pc=$(cut -d' ' -f$f "$BUILD/bench/peer" | median) pm=$(cut -d' ' -f2 "$BUILD/bench/peer" | median)
  awk -v n="$name" -v oc="$oc" -v om="$om" -v pc="$pc" -v pm="$pm" -v g="$goal" 'BEGIN {
    inv = (g ~ /^<=/); want = substr(g, 3) + 0
    ratio = inv ? oc / pc : pc / oc
    met = inv ? ratio <= want : ratio >= want
    printf "%-40s %7.2f %7.1f %7.2f %7.1f %7.2f  %-7s %s\n", n, oc, om / 1024, pc, pm / 1024, ratio,
      g, g == "-" ? "" : met ? "met" : "not met" }'
}
bench_goals() {
  section "The goals: zonepuny (-j as the machine allows) against each peer, medians of alternated runs (CPU s but where elapsed, RSS MB)"
  local zones z a big bz ba n=${GOAL_N:-205000} rounds=${GOAL_ROUNDS:-5}
  PATH=$PATH:/usr/sbin:/sbin
  zones=$(goal_zone "$n") || return 1
  z=${zones% *} a=${zones#* }
  echo "$(grep -c '' "$z") lines in ${z##*/}; its peers read ${a##*/}"
  printf '%-40s %7s %7s %7s %7s %7s  %-7s\n' "row (ours vs peer)" "ours s" "MB" "peer s" "MB" ratio goal
  # NSD 4.15.1 reads zones with simdzone (Debian 12's NSD 4.6 does not): built once from
  # ../shared/peers into $BUILD/bench/peers, its rows left out when it cannot be
  local peers=$BUILD/bench/peers tarball
  tarball=$(ls "${SHARED_PEERS:-../shared/peers}"/nsd-4.15.1-*.tar.gz 2> /dev/null | head -1)
  bash bench/build_peers.sh "$peers" "${tarball:-../shared/peers/nsd-4.15.1.tar.gz}" ||
    echo "NSD 4.15.1 and simdzone: not built, their rows skipped"
  goal_row "--check vs nsd-checkzone 4.15.1" ">=2" "$rounds" -- "$ZONEPUNY" --check "$z" -- \
    "$peers/nsd-checkzone" example. "$a" &&
  goal_row "conversion vs ldns-read-zone" ">=7" "$rounds" -- "$ZONEPUNY" "$z" -- ldns-read-zone "$a" &&
  goal_row "conversion vs named-compilezone" ">=8" "$rounds" -- "$ZONEPUNY" "$z" -- \
    named-compilezone -q -o /dev/null example. "$a" &&
  goal_row "conversion vs kzonecheck" ">=2.5" "$rounds" -- "$ZONEPUNY" "$z" -- kzonecheck -o example. "$a" &&
  goal_row "--check vs named-checkzone" ">=7" "$rounds" -- "$ZONEPUNY" --check "$z" -- \
    named-checkzone -k fail -i full example. "$a" &&
  goal_row "--check vs kzonecheck" ">=3" "$rounds" -- "$ZONEPUNY" --check "$z" -- kzonecheck -o example. "$a" &&
  goal_row "--check -j 1 vs --check --fragment" "<=1.25" "$rounds" -- "$ZONEPUNY" -j 1 --check "$z" -- \
    "$ZONEPUNY" --check --fragment "$z" &&
  GOAL_WALL=1 goal_row "--check vs --check --fragment (elapsed)" "<=1.25" "$rounds" -- \
    "$ZONEPUNY" --check "$z" -- "$ZONEPUNY" --check --fragment "$z" &&
  GOAL_WALL=1 goal_row "conversion, default -j vs -j 1 (elapsed)" "<=0.7" "$rounds" -- \
    "$ZONEPUNY" "$z" -- "$ZONEPUNY" -j 1 "$z" &&
  goal_row "parse only vs libzscanner" ">=0.5" "$rounds" -- "$BUILD/bench/bench_parse" "$z" -- \
    "$BUILD/bench/bench_zscanner" example. "$a" &&
  goal_row "parse only vs simdzone (zone-bench)" "-" "$rounds" -- "$BUILD/bench/bench_parse" "$z" -- \
    "$peers/zone-bench" parse "$a" || return 1
  big=$(goal_zone "${SORT_N:-1000000}") || return 1
  bz=${big% *} ba=${big#* }
  echo "--sort: $(grep -c '' "$bz") lines in ${bz##*/}; the goal for RSS is 64 MB at most"
  goal_row "--sort vs the unsorted conversion" "<=1.5" "${SORT_ROUNDS:-3}" -- "$ZONEPUNY" --sort "$bz" -- \
    "$ZONEPUNY" "$bz" &&
  goal_row "--sort vs ldns-read-zone -z" ">=1" "${SORT_ROUNDS:-3}" -- "$ZONEPUNY" --sort "$bz" -- \
    ldns-read-zone -z "$ba"
}

# ---- the checks of UTS #39 (mixed-script, confusable), on by default: what they cost over the
# same run without them, on the goal zone (a third of its names with non-ASCII labels) ----
bench_uts39() {
  section "UTS #39's default checks: with them against without, medians of alternated runs (CPU s, RSS MB)"
  local zones z n=${GOAL_N:-205000} rounds=${UTS39_ROUNDS:-5} off=(-W no-confusable -W no-mixed-script)
  zones=$(goal_zone "$n") || return 1
  z=${zones% *}
  printf '%-40s %7s %7s %7s %7s %7s  %-7s\n' "row (ours vs peer)" "ours s" MB "peer s" MB ratio goal
  goal_row "conversion vs without them" "<=1.05" "$rounds" -- "$ZONEPUNY" "$z" -- \
    "$ZONEPUNY" "${off[@]}" "$z" &&
  goal_row "conversion -j 1 vs without them" "<=1.05" "$rounds" -- "$ZONEPUNY" -j 1 "$z" -- \
    "$ZONEPUNY" -j 1 "${off[@]}" "$z" &&
  GOAL_WALL=1 goal_row "--check vs without them (elapsed)" "<=1.05" "$rounds" -- \
    "$ZONEPUNY" --check "$z" -- "$ZONEPUNY" --check "${off[@]}" "$z" || return 1
  # CPU seconds here move by 10 to 15% between runs of one command: the instructions, which do
  # not, are the figure the goal is judged by (callgrind, both runs at once on two cores)
  command -v valgrind > /dev/null || { echo "instructions: no valgrind"; return 0; }
  local cg=$BUILD/bench/uts39 on off
  mkdir -p "$cg"
  local pid rc
  valgrind --tool=callgrind --callgrind-out-file="$cg/on" "$ZONEPUNY" -j 1 "$z" \
    > /dev/null 2>&1 &
  pid=$!
  valgrind --tool=callgrind --callgrind-out-file="$cg/off" "$ZONEPUNY" -j 1 "${off[@]}" "$z" \
    > /dev/null 2>&1
  rc=$?
  wait $pid && [ $rc -eq 0 ] || { echo "instructions: callgrind failed"; return 1; }
  on=$(awk '/^summary:/ { print $2 }' "$cg/on") off=$(awk '/^summary:/ { print $2 }' "$cg/off")
  awk -v on="$on" -v off="$off" 'BEGIN {
    printf "%-40s %7.0f M (with) %7.0f M (without) %7.3f  <=1.05  %s\n", "instructions, conversion -j 1",
      on / 1e6, off / 1e6, on / off, on / off <= 1.05 ? "met" : "not met" }'
}

# ---- --diff: two zones of DIFF_N groups (about 6 records each: 1.2M by default) that differ in
# a host's address in one group of ten or so, against one conversion (the goal: at most twice
# its time, at most 64 MB) and ldns-compare-zones on the ACE twins. --diff exits 1 on a
# difference: a shell takes that for success. ----
bench_diff() {
  section "--diff of two zones, medians of alternated runs (CPU s, RSS MB)"
  local zones z a z2 a2 n=${DIFF_N:-205000} rounds=${DIFF_ROUNDS:-3}
  zones=$(goal_zone "$n") || return 1
  z=${zones% *} a=${zones#* } z2=${z%.zone}.changed.zone a2=${a%.zone}.changed.zone
  [ -s "$z2" ] || sed 's/^\(www1[0-9]* IN A \)198\.51\./\1198.52./' "$z" > "$z2"
  [ -s "$a2" ] || sed 's/^\(www1[0-9]* IN A \)198\.51\./\1198.52./' "$a" > "$a2"
  echo "$(grep -c '' "$z") lines in ${z##*/}, $(diff "$z" "$z2" | grep -c '^>') changed; RSS goal 64 MB"
  printf '%-40s %7s %7s %7s %7s %7s  %-7s\n' "row (ours vs peer)" "ours s" MB "peer s" MB ratio goal
  local diff_run=(sh -c '"$0" --diff "$1" "$2" > /dev/null; [ $? -eq 1 ]' "$ZONEPUNY" "$z" "$z2")
  goal_row "--diff vs one conversion" "<=2" "$rounds" -- "${diff_run[@]}" -- "$ZONEPUNY" "$z" &&
  goal_row "--diff vs ldns-compare-zones" ">=1" "$rounds" -- "${diff_run[@]}" -- \
    ldns-compare-zones -s "$a" "$a2"
}

# ---- DNSSEC: --check --dnssec=on (every RRSIG verified, the NSEC chain walked) against the
# validators, on the goals' ACE zone of DNSSEC_N (170000: some 1.02M records before signing)
# signed by BIND with a KSK and a ZSK of ECDSA P-256 and of RSASHA256 (the two algorithms most
# signed zones use), each with NSEC and with NSEC3 (DNSSEC_VARIANTS picks: "ALG/nsec ALG/nsec3").
# Signing takes minutes, so each signed zone is made once into $BUILD/bench/zones
# (signed-N[-ALG-DENIAL].zone, its keys in keys-N[...]/) and made again
# only when its signatures end within 8 days: zonepuny warns of those ending within 7
# (--sig-min-validity), and the peers may refuse expired ones. The keys are published and active
# from their creation (dnssec-keygen's default) and the signatures from an hour before it
# (dnssec-signzone's). dnssec-signzone's -j is jitter, not jobs: it signs on every processor
# (-n's default). Rows as in bench_goals, DNSSEC_ROUNDS (1) alternated runs: -j 1 in CPU
# seconds, the work each does (goal: no slower than the fastest validator), then the default
# -j in elapsed seconds, what the second processor buys (goal: at most 0.6 of -j 1's). ----
signed_zone() {   # signed_zone N ALG DENIAL: sets the caller's $signed to the zone signed with
  # ALG (ECDSAP256SHA256, RSASHA256) and DENIAL (nsec, or nsec3: no salt, no extra iteration, as
  # RFC 9276 asks), once, into $BUILD/bench/zones
  local dir=$BUILD/bench/zones n=$1 alg=$2 denial=$3 zones a s keys end t0 tag nsec3=()
  zones=$(goal_zone "$n") || return 1
  tag=$n-$alg-$denial
  [ "$alg-$denial" = ECDSAP256SHA256-nsec ] && tag=$n   # (the name it has always had)
  [ "$denial" = nsec3 ] && nsec3=(-3 - -H 0)
  a=${zones#* } s=$dir/signed-$tag.zone keys=$dir/keys-$tag
  # the first RRSIG's expiration (every signature has the same: no jitter)
  [ -s "$s" ] && end=$(grep -m1 -A1 -w RRSIG "$s" | grep -o -E '\<[0-9]{14}\>' | head -1)
  if [ -n "${end:-}" ] && [ "$end" -gt "$(date -u -d '+8 days' +%Y%m%d%H%M%S)" ]; then
    echo "${s##*/}: signed before, signatures valid until $end"
    signed=$s
    return 0
  fi
  rm -rf "$keys" && mkdir -p "$keys" || return 1
  dnssec-keygen -q -K "$keys" -a "$alg" -f KSK example. > /dev/null &&
    dnssec-keygen -q -K "$keys" -a "$alg" example. > /dev/null &&
    cat "$a" "$keys"/*.key > "$keys/unsigned.zone" || { echo "dnssec-keygen failed"; return 1; }
  t0=$EPOCHREALTIME
  # (dsset-example. goes to -d: into keys-N/, not the working directory)
  dnssec-signzone -q "${nsec3[@]}" -K "$keys" -d "$keys" -o example. -f "$s.tmp" \
    "$keys/unsigned.zone" > /dev/null && mv "$s.tmp" "$s" || { echo "dnssec-signzone failed"; return 1; }
  awk -v a="$t0" -v b="$EPOCHREALTIME" -v f="${s##*/}" \
    'BEGIN { printf "%s: signed in %.1f s (elapsed)\n", f, b - a }'
  rm -f "$keys/unsigned.zone"
  signed=$s
}
bench_dnssec() {
  section "DNSSEC: --check --dnssec=on against the validators, medians (CPU s but where elapsed)"
  local signed s n=${DNSSEC_N:-170000} rounds=${DNSSEC_ROUNDS:-1} one all v alg denial
  PATH=$PATH:/usr/sbin:/sbin
  for v in ${DNSSEC_VARIANTS:-ECDSAP256SHA256/nsec ECDSAP256SHA256/nsec3 RSASHA256/nsec RSASHA256/nsec3}; do
    alg=${v%/*} denial=${v#*/}
    signed_zone "$n" "$alg" "$denial" || return 1
    s=$signed
    # records, not lines: dnssec-signzone writes RRSIGs and DNSKEYs over several lines in ( )
    awk '{ gsub(/"([^"\\]|\\.)*"/, "\"\""); sub(/;.*/, "") } /^[ \t]*$/ { next }
      !d && !/^\$/ { r++ } { d += gsub(/\(/, "(") - gsub(/\)/, ")") }
      END { printf "%d records in %s (from goal-%d.ace.zone)\n", r, f, n }' f="${s##*/}" n="$n" "$s"
    one=("$ZONEPUNY" -j 1 --check --dnssec=on "$s")
    all=("$ZONEPUNY" --check --dnssec=on "$s")
    printf '%-40s %7s %7s %7s %7s %7s  %-7s\n' "row (ours vs peer), $alg $denial" "ours s" MB \
      "peer s" MB ratio goal
    goal_row "--check -j 1 vs dnssec-verify" ">=1" "$rounds" -- "${one[@]}" -- \
      dnssec-verify -q -o example. "$s" &&
    goal_row "--check -j 1 vs kzonecheck -d on" ">=1" "$rounds" -- "${one[@]}" -- \
      kzonecheck -d on -o example. "$s" &&
    goal_row "--check -j 1 vs ldns-verify-zone" ">=1" "$rounds" -- "${one[@]}" -- \
      ldns-verify-zone "$s" &&
    GOAL_WALL=1 goal_row "--check, default -j vs -j 1 (elapsed)" "<=0.6" "$rounds" -- \
      "${all[@]}" -- "${one[@]}" &&
    GOAL_WALL=1 goal_row "--check vs dnssec-verify (elapsed)" ">=2" "$rounds" -- "${all[@]}" -- \
      dnssec-verify -q -o example. "$s" &&
    GOAL_WALL=1 goal_row "--check vs kzonecheck -d on (elapsed)" ">=2" "$rounds" -- "${all[@]}" -- \
      kzonecheck -d on -o example. "$s" || return 1
  done
}

: "${SECTIONS:=bench_goals bench_uts39 bench_diff bench_dnssec bench_parse bench_idna bench_divergence bench_nameprep bench_zone bench_checks bench_adversarial bench_adversarial_zones bench_hostile bench_hook bench_tree bench_many}"
status=0
for s in $SECTIONS; do
  "$s" || { echo "FAILED: $s"; status=1; }
done
exit $status
