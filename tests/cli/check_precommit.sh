#!/usr/bin/env bash
# check_precommit.sh -- the zonepuny-check hook through the real pre-commit framework (Debian
# package pre-commit), offline, in temporary zone repositories:
#  1-5  it builds zonepuny on first use; it checks *.zone, *.db and db.* text files (not an
#       SQLite *.db); a zone without $ORIGIN takes its origin from its name; an $INCLUDE outside
#       the repository is refused without a line of that file quoted; a changed fragment has the
#       zone that includes it checked; `pre-commit run --all-files` and a real `git commit` are
#       refused with zonepuny's message shown;
#  6    `args` reach zonepuny untouched: -W error (a warning fails the commit), --check-names
#       warn, --max-errors 1, --no-origin-from-name;
#  7    the origin from a UTF-8 file name (bäckerei.example.zone, db.münchen.example), and from
#       the name of a zone whose $ORIGIN comes after its first records;
#  8    included files named by their path in the repository (../, absolute, nested $INCLUDE);
#  9    fragments checked through every zone that includes them, up a chain, in one process;
#  10   the hook's table of zonepuny's options that take a value is main.c's;
#  11   the build under a lock: 10 rounds of 4 hooks started at once on a stale build (the
#       sources of src/cli touched): each round builds once and every hook passes;
#  12   3 runs from a fresh PRE_COMMIT_HOME with require_serial off, so that pre-commit runs
#       its batches of files at once: one build, every batch checked, no failure;
#  13   a failed build shows the build's own error; `make deps` is advised only when a tool is
#       missing (bison off PATH), not for a compiler error;
#  14   the forms of doc/pre-commit.md: `rev:` a full commit hash (every run above), and `repo: local`.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
for c in pre-commit git make; do
  command -v $c >/dev/null || { skip "$c not installed (make deps-test)"; finish; }
done
: "${PYTHON:=/usr/bin/python3}"
make_tmp
export PRE_COMMIT_HOME=$tmp/cache HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.email t@example.org && git config --global user.name t
git config --global init.defaultBranch main

# The hook repository as it stands (uncommitted changes included): its tracked files, committed.
hook=$tmp/hookrepo
mkdir "$hook"
(cd "$repo_dir" && git ls-files -z --cached --others --exclude-standard |
  xargs -0 cp --parents -t "$hook" 2>/dev/null)
(cd "$hook" && git init -q && git add -A && git commit -qm hook) || { bad "hook repository"; finish; }
rev=$(git -C "$hook" rev-parse HEAD)
hook_config() {   # hook_config [LINE...]: the hook from $hook at $rev, with these lines added
  printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: zonepuny-check\n' "$hook" "$rev"
  printf "        files: '(^|/)(db\\\\.[^/]+|[^/]+\\\\.(zone|db|inc))\$'\n"
  local l
  for l in "$@"; do printf '        %s\n' "$l"; done
}
soa='$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n'

z=$tmp/zones
mkdir "$z" && cd "$z" && git init -q
hook_config > .pre-commit-config.yaml
printf '$ORIGIN example.\n'"$soa"'$INCLUDE frag.inc\n' > good.zone
printf 'münchen A 192.0.2.2\n' > frag.inc
# no $ORIGIN: the origin comes from the name
printf "$soa"'bücher A 192.0.2.3\n' > db.example.net
# an SQLite file named *.db: binary, not for the hook
printf 'SQLite format 3\0\1\2\3\0binary' > cache.db
git add -A && git commit -qm start --no-verify
pre-commit install > /dev/null || { bad "pre-commit install"; finish; }

# 1. everything good: run --all-files passes (and builds zonepuny once)
pre-commit run --all-files > "$tmp/out" 2>&1 && ok || { bad "good repository refused"; cat "$tmp/out"; }
grep -q 'zonepuny --check.*Passed' "$tmp/out" && ok || bad "hook not run: $(cat "$tmp/out")"
clone=$(ls -d "$PRE_COMMIT_HOME"/repo*/tools/pre-commit-hook 2>/dev/null | head -1)
clone=${clone%/tools/pre-commit-hook}
[ -x "$clone/build/zonepuny" ] && ok || { bad "no zonepuny built in pre-commit's clone"; finish; }

