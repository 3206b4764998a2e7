#!/bin/bash
# report: --hierarchy: trees under its last level, --percent-limit, filters, value columns equal stock perf
# SPDX-License-Identifier: GPL-2.0-only
#
# The report workload (two threads; main in alpha, beta and calls, which
# makes system calls; the worker in alpha and beta) is recorded now by
# stock perf record (cpu-clock) with -g (frame pointers) and with
# --call-graph dwarf.  Both reports read the same file, so sampling luck
# changes what is compared, not whether it must be equal.  Byte for byte
# with stock perf report --stdio --hierarchy 6.1: the trees under each
# entry of the last level (perf's leaves) in its default form and in
# every -g form: caller, callee, flat, folded, fractal, threshold, print
# limit, period, -G, --sort sym... (the single chain's first frame left
# out), --children (which perf drops in hierarchy mode), --max-stack.
# --percent-limit (rows below it left out, their levels below too, and
# perf's "no entry >= N%" line under a row whose next level has none
# left; the trees' threshold then), -n and --show-total-period; the
# same on five public recordings whose frames stock perf resolves as we
# do.  -F is refused, as stock perf refuses it beside --hierarchy.
# The filters (a recording of two commands, sh running w then its copy
# w2): --comm, --pid, --dsos, --symbols, --symbol-filter, alone, together,
# with --percentage relative and --percent-limit, on levels of their own
# key and of others: perf's upper levels count the entries filtered
# below them, a filtered node prints no row though the rows under it
# do, and a filter whose key is no level leaves no row at all
# (mc-comm-nolevel: every node keeps the mark hist_entry__check_and_
# remove_filter() sets at the top; reproduced as perf prints it).  -x
# (with -p, and alone: without the parent key perf's exclude_other
# filters every entry, flat too).  An event group's block (a column per
# member) with filters and --percentage relative.
#
# Where perf is wrong, something else is the oracle:
# - fractal's "[...]" line: perf prints a " (inlined)" suffix from a
#   symbol it mallocs and never clears (report-tree.sh); read as "[...]".
# - -g ...,count: perf 6.1 builds each leaf's tree by merging the chains
#   of the entry it stands for (callchain_merge() in
#   hists__hierarchy_insert_entry()), which counts one per merged node,
#   not one per sample ("--4--" over 700 samples).  The oracle is stock
#   perf's flat profile (no --hierarchy) with the same keys: the tree
#   under each of its rows must be the tree under the leaf of the same
#   keys in ours.
# - the address key is left out: stock perf names another file of libc's
#   DWARF 5 line table than libdw does (report-tree.sh).
#
# Mutation caught: hier__level() printing no tree under the leaves (its
# fprintf_after call made conditional on 0): g-hier-default differs.
# And: the "no entry" line indented one level less ((hr->nr_keys + depth
# - 1) levels): nog-hier-limit-100 differs.  And: hier__filter_bit() not
# marking a top-level node of another key ("!n->depth ||" dropped):
# mc-comm-nolevel prints rows.  And: hier__widths() sizing the columns by
# every node, filtered ones too: mc-dsos's object column is wider.  And:
# report__sample_one() not filtering for -x without the parent key:
# nog-hier-x prints every row.  And: hier__members() taking the node's
# first entry's values alone (j < n->lo + 1): grp-hier's upper rows
# differ.  And: hier_node__cmp() not comparing the other members' periods
# when the leader's tie (perf's __hpp__sort()): grp-hier differed under
# ASan, and on 1 of 7 recordings tried (the order of such ties is
# checked when the recording has one).

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-hierarchy

build_report_workload "$tmp/w" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/g.data" -e cpu-clock -g "$tmp/w" 20000000
perf_record "$tmp/nog.data" -e cpu-clock "$tmp/w" 20000000
nog=$tmp/nog.data
same_report nog-hier "$nog" --hierarchy
nodw=
"$TEXTPOKE" version --build-options | grep -q 'libdw: \[ on' ||
	nodw="dwarf part: perf-textpoke built without libdw"
# -D 50: not the dynamic loader's start-up, whose frames our unwinder and
# perf's libdw unwind differently (report-children.sh)
[ -n "$nodw" ] || perf_record "$tmp/dw.data" -e cpu-clock -D 50 --call-graph dwarf "$tmp/w" 20000000

