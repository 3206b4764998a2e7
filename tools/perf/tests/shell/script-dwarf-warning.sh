#!/bin/bash
# script: a --call-graph dwarf recording prints its user frames, with no warning
# SPDX-License-Identifier: GPL-2.0-only
#
# Stock perf record --call-graph dwarf stores the kernel part of each
# callchain and a dump of the user stack; perf script unwinds the dump.
# Ours used to print the kernel frames only, with a warning that user
# stacks are not unwound.  Now, with the default fields: every sample in
# whose chain stock perf shows a frame of the workload has one in ours
# (samples matched by their header line), and nothing reaches stderr --
# nor with -G, -q, or for a frame-pointer (-g) recording.  A recording
# that lost events (a slow, sanitized build on a busy machine) says so,
# as perf does: that line is not counted.  unwind-parity.sh compares the
# chains frame for frame.
#
# Mutation caught: unwind__sample_has_stack() returning false (no user
# frame in any chain: 0 of N samples).

. "$(dirname "$0")/lib/script-common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
command -v gcc >/dev/null 2>&1 || skip "gcc is not installed"
scratch dwarf
export HOME=$tmp

build_workload "$tmp/work" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/dwarf.data" --call-graph dwarf -- "$tmp/work"
perf_record "$tmp/fp.data" -g -- "$tmp/work"

# the oracle: stock perf unwinds user frames from the dumps
perf script -i "$tmp/dwarf.data" --ns >"$tmp/perf.out" 2>/dev/null
grep -q "(${tmp}/work)$" "$tmp/perf.out" ||
	skip "stock perf unwound no frame of the workload: nothing to compare"

"$TEXTPOKE" script -i "$tmp/dwarf.data" --ns >"$tmp/ours.out" 2>"$tmp/ours.err" ||
	fail "perf textpoke script: $(head -3 "$tmp/ours.err")"
# what the session says of records the kernel lost is not a warning about stacks
lost_filter() {
	grep -v "^warning: .* events lost in [0-9]* LOST records" "$1" >"$1.kept"
	mv "$1.kept" "$1"
}
lost_filter "$tmp/ours.err"
[ -s "$tmp/ours.err" ] && fail "a dwarf recording warned: $(head -3 "$tmp/ours.err")"

awk -v bin="($tmp/work)" '
	BEGIN { RS = ""; FS = "\n" }
	function has_bin(   i) {
		for (i = 2; i <= NF; i++)
			if (substr($i, length($i) - length(bin) + 1) == bin)
				return 1
		return 0
	}
	FNR == 1 { file++ }
	file == 1 { if (has_bin()) want[$1] = 1; next }
	($1 in want) && has_bin() { got++ }
	END {
		for (h in want)
			n++
		printf "%d of %d samples with workload frames in perf have them in ours\n", got, n
		exit !(n > 0 && got == n)
	}' "$tmp/perf.out" "$tmp/ours.out" >"$tmp/verdict" || fail "$(cat "$tmp/verdict")"
echo "ok: no warning; $(cat "$tmp/verdict")"

"$TEXTPOKE" script -G -i "$tmp/dwarf.data" >/dev/null 2>"$tmp/g.err" || fail "script -G"
lost_filter "$tmp/g.err"
[ -s "$tmp/g.err" ] && fail "-G, yet: $(head -3 "$tmp/g.err")"
"$TEXTPOKE" script -q -i "$tmp/dwarf.data" >/dev/null 2>"$tmp/q.err" || fail "script -q"
lost_filter "$tmp/q.err"
[ -s "$tmp/q.err" ] && fail "-q, yet: $(head -3 "$tmp/q.err")"
"$TEXTPOKE" script -i "$tmp/fp.data" >/dev/null 2>"$tmp/fp.err" || fail "script of -g"
lost_filter "$tmp/fp.err"
[ -s "$tmp/fp.err" ] && fail "a frame-pointer recording warned: $(head -3 "$tmp/fp.err")"
echo "ok: no warning with -G, with -q, nor for a -g recording"
exit 0
