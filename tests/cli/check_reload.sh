#!/usr/bin/env bash
# check_reload.sh -- tools/zonepuny-reload against a real named (Debian package bind9), started
# here on 127.0.0.1 at a high port with a minimal configuration in a temporary directory, and
# stopped by its PID. Each case is followed by a query with dig: a good change is served; a zone
# BIND refuses, a name only check-names refuses, a served file this user cannot replace or read,
# and a zone named itself refuses after BIND's check passed (max-zone-ttl in named.conf) all
# leave the previous zone served, and its file in place; an $INCLUDE outside the source's
# directory is refused unless --include-root lets it in.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
PATH=$(dirname "$ZONEPUNY"):$PATH:/usr/sbin:/sbin
reload=$repo_dir/tools/zonepuny-reload
for c in named rndc dig named-checkzone; do
  command -v $c >/dev/null || { skip "$c not installed (bind9, bind9-dnsutils)"; finish; }
done
[ "$(id -u)" -eq 0 ] || { skip "named is started as root here (it must bind and read as any user)"; finish; }
make_tmp
pid=
on_exit '[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null'
chmod 0711 "$tmp"   # (the unprivileged case reads through it)

# two free high ports, on loopback only
port() { local p; while :; do p=$((20000 + RANDOM % 30000)); ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null && { echo $p; return; }; done; }
dns=$(port) ctl=$(port)
secret=$(head -c 32 /dev/urandom | base64)
cat > "$tmp/named.conf" <<EOF
key "test" { algorithm hmac-sha256; secret "$secret"; };
controls { inet 127.0.0.1 port $ctl allow { 127.0.0.1; } keys { "test"; }; };
options {
  directory "$tmp"; pid-file "$tmp/named.pid"; listen-on port $dns { 127.0.0.1; };
  listen-on-v6 { none; }; recursion no; notify no;
};
zone "example." { type primary; file "$tmp/served.zone"; max-zone-ttl 3600; };
EOF
cat > "$tmp/rndc.conf" <<EOF
key "test" { algorithm hmac-sha256; secret "$secret"; };
options { default-key "test"; default-server 127.0.0.1; default-port $ctl; };
EOF
rndc="rndc -c $tmp/rndc.conf"
zone_text() {   # SERIAL, then extra lines
  printf '$ORIGIN example.\n$TTL 300\n@ SOA ns hostmaster %s 3600 600 86400 300\n@ NS ns\nns A 192.0.2.1\n' "$1"
  shift
  printf '%s\n' "$@"
}
zone_text 1 > "$tmp/served.zone"
soa() { dig +short +norecurse -p "$dns" @127.0.0.1 example. SOA | cut -d' ' -f3; }

named -c "$tmp/named.conf" -L "$tmp/named.log" -f > /dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do [ "$(soa)" = 1 ] && break; sleep 0.2; done
[ "$(soa)" = 1 ] && ok || { bad "named did not start: $(tail -5 "$tmp/named.log")"; finish; }

run() { "$reload" --rndc "$rndc" --log "$tmp/named.log" --wait 5 "$@" > "$tmp/out" 2> "$tmp/err"; }

# 1. a good change, with a UTF-8 name: served
zone_text 2 'münchen A 192.0.2.2' > "$tmp/src.zone"
run example. "$tmp/src.zone" "$tmp/served.zone" && ok || bad "good change: exit $?: $(cat "$tmp/err")"
[ "$(soa)" = 2 ] && ok || bad "good change: named serves serial $(soa)"
[ "$(dig +short -p "$dns" @127.0.0.1 xn--mnchen-3ya.example. A)" = 192.0.2.2 ] && ok ||
  bad "good change: the converted name is not served"
[ -z "$(find "$tmp" -name '.served.zone.*')" ] && ok || bad "good change: files left beside"

# 2. a zone BIND refuses (CNAME and other data; zonepuny's whole-zone check refuses it first):
# nothing changes
zone_text 3 'www A 192.0.2.3' 'www CNAME ns' > "$tmp/src.zone"
run example. "$tmp/src.zone" "$tmp/served.zone"
[ $? -eq 1 ] && ok || bad "BIND refuses: exit, want 1"
grep -q "CNAME and other data" "$tmp/err" && ok || bad "BIND refuses: no reason shown: $(cat "$tmp/err")"
[ "$(soa)" = 2 ] && grep -q ' 2 3600 ' "$tmp/served.zone" && ok || bad "BIND refuses: serial $(soa)"

