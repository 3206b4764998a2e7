#!/bin/bash
# record: pipe, zstd, tracepoints, -p, SIGINT and .old, read by stock perf
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it records the whole system (-a), which another test would load
#
# Each output mode of perf textpoke record against stock perf 6.1:
# - "-o -" streams pipe mode that stock perf script and perf textpoke
#   script read from stdin, with the same samples;
# - -z writes COMPRESSED records stock perf reads, with the COMPRESSED
#   feature and as many samples as we wrote;
# - a tracepoint (-e sched:sched_switch -a) carries TRACING_DATA, so stock
#   perf script prints the fields of each record;
# - -p attaches to a running process; SIGINT ends a system-wide recording
#   with a complete file, and the previous output is kept as .old; with a
#   command after --, -p still records the process, the command only
#   bounds the time (as stock perf record -p PID -- sleep N);
# - no /proc/kcore: the default output is a plain file, as perf's, that
#   carries the kallsyms copy (lib/kcore-dir-unpack.py finds it), with no
#   notice (the directory, and its notice, come with a kcore copy);
# - -e instructions where the CPU has no PMU: an error that says so, and no file;
# - as nobody (perf_event_paranoid 2): user space only, with a warning;
# - a command that cannot run: an error, and no output.
#
# Mutation caught: record__run() taking the command as the target
# whenever there is one (workload_target without !opts->pid_list): -p
# PID -- sleep records the sleep.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch record

build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"

# pipe mode
"$TEXTPOKE" record -e cpu-clock -o - -- "$tmp/loop" 0.3 >"$tmp/pipe.data" 2>"$tmp/record.err" ||
	fail "record -o -: $(cat "$tmp/record.err")"
n=$(recorded_samples)
perf script -i - -F comm,tid,time,ip <"$tmp/pipe.data" >"$tmp/pipe.perf" 2>"$tmp/pipe.err" ||
	fail "stock perf script -i -: $(head -3 "$tmp/pipe.err")"
[ -s "$tmp/pipe.err" ] && fail "stock perf script warned on the pipe: $(head -3 "$tmp/pipe.err")"
[ "$(wc -l <"$tmp/pipe.perf")" = "$n" ] || fail "pipe: perf script shows $(wc -l <"$tmp/pipe.perf"), we wrote $n"
if "$TEXTPOKE" script -h >/dev/null 2>&1; then
	"$TEXTPOKE" record -q -e cpu-clock -o - -- "$tmp/loop" 0.3 2>"$tmp/record.err" |
		"$TEXTPOKE" script -i - -F comm,tid,time,ip >"$tmp/pipe.ours" 2>"$tmp/pipe.ours.err" ||
		fail "record -o - | perf textpoke script -i -: $(head -3 "$tmp/pipe.ours.err"); record said: $(head -3 "$tmp/record.err")"
	[ -s "$tmp/pipe.ours" ] || fail "perf textpoke script read nothing from the pipe"
	perf script -i - -F comm,tid,time,ip <"$tmp/pipe.data" >/dev/null 2>&1
	"$TEXTPOKE" script -i - -F comm,tid,time,ip <"$tmp/pipe.data" >"$tmp/pipe.ours2" 2>/dev/null
	cmp -s "$tmp/pipe.perf" "$tmp/pipe.ours2" || fail "perf textpoke script -i - differs from perf script"
	echo "ok: pipe mode, $n samples, perf textpoke script -i - prints what perf script prints"
else
	echo "ok: pipe mode, $n samples (no script subcommand in this build)"
fi

# zstd
record "$tmp/z.data" -z -e cpu-clock -- "$tmp/loop" 0.3
n=$(recorded_samples)
stock_script z "$tmp/z.data"
[ "$(wc -l <"$tmp/z.out")" = "$n" ] || fail "-z: perf script shows $(wc -l <"$tmp/z.out"), we wrote $n"
perf report --header-only -I -i "$tmp/z.data" 2>/dev/null | grep -q "^# compressed : Zstd" ||
	fail "-z: no COMPRESSED feature"
echo "ok: -z, $n samples, COMPRESSED feature"

