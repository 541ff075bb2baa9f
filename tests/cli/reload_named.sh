# reload_named.sh -- the named that the tests of tools/zonepuny-reload run against (Debian
# package bind9), sourced by tests/cli/check_reload*.sh after tests/lib.sh and make_tmp:
#
#   named_start 'zone "example." { type primary; file "F"; };' ...
#                      writes $tmp/named.conf with these zone statements and $tmp/rndc.conf,
#                      starts named on 127.0.0.1 at a free high port (controls at another),
#                      stopped by its PID on exit; once named's log says it is running, tried
#                      again at other ports when what answers there is not this named serving
#                      the first zone; fails the test when it never is
#   zone_text ORIGIN SERIAL [LINE...]   a zone: SOA, NS, the server's address, the lines
#   ask ARGS...        dig ARGS at this named, asked again every 2 s while it does not answer,
#                      for as long as $hang: a named slow to answer is waited for
#   soa ZONE           the serial named serves for ZONE (dig), empty when none
#   reload_zone ZONE   rndc reload ZONE (an ACE name), and wait until named is done with it:
#                      at once when rndc says the file is up-to-date (or fails), else until
#                      named's log tells of a load of ZONE since (loaded, or not, and why)
#   file_serial FILE   the serial in the zone file FILE (the third field after SOA)
#   rndc_conf, dns     the rndc configuration written, and named's DNS port
#   reload             the command under test; zonepuny ($ZONEPUNY) is first in PATH
#
# Skips the whole test (exit 77) when named, rndc, dig or named-checkzone is missing, or when
# not root (named is started as root here, to bind and read as any user).
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
# the zonepuny the command under test finds in PATH: a copy anyone may run (the repository may
# sit in a directory only root can enter), or one that runs $ZONEPUNY when it is not the binary
# itself (tests/valgrind.sh under make check-valgrind)
mkdir -m 0755 "$tmp/zpbin"
if [ "$(basename "$ZONEPUNY")" = zonepuny ]; then
  cp "$ZONEPUNY" "$tmp/zpbin/zonepuny"
else
  printf '#!/usr/bin/env bash\nexec %q "$@"\n' "$ZONEPUNY" > "$tmp/zpbin/zonepuny"
fi
chmod 0755 "$tmp/zpbin/zonepuny"
PATH=$tmp/zpbin:$PATH:/usr/sbin:/sbin
reload=$repo_dir/tools/zonepuny-reload
for c in named rndc dig named-checkzone flock; do
  command -v $c > /dev/null || { skip "$c not installed (bind9, bind9-dnsutils, util-linux)"; finish; }
done
[ "$(id -u)" -eq 0 ] || { skip "named is started as root here (it must bind and read as any user)"; finish; }
named_pid=
on_exit '[ -n "$named_pid" ] && kill "$named_pid" 2>/dev/null && wait "$named_pid" 2>/dev/null'

# a free high port, on loopback only
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 30000))
    ! (exec 3<> /dev/tcp/127.0.0.1/$p) 2> /dev/null && { echo $p; return; }
  done
}

zone_text() {
  printf '$ORIGIN %s\n$TTL 300\n@ SOA ns hostmaster %s 3600 600 86400 300\n@ NS ns\nns A 192.0.2.1\n' "$1" "$2"
  shift 2
  [ $# -eq 0 ] || printf '%s\n' "$@"
}

ask() { dig +time=2 +tries=$((hang / 2 + 1)) -p "$dns" @127.0.0.1 "$@"; }

soa() { ask +short +norecurse "$1" SOA | cut -d' ' -f3; }

file_serial() { awk '{ for (i = 1; i < NF; i++) if ($i == "SOA") { print $(i + 3); exit } }' "$1"; }

# ours: named answers with this instance's version string, and rndc with its key (another
# named may have taken the same port at the same moment: BIND binds with SO_REUSEPORT)
named_ours() {
  [ "$(ask +short version.bind CH TXT)" = "\"$token\"" ] &&
    rndc -c "$rndc_conf" status > /dev/null 2>&1
}

# log_since OFFSET: named's log from octet OFFSET on
log_since() { tail -c +"$(($1 + 1))" "$tmp/named.log" 2> /dev/null; }
log_size() { stat -c %s "$tmp/named.log" 2> /dev/null || echo 0; }

# started OFFSET: named has said "running" since OFFSET of its log (its zones loaded, its
# sockets bound or not), or has ended
started() { ! running "$named_pid" || log_since "$1" | grep -q ': running$'; }

named_start() {
  local secret ctl first try mark reuse=""
  first=$(sed -n 's/^zone "\([^"]*\)".*/\1/p' <<< "$1")
  printf 'options { directory "%s"; reuseport no; };\n' "$tmp" > "$tmp/reuse.conf"
  named-checkconf "$tmp/reuse.conf" > /dev/null 2>&1 && reuse="reuseport no;"
  for try in 1 2 3; do
    dns=$(free_port) ctl=$(free_port)
    while [ "$ctl" = "$dns" ]; do ctl=$(free_port); done
    secret=$(head -c 32 /dev/urandom | base64)
    token=zonepuny-test-$$-$RANDOM$RANDOM
    {
      printf 'key "test" { algorithm hmac-sha256; secret "%s"; };\n' "$secret"
      printf 'controls { inet 127.0.0.1 port %s allow { 127.0.0.1; } keys { "test"; }; };\n' "$ctl"
      printf 'options {\n  directory "%s"; pid-file "%s/named.pid"; listen-on port %s { 127.0.0.1; };\n' \
        "$tmp" "$tmp" "$dns"
      printf '  listen-on-v6 { none; }; recursion no; notify no; version "%s"; %s\n};\n' "$token" "$reuse"
      printf '%s\n' "$@"
    } > "$tmp/named.conf"
    rndc_conf=$tmp/rndc.conf
    printf 'key "test" { algorithm hmac-sha256; secret "%s"; };\n' "$secret" > "$rndc_conf"
    printf 'options { default-key "test"; default-server 127.0.0.1; default-port %s; };\n' "$ctl" >> "$rndc_conf"
    mark=$(log_size)
    named -c "$tmp/named.conf" -L "$tmp/named.log" -f > /dev/null 2>&1 &
    named_pid=$!
    wait_until started "$mark"
    # serving the first zone, and ours, on a second look too (a query from another source
    # port: with SO_REUSEPORT, another named on the same port would answer some of them)
    if running "$named_pid" && [ -n "$(soa "$first")" ] && named_ours && named_ours; then ok; return; fi
    kill "$named_pid" 2> /dev/null
    wait "$named_pid" 2> /dev/null
    named_pid=
  done
  bad "named did not start (three times): $(tail -5 "$tmp/named.log")"
  finish
}

# (named's log names the zone without its final dot: "zone example/IN: loaded serial 2")
reload_zone() {
  local mark out
  mark=$(log_size)
  out=$(rndc -c "$rndc_conf" reload "$1" 2>&1) || return 0
  case $out in *up-to-date*) return 0 ;; esac
  wait_until zone_load_told "${1%.}" "$mark"
}
zone_load_told() {   # ZONE OFFSET
  log_since "$2" | grep -F "zone $1/IN: " | grep -q 'loaded serial\|not loaded due to errors'
}