# 2. a bad label in a new zone: run --all-files fails with zonepuny's message; git commit too
printf '$ORIGIN example.org.\n'"$soa"'xn--www- A 192.0.2.9\n' > bad.zone
git add bad.zone
pre-commit run --all-files > "$tmp/out" 2>&1 && bad "run --all-files passed a bad zone" || ok
grep -q '^bad.zone:6:1: error: label "xn--www-" is an ACE label' "$tmp/out" && ok ||
  bad "run: message not shown: $(cat "$tmp/out")"
git commit -m bad > "$tmp/out" 2>&1 && bad "git commit of a bad zone went through" || ok
grep -q '^bad.zone:6:1: error:' "$tmp/out" && ok || bad "commit: message not shown: $(cat "$tmp/out")"
[ "$(git rev-list --count HEAD)" -eq 1 ] && ok || bad "a commit was made"
git rm -q --cached bad.zone && rm bad.zone

# 3. a fragment changed alone: the zone that includes it is checked, and the commit refused.
# An error in an included file's first record shows its location only (it might be no zone at
# all: doc/safety.md); one after a good record shows in full.
printf 'xn--www- A 192.0.2.2\n' > frag.inc
git add frag.inc
git commit -m frag > "$tmp/out" 2>&1 && bad "a bad fragment was committed" || ok
grep -q "^frag.inc:1:1: error: the file's first record or directive is an error" "$tmp/out" && ok ||
  bad "fragment: message: $(cat "$tmp/out")"
printf 'ok A 192.0.2.3\nxn--www- A 192.0.2.2\n' > frag.inc
git add frag.inc
git commit -m frag > "$tmp/out" 2>&1 && bad "a bad fragment was committed" || ok
grep -q '^frag.inc:2:1: error: label "xn--www-"' "$tmp/out" && ok ||
  bad "fragment: message: $(cat "$tmp/out")"
git reset -q; git checkout -q -- frag.inc

# 4. origin from the name: db.example.net's records are under example.net.; a record added and
# the serial left at 1 is refused against HEAD (the hook's --since HEAD), a raised one commits
printf 'www A 192.0.2.4\n' >> db.example.net
git add db.example.net
git commit -qm www > "$tmp/out" 2>&1 && bad "a changed zone with its serial kept was committed" || ok
grep -q '^db.example.net:2:12: error: records changed since HEAD (0 removed, 1 added, 0 with another TTL) and the SOA serial is still 1: .* \[-Wserial-since\]$' "$tmp/out" &&
  ok || bad "serial kept: message: $(cat "$tmp/out")"
sed -i 's/^@ SOA ns h 1 /@ SOA ns h 2 /' db.example.net
git add db.example.net
git commit -qm www > "$tmp/out" 2>&1 && ok || bad "db.example.net refused: $(cat "$tmp/out")"

# 5. $INCLUDE outside the repository: refused, and no line of that file quoted
printf 'secret-key-material-line\n' > "$tmp/secret.key"
printf '$ORIGIN example.com.\n'"$soa"'$INCLUDE %s\n' "$tmp/secret.key" > leak.zone
git add leak.zone
git commit -m leak > "$tmp/out" 2>&1 && bad "an \$INCLUDE outside the repository was committed" || ok
grep -q 'leak.zone:6:.*error' "$tmp/out" && ok || bad "leak: no error: $(cat "$tmp/out")"
grep -q 'secret-key-material' "$tmp/out" && bad "leak: the outside file was quoted" || ok
git rm -q --cached leak.zone && rm leak.zone

# The cases below run the hook on given files (`pre-commit run -c CONFIG --files`), each config
# the hook with other `args`.
run_hook() {   # run_hook CONFIG FILE...: exit status of the run; output in $tmp/out
  pre-commit run -c "$1" --verbose --files "${@:2}" > "$tmp/out" 2>&1
}
count() { grep -c -E -e "$1" "$tmp/out"; }

