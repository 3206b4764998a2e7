#!/bin/bash
# report: --json and --html show an event group as the text's one block, a figure per member
# SPDX-License-Identifier: GPL-2.0-only
#
# Recordings made now by stock perf record of the group
# '{cpu-clock,task-clock}' (HEADER_GROUP_DESC), of a shell loop and, with
# -g, of a frame-pointer program; and the public corpus's group files
# (perf_data_converter's group_desc-4.14, and the pipe of 6.8).  Stock
# perf report --stdio 6.1 shows a group as one block (which
# report-group.sh checks ours against, byte for byte): "anon group {
# cpu-clock, task-clock }", a value per member side by side.  Our --json
# must have the same blocks and, in each, the rows of stock perf's text
# in order: each entry's "members" the members' Overhead/Self,
# Children, Samples and Period (their percentages made from the JSON's
# periods and the block's "members" totals), its own values the
# leader's, and its keys; the --html table's rows the same cells
# (lib/keys-output-check.py).  With the trees, each row's JSON tree is
# the leader's, against stock perf's folded chains
# (lib/tree-json-check.py).  --no-group gives a block per event again,
# and --percent-limit leaves out the rows the text leaves out (the
# leader's share of its own total).
#
# Mutation caught: html__values() taking every member's share of the
# block's total (hist->total_period, the members' summed) instead of its
# own (grp: the HTML's Overhead "13.11% 13.11%" where perf prints
# "26.23%  26.23%").

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-group-output
export HOME=$tmp
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
[ -d "$TEXTPOKE_CORPUS" ] || skip "no corpus at '$TEXTPOKE_CORPUS'"

loop='i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done'
perf_record "$tmp/grp.data" -e '{cpu-clock,task-clock}' -F 2000 -- sh -c "$loop"
gcc -O1 -fno-omit-frame-pointer -g -o "$tmp/wfp" "$libdir/report-children-workload.c" \
	2>"$tmp/gcc.err" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/grp-g.data" -g -e '{cpu-clock,task-clock}' -F 2000 -- "$tmp/wfp" 10000000
HOME=$tmp perf report --header-only -i "$tmp/grp.data" 2>/dev/null |
	grep -q '^# group: {cpu-clock,task-clock}' || fail "grp.data: perf lists no group"

# same_outputs NAME FILE ARGS...: ours --json and --html against stock perf report --stdio
same_outputs() {
	local name=$1 file=$2
	shift 2
	perf_report -i "$file" "$@" >"$tmp/$name.perf" 2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf report failed: $(head -3 "$tmp/$name.perf.err")"
	"$TEXTPOKE" report --no-changes -i "$file" "$@" --json >"$tmp/$name.json" 2>"$tmp/$name.err" ||
		fail "$name: --json: $(head -3 "$tmp/$name.err")"
	"$TEXTPOKE" report --no-changes -i "$file" "$@" --html "$tmp/$name.html" 2>"$tmp/$name.err" ||
		fail "$name: --html: $(head -3 "$tmp/$name.err")"
	python3 "$libdir/keys-output-check.py" "$tmp/$name.perf" "$tmp/$name.json" \
		"$tmp/$name.html" >"$tmp/$name.check" 2>&1 ||
		fail "$name ($*): $(cat "$tmp/$name.check")"
	echo "ok: $name: $(cat "$tmp/$name.check"), as stock perf report $*"
}

same_outputs grp "$tmp/grp.data"
same_outputs grp-n-period "$tmp/grp.data" -n --show-total-period
same_outputs grp-sym "$tmp/grp.data" --sort sym -n
same_outputs grp-limit "$tmp/grp.data" --percent-limit 3
same_outputs grp-no-group "$tmp/grp.data" --no-group -n
same_outputs grp-g "$tmp/grp-g.data" -n
same_outputs grp-g-self "$tmp/grp-g.data" --no-children --show-total-period
same_outputs grp-g-flat "$tmp/grp-g.data" -g none -n
same_outputs grp-g-limit "$tmp/grp-g.data" --percent-limit 5 -s sym
grep -q '"event": "anon group { cpu-clock, task-clock }"' "$tmp/grp.json" ||
	fail "grp: no group block in the JSON"
grep -q '<h2>anon group { cpu-clock, task-clock }</h2>' "$tmp/grp.html" ||
	fail "grp: no group block in the HTML"

# the trees: each row's the leader's, as perf's folded chains
for order in caller callee; do
	perf_report -i "$tmp/grp-g.data" -g "folded,0,$order,period" >"$tmp/tree-$order.perf" \
		2>"$tmp/tree.err" || fail "tree-$order: stock perf report: $(head -3 "$tmp/tree.err")"
	"$TEXTPOKE" report --no-changes -i "$tmp/grp-g.data" --json -g "graph,0,$order" \
		>"$tmp/tree-$order.json" 2>"$tmp/tree.err" ||
		fail "tree-$order: --json: $(head -3 "$tmp/tree.err")"
	python3 "$libdir/tree-json-check.py" "$tmp/tree-$order.json" "$tmp/tree-$order.perf" \
		>"$tmp/tree.check" 2>&1 || fail "tree-$order: $(cat "$tmp/tree.check")"
	echo "ok: tree-$order: $(cat "$tmp/tree.check")"
done

# the corpus's group recordings, as stock perf reads them
n=0
for f in perf_data_converter/perf.data.group_desc-4.14 \
	perf_data_converter/perf.data.piped.header_feautres_group_desc-6.8; do
	[ -f "$TEXTPOKE_CORPUS/$f" ] || fail "the corpus has no $f (INDEX.md lists it)"
	same_outputs "corpus-$n" "$TEXTPOKE_CORPUS/$f" -n
	grep -q '"members"' "$tmp/corpus-$n.json" || fail "$f: no group block in the JSON"
	n=$((n + 1))
done
exit 0
