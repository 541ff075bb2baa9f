#!/usr/bin/env bash
# build_peers.sh DIR TARBALL -- the peers Debian lacks, built once into DIR from the NSD source
# TARBALL (../shared/peers: NSD 4.15.1 with simdzone in its simdzone/ folder): DIR/nsd-checkzone
# (NSD's zone reader since 4.10 is simdzone; Debian 12's NSD 4.6 still reads with flex and
# bison) and DIR/zone-bench (simdzone's own "parse" benchmark, the parse alone). Each is built
# as the tarball's README says and kept; a peer that cannot be built is said on stderr and left
# out (exit 1 when neither is there). Needs autoconf, automake, libevent-dev, libssl-dev and
# cmake (tools/deps.sh bench).
set -u
dir=$1 tarball=$2
mkdir -p "$dir"
log=$dir/build.log
src=$dir/src
if [ ! -x "$dir/nsd-checkzone" ] || [ ! -x "$dir/zone-bench" ]; then
  if [ ! -f "$tarball" ]; then
    echo "peers: $tarball not found" >&2
    exit 1
  fi
  rm -rf "$src" && mkdir -p "$src" && tar xzf "$tarball" -C "$src" --strip-components=1 ||
    { echo "peers: cannot unpack $tarball" >&2; exit 1; }
fi
if [ ! -x "$dir/nsd-checkzone" ]; then
  if (cd "$src" && autoreconf -fi && ./configure --disable-dnstap --disable-flto &&
      make -j"$(nproc)" nsd-checkzone) > "$log" 2>&1; then
    cp "$src/nsd-checkzone" "$dir/nsd-checkzone"
  else
    echo "peers: NSD's nsd-checkzone did not build (tail of $log):" >&2
    tail -5 "$log" >&2
  fi
fi
if [ ! -x "$dir/zone-bench" ]; then
  if (cmake -S "$src/simdzone" -B "$src/simdzone/build" -DCMAKE_BUILD_TYPE=Release &&
      cmake --build "$src/simdzone/build" --target zone-bench -j"$(nproc)") >> "$log" 2>&1; then
    cp "$src/simdzone/build/zone-bench" "$dir/zone-bench"
  else
    echo "peers: simdzone's zone-bench did not build (tail of $log):" >&2
    tail -5 "$log" >&2
  fi
fi
[ -x "$dir/nsd-checkzone" ] || [ -x "$dir/zone-bench" ]
