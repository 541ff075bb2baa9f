#!/usr/bin/env bash
# valgrind.sh -- run a program under valgrind memcheck for `make check-valgrind`.
# "valgrind.sh -- PROG ARGS" runs PROG; "valgrind.sh ARGS" runs $VG_BIN (the zonepuny binary,
# standing in for it as $ZONEPUNY in the script tests). Findings go to $VG_LOG/PID.log; the
# program's own exit status is passed through (125 when valgrind found an error).
# Still-reachable blocks are not reported: libgit2, loaded by criterion, keeps its globals.
set -u
if [ "${1-}" = "--" ]; then shift; prog=$1; shift; else prog=${VG_BIN:?}; fi
exec valgrind -q --trace-children=yes --leak-check=full --show-leak-kinds=definite,indirect,possible \
  --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=125 \
  --suppressions="$(dirname "$0")/valgrind.supp" \
  --log-file="${VG_LOG:?}/%p.log" "$prog" "$@"
