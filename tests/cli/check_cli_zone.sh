#!/usr/bin/env bash
# check_cli_zone.sh -- the zone half of the command line: -o safety, write errors, --check and
# its summary, stdin, -z, -t, --max-errors, --idna, -V/-h. Expected outputs are the golden
# files (tools/gen_golden.py) or written here by hand.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir/zones"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
make_tmp
expect_rc() { # expect_rc WANT DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" > "$tmp/out" 2> "$tmp/err"; local rc=$?
  if [ $rc -eq "$want" ]; then ok; else bad "$what: exit $rc, expected $want"; head -5 "$tmp/err"; fi
}
leftovers() { ls -A "$1" | grep -c '^\.zonepuny\.' ; }

# -o writes what stdout would have, atomically, and leaves no temporary file
mkdir "$tmp/d"
expect_rc 0 "-o good zone" -- "$ZONEPUNY" -o "$tmp/d/out.zone" idn.zone
cmp -s "$tmp/d/out.zone" idn.out && ok || bad "-o output differs from idn.out"
[ "$(leftovers "$tmp/d")" -eq 0 ] && ok || bad "-o left a temporary file"

# -o with errors in the zone: exit 1 and the existing file stays byte-identical
printf 'precious\n' > "$tmp/d/keep.zone"
cp "$tmp/d/keep.zone" "$tmp/keep.copy"
expect_rc 1 "-o bad zone" -- "$ZONEPUNY" -o "$tmp/d/keep.zone" bad-names.zone
cmp -s "$tmp/d/keep.zone" "$tmp/keep.copy" && ok || bad "-o changed the file of a zone with errors"
[ "$(leftovers "$tmp/d")" -eq 0 ] && ok || bad "-o left a temporary file after errors"
cmp -s "$tmp/err" bad-names.err && ok || bad "-o bad zone: stderr differs from bad-names.err"

# a zone with an error is written nowhere: a file on stdout is cut back to where it stood (">"
# leaves it empty, ">>" as it was), a pipe gets nothing; a zone with warnings only is written,
# through a pipe too (held until the zone is read, then passed on whole)
"$ZONEPUNY" bad-names.zone > "$tmp/stdout.zone" 2>/dev/null
[ $? -eq 1 ] && [ ! -s "$tmp/stdout.zone" ] && ok || bad "stdout file of a bad zone is not empty"
printf 'kept\n' > "$tmp/append.zone"
"$ZONEPUNY" bad-names.zone >> "$tmp/append.zone" 2>/dev/null
[ "$(cat "$tmp/append.zone")" = kept ] && ok || bad ">> of a bad zone changed the file"
"$ZONEPUNY" idn.zone >> "$tmp/append.zone" 2>/dev/null
{ echo kept; cat idn.out; } | cmp -s - "$tmp/append.zone" && ok || bad ">> of a good zone"
n=$("$ZONEPUNY" bad-names.zone 2>/dev/null | wc -c)
[ "$n" -eq 0 ] && ok || bad "a pipe got $n octets of a bad zone"
"$ZONEPUNY" idn.zone 2>/dev/null | cmp -s - idn.out && ok || bad "a pipe did not get the good zone"
"$ZONEPUNY" ../zones/checks/ttl-mismatch.zone 2>/dev/null | grep -c . | grep -qx 5 && ok ||
  bad "a zone with a warning was not written through a pipe"
leftover=$(TMPDIR=$tmp/d sh -c '"$0" idn.zone | head -1 >/dev/null; ls -A "$TMPDIR" | grep -c zonepuny' "$ZONEPUNY")
[ "$leftover" -eq 0 ] && ok || bad "the pipe's holding file was left in TMPDIR"
# a $TMPDIR that cannot be used (for a zone held back from a pipe, for the checks' runs past
# --check-memory) is said as such, not as the zone that cannot be read or the output written
# (not under valgrind, which needs $TMPDIR itself)
if [ -z "${VG_LOG-}" ]; then
  tmpdir_error="zonepuny: error: TMPDIR=$tmp/none: cannot make or use a temporary file there: No such file or directory"
  TMPDIR=$tmp/none "$ZONEPUNY" idn.zone 2> "$tmp/err" | cat > /dev/null
  rc=${PIPESTATUS[0]}
  [ $rc -eq 2 ] && grep -qxF "$tmpdir_error" "$tmp/err" && ok ||
    bad "bad TMPDIR, pipe: exit $rc: $(cat "$tmp/err")"
  { printf '$ORIGIN example.\n$TTL 60\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n'
    seq 1 5000 | sed 's/.*/host-& A 192.0.2.1/'; } > "$tmp/spill.zone"
  TMPDIR=$tmp/none "$ZONEPUNY" --check-memory 64K -o "$tmp/d/spill.out" "$tmp/spill.zone" \
    2> "$tmp/err"
  rc=$?
  [ $rc -eq 2 ] && grep -qxF "$tmpdir_error" "$tmp/err" && ok ||
    bad "bad TMPDIR, the checks' runs: exit $rc: $(cat "$tmp/err")"
  [ ! -e "$tmp/d/spill.out" ] && [ "$(leftovers "$tmp/d")" -eq 0 ] && ok ||
    bad "bad TMPDIR: -o written or a temporary file left"
