#!/usr/bin/env bash
# check_named_conf_hostile.sh -- `zonepuny --named-conf` on a named.conf written by an attacker
# (zonepuny gates pull requests, and the conf comes with them), doc/safety.md:
# - no secrets in the output: a zone's file, an included conf, or the conf itself named
#   through a symlink, pointed at an /etc/shadow, an SSH private key, or /proc/self/environ
#   (all made here, but the last, zonepuny's own), shows no line of it in any format (gcc,
#   json, sarif, github): the file is told by its location alone, since its first record (its
#   first statement, for a conf) is an error; a zone or conf that reads shows its later errors,
#   lines and all;
# - only regular files: an include or a zone file that is /dev/zero, a FIFO with no writer, a
#   directory or /dev/null is an error at its statement, naming the path and what it is
#   (exit 1: the conf is refused as any error in it refuses it; a zone file, as one that cannot
#   be read); the conf itself so, or through a symlink to one, is an I/O error (exit 2); a
#   zone file is opened once, judged and read through that descriptor (strace counts the
#   opens), so that a path swapped for a FIFO meanwhile is never opened again, even by the
#   second reading --dnssec=auto makes of a zone found signed late;
# - bounds: an include tree reads at most 10,000 files (an include bomb: files that each include
#   the next twice) and 256 MiB, refused at the include that passes them; include loops.
# Every run has a timeout ($hang, tests/lib.sh) as a safety net only: the verdicts are the exit
# status and the output (a run the timeout ends exits 124, and fails).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
d=$tmp/d
mkdir -p "$d/zones" "$d/outside" "$d/bomb" "$d/big"
cd "$d" || exit 1

# run WANT NAME ARGS...: zonepuny ARGS (after the command pre, when set), its exit status WANT;
# output in $tmp/out, $tmp/err.
# (Memory is capped where no sanitizer needs the address space: a conf read for ever ends in
# "out of memory", not in the machine's swap.)
run() {
  local want=$1 name=$2 rc
  shift 2
  (if plain_binary; then ulimit -v 4194304; fi
   exec timeout "$hang" ${pre[@]+"${pre[@]}"} "$ZONEPUNY" "$@") > "$tmp/out" 2> "$tmp/err" < /dev/null
  rc=$?
  [ "$rc" -eq "$want" ] && ok || bad "$name: exit $rc, want $want: $(head -c 2000 "$tmp/err")"
}
# has NAME TEXT: the output (stdout and stderr) holds TEXT
has() {
  cat "$tmp/out" "$tmp/err" | grep -qF -- "$2" && ok ||
    bad "$1: no '$2' in: $(head -c 2000 "$tmp/out"; head -c 2000 "$tmp/err")"
}
# unread NAME FILE: no line of FILE (but blank ones) is anywhere in the output
unread() {
  local shown
  shown=$(cat "$tmp/out" "$tmp/err" | grep -aF -f <(tr '\0' '\n' < "$2" | grep -av '^$') | head -3)
  [ -z "$shown" ] && ok || bad "$1: lines of $2 shown: $shown"
}

soa='$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n'
printf "$soa" > "$d/zones/good.db"
# the secrets: an /etc/shadow, an OpenSSH private key, an environment (NUL-separated), each
# line unique to it
cat > "$d/outside/shadow" << 'EOF'
root:$6$Zq9sEcReTsAlT$QmFzZWNyZXRoYXNoMTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6:19700:0:99999:7:::
daemon:*:19700:0:99999:7:::
alice:$y$j9T$SeCrEtSaLtAlIcE$aLiCeHaShVaLuEsEcReT0123456789abcdef:19701:0:99999:7:::
bob 3600 IN A 192.0.2.7
EOF
cat > "$d/outside/id_ed25519" << 'EOF'
-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACBzZWNyZXRrZXlzZWNyZXRrZXlzZWNyZXRrZXlzZWNyZXQAAAAJiWJ2VZYL
AAAAC3NzaC1lZDI1NTE5AAAAIHNlY3JldGtleXNlY3JldGtleXNlY3JldGtleXNlY3JldA
AAAEDzZWNyZXRrZXlzZWNyZXRrZXlzZWNyZXRrZXlzZWNyZXQ=
-----END OPENSSH PRIVATE KEY-----
EOF
printf 'AWS_SECRET_ACCESS_KEY=zqxEnvSecret0123456789\0HOME=/root\0PATH=/usr/bin\0' \
  > "$d/outside/environ"
secrets="shadow id_ed25519 environ"

