#!/usr/bin/env bash
# check_knot.sh -- Knot DNS reads what zonepuny writes. One record of every type ldns knows
# (zones/every-type.zone): with --generic none each is written as text and given to kzonecheck
# alone; the types Knot refuses as text must be exactly the ones zonepuny writes in RFC 3597 form
# by default (the type table's G flag), and the default output of the whole zone must load.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
# what is written is judged here, not signatures: every-type.zone's RRSIGs sign nothing
zp() { "$ZONEPUNY" --dnssec=off "$@"; }
make_tmp
command -v kzonecheck >/dev/null || { skip "kzonecheck not installed (knot-dnssecutils)"; finish; }
z=$repo_dir/zones/every-type.zone
head='$ORIGIN example.
$TTL 300
@ SOA ns h 1 2 3 4 5
@ NS ns
ns A 192.0.2.1'
zp --generic none "$z" > "$tmp/text" 2> "$tmp/err" || { bad "zonepuny --generic none"; cat "$tmp/err"; finish; }
zp "$z" > "$tmp/default" 2> "$tmp/err" || { bad "zonepuny"; cat "$tmp/err"; finish; }
: > "$tmp/refused"
n=0
while IFS= read -r line; do
  type=$(printf '%s\n' "$line" | cut -f4)
  case $type in SOA | NS) continue ;; esac
  [ "$(printf '%s\n' "$line" | cut -f1)" = ns.example. ] && continue
  n=$((n + 1))
  printf '%s\n%s\n' "$head" "$line" > "$tmp/one.zone"
  kzonecheck -o example. "$tmp/one.zone" > /dev/null 2>&1 || echo "$type" >> "$tmp/refused"
done < "$tmp/text"
[ "$n" -ge 60 ] && ok "$n types tried" || bad "only $n types in the sample"
# the types written as TYPEnnn \# by default, by name, less those zonepuny always writes so
# (the types whose text it does not parse: NULL, A6, SINK, and BIND's that ldns lacks)
names() { awk -F'\t' '$5 ~ /^\\# / { print $1 }' "$1" | sed 's/\.example\.$//' | tr 'a-z' 'A-Z' | sort -u; }
names "$tmp/text" > "$tmp/always"
names "$tmp/default" | comm -23 - "$tmp/always" > "$tmp/generic"
sort -u "$tmp/refused" > "$tmp/refused.sorted"
if cmp -s "$tmp/refused.sorted" "$tmp/generic"; then
  ok "Knot refuses as text exactly the types written in RFC 3597 form"
else
  bad "Knot's refusals (<) and the default RFC 3597 types (>) differ"
  diff "$tmp/refused.sorted" "$tmp/generic"
fi
kzonecheck -o example. "$tmp/default" > "$tmp/knot" 2>&1 && ok "the default output loads in Knot" ||
  { bad "Knot refuses the default output"; head -5 "$tmp/knot"; }
finish
