#!/usr/bin/env bash
# check_ldns_samples.sh -- a cross-check with a peer: for every sample zone in zones/, the records
# zonepuny reads (owners, TTLs, classes, types, RDATA) are those a peer reads from the same zone.
# The peer cannot convert names, so it reads the zone's ASCII twin, written by Python's
# encodings.idna (tools/ace_twin.py). Both sides go through `ldns-read-zone -z` (canonical form,
# sorted) before they are compared, so only the records count, not their layout.
#
# The peer is ldns-read-zone itself, except where it cannot read the zone: ldns 1.8.3 has no
# $INCLUDE ("$INCLUDE not implemented") and no $GENERATE (it stops there, "could not parse the
# RR's rdata", with nothing written), so a zone with either (sample.zone has both) is read by
# BIND's named-compilezone, which expands both, and its output then goes through
# ldns-read-zone -z like the rest.
# Not compared, with the reason:
#   bad-names.zone  its bad labels are the point: zonepuny refuses them, and an ACE twin of a
#                   label that has no ACE form cannot be written.
#   every-type.zone a record of every type, for Knot (check_knot.sh): ldns reads NSAP-PTR's
#                   name as a character-string (RFC 1706 has a name), and ldns-read-zone -z
#                   gives RRSIG and SIG the TTL of their original-TTL field.
#   idna2008.zone   converted with --idna=2008, which the ACE twin (IDNA2003) cannot stand for;
#                   its .out comes from dnspython's IDNA 2008 codec, check_peers.sh loads it.
#   svcb-keys.zone  SVCB parameter keys by names ldns 1.8 does not know (docpath, pvd ...):
#                   check_svcb_keys.py holds them to BIND, NSD, Knot and dnspython.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$repo_dir"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
PATH=$PATH:/usr/sbin:/sbin
make_tmp

canon() {   # canon ZONEFILE: the records as ldns-read-zone -z prints them
  ldns-read-zone -z "$1" 2>/dev/null
}

for z in zones/*.zone; do
  name=${z##*/}
  case $name in bad-names.zone | every-type.zone | idna2008.zone | svcb-keys.zone) continue ;; esac
  mkdir -p "$tmp/twin"
  "$PYTHON" tools/ace_twin.py "$z" "$tmp/twin/$name"
  if grep -qiE '^\$(INCLUDE|GENERATE)' "$z"; then
    peer=named-compilezone
    for inc in $(awk 'toupper($1) == "$INCLUDE" { print $2 }' "$z"); do
      "$PYTHON" tools/ace_twin.py "zones/$inc" "$tmp/twin/$inc"
    done
    origin=$(awk 'toupper($1) == "$ORIGIN" { print $2; exit }' "$z")
    # BIND opens includes relative to its working directory, not to the including file
    (cd "$tmp/twin" && named-compilezone -q -i none -k ignore -o - "$origin" "$name") \
      > "$tmp/peer.zone" 2> "$tmp/peer.err"
  else
    peer=ldns-read-zone
    cp "$tmp/twin/$name" "$tmp/peer.zone"
  fi
  # (BIND runs with check-names off, -k ignore: so does zonepuny)
  "$ZONEPUNY" --check-names=ignore "$z" > "$tmp/ours.zone" 2> "$tmp/ours.err"
  rc=$?
  canon "$tmp/ours.zone" > "$tmp/ours"
  canon "$tmp/peer.zone" > "$tmp/peer"
  if [ $rc -eq 0 ] && [ -s "$tmp/peer" ] && cmp -s "$tmp/ours" "$tmp/peer"; then
    ok "$name"
  else
    bad "$name against $peer (zonepuny exit $rc)"
    head -5 "$tmp/ours.err" "$tmp/peer.err" 2>/dev/null
    diff "$tmp/peer" "$tmp/ours" | head -10
  fi
  rm -rf "$tmp/twin"
done
finish
