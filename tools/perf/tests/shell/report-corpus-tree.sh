#!/bin/bash
# report: the call-graph trees of the public corpus recordings equal stock perf report's
# SPDX-License-Identifier: GPL-2.0-only
#
# Every corpus file on which stock perf 6.1 report --stdio --sort comm,dso
# draws call-graph trees goes through ours with the same options: perf's
# default trees (graph,0.5,caller with Children, or its callee order where
# the file allows no Children: a pipe), then --no-children -g
# fractal,0.5,callee and -g folded.  Byte for byte, but for the files
# named in known[] with the reason stock perf is wrong there (each is
# checked to still differ, so that a file that became equal is noticed),
# and perf's fractal "[...] (inlined)" line read as "[...]" (perf prints
# a suffix from memory it never set; report-tree.sh).
# At least 5 files must compare.
#
# Mutation caught: fractal's remainder line named "[..]" in
# fprintf_graph_children(): callgraph-3.8's callee fractal differs (the
# other tree mutations of report-tree.sh are caught there; a fractal
# threshold rounded down instead of up passes here: no node of these
# files falls between).

. "$(dirname "$0")/lib/report-common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
[ -d "$TEXTPOKE_CORPUS" ] || skip "no corpus at '$TEXTPOKE_CORPUS'"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
scratch report-corpus-tree

foreign="stock perf 6.1 resolves the frames of a kernel recorded elsewhere with this machine's kallsyms (script-corpus-parity.sh); ours names none"
declare -A known=(
	[perf_data_converter/perf.data.raw_callgraph_branch-3.4]="its [vdso] has no build-id: stock perf names the frames there with this machine's vdso (script-corpus-parity.sh); ours gives their address"
	[perfparser/contentsize.data]=$foreign
	[perfparser/parallel_static_gcc__perf.data.zstd]=$foreign
	[perfparser/vector_static_gcc__perf.data.zstd]=$foreign
	[perfparser/vector_static_gcc__perf.lbr.data]="a --call-graph lbr recording (its chains' user part from the LBR call stack, in both): 8 of its samples say 1 LBR entry and hold none; stock perf reads the next record's bytes as that entry (0x358b2300358b23, its pid and tid, in the callee fractal; the default, folded and caller forms are equal), ours gives those samples no user frame"
)
n=0 still=0
while IFS= read -r f; do
	rel=${f#"$TEXTPOKE_CORPUS"/}
	perf_report -i "$f" --sort comm,dso --no-branch-stack >"$tmp/probe" 2>/dev/null || continue
	grep -qE '^ {12}[|-]|---' "$tmp/probe" || continue
	for form in "" "--no-children -g fractal,0.5,callee" "-g folded"; do
		# shellcheck disable=SC2086
		perf_report -i "$f" --sort comm,dso --no-branch-stack $form >"$tmp/p.raw" 2>/dev/null ||
			fail "$rel: stock perf report $form failed"
		# perf's fractal "[...]" suffix read from memory it never set (report-tree.sh)
		sed 's/--\[\.\.\.\] (inlined)$/--[...]/' "$tmp/p.raw" >"$tmp/p"
		# shellcheck disable=SC2086
		ours_report -i "$f" --sort comm,dso $form >"$tmp/o" 2>"$tmp/err" ||
			fail "$rel: perf textpoke report $form: $(head -3 "$tmp/err")"
		if [ -n "${known[$rel]}" ]; then
			cmp -s "$tmp/p" "$tmp/o" || still=1
			continue
		fi
		cmp -s "$tmp/p" "$tmp/o" ||
			{ diff -u "$tmp/p" "$tmp/o" | head -30; fail "$rel: $form differs from stock perf"; }
	done
	if [ -n "${known[$rel]}" ]; then
		[ "$still" = 1 ] || fail "$rel: now equal to stock perf in every form: drop it from known[]"
		echo "known: $rel: ${known[$rel]}"
		still=0
		continue
	fi
	n=$((n + 1))
	echo "ok: $rel: trees equal to stock perf report's, 3 forms"
done < <(find "$TEXTPOKE_CORPUS" -type f ! -name '*.md' ! -name '*.txt' | sort)
[ $n -ge 5 ] || fail "only $n corpus files with trees compared"
echo "ok: $n corpus files"
exit 0