# same_hier NAME FILE ARGS...: as same_report with --hierarchy, perf's
# fractal "[...]" suffix normalised, and a tree must be there
same_hier() {
	local name=$1 file=$2
	shift 2
	perf_report -i "$file" --hierarchy "$@" >"$tmp/$name.perf.raw" 2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf report failed: $(head -3 "$tmp/$name.perf.err")"
	sed 's/--\[\.\.\.\] (inlined)$/--[...]/' "$tmp/$name.perf.raw" >"$tmp/$name.perf"
	ours_report -i "$file" --hierarchy "$@" >"$tmp/$name.ours" 2>"$tmp/$name.ours.err" ||
		fail "$name: perf textpoke report failed: $(head -3 "$tmp/$name.ours.err")"
	grep -qE '^ {12}[|-]|^ {11}[ 0-9][0-9.]+%$|^[0-9.]+% ' "$tmp/$name.perf" ||
		fail "$name: stock perf printed no call-graph tree: nothing compared"
	if ! cmp -s "$tmp/$name.perf" "$tmp/$name.ours"; then
		diff -u "$tmp/$name.perf" "$tmp/$name.ours" | head -40
		fail "$name: differs from stock perf report --stdio --hierarchy $*"
	fi
	echo "ok: $name ($(wc -l <"$tmp/$name.ours") lines equal to perf report --hierarchy $*)"
}

forms() {
	local file=$1 p=$2
	same_hier "$p-hier-default" "$file"
	same_hier "$p-hier-caller" "$file" -g caller
	same_hier "$p-hier-callee" "$file" -g callee
	same_hier "$p-hier-flat" "$file" -g flat
	same_hier "$p-hier-folded" "$file" -g folded
	same_hier "$p-hier-fractal" "$file" -g fractal
	same_hier "$p-hier-threshold" "$file" -g graph,0.1
	same_hier "$p-hier-limit" "$file" -g fractal,0,callee,1
	same_hier "$p-hier-period" "$file" -g graph,0.5,caller,function,period
	same_hier "$p-hier-inverted" "$file" -G
	same_hier "$p-hier-sym" "$file" --sort sym
	same_hier "$p-hier-sym-dso" "$file" --sort sym,dso
	same_hier "$p-hier-dso-sym" "$file" --sort dso,sym -g callee
	same_hier "$p-hier-children" "$file" --children
	same_hier "$p-hier-max-stack" "$file" --max-stack 3
}

# leaf_trees FILE: each tree line of a report --stdio (with or without
# --hierarchy) after the keys of the row it is under, the keys joined by
# one blank; rows are told from tree lines by their leading percentage,
# a hierarchy level by how far that percentage ends to the right
leaf_trees() {
	awk '
	$1 ~ /^[0-9]+\.[0-9][0-9]%$/ {
		end = index($0, $1) + length($1)
		if (base == "" || end < base)
			base = end
		d = (end - base) / 3
		v = $0
		sub(/^ *[0-9.]+% */, "", v)
		sub(/ *$/, "", v)
		gsub(/  +/, " ", v)
		key[d] = v
		k = key[0]
		for (i = 1; i <= d; i++)
			k = k " " key[i]
		next
	}
	/^#/ || /^ *$/ || k == "" { next }
	{ print k "\t" $0 }' "$1" | sort -s -t '	' -k1,1
}

# count_oracle NAME FILE: --hierarchy -g count against perf's flat profile
count_oracle() {
	local name=$1 file=$2
	perf_report -i "$file" --no-children -g graph,0.5,caller,function,count \
		--sort comm,dso,sym >"$tmp/$name.perf" 2>/dev/null || fail "$name: stock perf report failed"
	ours_report -i "$file" --hierarchy -g graph,0.5,caller,function,count \
		>"$tmp/$name.ours" 2>"$tmp/$name.err" || fail "$name: $(head -3 "$tmp/$name.err")"
	leaf_trees "$tmp/$name.perf" >"$tmp/$name.perf.trees"
	leaf_trees "$tmp/$name.ours" >"$tmp/$name.ours.trees"
	[ -s "$tmp/$name.perf.trees" ] || fail "$name: no tree in stock perf's flat profile"
	# a count shows where a tree branches, which sampling decides
	grep -q -- '--[0-9]*--' "$tmp/$name.perf.trees" ||
		echo "note: $name: no tree branches on this recording: the counts are not compared"
	if ! cmp -s "$tmp/$name.perf.trees" "$tmp/$name.ours.trees"; then
		diff -u "$tmp/$name.perf.trees" "$tmp/$name.ours.trees" | head -30
		fail "$name: the leaves' trees differ from stock perf's flat profile's"
	fi
	# perf's own hierarchy still counts nodes: say so while it does
	perf_report -i "$file" --hierarchy -g graph,0.5,caller,function,count >"$tmp/$name.hperf" 2>/dev/null
	cmp -s "$tmp/$name.hperf" "$tmp/$name.ours" &&
		echo "note: $name: stock perf's --hierarchy counts are right on this recording"
	echo "ok: $name ($(wc -l <"$tmp/$name.ours.trees") tree lines equal to perf's flat profile's)"
}