# 1. zone files: relative to the directory option, absolute, and through a symlink in the
# zone's own tree; the first record (a directive, for one) of each is an error
ln -s ../outside/id_ed25519 "$d/zones/linked.db"
{ printf 'options { directory "%s/outside"; };\n' "$d"
  printf 'zone "rel.example" { type primary; file "shadow"; };\n'
  printf 'zone "abs.example" { type primary; file "%s/outside/id_ed25519"; };\n' "$d"
  printf 'zone "env.example" { type primary; file "environ"; };\n'
  printf 'zone "link.example" { type primary; file "../zones/linked.db"; };\n'
  printf 'zone "good.example" { type primary; file "../zones/good.db"; };\n'
} > "$d/zones.conf"
for fmt in gcc json sarif github; do
  run 1 "zone files, $fmt" --check --format=$fmt --named-conf "$d/zones.conf"
  for s in $secrets; do unread "zone files, $fmt" "$d/outside/$s"; done
  has "zone files, $fmt" "the file's first record or directive is an error"
  has "zone files, $fmt" "$d/outside/id_ed25519"   # (told where, by the conf's path)
done
run 1 "zone files, gcc" --named-conf "$d/zones.conf"
[ "$(grep -c "first record or directive is an error" "$tmp/err")" -eq 4 ] && ok ||
  bad "zone files: not the four told: $(cat "$tmp/err")"
# zonepuny's own /proc/self/environ, a secret its first variable
printf 'zone "proc.example" { type primary; file "/proc/self/environ"; };\n' > "$d/proc.conf"
pre=(env -i ZQX_TOKEN=zqxProcSecret42 "ASAN_OPTIONS=${ASAN_OPTIONS-}"
     "LSAN_OPTIONS=${LSAN_OPTIONS-}" "UBSAN_OPTIONS=${UBSAN_OPTIONS-}")
for fmt in gcc json sarif github; do
  run 1 "/proc/self/environ, $fmt" --check --format=$fmt --named-conf "$d/proc.conf"
  grep -qF zqxProcSecret42 "$tmp/out" "$tmp/err" && bad "/proc/self/environ, $fmt: shown" || ok
done
pre=()
# a $INCLUDE of a secret inside a zone of the conf: the same (named fences no $INCLUDE)
printf "$soa"'$INCLUDE %s/outside/shadow\n' "$d" > "$d/zones/inc.db"
printf 'zone "inc.example" { type primary; file "%s/zones/inc.db"; };\n' "$d" > "$d/inc.conf"
for fmt in gcc json sarif github; do
  run 1 "\$INCLUDE of a shadow, $fmt" --check --format=$fmt --named-conf "$d/inc.conf"
  unread "\$INCLUDE of a shadow, $fmt" "$d/outside/shadow"
done
# near miss: a zone file whose first record reads shows its later errors, line and all
printf "$soa"'bad A 192.0.2.300\n' > "$d/zones/bad.db"
printf 'zone "bad.example" { type primary; file "%s/zones/bad.db"; };\n' "$d" > "$d/bad.conf"
run 1 "a zone with an error" --named-conf "$d/bad.conf"
has "a zone with an error" "bad A 192.0.2.300"

# 2. the conf's own files: an include of each secret, at top level and inside a block, and the
# conf itself through a symlink
for s in $secrets; do
  printf 'zone "a.example" { type primary; file "%s/zones/good.db"; };\ninclude "outside/%s";\n' \
    "$d" "$s" > "$d/top-$s.conf"
  printf 'options {\n  include "%s/outside/%s";\n};\n' "$d" "$s" > "$d/block-$s.conf"
  ln -s "outside/$s" "$d/link-$s.conf"
  for conf in top block link; do
    for fmt in gcc json sarif github; do
      run 1 "$conf-$s.conf, $fmt" --check --format=$fmt --named-conf "$d/$conf-$s.conf"
      unread "$conf-$s.conf, $fmt" "$d/outside/$s"
      has "$conf-$s.conf, $fmt" "the file's first statement is an error: not read as named.conf"
    done
  done
done
run 1 "an include of a shadow, gcc" --named-conf "$d/top-shadow.conf"
has "an include of a shadow, gcc" "outside/shadow:1:1: error: the file's first statement is an error"
has "an include of a shadow, gcc" "included from $d/top-shadow.conf:2"
# near misses: an included conf shows its errors, from a first statement named knows on
printf 'zone "b.example" { type primry; file "x"; };\n' > "$d/typo.conf"
printf 'include "typo.conf";\n' > "$d/typo-top.conf"
run 1 "a typo in an included conf" --named-conf "$d/typo-top.conf"
has "a typo in an included conf" "typo.conf:1:25: error: expected one of primary"
has "a typo in an included conf" 'zone "b.example" { type primry; file "x"; };'
printf 'zone "c.example" { type primary; file "x"; };\nzone "d.example" { tpye primary; };\n' \
  > "$d/later.conf"
printf 'include "later.conf";\n' > "$d/later-top.conf"
run 1 "a later error in an included conf" --named-conf "$d/later-top.conf"
has "a later error in an included conf" "later.conf:2:20: error: unknown option 'tpye'"