# 6. args: -W error makes a warning (ttl-mismatch) fail the commit, and the word "error" is
# -W's value, not a file; --check-names warn lets a check-names error through as a warning;
# --max-errors 1 stops at the first error; --no-origin-from-name is taken by the hook.
printf '$ORIGIN warn.example.\n'"$soa"'www 300 A 192.0.2.7\nwww 600 A 192.0.2.8\n' > warn.zone
printf '$ORIGIN names.example.\n'"$soa"'mail_relay A 192.0.2.7\n@ MX 10 mail_relay\n' > names.zone
printf '$ORIGIN many.example.\n'"$soa"'xn--a- A 192.0.2.1\nxn--b- A 192.0.2.1\n' > many.zone
git add warn.zone names.zone many.zone
hook_config > default.yaml
hook_config 'args: [-W, error]' > werror.yaml
hook_config 'args: [--check-names, warn]' > names.yaml
hook_config 'args: [--max-errors, "1"]' > maxerr.yaml
hook_config 'args: [--no-origin-from-name, -q]' > noname.yaml
run_hook default.yaml warn.zone && ok || bad "a warning failed the default hook: $(cat "$tmp/out")"
grep -q '^warn.zone:7:1: warning: .*\[-Wttl-mismatch\]' "$tmp/out" && ok ||
  bad "-W: no warning by default: $(cat "$tmp/out")"
run_hook werror.yaml warn.zone && bad "args: [-W, error] passed a warning" || ok
grep -q '^warn.zone:7:1: error: .*\[-Wttl-mismatch\]' "$tmp/out" && ok ||
  bad "-W error: the warning is not an error: $(cat "$tmp/out")"
grep -q -e 'cannot read' -e 'unknown warning option' "$tmp/out" &&
  bad "-W error: an argument taken apart: $(cat "$tmp/out")" || ok
[ "$(count '^zonepuny: 1 file,')" = 1 ] && ok || bad "-W error: not one zone checked: $(cat "$tmp/out")"
run_hook default.yaml names.zone && bad "check-names error passed by default" || ok
run_hook names.yaml names.zone && ok || bad "--check-names warn: refused: $(cat "$tmp/out")"
[ "$(count '^names.zone:[0-9]+:[0-9]+: warning: .*\[-Wcheck-names\]')" = 2 ] && ok ||
  bad "--check-names warn: not two warnings: $(cat "$tmp/out")"
run_hook default.yaml many.zone
[ "$(count '^many.zone:[0-9]+:1: error:')" = 2 ] && ok || bad "many.zone: not two errors: $(cat "$tmp/out")"
run_hook maxerr.yaml many.zone && bad "--max-errors 1: passed" || ok
[ "$(count '^many.zone:[0-9]+:1: error:')" = 1 ] && grep -q 'too many errors (1)' "$tmp/out" && ok ||
  bad "--max-errors 1: not stopped at one error: $(cat "$tmp/out")"
run_hook noname.yaml db.example.net && bad "--no-origin-from-name: db.example.net passed" || ok
grep -q '^db.example.net:2:1: error: "@" needs an origin' "$tmp/out" && ok ||
  bad "--no-origin-from-name: not taken by the hook: $(cat "$tmp/out")"
git rm -q --cached warn.zone names.zone many.zone && rm warn.zone names.zone many.zone

# 7. the origin from a UTF-8 file name: each zone has a record out of the zone, and the warning
# names the zone as the origin gives it, in ACE form (Python's encodings.idna: the expected
# names). late.example.zone sets $ORIGIN only after its first records: those take the name's.
ace() { "$PYTHON" -c 'import sys; print(sys.argv[1].encode("idna").decode())' "$1"; }
b=$(ace bäckerei.example) m=$(ace münchen.example)
printf "$soa"'www A 192.0.2.5\nmail.other.example. A 192.0.2.6\n' > bäckerei.example.zone
printf "$soa"'www A 192.0.2.5\nmail.other.example. A 192.0.2.6\n' > db.münchen.example
printf "$soa"'$ORIGIN sub.late.example.\nwww A 192.0.2.5\n' > late.example.zone
git add bäckerei.example.zone db.münchen.example late.example.zone
run_hook default.yaml bäckerei.example.zone db.münchen.example late.example.zone && ok ||
  bad "UTF-8 file names: refused: $(cat "$tmp/out")"