fi

# --generic (on a piece of a zone: --fragment): a list of types written in RFC 3597 form (MX 10
# a.example. is 000a, then the name 01 'a' 07 'example' 00: 13 octets), none for text, a bad
# list is a usage error
printf '$ORIGIN example.\n$TTL 60\nm MX 10 a\np PX 1 a b\n' > "$tmp/g.zone"
px_text=$'\tPX\t1 a.example. b.example.'
expect_rc 0 "--generic MX" -- "$ZONEPUNY" --fragment --generic MX "$tmp/g.zone"
grep -qxF $'m.example.\t60\tIN\tTYPE15\t\\# 13 000a0161076578616d706c6500' "$tmp/out" && ok ||
  bad "--generic MX: $(head -1 "$tmp/out")"
grep -qF "$px_text" "$tmp/out" && ok || bad "--generic MX: PX not as text"
expect_rc 0 "--generic none" -- "$ZONEPUNY" --fragment --generic none "$tmp/g.zone"
grep -qF "$px_text" "$tmp/out" && ok || bad "--generic none: PX not as text"
expect_rc 0 "default" -- "$ZONEPUNY" --fragment "$tmp/g.zone"
grep -qF $'\tTYPE26\t\\# ' "$tmp/out" && ok || bad "default: PX not in RFC 3597 form"
expect_rc 2 "--generic FOO" -- "$ZONEPUNY" --generic MX,FOO "$tmp/g.zone"
grep -q "^zonepuny: error: --generic takes type mnemonics" "$tmp/err" && ok ||
  bad "--generic FOO: message"

# -o naming the input zone is refused, the zone untouched
cp idn.zone "$tmp/d/self.zone"
expect_rc 2 "-o equal to the input" -- "$ZONEPUNY" -o "$tmp/d/self.zone" "$tmp/d/self.zone"
cmp -s "$tmp/d/self.zone" idn.zone && ok || bad "-o equal to the input changed it"
grep -q 'is the zone being read' "$tmp/err" && ok || bad "-o equal to the input: no message"

