#!/bin/sh
# reload-example.sh -- check, convert, let BIND check, then reload one zone.
# usage: reload-example.sh ZONE-NAME SOURCE.zone SERVED.zone
# SOURCE.zone may hold UTF-8 names; SERVED.zone is the file named.conf points at.
set -eu
zone=$1 src=$2 served=$3
zonepuny --check "$src"                          # every problem listed, nothing written
zonepuny -o "$served" "$src"                     # atomic: SERVED.zone untouched on error
named-checkzone -q "$zone" "$served"             # BIND's own opinion of the result
rndc reload "$zone"