grep -q "^bäckerei.example.zone:6:1: warning: mail.other.example. is outside the zone $b\\." "$tmp/out" &&
  ok || bad "bäckerei.example.zone: origin not $b.: $(cat "$tmp/out")"
grep -q "^db.münchen.example:6:1: warning: mail.other.example. is outside the zone $m\\." "$tmp/out" &&
  ok || bad "db.münchen.example: origin not $m.: $(cat "$tmp/out")"
grep -q 'needs an origin' "$tmp/out" && bad "a zone was checked without its origin" || ok
git rm -q --cached bäckerei.example.zone db.münchen.example late.example.zone
rm bäckerei.example.zone db.münchen.example late.example.zone

# 8. included files by their path in the repository: sub/a.zone includes ../inc/f.inc and
# inc/g.inc by its absolute path; inc/f.inc includes h.inc (inc/h.inc). An error in each.
mkdir sub inc
printf '$ORIGIN paths.example.\n'"$soa"'$INCLUDE ../inc/f.inc\n$INCLUDE %s/inc/g.inc\n' "$z" > sub/a.zone
printf 'f1 A 192.0.2.1\nxn--f- A 192.0.2.1\n$INCLUDE h.inc\n' > inc/f.inc
printf 'g1 A 192.0.2.1\nxn--g- A 192.0.2.1\n' > inc/g.inc
printf 'h1 A 192.0.2.1\nxn--h- A 192.0.2.1\n' > inc/h.inc
git add sub inc
run_hook default.yaml sub/a.zone && bad "sub/a.zone: errors passed" || ok
for want in '^inc/f.inc:2:1: error:' '^inc/g.inc:2:1: error:' '^inc/h.inc:2:1: error:' \
  '^  included from inc/f.inc:3$' '^  included from sub/a.zone:6$' '^  included from sub/a.zone:7$'; do
  grep -q -e "$want" "$tmp/out" && ok || bad "paths: no line $want: $(cat "$tmp/out")"
done
grep -q -e '^[^ ]*/\.\./' -e "^$z/" -e "included from $z/" -e 'included from [^ ]*/\.\./' "$tmp/out" &&
  bad "paths: a path not the repository's: $(cat "$tmp/out")" || ok

# 9. fragments: common.inc is included by one.zone and two.zone, deep.inc by mid.inc by
# three.zone. Given alone, each is checked through its zones (all of them, in one zonepuny:
# "2 files"); a zone without $ORIGIN that includes one lends it its name's origin.
for n in one two three; do printf '$ORIGIN %s.example.\n'"$soa" $n > $n.zone; done
printf '$INCLUDE common.inc\n' >> one.zone
printf '$INCLUDE common.inc\n' >> two.zone
printf '$INCLUDE mid.inc\n' >> three.zone
printf 'm A 192.0.2.1\n$INCLUDE deep.inc\n' > mid.inc
printf 'c A 192.0.2.1\nxn--c- A 192.0.2.1\n' > common.inc
printf 'd A 192.0.2.1\nxn--d- A 192.0.2.1\n' > deep.inc
printf "$soa"'$INCLUDE owner.inc\n' > db.owner.example
printf 'www A 192.0.2.1\n' > owner.inc
git add one.zone two.zone three.zone mid.inc common.inc deep.inc db.owner.example owner.inc
run_hook default.yaml common.inc && bad "common.inc: errors passed" || ok
# read through both zones, its error told once (under the first) and the other zone noted
[ "$(count '^common.inc:2:1: error:')" = 1 ] && ok || bad "common.inc: not told once: $(cat "$tmp/out")"
grep -q '^  included from one.zone:6$' "$tmp/out" &&
  grep -q '^common.inc:2:1: note: .* one.zone is in 1 more zone that includes this file, told once: two.zone$' "$tmp/out" &&
  ok || bad "common.inc: not through both zones: $(cat "$tmp/out")"
[ "$(count '^zonepuny: ')" = 1 ] && grep -q '^zonepuny: 2 files,' "$tmp/out" && ok ||
  bad "common.inc: not one zonepuny for both zones: $(cat "$tmp/out")"
