#!/bin/bash
# record: under load, every lost event is in the file and in the closing lines, as stock perf counts
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it records the whole system (-a), which another test would load
#
# Both CPUs spin, cpu-clock samples every 10 us on each (-c 10000 -a) into
# a one-page ring (-m 1): the rings overflow.  How much is lost depends on
# the scheduler, so no count is fixed; what must hold on whatever was
# lost, with stock perf 6.1 as the oracle on our file:
# - our closing warnings are the text stock perf report prints on the
#   file ("Processed N events and lost M chunks!", "Processed S samples
#   and lost X%!"), and their numbers are perf report --stats' TOTAL, LOST
#   and SAMPLE counts and its "Total Lost Samples";
# - every record a ring dropped is counted both in the ring's LOST records
#   and in its event's lost count (LOST_SAMPLES, read at the end), so the
#   LOST_SAMPLES add up to at least what the LOST records say;
# - perf textpoke script --show-lost-events prints the LOST records as
#   stock perf script does, and perf textpoke report the same "Total Lost
#   Samples" as stock perf report.
# Mutation caught: record__write_lost_samples() returning 0 at once (the
# LOST_SAMPLES fall short of the LOST records); record__count() taking
# nr_chunks from PERF_RECORD_LOST_SAMPLES (the closing line differs from
# stock perf report's).

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch record-load
export HOME=$tmp

build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"

"$tmp/loop" 1.5 &
l1=$!
"$tmp/loop" 1.5 &
l2=$!
record "$tmp/load.data" --no-bpf-capture -m 1 -c 10000 -e cpu-clock -a -- sleep 0.5
wait $l1 $l2

# stock perf's counts of our file
perf report --stats -i "$tmp/load.data" >"$tmp/stats" 2>"$tmp/stats.err" ||
	fail "stock perf report --stats: $(head -3 "$tmp/stats.err")"
# Aggregated stats come first; the per-event ones repeat SAMPLE and LOST_SAMPLES
count() {
	awk -v t="$1" '/ stats:$/ && !/^Aggregated/ { exit } $1 == t && $2 == "events:" { print $3; f = 1 }
		END { if (!f) print 0 }' "$tmp/stats"
}
total=$(count TOTAL)
chunks=$(count LOST)
samples=$(count SAMPLE)
[ "$samples" -gt 0 ] || fail "stock perf report sees no samples in our file"
perf report --stdio -i "$tmp/load.data" >"$tmp/report" 2>"$tmp/report.err" ||
	fail "stock perf report: $(head -3 "$tmp/report.err")"
lost_samples=$(sed -n 's/^# Total Lost Samples: \([0-9]*\)$/\1/p' "$tmp/report")
[ -n "$lost_samples" ] || fail "stock perf report printed no Total Lost Samples"
lost_events=$(perf report -D -i "$tmp/load.data" 2>/dev/null |
	awk -F'lost:' '/PERF_RECORD_LOST:/ { n += $2 } END { print n + 0 }')

# the closing warnings: stock perf report's text on the same file, the
# numbers those of its counts
sed -n '/Woken up/,/Captured and wrote/p' "$tmp/record.err" | sed '1d;$d' >"$tmp/ours.warn"
sed -n '/^Warning:$/,$p' "$tmp/report.err" >"$tmp/perf.warn"
diff "$tmp/perf.warn" "$tmp/ours.warn" >"$tmp/warn.diff" ||
	fail "closing warnings differ from stock perf report's on our file: $(cat "$tmp/warn.diff")"
grep -q "Woken up [0-9]* times to write data" "$tmp/record.err" ||
	fail "no 'Woken up' line: $(cat "$tmp/record.err")"
if [ "$chunks" -gt 0 ]; then
	grep -qx "Processed $total events and lost $chunks chunks!" "$tmp/ours.warn" ||
		fail "the file has $total records, $chunks LOST; we said: $(cat "$tmp/ours.warn")"
else
	grep -q "chunks" "$tmp/ours.warn" && fail "no LOST record in the file, we warned: $(cat "$tmp/ours.warn")"
fi
all=$((samples + lost_samples))
line=$(awk -v l="$lost_samples" -v a="$all" \
	'BEGIN { if (l / a > 0.05) printf "Processed %d samples and lost %3.2f%%!", a, 100 * l / a }')
if [ -n "$line" ]; then
	grep -qxF "$line" "$tmp/ours.warn" || fail "expected '$line', we said: $(cat "$tmp/ours.warn")"
else
	grep -q "samples and lost" "$tmp/ours.warn" &&
		fail "a drop rate of 5% or less, we warned: $(cat "$tmp/ours.warn")"
fi
[ "$lost_samples" -ge "$lost_events" ] ||
	fail "the LOST records drop $lost_events records, the events' lost counts only $lost_samples"

# our script and report print what stock perf prints of them
# (pids, not commands: a thread whose COMM was among the lost has no name)
perf script -F pid,tid,cpu,time --show-lost-events -i "$tmp/load.data" 2>/dev/null |
	grep PERF_RECORD_LOST >"$tmp/lost.perf"
"$TEXTPOKE" script -F pid,tid,cpu,time --show-lost-events -i "$tmp/load.data" \
	2>"$tmp/script.err" >"$tmp/script.out" ||
	fail "perf textpoke script: $(head -3 "$tmp/script.err")"
grep PERF_RECORD_LOST "$tmp/script.out" >"$tmp/lost.ours"
[ "$(wc -l <"$tmp/lost.perf")" = "$chunks" ] || fail "stock perf script shows $(wc -l <"$tmp/lost.perf") of $chunks LOST records"
diff "$tmp/lost.perf" "$tmp/lost.ours" >"$tmp/lost.diff" ||
	fail "--show-lost-events differs from stock perf script: $(head -5 "$tmp/lost.diff")"
"$TEXTPOKE" report --stdio -i "$tmp/load.data" >"$tmp/ours.report" 2>"$tmp/ours.report.err" ||
	fail "perf textpoke report: $(head -3 "$tmp/ours.report.err")"
grep -qx "# Total Lost Samples: $lost_samples" "$tmp/ours.report" ||
	fail "perf textpoke report: $(grep "Total Lost" "$tmp/ours.report"), stock perf: $lost_samples"
echo "ok: $samples samples, $chunks LOST records dropping $lost_events, $lost_samples lost samples: as stock perf counts"
