#!/bin/bash
# pt-decode: ptgen's PT fixtures decode as stock perf (kcore at the start) and as their truth
# SPDX-License-Identifier: GPL-2.0-only
#
# `perf textpoke test --write-fixture pt-{start,end,none} DIR` (ptgen's
# generator) writes an Intel PT recording of a made-up kernel whose code
# changes under the trace, with truth.txt (every executed instruction) and
# branches.txt (every taken branch: cpu, time, from, to).
#  - pt-start (a kcore taken before the first change, the case stock perf
#    decodes right): our --itrace=b -F +flags equals stock perf's, line for
#    line, and has as many branches as branches.txt;
#  - pt-end (a kcore taken at the end): our branches are branches.txt's,
#    exactly (cpu, time to the ns, from, to), with no decode error; stock
#    perf's errors are counted and printed;
#  - pt-none (no kcore: poked sites, the trampoline and BPF code only):
#    every branch we give from an address (restarts at IP packets are
#    trace starts from 0) is one of branches.txt's (that every instruction
#    whose bytes the image knows is decoded is pt-decode-fixture.c's part);
#    both error counts are printed.
#
# Mutation caught: reading kernel bytes at a fixed time (time 0 in
# intel-pt-decode.c's ipt_read_memory) decodes every fixture with the code
# of before the first change: branches leave branches.txt (applied: pt-start
# 352 branches not in it, FAIL; reverted).

. "$(dirname "$0")"/lib/common.sh

[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
"$TEXTPOKE" version --build-options | grep -q 'libipt: \[ on' || skip "built without libipt"
scratch pt-decode-fixture
writer=${TEXTPOKE_FIXTURE_WRITER:-$TEXTPOKE}
mkdir "$tmp/probe"
if ! "$writer" test --write-fixture pt-start:100 "$tmp/probe" >"$tmp/probe.out" 2>&1; then
	grep -q "bad value 'pt-start" "$tmp/probe.out" &&
		skip "this build has no PT fixtures (--write-fixture pt-start)"
	fail "--write-fixture pt-start: $(head -3 "$tmp/probe.out")"
fi

# our branches as branches.txt lines: "cpu time 0xfrom 0xto", from the
# default fields with --ns: "comm tid [cpu] time: period branches: from
# sym (dso) => to sym (dso)" (no -F: that would drop the target, as in perf)
branches() {
	awk '/ branches: / {
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^\[[0-9]+\]$/) { c = $i; gsub(/[\[\]]/, "", c); t = $(i + 1) }
			if ($i == "branches:") from = $(i + 1)
			if ($i == "=>") to = $(i + 1)
		}
		sub(/:$/, "", t); split(t, a, ".")
		printf "%d %d 0x%s 0x%s\n", c, a[1] * 1000000000 + a[2], from, to
	}' "$1"
}

for k in start end none; do
	d=$tmp/$k
	mkdir "$d"
	"$writer" test --write-fixture pt-$k "$d" >/dev/null || fail "--write-fixture pt-$k"
	HOME=$tmp perf script -i "$d/perf.data" --itrace=be -F +flags >"$tmp/perf.$k" \
		2>"$tmp/perf.$k.err" || fail "stock perf on pt-$k: $(head -3 "$tmp/perf.$k.err")"
	"$TEXTPOKE" script -i "$d/perf.data" --itrace=be -F +flags >"$tmp/ours.$k" \
		2>"$tmp/ours.$k.err" || fail "ours on pt-$k: $(head -3 "$tmp/ours.$k.err")"
	pe=$(grep -c 'instruction trace error' "$tmp/perf.$k")
	oe=$(grep -c 'instruction trace error' "$tmp/ours.$k")
	"$TEXTPOKE" script -i "$d/perf.data" --itrace=b --ns >"$tmp/ours.$k.b" \
		2>"$tmp/ours.$k.b.err" || fail "ours on pt-$k -F: $(head -3 "$tmp/ours.$k.b.err")"
	branches "$tmp/ours.$k.b" | sed 's/0x0*\([0-9a-f]\)/0x\1/g' | sort >"$tmp/ours.$k.set"
	sed 's/0x0*\([0-9a-f]\)/0x\1/g' "$d/branches.txt" | sort >"$tmp/truth.$k.set"
	# without the code, a restart at an IP packet is a trace start, from 0:
	# not a branch the code took
	[ $k = none ] && grep -v ' 0x0 ' "$tmp/ours.$k.set" >"$tmp/x" && mv "$tmp/x" "$tmp/ours.$k.set"
	nt=$(wc -l <"$tmp/truth.$k.set")
	no=$(wc -l <"$tmp/ours.$k.set")
	extra=$(comm -23 "$tmp/ours.$k.set" "$tmp/truth.$k.set" | wc -l)
	echo "pt-$k: $no branches of the truth's $nt ($extra not in it); decode errors: ours $oe, stock perf's $pe"
	[ "$no" -gt 0 ] || fail "pt-$k: no branch decoded"
	[ "$extra" = 0 ] ||
		fail "pt-$k: branches not in branches.txt: $(comm -23 "$tmp/ours.$k.set" "$tmp/truth.$k.set" | head -3)"
	case $k in
	start)
		diff "$tmp/perf.$k" "$tmp/ours.$k" >"$tmp/d" ||
			fail "pt-start: differs from stock perf: $(head -6 "$tmp/d")"
		[ "$no" = "$nt" ] || fail "pt-start: $no branches, branches.txt has $nt"
		;;
	end)
		[ "$no" = "$nt" ] || fail "pt-end: $no branches, branches.txt has $nt"
		[ "$oe" = 0 ] || fail "pt-end: $oe decode errors: $(grep -m1 'trace error' "$tmp/ours.$k")"
		;;
	esac
done
exit 0
