#!/bin/bash
# perf finds perf-textpoke on PATH: 'perf textpoke' works after make install
# SPDX-License-Identifier: GPL-2.0-only
set -u
command -v perf >/dev/null 2>&1 || { echo "stock perf not installed"; exit 2; }
src=${TEXTPOKE_SRCDIR:?}
tmp=$(mktemp -d /tmp/textpoke-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# install the binary under test the way 'make install' lays it out
install -d "$tmp/usr/bin" || exit 1
install -m 755 "$TEXTPOKE" "$tmp/usr/bin/perf-textpoke" || exit 1

out=$(PATH="$tmp/usr/bin:$PATH" perf textpoke version 2>&1) || { echo "$out"; exit 1; }
case $out in
"perf-textpoke version "*) ;;
*) echo "unexpected: $out"; exit 1 ;;
esac

opts=$(PATH="$tmp/usr/bin:$PATH" perf textpoke version --build-options) || exit 1
for lib in libelf libtraceevent zstd capstone; do
	echo "$opts" | grep -Eq "^ *$lib: \[ (on|OFF) +\]$" || { echo "no $lib line: $opts"; exit 1; }
done

# an unknown subcommand is an error, not a silent success
if PATH="$tmp/usr/bin:$PATH" perf textpoke no-such-command >/dev/null 2>&1; then
	echo "unknown subcommand accepted"
	exit 1
fi
exit 0
