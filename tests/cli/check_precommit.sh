#!/usr/bin/env bash
# check_precommit.sh -- the zonepuny-check hook through the real pre-commit framework (Debian
# package pre-commit), offline, in temporary zone repositories:
#  1-5  it builds zonepuny on first use; it checks *.zone, *.db and db.* text files (not an
#       SQLite *.db); a zone without $ORIGIN takes its origin from its name; an $INCLUDE outside
#       the repository is refused without a line of that file quoted; a changed fragment has the
#       zone that includes it checked; `pre-commit run --all-files` and a real `git commit` are
#       refused with zonepuny's message shown;
#  6    the build under a lock: 10 rounds of 4 hooks started at once on a stale build (the
#       sources of src/cli touched): each round builds once and every hook passes;
#  7    3 runs from a fresh PRE_COMMIT_HOME with require_serial off, so that pre-commit runs
#       its batches of files at once: one build, every zone checked, no failure;
#  8    a failed build shows the build's own error; `make deps` is advised only when a tool is
#       missing (bison off PATH), not for a compiler error.
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
# all: README "Safety"); one after a good record shows in full.
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

# 4. origin from the name: db.example.net's records are under example.net. (a good commit)
printf 'www A 192.0.2.4\n' >> db.example.net
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

count() { grep -c -E -e "$1" "$tmp/out"; }

# 6. the build under a lock, in pre-commit's clone: 4 hooks at once on a stale build (src/cli
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

# 7. fresh runs with the batches at once: 12 zones, require_serial off, a new PRE_COMMIT_HOME
# each time (pre-commit clones and the hook builds). pre-commit cuts the files into
# 12 / max(4, 12 / CPUs) batches, rounded up (xargs.partition, its CPU count): zonepuny is built
# once, and says "zonepuny: N files" for all 12 zones.
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
  [ $(($(sed -n 's/^zonepuny: \([0-9]*\) files\{0,1\},.*/+\1/p' "$tmp/out" | tr -d '\n'))) = 12 ] && ok ||
    bad "fresh run $run: not 12 zones checked: $(cat "$tmp/out")"
  [ "$batches" -ge 2 ] || skip "fresh run $run: one CPU, so pre-commit runs one batch at a time"
  rm -rf "$tmp/fresh$run"
done
cd "$z"

# 8. a failed build: with bison off PATH (a fresh copy of the hook repository) the build's
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
finish
