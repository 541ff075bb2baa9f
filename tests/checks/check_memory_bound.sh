#!/usr/bin/env bash
# check_memory_bound.sh -- what --check-memory N promises (doc/limits.md): the whole-zone
# checks hold at most N and a fixed 512 KiB (the 32 KiB each sorted stream takes at the least,
# the checker's own state), whatever the zone holds; past what fits, the same report comes from
# sorted runs. Peak RSS less that of --fragment (no checks) is what the checks held.
#  - a 200,000-record zone at N = 64 KiB to 16 MiB;
#  - 300,000 CNAMEs, most of them links of chains and loops: the loops found by walking them in
#    memory (1G), by sorting them (64K, 16M) and by a walker here must be the same, each told
#    at its first CNAME in the file with its names from there;
#  - the wildcard names, held in memory within 3/16 of N: one past that is an error, exit 2;
#  - a signed zone of a million records verified (--dnssec) within N, past the fixed state of
#    libcrypto (measured as a small signed zone verified against not); its records held in
#    $TMPDIR count in --tmp-limit.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp
mkdir "$tmp/spill"

# peak RSS, in KiB, of zonepuny --check ARGS (stderr to $tmp/err)
rss() {
  TMPDIR=$tmp/spill /usr/bin/time -f '%M' -o "$tmp/rss" "$ZONEPUNY" --check "$@" 2> "$tmp/err"
  tail -1 "$tmp/rss"
}

"$PYTHON" tools/genzone.py --records 200000 --seed 7 "$tmp/z.zone"
base=$(rss --fragment "$tmp/z.zone")
for n in 64 1024 4096 16384; do
  used=$(($(rss --check-memory "${n}K" "$tmp/z.zone") - base))
  within "200,000 records at --check-memory ${n}K" "$used" "$n"
  tail -1 "$tmp/err" | grep -qx 'zonepuny: 1 file, 200000 records, 0 errors, 2 warnings' && ok ||
    bad "200,000 records at ${n}K: $(tail -1 "$tmp/err")"
done
[ -z "$(ls -A "$tmp/spill")" ] && ok || bad "files left in TMPDIR: $(ls -A "$tmp/spill")"

# CNAMEs in loops of 1 to 200 names, tails into them, chains that end, in a shuffled file
"$PYTHON" - "$tmp/loops.zone" "$tmp/want" <<'PY'
import random, sys
rnd = random.Random(11)
succ, i, n = {}, 0, 300000
while i < n:
    kind, grp = rnd.random(), None
    if kind < 0.3:
        grp = ["n%d" % k for k in range(i, i + rnd.choice([1, 2, 3, 5, 17, 200]))]
        succ.update(zip(grp, grp[1:] + grp[:1]))
    elif kind < 0.6 and succ:
        grp = ["n%d" % k for k in range(i, i + rnd.choice([1, 2, 10, 100]))]
        succ.update(zip(grp, grp[1:] + [rnd.choice(list(succ))]))
    else:
        grp = ["n%d" % k for k in range(i, i + rnd.choice([1, 3, 30, 1000]))]
        succ.update(zip(grp, grp[1:] + ["end%d" % i]))
    i += len(grp)
recs = list(succ.items())
rnd.shuffle(recs)
head = ["$ORIGIN example.", "$TTL 3600", "@ SOA ns hm 1 7200 3600 1209600 3600", "@ NS ns",
        "ns A 192.0.2.1"]
line = {a: len(head) + 1 + k for k, (a, b) in enumerate(recs)}
with open(sys.argv[1], "w") as f:
    f.write("\n".join(head + ["%s CNAME %s" % r for r in recs]) + "\n")
    f.write("".join("%s A 192.0.2.2\n" % b for a, b in recs if b.startswith("end")))
# the walker: from each name, in file order, until a name seen; a loop is told at its first
# name in the file, its names from there, cut as a message of 1200 octets cuts them
seen, out = set(), []
for a, _ in recs:
    path, at = [], {}
    while a in succ and a not in seen and a not in at:
        at[a] = len(path)
        path.append(a)
        a = succ[a]
    if a in at:
        loop = path[at[a]:]
        k = loop.index(min(loop, key=line.get))
        loop = loop[k:] + loop[:k]
        text = ""
        for b in loop:
            if len(text) >= 1200:
                break
            text += b + ".example. -> "
        if len(text) < 1200:
            text += loop[0] + ".example."
        out.append((line[loop[0]], text[:1199]))
    seen.update(path)
with open(sys.argv[2], "w") as f:
    f.write("".join("%d %s\n" % o for o in sorted(out)))
PY
[ -s "$tmp/want" ] && ok || bad "the walker found no loop"
base=$(rss --fragment "$tmp/loops.zone")
"$ZONEPUNY" --check --check-memory 1G "$tmp/loops.zone" 2> "$tmp/err.memory"
sed -nE 's/^[^:]*:([0-9]+):[0-9]+: warning: CNAME chain loops: (.*): no answer comes back \[-Wcname-loop\]$/\1 \2/p' \
  "$tmp/err.memory" > "$tmp/got"