forms "$tmp/g.data" g
count_oracle g-hier-count "$tmp/g.data"
# --percent-limit: rows below it, and the trees' branches (perf's
# threshold then), left out; the other value columns
same_hier g-hier-limit-2 "$tmp/g.data" --percent-limit 2
same_hier g-hier-limit-cols "$tmp/g.data" --percent-limit 1 -g callee -n --show-total-period
same_report nog-hier-limit-100 "$nog" --hierarchy --percent-limit 100 -n
grep -q '^ *no entry >= 100.00%$' "$tmp/nog-hier-limit-100.ours" ||
	fail "nog-hier-limit-100: no \"no entry\" line under the command"
# the kernel's share: its row shown, perhaps none of its symbols
klimit=$(awk '$2 == "[kernel.kallsyms]" { sub(/%/, "", $1); print $1; exit }' "$tmp/nog-hier.perf")
[ -n "$klimit" ] || fail "nog-hier: no [kernel.kallsyms] row in stock perf's hierarchy"
same_report nog-hier-limit-kernel "$nog" --hierarchy --percent-limit "$klimit" --show-total-period
same_report nog-hier-limit-sym "$nog" --hierarchy --percent-limit 2 --sort sym,dso,comm
same_report nog-hier-limit-relative "$nog" --hierarchy --percent-limit 3 --sort dso,sym \
	--percentage relative
same_report nog-hier-period "$nog" --hierarchy -n --show-total-period

# the filters: two commands (sh runs w, then its copy w2), with trees
cp "$tmp/w" "$tmp/w2"
perf_record "$tmp/mc.data" -e cpu-clock -g -- sh -c "$tmp/w 8000000; $tmp/w2 8000000"
mc=$tmp/mc.data
pid2=$(HOME=$tmp perf script -i "$mc" -F comm,pid 2>/dev/null | awk '$1 == "w2" { print $2; exit }')
[ -n "$pid2" ] || fail "mc: stock perf script shows no sample of w2"
same_hier mc-comm "$mc" --comm w2
same_hier mc-comm-relative "$mc" --comm w,sh --percentage relative
same_hier mc-comm-pid "$mc" --comm w2 --sort pid,dso -g caller
same_hier mc-pid "$mc" --pid "$pid2" -g fractal,2
same_hier mc-dsos "$mc" --dsos w2 -g callee
same_hier mc-dsos-relative "$mc" --comm w2 --dsos w2 --percentage relative --sort dso,comm,sym
same_hier mc-symbols "$mc" --symbols alpha,beta --comm w
same_hier mc-symfilter "$mc" --symbol-filter=e -g callee --percent-limit 1
same_report nog-hier-dsos "$nog" --hierarchy --dsos w
same_report nog-hier-dsos-sym "$nog" --hierarchy --sort sym,dso --dsos libc.so.6
same_report nog-hier-symbols "$nog" --hierarchy --symbols calls,beta -n
same_report nog-hier-symfilter "$nog" --hierarchy --symbol-filter=al
same_report nog-hier-symfilter-limit "$nog" --hierarchy --symbol-filter=getppid --percent-limit 1

# no_rows NAME FILE ARGS...: a filter on a key that is no level of
# perf's: every node keeps the filter's mark, so stock perf prints the
# headers and no row; ours must print the same
no_rows() {
	local name=$1 file=$2
	shift 2
	perf_report -i "$file" --hierarchy "$@" >"$tmp/$name.perf" 2>/dev/null ||
		fail "$name: stock perf report failed"
	ours_report -i "$file" --hierarchy "$@" >"$tmp/$name.ours" 2>"$tmp/$name.err" ||
		fail "$name: $(head -3 "$tmp/$name.err")"
	grep -q '^[^#]' "$tmp/$name.perf" && fail "$name: stock perf printed rows: compare them with same_hier"
	cmp -s "$tmp/$name.perf" "$tmp/$name.ours" ||
		{ diff -u "$tmp/$name.perf" "$tmp/$name.ours" | head -20; fail "$name: differs from stock perf"; }
	echo "ok: $name: no row, as stock perf report --hierarchy $*"
}
no_rows mc-comm-nolevel "$mc" --comm w2 --sort dso,sym
no_rows mc-pid-nolevel "$mc" --pid "$pid2" --sort dso,sym
# an event group (--group, perf's default for one): a column per member,
# each summed over the node's entries, of its own total (perf's recount
# with --percentage relative)
perf_record "$tmp/grp.data" -e '{cpu-clock,task-clock}' "$tmp/w" 5000000
same_report grp-hier "$tmp/grp.data" --hierarchy -n
same_report grp-hier-relative "$tmp/grp.data" --hierarchy --dsos w --percentage relative
same_report grp-hier-limit "$tmp/grp.data" --hierarchy -n --percent-limit 2 --sort dso,sym \
	--show-total-period
same_report grp-hier-nogroup "$tmp/grp.data" --hierarchy --no-group --comm w