run_hook default.yaml deep.inc && bad "deep.inc: errors passed" || ok
grep -q '^deep.inc:2:1: error:' "$tmp/out" && grep -q '^  included from mid.inc:2$' "$tmp/out" &&
  grep -q '^  included from three.zone:6$' "$tmp/out" && ok ||
  bad "deep.inc: not through mid.inc and three.zone: $(cat "$tmp/out")"
run_hook default.yaml common.inc one.zone deep.inc && bad "three files: errors passed" || ok
grep -q '^zonepuny: 3 files,' "$tmp/out" && ok || bad "a zone checked twice: $(cat "$tmp/out")"
run_hook default.yaml owner.inc && ok || bad "owner.inc: no origin from db.owner.example: $(cat "$tmp/out")"
grep -q '^zonepuny: 1 file,' "$tmp/out" && ok || bad "owner.inc: db.owner.example not checked: $(cat "$tmp/out")"
git reset -q && git clean -qfd -e '*.yaml'

# 10. the hook's table of options that take a value against src/cli/main.c's
main_c=$hook/src/cli/main.c
eval "$(sed -n '/^value_short=/,/help "$/p' "$hook/tools/pre-commit-hook")"
want_short=$(grep -o 'getopt_long(argc, argv, "[^"]*"' "$main_c" | sed 's/.*"\(.*\)"/\1/' |
  grep -o '[A-Za-z]:' | tr -d ':\n')
want_value=$(sed -n 's/^ *{"\([a-z0-9-]*\)", required_argument.*/\1/p' "$main_c" | sort | xargs)
want_other=$(sed -n 's/^ *{"\([a-z0-9-]*\)", no_argument.*/\1/p' "$main_c" | sort | xargs)
[ -n "$want_short" ] && [ "$(echo "$value_short" | fold -w1 | sort | tr -d '\n')" = \
  "$(echo "$want_short" | fold -w1 | sort | tr -d '\n')" ] && ok ||
  bad "short options with a value: hook '${value_short-}', main.c '$want_short'"
[ -n "$want_value" ] && [ "$(echo $value_long | tr ' ' '\n' | sort | xargs)" = "$want_value" ] && ok ||
  bad "long options with a value: hook '${value_long-}', main.c '$want_value'"
[ -n "$want_other" ] && [ "$(echo $other_long | tr ' ' '\n' | sort | xargs)" = "$want_other" ] && ok ||
  bad "long options without: hook '${other_long-}', main.c '$want_other'"

# 11. the build under a lock, in pre-commit's clone: 4 hooks at once on a stale build (src/cli
# touched, so make has objects to compile, a library and a binary to write), 10 rounds. Each
# round: one build, every hook exits 0, the binary runs.
for round in 1 2 3 4 5 6 7 8 9 10; do
  touch "$clone"/src/cli/*.c
  for i in 1 2 3 4; do
    (cd "$z" && bash "$clone/tools/pre-commit-hook" > "$tmp/lock$i" 2>&1; echo $? >> "$tmp/lock$i") &
  done
  wait
  builds=$(cat "$tmp"/lock[1-4] | grep -c 'building zonepuny')
  fails=$(for i in 1 2 3 4; do tail -1 "$tmp/lock$i"; done | grep -vc '^0$')
  if [ "$builds" = 1 ] && [ "$fails" = 0 ] && "$clone/build/zonepuny" --version > /dev/null; then
    ok
  else
    bad "lock round $round: $builds builds, $fails hooks failed: $(cat "$tmp"/lock[1-4])"
  fi
done

# 12. fresh runs with the batches at once: 12 zones, require_serial off, a new PRE_COMMIT_HOME
# each time (pre-commit clones and the hook builds). pre-commit cuts the files into
# 12 / max(4, 12 / CPUs) batches, rounded up (xargs.partition, its CPU count): each batch's
# zonepuny says "zonepuny: N files", the Ns adding up to 12, and zonepuny is built once.
p=$tmp/parallel
mkdir "$p" && cd "$p" && git init -q
hook_config 'require_serial: false' > .pre-commit-config.yaml
for i in $(seq 1 12); do printf '$ORIGIN p%d.example.\n'"$soa" $i > p$i.zone; done
git add -A && git commit -qm p --no-verify
batches=$("$PYTHON" -c 'import math, multiprocessing as m; a = max(4, math.ceil(12 / m.cpu_count())); print(math.ceil(12 / a))')
for run in 1 2 3; do
  PRE_COMMIT_HOME=$tmp/fresh$run pre-commit run --all-files --verbose > "$tmp/out" 2>&1 && ok ||
    bad "fresh run $run failed: $(cat "$tmp/out")"
  [ "$(count 'building zonepuny')" = 1 ] && ok || bad "fresh run $run: not one build: $(cat "$tmp/out")"
  [ "$(count 'error:|make deps|failed')" = 0 ] && ok ||
    bad "fresh run $run: an error shown: $(cat "$tmp/out")"
  if [ "$batches" -ge 2 ]; then
    [ "$(count '^zonepuny: [0-9]+ files,')" = "$batches" ] &&
      [ $(($(sed -n 's/^zonepuny: \([0-9]*\) files,.*/+\1/p' "$tmp/out" | tr -d '\n'))) = 12 ] && ok ||
      bad "fresh run $run: not $batches batches of 12 files: $(cat "$tmp/out")"
  else
    skip "fresh run $run: one CPU, so pre-commit runs one batch at a time"
  fi
  rm -rf "$tmp/fresh$run"
