#!/bin/bash
# script: public corpus recordings print as stock perf script prints them
# SPDX-License-Identifier: GPL-2.0-only
#
# Every corpus file stock perf 6.1 can read is printed by both; the
# outputs must be equal line for line.  One normalization: these files
# were recorded on other machines, and where the recorded kernel's _text
# is not this kernel's, stock perf moves this machine's /proc/kallsyms
# there anyway (symbols that were never there); we warn and print
# [unknown] instead.  So for a file where we warn that kernel symbols
# were not resolved, the symbol and dso after a kernel address are not
# compared; every other file is compared as it is.  The files below
# differ for reasons outside the printers, named for each; they are
# reported, not failed, and the test says when one starts to match.

[ -n "$TEXTPOKE" ] || { echo "TEXTPOKE not set: run through perf-textpoke test"; exit 2; }
[ -d "$TEXTPOKE_CORPUS" ] || { echo "no corpus at '$TEXTPOKE_CORPUS'"; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "stock perf is not installed"; exit 2; }
tmp=$(mktemp -d /tmp/textpoke-corpus-parity.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

declare -A known=(
	[perf_data_converter/perf.data.intel_pt-4.14]="stock perf synthesizes samples from the Intel PT trace; we do not decode AUX data"
	[perf_data_converter/perf.data.piped.lost_samples-4.4]="event names: stock perf shows cycles:ppH (exclude_guest modifier), the reader cycles:pp"
	[perf_data_converter/perf.data.piped.target-3.4]="stock perf symbolizes [vdso] frames from this machine's vdso"
	[perf_data_converter/perf.data.raw_callgraph_branch-3.4]="stock perf symbolizes [vdso] frames from this machine's vdso"
	[perfparser/vector_static_gcc__perf.data.zstd]="DWARF unwinding of the user stack: stock perf adds the unwound frames (no unwinder is built in here)"
	[perfparser/contentsize.data]="DWARF unwinding of the user stack: stock perf adds the unwound frames"
	[perfparser/fork_static_gcc__perf.data.zstd]="DWARF unwinding of the user stack"
	[perfparser/parallel_static_gcc__perf.data.zstd]="DWARF unwinding of the user stack"
	[perfparser/vector_static_gcc__perf.lbr.data]="LBR call-stack mode: stock perf builds the user part of the chain from the branch stack"
	[platform2-sommelier/perf.data.piped.host]="stock perf fails on it (\"Too big: nr ...\"); we print it"
	[platform2-sommelier/perf.data.piped.powerpc]="stock perf fails on it (\"Too big: nr ...\"); we print it"
)

# the symbol and dso after a kernel address: a sample line, or a callchain frame
norm() {
	sed -E 's/ (ffff[0-9a-f]{12}) [^ ]+ \((\[kernel\.kallsyms\]|\[unknown\])\)/ \1 K/;
		s/^(\t *ffff[0-9a-f]{12}) .*/\1 K/'
}

n=0 equal=0 gaps=0 bad=0
while IFS= read -r -d '' f; do
	rel=${f#$TEXTPOKE_CORPUS/}
	case "$rel" in *.md) continue ;; esac
	timeout 120 perf script -i "$f" 2>/dev/null >"$tmp/perf"
	[ -s "$tmp/perf" ] || continue	# stock perf cannot read it, or it has no samples
	n=$((n + 1))
	timeout 120 "$TEXTPOKE" script -i "$f" 2>"$tmp/err" >"$tmp/ours"
	if grep -q 'kernel symbols not resolved' "$tmp/err"; then
		norm <"$tmp/perf" >"$tmp/perf.norm" && mv "$tmp/perf.norm" "$tmp/perf"
		norm <"$tmp/ours" >"$tmp/ours.norm" && mv "$tmp/ours.norm" "$tmp/ours"
	fi
	if cmp -s "$tmp/perf" "$tmp/ours"; then
		equal=$((equal + 1))
		[ -n "${known[$rel]}" ] && echo "now equal (drop from the known list): $rel"
		continue
	fi
	if [ -n "${known[$rel]}" ]; then
		gaps=$((gaps + 1))
		echo "known: $rel: $(diff "$tmp/perf" "$tmp/ours" | grep -c '^<') lines: ${known[$rel]}"
		continue
	fi
	bad=$((bad + 1))
	echo "DIFFERS: $rel ($(wc -l <"$tmp/perf") lines)"
	diff -u "$tmp/perf" "$tmp/ours" | head -12
done < <(find "$TEXTPOKE_CORPUS" -type f -print0 | sort -z)

echo "$n files stock perf prints: $equal equal, $gaps known gaps, $bad differ"
[ $n -gt 0 ] || { echo "stock perf printed none of the corpus"; exit 2; }
[ $bad = 0 ]
