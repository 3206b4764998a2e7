#!/bin/bash
# report: --json and --html carry the call-graph trees stock perf report prints, drawn in Chromium
# SPDX-License-Identifier: GPL-2.0-only
#
# The report-children workload is recorded now by stock perf record -g.
# --json: each entry's "callchain" (the tree's frames, each naming its
# parent) must hold the chains stock perf report --stdio -g
# folded,0,ORDER,period prints under the same row, period for period
# (lib/tree-json-check.py), with Children (caller order) and without
# (callee and caller order), and with --sort dso,sym; threshold 0, so
# that nothing is left out and each node's period is its self plus its
# children's.
# --html, perf's default tree (graph,0.5) and with --sort comm (one row
# whose tree holds every chain): the page holds, under each row shown,
# the tree's frames as the JSON's (depth and period); and headless
# Chromium's screenshot of it, opened with the last line of the first
# tree that has lines below it folded (#fold=K), shows one bar per frame
# of that tree outside the folded part, as long as the frame's share of
# the event and indented by its depth (lib/tree-html-check.py, pixels
# read from the PNG).
#
# Mutation caught: walk__children() giving each frame of a run its
# node's self period (not the last frame's alone): every run's inner
# frames become chain ends and the JSON's chains differ from perf's.
# And: CG_BAR_W 190 in report-html.c: every bar is drawn 5% short.
# And: the script's fold() hiding only the lines two levels or more below
# the folded one: its children's bars stay, one bar too many is drawn.
# --html --hierarchy (html-hier): the rows of the JSON's "hierarchy" (itself
# checked against stock perf by report-hierarchy.sh), drawn as the trees'
# lines are, row K folded.  Mutation caught: HIER_BAR_W 190 in
# report-html.c: every row's bar is drawn 5% short.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-tree-output

gcc -O1 -fno-omit-frame-pointer -g -o "$tmp/wfp" "$libdir/report-children-workload.c" \
	2>"$tmp/gcc.err" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/fp.data" -e cpu-clock -F 4000 -g -- "$tmp/wfp" 30000000

# same_json NAME ORDER ARGS...: ours --json against perf's folded chains
same_json() {
	local name=$1 order=$2
	shift 2
	perf_report -i "$tmp/fp.data" -g "folded,0,$order,period" "$@" >"$tmp/$name.perf" \
		2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf report failed: $(head -3 "$tmp/$name.perf.err")"
	"$TEXTPOKE" report --no-changes -i "$tmp/fp.data" --json -g "graph,0,$order" "$@" \
		>"$tmp/$name.json" 2>"$tmp/$name.err" ||
		fail "$name: perf textpoke report --json failed: $(head -3 "$tmp/$name.err")"
	python3 "$libdir/tree-json-check.py" "$tmp/$name.json" "$tmp/$name.perf" \
		>"$tmp/$name.check" 2>&1 || { cat "$tmp/$name.check"; fail "$name: --json trees differ"; }
	echo "ok: $name: $(cat "$tmp/$name.check")"
}

same_json children caller
same_json no-children-callee callee --no-children
same_json no-children-caller caller --no-children
same_json sort-dso-sym caller --sort dso,sym
grep -q '"sym": "level1"' "$tmp/children.json" || fail "children: no level1 frame in the trees"

# same_html [--hier] NAME ARGS...: the HTML's trees (--hier: its
# --hierarchy rows) against the JSON's, and drawn in Chromium
same_html() {
	local hier= name n k
	[ "$1" = --hier ] && { hier=--hier; shift; }
	name=$1
	shift
	"$TEXTPOKE" report --no-changes -i "$tmp/fp.data" --json "$@" >"$tmp/$name.json" \
		2>"$tmp/$name.err" || fail "$name: --json: $(head -3 "$tmp/$name.err")"
	"$TEXTPOKE" report --no-changes -i "$tmp/fp.data" --stdio --html "$tmp/$name.html" "$@" \
		>/dev/null 2>"$tmp/$name.err" || fail "$name: --html: $(head -3 "$tmp/$name.err")"
	n=$(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["profile"][0]
print(len(p["hierarchy"]) if p["hierarchy"] else len(p["entries"][0]["callchain"]))' \
		"$tmp/$name.json")
	k=$(python3 "$libdir/tree-html-check.py" $hier --fold-line "$tmp/$name.json")
	[ "$k" -gt 0 ] || fail "$name: the first tree ($n lines) has no line to fold"
	timeout 50 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/chrome" --hide-scrollbars \
		--window-size=1400,$((400 + 14 * n)) --screenshot="$tmp/$name.png" \
		"file://$tmp/$name.html#${hier:+h}fold=$k" >"$tmp/chrome.log" 2>&1
	[ -s "$tmp/$name.png" ] || { tail -5 "$tmp/chrome.log"; fail "$name: no screenshot"; }
	python3 "$libdir/tree-html-check.py" $hier "$tmp/$name.html" "$tmp/$name.json" \
		"$tmp/$name.png" "$k" >"$tmp/$name.check" 2>&1 ||
		{ cat "$tmp/$name.check"; fail "$name: --html trees not as drawn"; }
	echo "ok: $name: $(cat "$tmp/$name.check")"
}

command -v chromium >/dev/null 2>&1 ||
	skip "Chromium part: chromium is not installed (make test-deps)"
# perf's default tree (graph,0.5,caller, Children): a tree per row; and
# one row for the command, whose tree holds every chain over 0.5%
same_html html-default
same_html html-comm --sort comm
# --hierarchy: perf's levels (comm, dso, sym), each row a bar, the trees
# under the last level folded away with their row
same_html --hier html-hier --hierarchy
exit 0