# 3. a name only named's check-names refuses (named-checkzone alone would only warn), which
# zonepuny's check-names refuses first
zone_text 3 'mail_relay A 192.0.2.4' > "$tmp/src.zone"
run example. "$tmp/src.zone" "$tmp/served.zone"
[ $? -eq 1 ] && ok || bad "check-names: exit, want 1"
grep -q "mail_relay.example., is not a host name.*check-names" "$tmp/err" && ok ||
  bad "check-names: $(cat "$tmp/err")"
[ "$(soa)" = 2 ] && ok || bad "check-names: serial $(soa)"

# 4. a served file this user cannot replace (nobody, in a directory of root's): nothing changes
if command -v setpriv >/dev/null; then
  # (a copy nobody can read: the repository may sit in a directory only root can enter)
  cp "$reload" "$tmp/zonepuny-reload" && chmod 0755 "$tmp/zonepuny-reload"
  zone_text 3 > "$tmp/src.zone" && chmod 0644 "$tmp/src.zone"
  setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/zonepuny-reload" --rndc true \
    example. "$tmp/src.zone" "$tmp/served.zone" > "$tmp/out" 2> "$tmp/err"
  [ $? -eq 2 ] && ok || bad "unwritable: exit, want 2: $(cat "$tmp/err")"
  grep -q "cannot write beside" "$tmp/err" && ok || bad "unwritable: message: $(cat "$tmp/err")"
  [ "$(soa)" = 2 ] && ok || bad "unwritable: serial $(soa)"
  # and one it cannot read, so could not put back: refused before anything
  chmod 0600 "$tmp/served.zone"
  setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/zonepuny-reload" --rndc true \
    example. "$tmp/src.zone" "$tmp/served.zone" > "$tmp/out" 2> "$tmp/err"
  [ $? -eq 2 ] && ok || bad "unreadable: exit, want 2: $(cat "$tmp/err")"
  grep -q "cannot read $tmp/served.zone" "$tmp/err" && ok || bad "unreadable: $(cat "$tmp/err")"
  chmod 0644 "$tmp/served.zone"
  [ "$(soa)" = 2 ] && ok || bad "unreadable: serial $(soa)"
else
  skip "setpriv not installed: the unwritable case"
fi

# 5. a zone BIND's check passes and named refuses (a TTL over the max-zone-ttl of named.conf,
# which named-checkzone does not see): rolled back
zone_text 5 'slow 86400 A 192.0.2.5' > "$tmp/src.zone"
run example. "$tmp/src.zone" "$tmp/served.zone"
[ $? -eq 1 ] && ok || bad "named refuses: exit, want 1"
grep -q "putting the previous file back" "$tmp/err" && ok || bad "named refuses: $(cat "$tmp/err")"
grep -qi "max-zone-ttl" "$tmp/err" && ok || bad "named refuses: named's reason not shown: $(cat "$tmp/err")"
[ "$(soa)" = 2 ] && ok || bad "named refuses: serial $(soa)"
grep -q ' 2 3600 ' "$tmp/served.zone" && ok || bad "named refuses: the previous file is not back"
$rndc reload example. > /dev/null 2>&1; sleep 0.5
[ "$(soa)" = 2 ] && ok || bad "after another reload: serial $(soa)"

# 6. an $INCLUDE beside the source's directory: outside the default fence, nothing changes;
# --include-root lets it in
mkdir -p "$tmp/src" "$tmp/keys"
printf 'key A 192.0.2.6\n' > "$tmp/keys/k.inc"
zone_text 6 '$INCLUDE ../keys/k.inc' > "$tmp/src/src.zone"
run example. "$tmp/src/src.zone" "$tmp/served.zone"
[ $? -eq 1 ] && ok || bad "include outside: exit, want 1"
grep -q 'not found below the include root' "$tmp/err" && ok || bad "include outside: $(cat "$tmp/err")"
[ "$(soa)" = 2 ] && ok || bad "include outside: serial $(soa)"
run --include-root "$tmp" example. "$tmp/src/src.zone" "$tmp/served.zone" && ok ||
  bad "--include-root: exit $?: $(cat "$tmp/err")"
[ "$(soa)" = 6 ] && ok || bad "--include-root: serial $(soa)"
finish
