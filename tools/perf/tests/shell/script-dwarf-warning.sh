#!/bin/bash
# script: a --call-graph dwarf recording says once that user stacks are not unwound
# SPDX-License-Identifier: GPL-2.0-only
#
# Stock perf record --call-graph dwarf stores the kernel part of each
# callchain and a dump of the user stack, which perf script unwinds.  We do
# not unwind it yet, so our callchains are shorter than perf's: one line
# on stderr must say so, once, whatever the number of samples; -G (no
# callchains printed) and a frame-pointer recording (-g) get no warning.
# A recording that lost events (a slow, sanitized build on a busy
# machine) also says so, as perf does: that line is not counted.

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
perf script -i "$tmp/dwarf.data" >"$tmp/perf.out" 2>/dev/null
grep -q "(${tmp}/work)$" "$tmp/perf.out" ||
	skip "stock perf unwound no frame of the workload: nothing to compare"
samples=$(grep -c "cpu-clock" "$tmp/perf.out")
[ "$samples" -gt 1 ] || skip "only $samples samples"

"$TEXTPOKE" script -i "$tmp/dwarf.data" >"$tmp/ours.out" 2>"$tmp/ours.err" ||
	fail "perf textpoke script: $(head -3 "$tmp/ours.err")"
# what the session says of records the kernel lost is not this warning
lost_filter() {
	grep -v "^warning: .* events lost in [0-9]* LOST records" "$1" >"$1.kept"
	mv "$1.kept" "$1"
}
lost_filter "$tmp/ours.err"
[ "$(wc -l <"$tmp/ours.err")" = 1 ] ||
	fail "expected one line on stderr for $samples dwarf samples, got: $(head -5 "$tmp/ours.err")"
grep -q "^warning: $tmp/dwarf.data: .*dwarf.* not unwound" "$tmp/ours.err" ||
	fail "not the dwarf warning: $(cat "$tmp/ours.err")"
echo "ok: $samples dwarf samples, one warning: $(cat "$tmp/ours.err")"

"$TEXTPOKE" script -G -i "$tmp/dwarf.data" >/dev/null 2>"$tmp/g.err" || fail "script -G"
lost_filter "$tmp/g.err"
[ -s "$tmp/g.err" ] && fail "-G prints no callchain, yet: $(head -3 "$tmp/g.err")"
"$TEXTPOKE" script -q -i "$tmp/dwarf.data" >/dev/null 2>"$tmp/q.err" || fail "script -q"
lost_filter "$tmp/q.err"
[ -s "$tmp/q.err" ] && fail "-q, yet: $(head -3 "$tmp/q.err")"
"$TEXTPOKE" script -i "$tmp/fp.data" >/dev/null 2>"$tmp/fp.err" || fail "script of -g"
lost_filter "$tmp/fp.err"
[ -s "$tmp/fp.err" ] && fail "a frame-pointer recording warned: $(head -3 "$tmp/fp.err")"
echo "ok: no warning with -G, with -q, nor for a -g recording"
exit 0
