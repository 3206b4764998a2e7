#!/bin/bash
# report: call-graph trees (-g forms, -G, --percentage, --children/--no-children) equal stock perf report, fp, pipe and dwarf
# SPDX-License-Identifier: GPL-2.0-only
#
# The report-children workload (main -> level1 -> level2 -> level3, each
# level with time of its own, level3 also in libc's memset, a function
# inlined into level2) is recorded now by stock perf record, under -g
# (frame pointers) and --call-graph dwarf (-O2 -fomit-frame-pointer, the
# user frames unwound by our unwinder against perf's libdw).  Both
# reports read the same file, so sampling luck changes what is compared,
# not whether it must be equal: our report --stdio must equal stock perf
# report --stdio byte for byte in every tree form we take: the default
# (graph,0.5,caller with Children), --no-children (callee), fractal,
# flat, folded, caller/callee both ways, -G, threshold and print limit,
# period and count values, word prefixes (f,ca,p), --sort sym (the
# single chain's first frame left out), --max-stack, --percent-limit
# (perf's tree threshold too), -n, and --percentage relative with --dsos
# and --symbols filters (rows of the kept samples' total, trees still of
# the event's, their threshold of the kept samples').
#
# The address key is compared on each sample's innermost frame: stock
# perf takes a frame's line from binutils' addr2line, which names another
# file of the DWARF 5 line table than libdw (and than the source) in
# libc's __libc_start_call_main ("libc-start.c:74" for
# libc_start_call_main.h:74), a frame outer frames would bring in.
#
# One difference is perf's and normalised, on its side only: fractal's
# "[...]" line is printed through a symbol perf mallocs and never clears
# (rem_sq_bracket in ui/stdio/hist.c), so its " (inlined)" suffix comes
# and goes with what the heap held; the dwarf recording shows it.
#
# Mutation caught: report_trees__end() not leaving out the sample's own
# entry when it appends the cumulative chains ((u32)e == t->entry never
# true): each level's tree gets its own samples' chain twice, the "---"
# single chain turns into two branches and fp-default differs.  And:
# list__sort_link() putting equal children after later ones (">=" made
# ">"): siblings of equal period (one-sample kernel branches under
# level3) swap, and fp-fractal differs in the run that watched it.  And:
# report_hists__finish() ignoring --percentage relative (its test made
# false): fp-relative's rows are percentages of the whole event.  And:
# frame__cmp() comparing by function under the address key too:
# fp-address merges a function's addresses into one branch.  And: no
# check for callchains in report__check_recording(): -g graph on a
# recording without them prints the flat profile and exits 0.
# And: --no-inline not reaching the unwinder's walk (thread__walk_sample_chain()
# given true): dw-no-inline shows "descend (inlined)" where perf has none.
# And: report__setup_trees() taking the default order from the Children
# the recording allows (not from the option): a pipe's trees come out in
# callee order and pipe-default differs; and, before that, no trees at
# all on a pipe (set up only when the header's events had callchains).
# The relative total summed per sample not filtered instead of per entry
# not filtered made dw-relative fail once (a recording where a level3
# sample came before level2's own); *-relative-made compare that case,
# and say whether the recording had it (stock perf prints no level2 row
# there though level2 has samples of its own).

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-tree

src="$libdir/report-children-workload.c"
gcc -O1 -fno-omit-frame-pointer -g -o "$tmp/wfp" "$src" 2>"$tmp/gcc.err" ||
	fail "gcc: $(cat "$tmp/gcc.err")"
gcc -O2 -fomit-frame-pointer -g -o "$tmp/wdw" "$src" 2>"$tmp/gcc.err" ||
	fail "gcc: $(cat "$tmp/gcc.err")"
nodw=
"$TEXTPOKE" version --build-options | grep -q 'libdw: \[ on' ||
	nodw="dwarf part: perf-textpoke built without libdw"

# same_tree NAME FILE ARGS...: as same_report, perf's fractal "[...]"
# suffix normalised (see above), and the trees must be there, unless
# $any is set (a filter that may leave no row)
same_tree() {
	local name=$1 file=$2
	shift 2
	perf_report -i "$file" "$@" >"$tmp/$name.perf.raw" 2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf report failed: $(head -3 "$tmp/$name.perf.err")"
	sed 's/--\[\.\.\.\] (inlined)$/--[...]/' "$tmp/$name.perf.raw" >"$tmp/$name.perf"
	ours_report -i "$file" "$@" >"$tmp/$name.ours" 2>"$tmp/$name.ours.err" ||
		fail "$name: perf textpoke report failed: $(head -3 "$tmp/$name.ours.err")"
	if [ -z "$any" ]; then
		grep -q '^[^#]' "$tmp/$name.perf" || fail "$name: stock perf printed no rows"
		# a tree line: stock perf printed a tree, flat or folded chain
		grep -qE '^ {12}|^[0-9.]+%? ' "$tmp/$name.perf" ||
			fail "$name: stock perf printed no call-graph tree: nothing compared"
	fi
	if ! cmp -s "$tmp/$name.perf" "$tmp/$name.ours"; then
		diff -u "$tmp/$name.perf" "$tmp/$name.ours" | head -40
		fail "$name: differs from stock perf report --stdio $*"
	fi
	echo "ok: $name ($(wc -l <"$tmp/$name.ours") lines equal to perf report $*)"
}