# a signal while writing -o: the old file stays, the temporary file goes (every other signal:
# tests/cli/check_output_targets.sh). The zone comes through a FIFO that this shell holds open
# until the signal has come, so zonepuny cannot reach its end and rename first; the signal
# comes once the temporary file is there beside -o (with its handlers in place).
mkfifo "$tmp/fifo"
# temp_open PID: PID has a file in $tmp/d open (or PID has ended)
temp_open() {
  local f
  for f in /proc/"$1"/fd/*; do
    case $(readlink "$f" 2>/dev/null) in "$tmp/d/"*) return 0 ;; esac
  done
  ! running "$1"
}
# Not under make check-valgrind: the signal would come while valgrind is still starting. An
# asynchronous command starts with SIGINT ignored, which zonepuny leaves ignored: env gives it
# SIGINT's default action, as a job of an interactive shell has it.
sigs="INT TERM"
[ -n "${VG_LOG-}" ] && { sigs=; skip "signal tests: not run under valgrind"; }
for sig in $sigs; do
  printf 'old\n' > "$tmp/d/sig.zone"
  env --default-signal=INT "$ZONEPUNY" -o "$tmp/d/sig.zone" - < "$tmp/fifo" 2>/dev/null &
  pid=$!
  exec 7> "$tmp/fifo"
  cat idn.zone >&7
  wait_until temp_open "$pid"
  kill -"$sig" "$pid"
  wait "$pid" 2>/dev/null
  rc=$?
  exec 7>&-
  [ $rc -gt 128 ] && ok || bad "SIG$sig: exit status $rc"
  [ "$(cat "$tmp/d/sig.zone")" = old ] && ok || bad "SIG$sig changed the -o file"
  [ "$(leftovers "$tmp/d")" -eq 0 ] && ok || bad "SIG$sig left a temporary file"
done

# write errors: a full device, a directory that does not exist
expect_rc 2 "stdout on /dev/full" -- sh -c "\"$ZONEPUNY\" idn.zone > /dev/full"
grep -q '^zonepuny: error: writing' "$tmp/err" && ok || bad "/dev/full: no message"
expect_rc 2 "-o in a missing directory" -- "$ZONEPUNY" -o "$tmp/nope/out.zone" idn.zone

# standard input, as "-" and as no argument
expect_rc 0 "stdin -" -- sh -c "\"$ZONEPUNY\" - < idn.zone"
cmp -s "$tmp/out" idn.out && ok || bad "stdin '-' output differs"
expect_rc 0 "stdin" -- sh -c "\"$ZONEPUNY\" < idn.zone"
cmp -s "$tmp/out" idn.out && ok || bad "stdin output differs"

# --check: nothing on stdout, one summary line
expect_rc 0 "--check good zones" -- "$ZONEPUNY" --check idn.zone types.zone
[ ! -s "$tmp/out" ] && ok || bad "--check wrote to stdout"
records=$(($(wc -l < idn.out) + $(wc -l < types.out)))
# the warnings of the golden .err files given, as the summary line words them
warnings_of() {
  local n
  n=$(cat "$@" | grep -c ': warning: ')
  [ "$n" = 1 ] && echo "1 warning" || echo "$n warnings"
}
warnings=$(warnings_of idn.err types.err)
[ "$(tail -1 "$tmp/err")" = "zonepuny: 2 files, $records records, 0 errors, $warnings" ] &&
  ok || bad "--check summary: $(tail -1 "$tmp/err")"
expect_rc 1 "--check with a bad zone" -- "$ZONEPUNY" --check idn.zone bad-names.zone
errors=$(grep -c ': error: ' bad-names.err)
warnings=$(warnings_of idn.err bad-names.err)
tail -1 "$tmp/err" | grep -q "^zonepuny: 2 files, [0-9]* records, $errors errors, $warnings$" && ok ||
  bad "--check summary with errors: $(tail -1 "$tmp/err")"
expect_rc 2 "--check with a missing file" -- "$ZONEPUNY" --check idn.zone "$tmp/missing.zone"

# --max-errors stops early
expect_rc 1 "--max-errors 2" -- "$ZONEPUNY" --max-errors 2 bad-names.zone
n=$(grep -c '^bad-names.zone:[0-9]*:[0-9]*: error: ' "$tmp/err")
[ "$n" -eq 2 ] && ok || bad "--max-errors 2 printed $n errors"
grep -q '^zonepuny: error: too many errors (2), stopping$' "$tmp/err" && ok || bad "--max-errors: no stop line"

# -z and -t: a zone without $ORIGIN and $TTL
printf 'www IN A 192.0.2.1\nmünchen IN CNAME www\n' > "$tmp/bare.zone"
expect_rc 0 "-z -t" -- "$ZONEPUNY" --fragment -z example. -t 1h "$tmp/bare.zone"
printf 'www.example.\t3600\tIN\tA\t192.0.2.1\nxn--mnchen-3ya.example.\t3600\tIN\tCNAME\twww.example.\n' > "$tmp/bare.want"
cmp -s "$tmp/out" "$tmp/bare.want" && ok || { bad "-z -t output"; diff "$tmp/bare.want" "$tmp/out"; }
expect_rc 2 "-t garbage" -- "$ZONEPUNY" -z example. -t 1x "$tmp/bare.zone"
expect_rc 2 "-t overflow" -- "$ZONEPUNY" -z example. -t 2147483648 "$tmp/bare.zone"

# warnings: a zone without $TTL takes the SOA MINIMUM with a warning; -q hides it, -W error
# makes it an error (exit 1, and -o is not written)
printf '$ORIGIN example.\n@ IN SOA ns1 h 1 2 3 4 300\n  IN NS ns1\nns1 IN A 192.0.2.1\n' > "$tmp/nottl.zone"
expect_rc 0 "warning" -- "$ZONEPUNY" "$tmp/nottl.zone"
grep -q ': warning: no \$TTL before the SOA' "$tmp/err" && ok || bad "no warning for a zone without \$TTL"
[ "$(wc -l < "$tmp/out")" -eq 3 ] && ok || bad "warning: records missing"
expect_rc 0 "-q" -- "$ZONEPUNY" -q "$tmp/nottl.zone"
[ ! -s "$tmp/err" ] && ok || bad "-q still printed: $(cat "$tmp/err")"
expect_rc 1 "-W error" -- "$ZONEPUNY" -W error -o "$tmp/d/w.zone" "$tmp/nottl.zone"
grep -q ': error: no \$TTL before the SOA' "$tmp/err" && ok || bad "-W error: warning not shown as error"
[ ! -e "$tmp/d/w.zone" ] && ok || bad "-W error: -o written"
expect_rc 1 "--check -W error" -- "$ZONEPUNY" --check -W error "$tmp/nottl.zone"
tail -1 "$tmp/err" | grep -q '^zonepuny: 1 file, 3 records, 1 error, 0 warnings$' && ok || bad "--check -W error summary: $(tail -1 "$tmp/err")"
expect_rc 0 "--check warning" -- "$ZONEPUNY" --check "$tmp/nottl.zone"
tail -1 "$tmp/err" | grep -q '^zonepuny: 1 file, 3 records, 0 errors, 1 warning$' && ok || bad "--check warning summary: $(tail -1 "$tmp/err")"

# -W idna-divergence (zones/checks/idna*-divergence.err pin its messages): off, it says
# nothing, not even after an error; as an error, the zone is not written; --fragment keeps it
printf '$ORIGIN example.\n$TTL 1\nstraße IN A 192.0.2.1\nẞ IN A 192.0.2.2\n' > "$tmp/div.zone"
expect_rc 1 "-W no-idna-divergence" -- "$ZONEPUNY" --fragment -W no-idna-divergence "$tmp/div.zone"
grep -q 'divergence\|IDNA2008' "$tmp/err" && bad "-W no-idna-divergence: $(head -1 "$tmp/err")" || ok
printf '$ORIGIN example.\n$TTL 1\nstraße IN A 192.0.2.1\n' > "$tmp/div.zone"
expect_rc 0 "idna-divergence in a fragment" -- "$ZONEPUNY" --fragment "$tmp/div.zone"
grep -q ':3:1: warning: label "straße" is "strasse" under IDNA2003 and "xn--strae-oqa" under IDNA2008: .* \[-Widna-divergence\]$' "$tmp/err" &&
  ok || bad "--fragment: no divergence warning: $(head -1 "$tmp/err")"
expect_rc 1 "-W error=idna-divergence" -- "$ZONEPUNY" --fragment -W error=idna-divergence \
  -o "$tmp/d/div.zone" "$tmp/div.zone"
grep -q ':3:1: error: label "straße" is "strasse"' "$tmp/err" && ok ||
  bad "-W error=idna-divergence: $(head -1 "$tmp/err")"
[ ! -e "$tmp/d/div.zone" ] && ok || bad "-W error=idna-divergence: -o written"
# a -z label is told once, as -z's (the checks read -z too, and must not take the telling)
printf '$TTL 1\n@ SOA a b 1 2 3 4 5\n@ NS a\na A 192.0.2.1\nx.straße. A 192.0.2.2\n' > "$tmp/div.zone"
expect_rc 0 "idna-divergence in -z" -- "$ZONEPUNY" -z straße. "$tmp/div.zone"
[ "$(grep -c 'idna-divergence' "$tmp/err")" = 1 ] &&
  grep -q '^zonepuny: warning: -z straße\.: label "straße" is "strasse" under IDNA2003' "$tmp/err" &&
  ok || bad "-z divergence: $(cat "$tmp/err")"

# --idna: 2003 the default; 2008 converts labels where the two differ otherwise (the ACE forms
# are IdnaTestV2 15.0.0's: faß.de, βόλος.com) and refuses a symbol IDNA2008 disallows
expect_rc 0 "--idna=2003" -- "$ZONEPUNY" --idna=2003 idn.zone
cat > "$tmp/i8.zone" <<'Z'
$ORIGIN example.
$TTL 3600
@ SOA ns1 hostmaster 1 7200 3600 1209600 3600
@ NS ns1
ns1 A 192.0.2.1
faß A 192.0.2.2
βόλος CNAME faß
Z
expect_rc 0 "--idna=2008 zone" -- "$ZONEPUNY" --idna=2008 "$tmp/i8.zone"
grep -q '^xn--fa-hia.example.	3600	IN	A	192.0.2.2$' "$tmp/out" &&
  grep -q '^xn--nxasmm1c.example.	3600	IN	CNAME	xn--fa-hia.example.$' "$tmp/out" && ok ||
  bad "--idna=2008 zone: $(cat "$tmp/out")"
# --unicode shows names through the standard in force: xn--fa-hia is faß under IDNA2008, and
# no name IDNA2003 would write (it refuses the label)
expect_rc 0 "--idna=2008 --unicode" -- "$ZONEPUNY" --idna=2008 --unicode "$tmp/i8.zone"
grep -q '^faß.example.	3600	IN	A	192.0.2.2$' "$tmp/out" &&
  grep -q '^βόλος.example.	3600	IN	CNAME	faß.example.$' "$tmp/out" && ok ||
  bad "--idna=2008 --unicode: $(cat "$tmp/out")"
expect_rc 0 "--idna=2003 zone" -- "$ZONEPUNY" "$tmp/i8.zone"
grep -q '^fass.example.	3600	IN	A	192.0.2.2$' "$tmp/out" &&
  grep -q '^xn--nxasmq6b.example.	3600	IN	CNAME	fass.example.$' "$tmp/out" && ok ||
  bad "--idna=2003 zone: $(cat "$tmp/out")"
# RFC 5893 across a name's labels: a name with a right-to-left label is a Bidi domain name, and
# then "1ü" breaks rule 1 (its first character is a European digit); a plain ASCII label ("x1")
# is the zone's own, and a name without right-to-left labels ("1ü.x") has no Bidi rule
printf 'אב.x1 A 192.0.2.5\n1ü.x A 192.0.2.6\n' >> "$tmp/i8.zone"
expect_rc 0 "--idna=2008 bidi names" -- "$ZONEPUNY" --idna=2008 "$tmp/i8.zone"
printf 'אב.1ü A 192.0.2.7\n' >> "$tmp/i8.zone"
expect_rc 1 "--idna=2008 bidi rule" -- "$ZONEPUNY" --idna=2008 "$tmp/i8.zone"
grep -q 'error: name "אב.1ü": label "1ü" (xn--1-eha) breaks the Bidi rule' "$tmp/err" && ok ||
  bad "--idna=2008 bidi rule: $(head -1 "$tmp/err")"
printf '☃ A 192.0.2.3\n' >> "$tmp/i8.zone"
expect_rc 1 "--idna=2008 snowman" -- "$ZONEPUNY" --idna=2008 "$tmp/i8.zone"
grep -q 'label "☃" contains U+2603, a symbol UTS #46 keeps but IDNA2008 disallows' "$tmp/err" &&
  ok || bad "--idna=2008 snowman: $(head -1 "$tmp/err")"

# -o goes with conversion only; a directory named as a zone cannot be read (exit 2, not 1)
expect_rc 2 "--check -o" -- "$ZONEPUNY" --check -o "$tmp/d/c.zone" idn.zone
grep -q '^zonepuny: error: -o is where a converted zone goes; --check writes none$' "$tmp/err" &&
  ok || bad "--check -o: message: $(cat "$tmp/err")"
[ ! -e "$tmp/d/c.zone" ] && ok || bad "--check -o wrote a file"
expect_rc 2 "--to-ascii -o" -- "$ZONEPUNY" --to-ascii -o "$tmp/d/c.zone" münchen
expect_rc 2 "a directory" -- "$ZONEPUNY" "$tmp/d"
grep -q "^zonepuny: error: cannot read $tmp/d: Is a directory$" "$tmp/err" && ok ||
  bad "a directory: message: $(cat "$tmp/err")"
# --check walks a directory for zone files; one with none is a gate that checked nothing
mkdir "$tmp/nozones" && touch "$tmp/nozones/notes.txt"
expect_rc 2 "--check a directory with no zone file" -- "$ZONEPUNY" --check idn.zone "$tmp/nozones"
grep -q "^zonepuny: error: $tmp/nozones: no zone file below it" "$tmp/err" && ok ||
  bad "--check a directory with no zone file: message: $(cat "$tmp/err")"

# -V and -h
expect_rc 0 "-V" -- "$ZONEPUNY" -V
grep -q '^zonepuny [0-9]' "$tmp/out" && ok || bad "-V output"
expect_rc 0 "-h" -- "$ZONEPUNY" -h
grep -q -- '--check' "$tmp/out" && ok || bad "-h output"

finish