# -x: the entries without a --parent match filtered, every entry without
# the parent key (perf finds no parent then), in the flat form too
same_report g-hier-x "$tmp/g.data" --hierarchy -g none -p '^beta|^calls' -x
same_hier g-hier-x-tree "$tmp/g.data" -p '^beta|^calls' -x -g caller
same_report g-hier-x-parent "$tmp/g.data" --hierarchy -g none --sort sym,parent -p '^beta' -x -n
no_rows nog-hier-x "$nog" -x
perf_report -i "$nog" -x -n >"$tmp/x.perf" 2>/dev/null || fail "x: stock perf report failed"
ours_report -i "$nog" -x -n >"$tmp/x.ours" 2>"$tmp/x.err" || fail "x: $(head -3 "$tmp/x.err")"
grep -q '^[^#]' "$tmp/x.perf" && fail "x: stock perf printed rows for -x without the parent key"
cmp -s "$tmp/x.perf" "$tmp/x.ours" || { diff -u "$tmp/x.perf" "$tmp/x.ours" | head; fail "x: differs"; }
echo "ok: x: no row for -x without the parent key, as stock perf"
if [ -z "$nodw" ]; then
	forms "$tmp/dw.data" dw
	count_oracle dw-hier-count "$tmp/dw.data"
else
	echo "skip: $nodw"
fi

# --json: the "hierarchy" rows against stock perf's text (lib/hier-json-check.py)
json_hier() {
	local name=$1 file=$2 strict=$3
	shift 3
	perf_report -i "$file" --hierarchy -n --show-total-period "$@" >"$tmp/$name.perf" \
		2>/dev/null || fail "$name: stock perf report failed"
	"$TEXTPOKE" report --no-changes -i "$file" --json --hierarchy "$@" >"$tmp/$name.json" \
		2>"$tmp/$name.err" || fail "$name: --json: $(head -3 "$tmp/$name.err")"
	python3 "$libdir/hier-json-check.py" "$tmp/$name.json" "$tmp/$name.perf" $strict \
		>"$tmp/$name.check" 2>&1 || { cat "$tmp/$name.check"; fail "$name: --json rows differ"; }
	echo "ok: $name: $(cat "$tmp/$name.check")"
}
json_hier json-nog "$nog" strict
json_hier json-nog-limit "$nog" strict --percent-limit 100
grep -q '"no_entry": true' "$tmp/json-nog-limit.json" || fail "json-nog-limit: no row with no_entry"
json_hier json-g "$tmp/g.data" strict --sort dso,sym
json_hier json-mc-comm "$mc" strict --comm w2 -g caller
json_hier json-mc-pid "$mc" "" --pid "$pid2" --sort pid,dso,sym --percent-limit 1
json_hier json-mc-dsos "$mc" "" --dsos w2 --sort comm,dso,sym -g none --percentage relative
"$TEXTPOKE" report --no-changes -i "$nog" --json >"$tmp/flat.json" 2>/dev/null &&
	python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["profile"][0]["hierarchy"] is not None)' \
		"$tmp/flat.json" || fail "json: \"hierarchy\" is not null without --hierarchy"

# -F: perf 6.1 refuses it beside --hierarchy (and prints its usage)
"$TEXTPOKE" report -i "$nog" --hierarchy -F overhead,sym >"$tmp/F.out" 2>"$tmp/F.err" &&
	fail "hier-F: exit 0"
[ "$(wc -l <"$tmp/F.err")" = 1 ] &&
	grep -q -e "--hierarchy and --fields options cannot be used together" "$tmp/F.err" ||
	fail "hier-F: not perf's one line: $(head -3 "$tmp/F.err")"
HOME=$tmp perf report --stdio -i "$nog" --hierarchy -F overhead,sym 2>&1 |
	grep -q -e "--hierarchy and --fields options cannot be used together" ||
	fail "hier-F: stock perf takes -F with --hierarchy now: compare it"
echo "ok: hier-F refused as stock perf refuses it"

# public recordings with trees that stock perf reads as we do
# (report-corpus-tree.sh names the others and why)
n=0
for rel in perf_data_converter/perf.data.callgraph-3.8 \
	perfparser/fork_static_gcc__perf.data.zstd perfparser/vector_static_gcc__perf.data \
	platform_system_extras/generated_by_linux_perf.data \
	platform_system_extras/perf_with_arm_regs.data; do
	f=$TEXTPOKE_CORPUS/$rel
	[ -f "$f" ] || continue
	same_hier "corpus-$n" "$f"
	same_hier "corpus-$n-limit" "$f" --percent-limit 1 -n --show-total-period -g folded
	n=$((n + 1))
done
[ -d "$TEXTPOKE_CORPUS" ] && [ $n -lt 3 ] && fail "only $n corpus files found in $TEXTPOKE_CORPUS"
exit 0
