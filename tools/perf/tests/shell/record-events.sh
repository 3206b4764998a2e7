#!/bin/bash
# record: -e in perf's event syntax (PMU terms, raw, mem:, tracepoint globs, modifiers, groups, --filter) sets the attrs stock perf sets
# SPDX-License-Identifier: GPL-2.0-only
#
# Each form is recorded by stock perf record 6.1 and by us on `true`;
# stock perf evlist -v reads both files and the -e events' attrs must be
# equal, field for field, but for what our fixed sample layout and our
# side-band dummy decide (sample_type's IP..PERIOD, ID, CPU and
# IDENTIFIER bits; mmap, comm, task, ksymbol, bpf_event and the like).
# Forms this machine cannot open (no hardware PMU, a per-CPU-only PMU, a
# bad filter) must be refused with stock perf's own words.  The test
# records tracepoints and breakpoints of its own `true` only: not
# exclusive.
# Mutation caught: record_event__apply_modifiers() pinning every group
# member, not only the leader: the kernel refuses the pinned member of
# {cpu-clock,task-clock:u}:SD and our recording fails.
# Mutation caught: the u modifier not implying exclude_guest:
# software/config=0/u differs.
# Mutation caught: record__add_filter() not setting the filter: the
# filtered tracepoint recording has samples where stock perf's has none.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch recevents
export HOME=$tmp

# the -e events of FILE as stock perf evlist -v prints them, without
# what layout and side-band decide
attrs() {
	perf evlist -v -i "$1" 2>/dev/null | grep -v '^dummy\|^# ' | awk '
	{
		name = $0; sub(/: .*/, "", name)
		n = split(substr($0, length(name) + 3), kv, ", ")
		out = name ":"
		for (i = 1; i <= n; i++) {
			k = kv[i]; v = k
			sub(/: .*/, "", k); sub(/^[^:]*: /, "", v)
			if (k ~ /^(size|mmap|mmap2|comm|comm_exec|task|ksymbol|bpf_event|text_poke|sample_id_all|mmap_data)$/)
				continue
			if (k == "sample_type") {
				m = split(v, bits, "|"); v = ""
				for (j = 1; j <= m; j++)
					if (bits[j] !~ /^(IP|TID|TIME|ID|CPU|PERIOD|IDENTIFIER)$/)
						v = v bits[j] "|"
			}
			out = out " " k "=" v
		}
		print out
	}'
}

n=0
# same ARGS...: stock perf and we record `true` with ARGS; equal attrs
same() {
	n=$((n + 1))
	perf record -q -o "$tmp/perf$n.data" "$@" -- true >/dev/null 2>"$tmp/perf$n.err" ||
		fail "$*: stock perf record failed: $(head -3 "$tmp/perf$n.err")"
	record "$tmp/ours$n.data" -v --no-bpf-capture "$@" -- true
	attrs "$tmp/perf$n.data" >"$tmp/perf$n.attrs"
	attrs "$tmp/ours$n.data" >"$tmp/ours$n.attrs"
	[ -s "$tmp/perf$n.attrs" ] || fail "$*: no events in stock perf's file"
	diff "$tmp/perf$n.attrs" "$tmp/ours$n.attrs" >"$tmp/diff$n" ||
		{ cat "$tmp/diff$n"; fail "$*: attrs differ from stock perf's (< perf, > ours)"; }
	echo "ok: $(wc -l <"$tmp/ours$n.attrs") events of $# arguments: attrs as perf's"
}

# refused TEXT ARGS...: both refuse ARGS, and both say TEXT
refused() {
	local text=$1
	shift
	n=$((n + 1))
	perf record -o "$tmp/perf$n.data" "$@" -- true >/dev/null 2>"$tmp/perf$n.err" &&
		fail "$*: stock perf record did not refuse it"
	"$TEXTPOKE" record -o "$tmp/ours$n.data" --no-bpf-capture "$@" -- true >/dev/null \
		2>"$tmp/ours$n.err" && fail "$*: we did not refuse it"
	grep -qF -- "$text" "$tmp/perf$n.err" || fail "$*: stock perf no longer says '$text'"
	grep -qF -- "$text" "$tmp/ours$n.err" ||
		fail "$*: we say '$(head -1 "$tmp/ours$n.err")', stock perf '$text'"
	echo "ok: $*: refused, as perf: $text"
}

tracefs=/sys/kernel/tracing
[ -e "$tracefs/events" ] || tracefs=/sys/kernel/debug/tracing
free_id=$(cat "$tracefs/events/sched/sched_process_free/id") || fail "no sched_process_free in $tracefs"

# one recording each holds every form, so that the test costs two recordings
forms=(
	# no hardware PMU here: cycles is cpu-clock, quietly (first: stock perf loses
	# an earlier --filter when it falls back)
	-e cycles
	# PMU terms: a software event's, period/freq/name, the call-graph and inherit terms
	-e 'cpu-clock/period=100000/' -e 'task-clock/freq=500,name=tc/'
	-e 'cpu-clock/config=1,call-graph=fp,no-inherit/'
	-e 'cpu-clock/config1=3,config2=4,inherit=0/'
	-e 'task-clock/call-graph=dwarf,stack-size=4096/'
	# the software PMU of sysfs by its name, its type from sysfs, a modifier after the terms
	-e 'software/config=0/u'
	# the tracepoint PMU by number: an ordinary sampling event to perf
	-e "tracepoint/config=$free_id/"
	# every modifier letter perf 6.1 takes on one event
	-e 'cpu-clock:ukhIGHpDeWP' -e 'page-faults:P' -e 'cs:uG'
	# a group with its own modifiers on top of a member's
	-e '{cpu-clock,task-clock:u}:SD' -e '{cpu-clock:k,sched:sched_process_fork}:u'
	# breakpoints: a length, a type, the defaults
	-e 'mem:0x1000/8:w' -e 'mem:0x1000:rw'
	# a tracepoint glob, expanded from tracefs in perf's order; one named without its modifiers
	-e 'sched:sched_wak*' -e 'sched:sched_process_exit:u'
	# a filter that drops every sample of its tracepoint
	-e 'sched:sched_process_exec' --filter 'common_pid == 0'
)
same "${forms[@]}"
for f in perf ours; do
	# the event column only: a cpu-clock:k sample in the kernel's
	# perf_trace_sched_process_exec() names it too
	[ "$(perf script -F event -i "$tmp/$f$n.data" 2>/dev/null | grep -c 'sched:sched_process_exec:')" = 0 ] ||
		fail "--filter: $f recording has samples the filter drops"
done
# -v says why cycles became cpu-clock, in one line
[ "$(grep -c 'cycles event is not supported' "$tmp/record.err")" = 1 ] ||
	fail "-v -e cycles: not one line on the fallback: $(grep -i cycles "$tmp/record.err")"

# what this machine has not: refused in perf's words
if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	refused "Cannot find PMU \`cpu'. Missing kernel support?" -e 'cpu/event=0x3c,umask=0/'
	refused "The r003c event is not supported." -e r003c
fi
[ -e /sys/bus/event_source/devices/msr/events/tsc ] &&
	refused "Invalid event (msr/tsc/) in per-thread mode, enable system wide with '-a'." -e msr/tsc/
refused 'failed to set filter "nosuch == 1" on event sched:sched_process_exec with 22' \
	-e sched:sched_process_exec --filter 'nosuch == 1'
refused "This CPU does not support address filtering" -e cpu-clock --filter 'x'