# tracepoint
record "$tmp/tp.data" -e sched:sched_switch -a -- sleep 0.2
n=$(recorded_samples)
stock_script tp "$tmp/tp.data"
[ "$(wc -l <"$tmp/tp.out")" = "$n" ] || fail "tracepoint: perf script shows $(wc -l <"$tmp/tp.out"), we wrote $n"
grep -q "sched:sched_switch: prev_comm=.* prev_pid=[0-9]* .*==> next_comm=" "$tmp/tp.out" ||
	fail "tracepoint fields not decoded: $(head -2 "$tmp/tp.out")"
echo "ok: tracepoint, $n records decoded by stock perf from our TRACING_DATA"

# -p, then SIGINT on -a; the first output is kept as .old (the loop is
# killed below: it need only outlive a slow recorder's start)
"$tmp/loop" 60 &
loop=$!
"$TEXTPOKE" record -v -e cpu-clock -p $loop -o "$tmp/int.data" 2>"$tmp/rec-p.err" &
rec=$!
wait_started "$tmp/rec-p.err"
sleep 0.5
kill -INT $rec
wait $rec || fail "-p: exit status $? after SIGINT: $(cat "$tmp/rec-p.err")"
"$TEXTPOKE" record -v -e cpu-clock -a -o "$tmp/int.data" 2>"$tmp/rec-a.err" &
rec=$!
wait_started "$tmp/rec-a.err"
sleep 0.5
kill -INT $rec
wait $rec || fail "-a: exit status $? after SIGINT: $(cat "$tmp/rec-a.err")"
kill $loop 2>/dev/null
wait $loop 2>/dev/null
[ -f "$tmp/int.data.old" ] || fail "the previous output was not kept as int.data.old"
stock_script p "$tmp/int.data.old" -F comm,pid
grep -qv "^ *loop *$loop *$" "$tmp/p.out" && fail "-p: samples of other processes: $(grep -v loop "$tmp/p.out" | head -2)"
[ -s "$tmp/p.out" ] || fail "-p: no samples"
stock_script a "$tmp/int.data"
[ -s "$tmp/a.out" ] || fail "-a: no samples"
echo "ok: -p $(wc -l <"$tmp/p.out") samples, -a stopped by SIGINT $(wc -l <"$tmp/a.out") samples, .old kept"

# -p ends by itself once the process exits (the timeout only guards a
# hang); the loop outlives a slow recorder's start, which -p needs
"$tmp/loop" 2 &
loop=$!
timeout 60 "$TEXTPOKE" record -q -e cpu-clock -p $loop -o "$tmp/pend.data" 2>"$tmp/rec-pend.err" ||
	fail "-p did not end with its process: $(cat "$tmp/rec-pend.err")"
wait $loop
echo "ok: -p ends when the process exits"

# -p with a command: the command only bounds the time, as in perf; the
# samples are the loop's (busy all along), none the command's
"$tmp/loop" 60 &
loop=$!
timeout 30 "$TEXTPOKE" record -q -e cpu-clock -p $loop -o "$tmp/pcmd.data" -- sleep 0.5 \
	2>"$tmp/rec-pcmd.err" || fail "-p PID -- sleep 0.5: $(cat "$tmp/rec-pcmd.err")"
HOME=$tmp perf record -q -e cpu-clock -p $loop -o "$tmp/pcmd-perf.data" -- sleep 0.5 \
	>"$tmp/perf-pcmd.out" 2>&1 || fail "stock perf record -p PID -- sleep: $(cat "$tmp/perf-pcmd.out")"
kill $loop 2>/dev/null
wait $loop 2>/dev/null
for f in pcmd pcmd-perf; do
	stock_script "$f" "$tmp/$f.data" -F comm,pid
	[ -s "$tmp/$f.out" ] || fail "$f: -p PID -- sleep 0.5 recorded no sample of the busy loop"
	grep -v "^ *loop *$loop *$" "$tmp/$f.out" | head -2 | grep . &&
		fail "$f: -p PID -- sleep 0.5: samples of another process (the command's?)"
