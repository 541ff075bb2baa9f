#!/usr/bin/env bash
# sanitizer_logs.sh -- fail when a sanitizer or valgrind left a report in DIR (one file per
# process). Reports are printed so the failure explains itself.
set -u
dir=${1:?usage: sanitizer_logs.sh DIR}
# valgrind 3.19 (Debian 12's) does not know openat2(2), syscall 437: it says so in five lines
# and returns ENOSYS, which zonepuny meets as it meets a kernel without openat2 (it walks the
# path with O_NOFOLLOW instead). Those lines alone are no report.
known='^--[0-9]+-- (WARNING: unhandled [a-z0-9]+-linux syscall: 437'
known+='|You may be able to write your own handler\.|Read the file README_MISSING_SYSCALL_OR_IOCTL\.'
known+='|Nevertheless we consider this a bug\.  Please report'
known+='|it at http://valgrind\.org/support/bug_reports\.html\.)$'
n=0
for f in "$dir"/*; do
  [ -s "$f" ] || continue
  grep -qvE "$known" "$f" || continue
  n=$((n + 1))
  echo "== report $f"
  cat "$f"
done
if [ "$n" -eq 0 ]; then
  echo "sanitizer/valgrind reports in $dir: none"
else
  echo "sanitizer/valgrind reports in $dir: $n (see above)"
  exit 1
fi