# forms FILE PREFIX PROGRAM: every form, on one recording
forms() {
	local file=$1 p=$2 prog=$3
	same_tree "$p-default" "$file"
	same_tree "$p-no-children" "$file" --no-children
	same_tree "$p-fractal" "$file" -g fractal
	same_tree "$p-fractal-nc" "$file" -g fractal --no-children
	same_tree "$p-flat" "$file" -g flat
	same_tree "$p-folded" "$file" -g folded
	same_tree "$p-folded-nc" "$file" -g folded,callee --no-children
	same_tree "$p-callee" "$file" -g callee
	same_tree "$p-caller-nc" "$file" -g caller --no-children
	same_tree "$p-inverted" "$file" -G --no-children
	same_tree "$p-threshold" "$file" -g graph,5
	same_tree "$p-limit" "$file" -g fractal,0.5,1
	same_tree "$p-period" "$file" -g period
	same_tree "$p-count" "$file" -g fractal,count
	same_tree "$p-prefixes" "$file" -g f,ca,p
	same_tree "$p-sort-sym" "$file" --sort sym
	same_tree "$p-max-stack" "$file" --max-stack 3
	same_tree "$p-max-stack-nc" "$file" --max-stack 3 --no-children
	same_tree "$p-percent-limit" "$file" --percent-limit 2
	same_tree "$p-n" "$file" -n -g fractal,2,callee
	same_tree "$p-relative" "$file" --dsos "$prog" --percentage relative
	same_tree "$p-relative-nc" "$file" --dsos "$prog" --percentage relative --no-children
	same_tree "$p-relative-fractal" "$file" --symbols level2,level3 --percentage relative \
		-g fractal
	# an entry a filtered sample's chain made first stays filtered in perf,
	# and its own samples out of the relative total: level2's, when a
	# level3 sample came first, which leaves perf no row and a total of 0
	# the address key: frames by address, with their source line; the
	# innermost frame alone (see below why), 2%: no address of ld.so's
	# start-up, which runs ~1 ms, can get there
	same_tree "$p-address" "$file" -g address,callee,2 --no-children --max-stack 1
	any=1 same_tree "$p-relative-made" "$file" --symbols level2 --percentage relative
	if ! grep -q '^[^#]' "$tmp/$p-relative-made.perf" &&
		perf_report -i "$file" --no-children --symbols level2 -g none | grep -q '^[^#]'; then
		echo "note: $p: level2's entry was made by a filtered sample's chain first"
	else
		echo "note: $p: level2's entry was not made by a filtered sample's chain first"
	fi
}

# a word that is no form, nor a number: refused, as perf refuses it
"$TEXTPOKE" report -i /dev/null -g graph,bogus >/dev/null 2>"$tmp/g.err"
st=$?
[ $st = 129 ] && grep -q "'bogus'" "$tmp/g.err" ||
	fail "-g graph,bogus: exit $st, $(head -1 "$tmp/g.err"); expected 129 naming 'bogus'"

# -g on a recording without callchains: stock perf says so and prints no
# profile (its exit status 0 aside); ours fails, saying so
perf_record "$tmp/nocg.data" -e cpu-clock -F 1000 -- "$tmp/wfp" 3000000
"$TEXTPOKE" report --no-changes -i "$tmp/nocg.data" -g graph >"$tmp/nocg.out" 2>"$tmp/nocg.err"
st=$?
[ $st = 1 ] && grep -q 'no callchains' "$tmp/nocg.err" && ! grep -q '^[^#]' "$tmp/nocg.out" ||
	fail "-g graph without callchains: exit $st, $(head -1 "$tmp/nocg.err"); expected 1, said"

perf_record "$tmp/fp.data" -e cpu-clock -F 4000 -g -- "$tmp/wfp" 30000000
forms "$tmp/fp.data" fp wfp
# the tree holds the chain main -> level1 -> level3 under main, as drawn
grep -q -- '--level1$' "$tmp/fp-default.ours" || fail "fp: no level1 branch in the trees"

# a pipe (perf record -o -): perf drops Children, its events coming as
# records, but draws the trees, in the caller order --children chose
HOME=$tmp perf record -q -e cpu-clock -F 4000 -g -o - -- "$tmp/wfp" 30000000 \
	>"$tmp/pipe.data" 2>"$tmp/pipe.err" || fail "perf record -o -: $(head -3 "$tmp/pipe.err")"
same_tree pipe-default "$tmp/pipe.data"
same_tree pipe-no-children "$tmp/pipe.data" --no-children
same_tree pipe-folded "$tmp/pipe.data" -g folded
same_tree pipe-fractal "$tmp/pipe.data" -g fractal,callee

[ -z "$nodw" ] || skip "$nodw"
# -D 50: not the dynamic loader's start-up (see report-children.sh)
perf_record "$tmp/dw.data" -e cpu-clock -F 4000 -D 50 --call-graph dwarf -- "$tmp/wdw" 60000000
forms "$tmp/dw.data" dw wdw
grep -q 'descend (inlined)' "$tmp/dw-default.ours" ||
	fail "dw: no inlined descend() in the trees, which stock perf shows"
# --no-inline: unwound frames whole, rows and trees by the symbol alone
same_tree dw-no-inline "$tmp/dw.data" --no-inline
same_tree dw-no-inline-folded "$tmp/dw.data" --no-inline -g folded --no-children
grep -q '(inlined)' "$tmp/dw-no-inline.ours" && fail "dw-no-inline: inlined frames shown"
exit 0
