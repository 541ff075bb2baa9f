#!/usr/bin/env bash
# check_types_bind.sh -- every type mnemonic BIND reads (named-rrchecker -T), in capitals and in
# lower case, zonepuny reads as the same number: each is the type an RRSIG covers, whose first
# two octets BIND writes with named-rrchecker -u and zonepuny with --generic RRSIG. A type BIND
# knows and zonepuny called unknown made a zone BIND loads an error here.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}"
PATH=$PATH:/usr/sbin:/sbin
make_tmp
command -v named-rrchecker >/dev/null || { skip "named-rrchecker not installed"; finish; }

named-rrchecker -T > "$tmp/types" 2>/dev/null
n=$(wc -l < "$tmp/types")
# BIND 9.18 lists some 90; fewer means the list is not what we think it is
[ "$n" -ge 80 ] && ok || { bad "named-rrchecker -T lists only $n types"; finish; }
{
  printf '$ORIGIN ex.\n$TTL 60\n'
  i=0
  while read -r t; do
    echo "u$i RRSIG $t 8 0 0 0 0 1 . AA=="
    echo "l$i RRSIG $(printf '%s' "$t" | tr 'A-Z' 'a-z') 8 0 0 0 0 1 . AA=="
    i=$((i + 1))
  done < "$tmp/types"
} > "$tmp/sig.zone"
"$ZONEPUNY" --fragment --generic RRSIG "$tmp/sig.zone" > "$tmp/ours" 2> "$tmp/err" ||
  { bad "zonepuny refuses a type BIND reads"; grep error "$tmp/err" | head -10; finish; }
i=0
while read -r t; do
  want=$(echo "IN RRSIG $t 8 0 0 0 0 1 . AA==" | named-rrchecker -u 2>/dev/null |
         sed -n 's/.*\\# [0-9]* \(....\).*/\1/p' | tr 'A-F' 'a-f')
  for p in u l; do
    got=$(awk -F'\t' -v o="$p$i.ex." '$1 == o { print substr($5, 7, 4) }' "$tmp/ours")
    if [ -n "$want" ] && [ "$got" = "$want" ]; then
      ok
    else
      bad "$t ($p): BIND reads type ${want:-?}, zonepuny ${got:-nothing}"
    fi
  done
  i=$((i + 1))
done < "$tmp/types"
finish
