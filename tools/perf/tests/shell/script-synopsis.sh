#!/bin/bash
# script: each man page's SYNOPSIS equals the usage printed by -h
# SPDX-License-Identifier: GPL-2.0-only
#
# As git's t0450: tools/perf/Documentation/perf-textpoke-<sub>.txt has a
# [verse] SYNOPSIS block whose lines, with the asciidoc quotes removed,
# are the "Usage:" / "or:" lines of perf textpoke <sub> -h.

[ -n "$TEXTPOKE" ] || { echo "TEXTPOKE not set: run through perf-textpoke test"; exit 2; }
docdir="${TEXTPOKE_SRCDIR:-.}/tools/perf/Documentation"
tmp=$(mktemp -d /tmp/textpoke-synopsis.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
for doc in "$docdir"/perf-textpoke-*.txt; do
	[ -e "$doc" ] || continue
	sub=$(basename "$doc" .txt)
	sub=${sub#perf-textpoke-}
	# the lines after [verse] up to the first blank line
	awk '/^SYNOPSIS$/ { s = 1; next }
	     s == 1 && /^\[verse\]$/ { s = 2; next }
	     s == 2 && /^$/ { exit }
	     s == 2 { gsub(/\x27/, ""); print }' "$doc" >"$tmp/doc"
	[ -s "$tmp/doc" ] || { echo "FAIL: $doc has no [verse] SYNOPSIS"; exit 1; }
	"$TEXTPOKE" "$sub" -h >"$tmp/help" 2>&1
	sed -n 's/^ *\(Usage\|or\): //p' "$tmp/help" >"$tmp/usage"
	if ! cmp -s "$tmp/doc" "$tmp/usage"; then
		diff -u "$tmp/doc" "$tmp/usage"
		echo "FAIL: SYNOPSIS of $(basename "$doc") differs from 'perf textpoke $sub -h'"
		exit 1
	fi
	echo "ok: $sub"
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "no perf-textpoke-*.txt man pages"; exit 2; }
exit 0