done
echo "ok: -p PID -- sleep 0.5: $(wc -l <"$tmp/pcmd.out") samples of the loop, none of sleep," \
	"as stock perf's $(wc -l <"$tmp/pcmd-perf.out")"

# lost events under load: record-load.sh

# the starting image
if [ ! -e /proc/kcore ]; then
	[ -f "$tmp/int.data" ] || fail "no /proc/kcore: the default output is not a plain file"
	python3 "$(dirname "$0")/lib/kcore-dir-unpack.py" "$tmp/int.data" "$tmp/int.kdir" ||
		fail "no kcore_dir in the file (kcore-dir-unpack.py: exit $?)"
	[ -s "$tmp/int.kdir/kallsyms" ] || fail "no kcore_dir/kallsyms in the file"
	grep -q kcore "$tmp/rec-a.err" && fail "a kcore notice for a plain file: $(cat "$tmp/rec-a.err")"
	echo "ok: a plain file carrying kallsyms, no notice"
else
	[ -s "$tmp/int.data/kcore_dir/kallsyms" ] || fail "no kcore_dir/kallsyms"
	echo "ok: kcore_dir with kallsyms"
fi

# hardware events: a clear message where the CPU has no PMU (but for cycles,
# which becomes cpu-clock as in perf: record-events.sh); without -e, cpu-clock
if [ ! -e /sys/bus/event_source/devices/cpu ] && [ ! -e /sys/bus/event_source/devices/cpu_core ]; then
	"$TEXTPOKE" record -e instructions:u -a -o "$tmp/hw.data" -- true >/dev/null 2>"$tmp/hw.err" &&
		fail "-e instructions succeeded without a PMU"
	grep -q "instructions:u: this CPU has no hardware PMU.*use -e cpu-clock" "$tmp/hw.err" ||
		fail "no clear message for instructions without a PMU: $(cat "$tmp/hw.err")"
	[ -e "$tmp/hw.data" ] && fail "a failed recording left $tmp/hw.data behind"
	record "$tmp/default.data" -a -- sleep 0.1
	perf evlist -i "$tmp/default.data" 2>/dev/null | grep -qx cpu-clock ||
		fail "no -e and no PMU: expected cpu-clock, got $(perf evlist -i "$tmp/default.data")"
	echo "ok: instructions without a PMU refused clearly; the default falls back to cpu-clock"
fi

# a command that cannot run: an error naming it, non-zero exit, no output left
"$TEXTPOKE" record -e cpu-clock -o "$tmp/noexec.data" -- "$tmp/no-such-program" >/dev/null \
	2>"$tmp/noexec.err" && fail "a command that cannot run gave exit status 0"
grep -q "cannot run '$tmp/no-such-program': No such file or directory" "$tmp/noexec.err" ||
	fail "no clear error for a command that cannot run: $(cat "$tmp/noexec.err")"
ls "$tmp" | grep -q noexec.data && fail "a failed recording left output behind"
echo "ok: a command that cannot run is an error and leaves nothing"

# an unprivileged user records user space, with warnings, as perf does
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1 &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
	chmod 755 "$tmp"
	mkdir "$tmp/nobody" && chmod 777 "$tmp/nobody"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$TEXTPOKE" record -e cpu-clock -o "$tmp/nobody/u.data" -- "$tmp/loop" 0.2 \
		>/dev/null 2>"$tmp/nobody.err" || fail "as nobody: $(cat "$tmp/nobody.err")"
	grep -q "recording user space only" "$tmp/nobody.err" || fail "as nobody: no warning"
	perf script -f -i "$tmp/nobody/u.data" -F ip >"$tmp/nobody.out" 2>"$tmp/nobody.perr" ||
		fail "as nobody: perf script: $(cat "$tmp/nobody.perr")"
	[ -s "$tmp/nobody.out" ] || fail "as nobody: no samples"
	grep -q '^ *ffff' "$tmp/nobody.out" && fail "as nobody: kernel samples"
	echo "ok: as nobody, $(wc -l <"$tmp/nobody.out") user-space samples and a warning"
fi
exit 0
