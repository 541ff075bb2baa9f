#!/usr/bin/env bash
# check_peers.sh -- every converted sample zone (zones/*.zone with a .out and no errors) loads in
# BIND (named-checkzone), NSD (nsd-checkzone), ldns (ldns-read-zone) and Knot (kzonecheck); and
# zonepuny is idempotent: its output fed back in gives the same bytes.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir/zones"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
# what is written is judged here, not signatures: every-type.zone's RRSIGs sign nothing
zp() { "$ZONEPUNY" --dnssec=off "$@"; }
PATH=$PATH:/usr/sbin:/sbin
make_tmp
check() {
  local what=$1; shift
  if "$@" > "$tmp/log" 2>&1; then ok "$what"; else
    bad "$what: $*"; head -20 "$tmp/log"; fi
}
for z in *.zone; do
  base=${z%.zone}
  [ -e "$base.out" ] || continue
  [ -s "$base.err" ] && continue
  args=()
  [ -e "$base.args" ] && read -ra args < "$base.args"
  case " ${args[*]-} " in *" --unicode "*) continue ;; esac
  out=$tmp/$base.out
  zp "${args[@]}" "$z" > "$out" 2>/dev/null || { bad "$z does not convert"; continue; }
  origin=$(awk '$4 == "SOA" { print $1; exit }' "$out")
  [ -n "$origin" ] || { bad "$z has no SOA"; continue; }
  check "$z: BIND" named-checkzone -q "$origin" "$out"
  check "$z: NSD" nsd-checkzone "$origin" "$out"
  check "$z: ldns" ldns-read-zone "$out"
  check "$z: Knot" kzonecheck -o "$origin" "$out"
  zp "${args[@]}" "$out" > "$out.again" 2>/dev/null
  check "$z: idempotent" cmp "$out" "$out.again"
done
# every-type.zone (no .out: check_knot.sh holds its table): its default output loads in the three
# servers; with every type as text (--generic none) in BIND, which reads every type's text; both
# read back by zonepuny to the same bytes. (ldns 1.8 knows no AMTRELAY.)
for mode in default none; do
  out=$tmp/every-$mode.out
  gen=(); [ $mode = none ] && gen=(--generic none)
  zp "${gen[@]}" every-type.zone > "$out" 2> "$tmp/err" || { bad "every-type.zone ($mode)"; cat "$tmp/err"; continue; }
  check "every-type.zone ($mode): BIND" named-checkzone -q example. "$out"
  if [ $mode = default ]; then
    check "every-type.zone: NSD" nsd-checkzone example. "$out"
    check "every-type.zone: Knot" kzonecheck -o example. "$out"
  fi
  zp "${gen[@]}" "$out" > "$out.again" 2>/dev/null
  check "every-type.zone ($mode): idempotent" cmp "$out" "$out.again"
done
# Names holding every printable byte, and every type number in RRSIG's type covered and in NSEC
# and CSYNC type lists: Knot reads only letters, digits and "-_*/" bare in a name and only some
# mnemonics in a list, so these are where an output loads in BIND and NSD but not in Knot. The
# output loads in all three and reads back unchanged, through zonepuny and through BIND's own
# text of it (named-compilezone writes other escapes and mnemonics, read as the same octets).
"$PYTHON" - > "$tmp/lists.zone" <<'PY'
print("$ORIGIN example.\n$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1")
for t in list(range(1, 271)) + [32768, 32769, 65534]:
    print("t%d NSEC n%d TYPE%d" % (t, t, t))
    print("t%d CSYNC 1 0 TYPE%d" % (t, t))
    print("t%d RRSIG TYPE%d 8 2 300 20300101000000 20200101000000 1 example. AAAA" % (t, t))
for c in range(0x21, 0x7F):
    e = "\\%03d" % c if chr(c).isdigit() else "\\" + chr(c)
    print("a%sb CNAME %sy" % (e, e))
PY
out=$tmp/lists.out
if zp "$tmp/lists.zone" > "$out" 2> "$tmp/err"; then
  check "names and type lists: BIND" named-checkzone -q example. "$out"
  check "names and type lists: NSD" nsd-checkzone example. "$out"
  check "names and type lists: Knot" kzonecheck -d off -o example. "$out"
  zp "$out" > "$out.again" 2>/dev/null
  check "names and type lists: idempotent" cmp "$out" "$out.again"
  named-compilezone -q -o "$tmp/lists.bind" example. "$out" > /dev/null 2>&1
  zp --sort "$tmp/lists.bind" > "$out.bind" 2>/dev/null
  zp --sort "$out" > "$out.sorted" 2>/dev/null
  check "names and type lists: BIND reads the same octets" cmp "$out.sorted" "$out.bind"
else
  bad "names and type lists do not convert"; head -5 "$tmp/err"
fi
need_pass "no converted sample zone"
finish