cmp -s "$tmp/got" "$tmp/want" && ok || { bad "loops in memory: not the walker's"; diff "$tmp/want" "$tmp/got" | head -5; }
for n in 64K 16M; do
  used=$(($(rss --check-memory "$n" "$tmp/loops.zone") - base))
  cmp -s "$tmp/err" "$tmp/err.memory" && ok ||
    { bad "loops sorted at --check-memory $n: another report"; diff "$tmp/err.memory" "$tmp/err" | head -5; }
  [ "$n" = 64K ] && within "300,000 CNAMEs at --check-memory 64K" "$used" 64
done
[ -z "$(ls -A "$tmp/spill")" ] && ok || bad "files left in TMPDIR: $(ls -A "$tmp/spill")"

# wildcard names: 3/16 of 64 KiB is 12 KiB, a table of 1,024 slots at most (grown from 512 it
# holds both, 24 octets a slot), half of them full: 512 names fit, 513 do not
{ printf '$ORIGIN example.\n$TTL 3600\n@ SOA ns hm 1 7200 3600 1209600 3600\n@ NS ns\n'
  printf 'ns A 192.0.2.1\n'; for i in $(seq 1 513); do echo "*.w$i A 192.0.2.1"; done; } > "$tmp/w513.zone"
head -n 517 "$tmp/w513.zone" > "$tmp/w512.zone"
"$ZONEPUNY" --check --check-memory 64K "$tmp/w512.zone" 2> "$tmp/err"
[ $? -eq 0 ] && ok || bad "512 wildcard names at 64K: $(head -1 "$tmp/err")"
"$ZONEPUNY" --check --check-memory 64K "$tmp/w513.zone" 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qxF "zonepuny: error: $tmp/w513.zone: the zone's wildcard names need more than their 3/16 of --check-memory: raise it" "$tmp/err" &&
  ok || bad "513 wildcard names at 64K: exit $rc, $(head -1 "$tmp/err")"
"$ZONEPUNY" --check --check-memory 128K "$tmp/w513.zone" 2> "$tmp/err"
[ $? -eq 0 ] && ok || bad "513 wildcard names at 128K: $(head -1 "$tmp/err")"
# a second record at a wildcard name already held takes no room: 512 names and one more record
# at the last still fit (it once counted as a name more)
{ cat "$tmp/w512.zone"; echo '*.w512 TXT "a second record"'; } > "$tmp/w512b.zone"
"$ZONEPUNY" --check --check-memory 64K "$tmp/w512b.zone" 2> "$tmp/err"
[ $? -eq 0 ] && ok || bad "512 wildcard names, one with two records, at 64K: $(head -1 "$tmp/err")"
# 10,000 names of 100 TXT records: a million records, but 20,000 signatures, quick to make and
# to verify
if command -v dnssec-keygen > /dev/null && command -v dnssec-signzone > /dev/null; then
  awk 'BEGIN { printf "$ORIGIN example.\n$TTL 3600\n@ SOA ns hm 1 7200 3600 1209600 3600\n"
               printf "@ NS ns\nns A 192.0.2.1\n"
               for (n = 1; n <= 10000; n++) for (r = 1; r <= 100; r++)
                 printf "n%d TXT \"record %d of name %d\"\n", n, r, n }' > "$tmp/m.zone"
  head -n 1005 "$tmp/m.zone" > "$tmp/small.zone"
  (cd "$tmp" && k=$(dnssec-keygen -q -a ECDSAP256SHA256 -f KSK example.) &&
   z=$(dnssec-keygen -q -a ECDSAP256SHA256 example.) &&
   cat m.zone "$k.key" "$z.key" > in.zone && cat small.zone "$k.key" "$z.key" > in-small.zone &&
   dnssec-signzone -q -j 2 -O full -o example. -f signed.zone in.zone &&
   dnssec-signzone -q -O full -o example. -f signed-small.zone in-small.zone) > /dev/null 2>&1
  crypto=$(($(rss --dnssec=on "$tmp/signed-small.zone") - $(rss --dnssec=off "$tmp/signed-small.zone")))
  base=$(rss --fragment "$tmp/signed.zone")
  for n in 256 1024 16384; do
    used=$(($(rss --dnssec=on --check-memory "${n}K" "$tmp/signed.zone") - base - crypto))
    within "a signed zone of 1,030,014 records verified at --check-memory ${n}K" "$used" "$n"
    tail -1 "$tmp/err" | grep -qx 'zonepuny: 1 file, 1030014 records, 0 errors, 0 warnings' &&
      ok || bad "the signed zone at ${n}K: $(tail -1 "$tmp/err")"
  done
  # the records DNSSEC holds in $TMPDIR: a limit the tuples alone stay under is reached
  rss --dnssec=off --check-memory 1M --tmp-limit 64M "$tmp/signed.zone" > /dev/null
  tail -1 "$tmp/err" | grep -q ' 0 errors' && ok || bad "--tmp-limit 64M, --dnssec=off: $(tail -1 "$tmp/err")"
  rss --dnssec=on --check-memory 1M --tmp-limit 64M "$tmp/signed.zone" > /dev/null
  grep -q "^zonepuny: error: temporary files in .* reached 67108864 bytes" "$tmp/err" && ok ||
    bad "--tmp-limit 64M reached by the DNSSEC hold: $(head -1 "$tmp/err")"
  [ -z "$(ls -A "$tmp/spill")" ] && ok || bad "files left in TMPDIR: $(ls -A "$tmp/spill")"
else
  skip "a signed zone of a million records: no dnssec-signzone (make deps-test)"
fi
finish