# 3. only regular files
mkfifo "$d/fifo"
ln -s /dev/zero "$d/zero.conf"
for c in /dev/zero:"a character device" "$d/fifo":"a FIFO" "$d/outside":"a directory" \
         /dev/null:"a character device"; do
  p=${c%%:*} what=${c#*:}
  printf 'options { directory "%s"; };\ninclude "%s";\n' "$d" "$p" > "$d/nr.conf"
  run 1 "include $p" --named-conf "$d/nr.conf"
  has "include $p" "$d/nr.conf:2:9: error: include $p: $what, not a regular file"
  printf 'zone "nr.example" { type primary; file "%s"; };\n' "$p" > "$d/nr.conf"
  run 1 "zone file $p" --named-conf "$d/nr.conf"
  has "zone file $p" "$d/nr.conf:1:40: error: zone nr.example: $p is $what, not a regular file"
done
run 2 "the conf a FIFO" --named-conf "$d/fifo"
has "the conf a FIFO" "$d/fifo is a FIFO, not a regular file"
run 2 "the conf a symlink to /dev/zero" --named-conf "$d/zero.conf"
has "the conf a symlink to /dev/zero" "$d/zero.conf is a character device, not a regular file"

# 4. bounds. An include bomb: b0 includes b1 twice, ... b14 includes b15 twice: 2^16 - 1
# files, refused at the include that would read the 10,001st
for i in $(seq 0 14); do
  printf 'include "b%d.conf";\ninclude "b%d.conf";\n' $((i + 1)) $((i + 1)) > "$d/bomb/b$i.conf"
done
printf '# a leaf\n' > "$d/bomb/b15.conf"
cd "$d/bomb" && run 1 "an include bomb" --named-conf b0.conf
has "an include bomb" "would read more than 10000 files, zonepuny's limit"
grep -qE '^b[0-9]+\.conf:[12]:9: error: include b[0-9]+\.conf: the conf' "$tmp/err" && ok ||
  bad "an include bomb: not told at an include: $(head -3 "$tmp/err")"
cd "$d" || exit 1
# the bound exactly: the conf and 9,999 includes read; one more is refused, at its line
printf '# a leaf\n' > "$d/leaf.conf"
for n in 9999 10000; do
  for _ in $(seq "$n"); do echo 'include "leaf.conf";'; done > "$d/many.conf"
  run $((n - 9999)) "$n includes" --named-conf "$d/many.conf"
done
has "10000 includes" "$d/many.conf:10000:9: error: include leaf.conf: the conf and its includes would read more than 10000 files"
# 256 MiB: an 8 MiB file of comments, included 2^6 times over
head -c $((8 << 20)) /dev/zero | tr '\0' '#' | fold -w 1000 > "$d/big/c6.conf"
for i in $(seq 0 5); do
  printf 'include "c%d.conf";\ninclude "c%d.conf";\n' $((i + 1)) $((i + 1)) > "$d/big/c$i.conf"
done
cd "$d/big" && run 1 "256 MiB of includes" --named-conf c0.conf
has "256 MiB of includes" "c6.conf: the conf and its includes would hold more than 256 MiB with it"
cd "$d" || exit 1
# a zone file opened once: judged on its descriptor and read through it, twice here (an RRSIG
# after 256 records: --dnssec=auto reads it again to verify)
{ printf '$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n'
  for i in $(seq 300); do echo "h$i A 192.0.2.2"; done
  echo "h1 RRSIG A 13 2 300 20300101000000 20200101000000 1 example. AAAA"; } > "$d/late.zone"
printf 'zone "example." { type primary; file "%s/late.zone"; };\n' "$d" > "$d/late.conf"
if command -v strace > /dev/null && plain_binary; then
  pre=(strace -f -e trace=open,openat -o "$tmp/strace")
  run 1 "a zone found signed late" --named-conf "$d/late.conf"
  pre=()
  has "a zone found signed late" "late.zone:305:1: error: example. has RRSIG records, the first here, but no DNSKEY RRset"
  n=$(grep -c "\"$d/late.zone\"" "$tmp/strace")
  [ "$n" = 1 ] && ok || bad "a zone found signed late: its file opened $n times, not once"
else
  skip "no strace, or zonepuny is no plain binary: the opens of a zone file are not counted"
fi

# loops: a file including itself, and two including each other
printf 'include "self.conf";\n' > "$d/self.conf"
printf 'include "self.conf";\n' > "$d/self-top.conf"
run 1 "a file including itself" --named-conf "$d/self-top.conf"
has "a file including itself" "self.conf:1:9: error: include self.conf: that file is being read already (an include loop)"
printf 'include "loop-b.conf";\n' > "$d/loop-a.conf"
printf 'options { directory "%s"; };\ninclude "loop-a.conf";\n' "$d" > "$d/loop-b.conf"
run 1 "two files including each other" --named-conf "$d/loop-a.conf"
has "two files including each other" "loop-b.conf:2:9: error: include $d/loop-a.conf: that file is being read already (an include loop)"
finish
