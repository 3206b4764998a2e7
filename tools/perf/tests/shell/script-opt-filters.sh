#!/bin/bash
# script: --time, -C, --pid, --tid, -c, -S, --dsos, -a, --reltime, --deltatime as perf script
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it records the whole system (-a), which another test would load
#
# One system-wide recording of a workload, printed by stock perf script
# and by us with each filter and time display option: the outputs are
# byte-identical, the filters leave some samples out and keep some in
# (else the comparison proves nothing), side-band lines follow perf (only
# -C leaves them out), and the strings perf refuses we refuse too, with
# its message.  The --time bounds come from perf's own header dump.
#
# Mutation caught: script_filter__skip_cpu() returning false (-C 0 prints
# the other cpus' samples too); perf_time__ranges_skip() testing "nr >= 1"
# for "nr == 1", so that only the first of several ranges counts.

. "$(dirname "$0")/lib/script-opt.sh"
need_perf_root
scratch script-opt
export HOME=$tmp/home
mkdir -p "$HOME"

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
# -a: the samples carry PERF_SAMPLE_CPU, and other tasks give -c/--pid something to drop;
# two workloads keep two cpus busy, for -C to leave one out
perf_record "$tmp/a.data" -a -e cpu-clock -- sh -c "$tmp/w64 200000000 & $tmp/w64 200000000; wait"
f=$tmp/a.data

perf report -i "$f" --header-only >"$tmp/header" 2>&1 || fail "perf report --header-only"
first=$(sed -n 's/^# time of first sample : //p' "$tmp/header")
last=$(sed -n 's/^# time of last sample : //p' "$tmp/header")
[ -n "$first" ] && [ -n "$last" ] || fail "stock perf shows no first/last sample time"
# at the given fraction of the span, in perf's seconds.microseconds
at() { awk -v a="$first" -v b="$last" -v f="$1" 'BEGIN { printf "%.6f", a + (b - a) * f }'; }
t1=$(at 0.2) t2=$(at 0.4) t3=$(at 0.6) t4=$(at 0.8)
# the same from the first sample, for --reltime
rel() { awk -v a="$first" -v b="$last" -v f="$1" 'BEGIN { printf "%.6f", (b - a) * f }'; }
r1=$(rel 0.2) r2=$(rel 0.4)

HOME=$tmp perf script -i "$f" >"$tmp/all" || fail "perf script"
total=$(wc -l <"$tmp/all")
pid=$(awk '$1 == "w64" { print $2; exit }' "$tmp/all")
[ -n "$pid" ] || fail "no sample of the workload in stock perf's output"
addr=$(awk '$1 == "w64" && $NF ~ /kernel/ { print $(NF - 2); exit }' "$tmp/all")
[ -n "$addr" ] || addr=$(awk '{ print $(NF - 2); exit }' "$tmp/all")

# filtered NAME ARGS...: same output as perf, fewer lines than the whole, at least one
filtered() {
	local name=$1 n
	shift
	same_own "$name" "$f" "$@"
	n=$(wc -l <"$tmp/$name.ours")
	[ "$n" -lt "$total" ] || fail "$name: $* left nothing out ($n of $total lines)"
}

filtered time-range --time "$t1,$t2"
filtered time-open-end --time "$t3,"
filtered time-open-start --time ",$t2"
filtered time-two-ranges --time "$t1,$t2 $t3,$t4"
filtered time-percent --time 10%
filtered time-slice --time 10%/2
filtered time-slices --time 10%/2,10%/4
filtered time-spans --time 0%-10%,50%-60%
filtered time-reltime --reltime --time "$r1,$r2"
skipped=
if [ "$(awk '$3 ~ /^\[0*1\]$/' "$tmp/all" | wc -l)" -gt 0 ]; then
	filtered cpu -C 0
	same_own cpus "$f" -C 0-0,1
	same_own cpu-task-events "$f" -C 1 --show-task-events
else
	skipped="-C: no sample on cpu 1 (one cpu online?)"
fi
filtered pid --pid "$pid"
filtered tid --tid "$pid"
filtered comm -c w64
filtered comms -c w64,perf
filtered symbol -S work
filtered address -S "$addr"
filtered dso-kernel --dsos '[kernel.kallsyms]'
filtered dso-path --dsos "$tmp/w64"
# side-band lines are kept whatever the pid, as perf does
same_own pid-task-events "$f" --show-task-events --pid "$pid"
grep -q 'PERF_RECORD_COMM' "$tmp/pid-task-events.ours" || fail "--pid dropped the COMM lines"
same_own all-cpus "$f" -a
same_own reltime "$f" --reltime --show-task-events
same_own deltatime "$f" --deltatime --show-task-events --ns

# what perf refuses, we refuse, with its message
refused() {
	local name=$1 msg=$2
	shift 2
	HOME=$tmp perf script -i "$f" "$@" >"$tmp/$name.perf" 2>"$tmp/$name.perf.err"
	grep -qF "$msg" "$tmp/$name.perf.err" || fail "$name: stock perf does not say '$msg'"
	"$TEXTPOKE" script -i "$f" "$@" >"$tmp/$name.ours" 2>"$tmp/$name.ours.err" &&
		fail "$name: $* accepted"
	[ -s "$tmp/$name.ours" ] && fail "$name: $* refused after printing"
	grep -qF "$msg" "$tmp/$name.ours.err" ||
		fail "$name: $* says '$(head -1 "$tmp/$name.ours.err")', not '$msg'"
	echo "ok: $name refused: $msg"
}
refused time-bad "Invalid time string" --time x
refused time-backwards "Invalid time string" --time "$t2,$t1"
refused time-overlap "Invalid time string" --time "$t1,$t3 $t2,$t4"
refused time-long-fraction "Invalid time string" --time 1.0000000001,
refused time-slice-past "Invalid time string" --time 10%/11
refused cpu-bad "Invalid cpu_list" -C x
refused cpu-big "Requested CPU 5000 too large" -C 5000
refused pid-bad "problems parsing pid list" --pid x
refused both-times "reltime and deltatime - the two don't get along well" --reltime --deltatime
[ -z "$skipped" ] || skip "$skipped"
exit 0
