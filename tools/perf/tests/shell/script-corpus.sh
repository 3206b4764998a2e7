#!/bin/bash
# script: every public corpus file prints or fails cleanly, never crashes
# SPDX-License-Identifier: GPL-2.0-only
#
# Each file of the public corpus ($TEXTPOKE_CORPUS) through perf textpoke
# script, plain and with -D: exit 0 with output (or with a warning saying
# why there is none, e.g. only hardware trace data), or exit 234 or 255
# (perf script's -EINVAL and -1) with an error message for the corrupt or
# unsupported ones; never a signal.

[ -n "$TEXTPOKE" ] || { echo "TEXTPOKE not set: run through perf-textpoke test"; exit 2; }
[ -d "$TEXTPOKE_CORPUS" ] || { echo "no corpus at '$TEXTPOKE_CORPUS'"; exit 2; }
tmp=$(mktemp -d /tmp/textpoke-corpus.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0 ok=0 refused=0 bad=0
while IFS= read -r -d '' f; do
	case "$f" in *.md) continue ;; esac
	for opt in "" -D; do
		n=$((n + 1))
		timeout 120 "$TEXTPOKE" script $opt -i "$f" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc = 0 ] && [ -s "$tmp/out" ]; then
			ok=$((ok + 1))
		elif [ $rc = 0 ] && [ -s "$tmp/err" ]; then
			# nothing to print (no samples), and a warning that says why
			ok=$((ok + 1))
			echo "empty: ${f#$TEXTPOKE_CORPUS/} $opt: $(head -1 "$tmp/err")"
		elif { [ $rc = 234 ] || [ $rc = 255 ]; } && [ -s "$tmp/err" ]; then
			refused=$((refused + 1))
			echo "refused: ${f#$TEXTPOKE_CORPUS/} $opt: $(head -1 "$tmp/err")"
		else
			bad=$((bad + 1))
			echo "BAD: ${f#$TEXTPOKE_CORPUS/} $opt: exit $rc, $(wc -c <"$tmp/out") bytes out, $(head -1 "$tmp/err")"
		fi
	done
done < <(find "$TEXTPOKE_CORPUS" -type f -print0 | sort -z)

echo "$n runs: $ok printed, $refused refused with an error, $bad bad"
[ $n -gt 0 ] || { echo "corpus is empty"; exit 2; }
[ $bad = 0 ]
