#!/usr/bin/env bash
# check_precommit.sh -- the zonepuny-check hook through the real pre-commit framework (Debian
# package pre-commit), offline, in a temporary zone repository: it builds zonepuny on first use;
# it checks *.zone, *.db and db.* text files (not an SQLite *.db); a zone without $ORIGIN takes
# its origin from its name; an $INCLUDE outside the repository is refused without a line of that
# file quoted; a changed fragment has the zone that includes it checked; `pre-commit run
# --all-files` and a real `git commit` are refused with zonepuny's message shown.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
for c in pre-commit git make; do
  command -v $c >/dev/null || { skip "$c not installed (make deps-test)"; finish; }
done
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

z=$tmp/zones
mkdir "$z" && cd "$z" && git init -q
cat > .pre-commit-config.yaml <<EOF
repos:
  - repo: $hook
    rev: $rev
    hooks:
      - id: zonepuny-check
        files: '(^|/)(db\.[^/]+|[^/]+\.(zone|db|inc))$'
EOF
printf '$ORIGIN example.\n$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n$INCLUDE frag.inc\n' > good.zone
printf 'münchen A 192.0.2.2\n' > frag.inc
# no $ORIGIN: the origin comes from the name
printf '$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\nbücher A 192.0.2.3\n' > db.example.net
# an SQLite file named *.db: binary, not for the hook
printf 'SQLite format 3\0\1\2\3\0binary' > cache.db
git add -A && git commit -qm start --no-verify
pre-commit install > /dev/null || { bad "pre-commit install"; finish; }

# 1. everything good: run --all-files passes (and builds zonepuny once)
pre-commit run --all-files > "$tmp/out" 2>&1 && ok || { bad "good repository refused"; cat "$tmp/out"; }
grep -q 'zonepuny --check.*Passed' "$tmp/out" && ok || bad "hook not run: $(cat "$tmp/out")"

# 2. a bad label in a new zone: run --all-files fails with zonepuny's message; git commit too
printf '$ORIGIN example.org.\n$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\nxn--www- A 192.0.2.9\n' > bad.zone
git add bad.zone
pre-commit run --all-files > "$tmp/out" 2>&1 && bad "run --all-files passed a bad zone" || ok
grep -q 'bad.zone:6:1: error: label "xn--www-" is an ACE label' "$tmp/out" && ok ||
  bad "run: message not shown: $(cat "$tmp/out")"
git commit -m bad > "$tmp/out" 2>&1 && bad "git commit of a bad zone went through" || ok
grep -q 'bad.zone:6:1: error:' "$tmp/out" && ok || bad "commit: message not shown: $(cat "$tmp/out")"
[ "$(git rev-list --count HEAD)" -eq 1 ] && ok || bad "a commit was made"
git rm -q --cached bad.zone && rm bad.zone

# 3. a fragment changed alone: the zone that includes it is checked, and the commit refused.
# An error in an included file's first record shows its location only (it might be no zone at
# all: README "Safety"); one after a good record shows in full.
printf 'xn--www- A 192.0.2.2\n' > frag.inc
git add frag.inc
git commit -m frag > "$tmp/out" 2>&1 && bad "a bad fragment was committed" || ok
grep -q "frag.inc:1:1: error: the file's first record or directive is an error" "$tmp/out" && ok ||
  bad "fragment: message: $(cat "$tmp/out")"
printf 'ok A 192.0.2.3\nxn--www- A 192.0.2.2\n' > frag.inc
git add frag.inc
git commit -m frag > "$tmp/out" 2>&1 && bad "a bad fragment was committed" || ok
grep -q 'frag.inc:2:1: error: label "xn--www-"' "$tmp/out" && ok ||
  bad "fragment: message: $(cat "$tmp/out")"
git checkout -q -- frag.inc 2>/dev/null; git reset -q; git checkout -q -- frag.inc

# 4. origin from the name: db.example.net's records are under example.net. (a good commit)
printf 'www A 192.0.2.4\n' >> db.example.net
git add db.example.net
git commit -qm www > "$tmp/out" 2>&1 && ok || bad "db.example.net refused: $(cat "$tmp/out")"

# 5. $INCLUDE outside the repository: refused, and no line of that file quoted
printf 'secret-key-material-line\n' > "$tmp/secret.key"
printf '$ORIGIN example.com.\n$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n$INCLUDE %s\n' \
  "$tmp/secret.key" > leak.zone
git add leak.zone
git commit -m leak > "$tmp/out" 2>&1 && bad "an \$INCLUDE outside the repository was committed" || ok
grep -q 'leak.zone:6:.*error' "$tmp/out" && ok || bad "leak: no error: $(cat "$tmp/out")"
grep -q 'secret-key-material' "$tmp/out" && bad "leak: the outside file was quoted" || ok
finish