done
cd "$z"

# 13. a failed build: with bison off PATH (a fresh copy of the hook repository) the build's
# own message is shown and `make deps` advised; with a compiler error (a copy of the built
# clone, main.c broken) the compiler's message is shown and no `make deps`.
if [ "$(command -v bison)" = /usr/bin/bison ]; then
  mkdir "$tmp/nobison" && ln -s /usr/bin/* "$tmp/nobison/" 2>/dev/null && rm "$tmp/nobison/bison"
  cp -r "$hook" "$tmp/fresh-hook"
  PATH=$tmp/nobison bash "$tmp/fresh-hook/tools/pre-commit-hook" good.zone > "$tmp/out" 2>&1 &&
    bad "no bison: the hook passed" || ok
  grep -q -e 'bison: No such file or directory' -e 'bison: not found' "$tmp/out" && ok ||
    bad "no bison: the build's message not shown: $(cat "$tmp/out")"
  grep -q "a header, library or tool it needs is missing.*'make deps'" "$tmp/out" && ok ||
    bad "no bison: make deps not advised: $(cat "$tmp/out")"
else
  skip "bison is not /usr/bin/bison: cannot take it off PATH"
fi
cp -a "$clone" "$tmp/broken"
printf 'static int zp_broken_on_purpose = ;\n' >> "$tmp/broken/src/cli/main.c"
bash "$tmp/broken/tools/pre-commit-hook" good.zone > "$tmp/out" 2>&1 && bad "broken main.c: the hook passed" || ok
grep -q 'main.c:.*error.*' "$tmp/out" && grep -q 'zp_broken_on_purpose' "$tmp/out" && ok ||
  bad "broken main.c: the compiler's message not shown: $(cat "$tmp/out")"
grep -q 'make deps' "$tmp/out" && bad "broken main.c: make deps advised: $(cat "$tmp/out")" || ok
grep -q 'the build of zonepuny in .* failed' "$tmp/out" && ok || bad "broken main.c: no failure said: $(cat "$tmp/out")"

# 14. `repo: local`: the hook of a clone of this repository, run by path (its zonepuny built
# there: the clone's build copied in, newer than the sources)
cp -a "$clone/build" "$hook/build"
cat > local.yaml <<EOF
repos:
  - repo: local
    hooks:
      - id: zonepuny-check
        name: zonepuny --check
        entry: $hook/tools/pre-commit-hook
        language: system
        files: '(^|/)(db\.[^/]+|[^/]+\.(zone|db))\$'
        types: [text]
        require_serial: true
EOF
printf '$ORIGIN example.org.\n'"$soa"'xn--www- A 192.0.2.9\n' > bad.zone
git add bad.zone
run_hook local.yaml good.zone db.example.net && ok || bad "repo: local: refused: $(cat "$tmp/out")"
run_hook local.yaml bad.zone && bad "repo: local: a bad zone passed" || ok
grep -q '^bad.zone:6:1: error: label "xn--www-"' "$tmp/out" && ok || bad "repo: local: $(cat "$tmp/out")"
finish
