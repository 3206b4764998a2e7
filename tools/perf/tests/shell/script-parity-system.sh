#!/bin/bash
# script: system-wide, BPF ksymbol and tracepoint recordings against perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# perf record -a for about a second while a workload runs and BPF socket
# filters are loaded, run and unloaded (a small helper: BPF_PROG_LOAD,
# SO_ATTACH_BPF on a loopback UDP socket, send, close; repeat), so the
# recording holds KSYMBOL and BPF_EVENT records; then sched:sched_switch
# system-wide.  perf textpoke script must print the samples, the
# task/mmap events and the ksymbol/bpf events as stock perf script does.

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
scratch script

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
gcc -O1 -o "$tmp/bpf" "$TEXTPOKE_SRCDIR/tools/perf/tests/workloads/record-bpf-churn.c" 2>"$tmp/gcc.err" || fail "gcc: $(cat "$tmp/gcc.err")"
bpf_ok=1
"$tmp/bpf" churn 1 >/dev/null 2>&1 || bpf_ok=0

# A system-wide recording holds whatever else the machine ran: a foreign
# process in an object perf itself resolves oddly (perf 6.1's PLT lookups
# depend on its rb-tree's shape) can make one recording differ.  A second
# recording must then agree; a real difference shows in both.
equal=0
for attempt in 1 2; do
	"$tmp/w64" 400000000 &
	wl=$!
	[ $bpf_ok = 1 ] && { "$tmp/bpf" churn 30 20 >/dev/null 2>&1 & }
	perf_record "$tmp/a.data" -a -e cpu-clock sleep 1
	kill $wl 2>/dev/null
	wait
	if outputs_equal system "$tmp/a.data" &&
	   outputs_equal system-task-mmap "$tmp/a.data" --show-task-events --show-mmap-events \
		-F comm,tid,cpu,time,event,ip,sym,dso; then
		equal=1
		break
	fi
	echo "note: recording $attempt differs from stock perf, recording again"
done
[ $equal = 1 ] || fail "system: two system-wide recordings differ from stock perf script"

if [ $bpf_ok = 1 ]; then
	perf script -i "$tmp/a.data" --show-bpf-events -F comm,tid,cpu,time |
		grep -E 'PERF_RECORD_(KSYMBOL|BPF_EVENT)' >"$tmp/bpf.perf"
	"$TEXTPOKE" script -i "$tmp/a.data" --show-bpf-events -F comm,tid,cpu,time |
		grep -E 'PERF_RECORD_(KSYMBOL|BPF_EVENT)' >"$tmp/bpf.ours"
	grep -q 'PERF_RECORD_KSYMBOL.*tp_churn' "$tmp/bpf.perf" ||
		fail "bpf: stock perf shows no KSYMBOL of the test program"
	cmp -s "$tmp/bpf.perf" "$tmp/bpf.ours" || {
		diff -u "$tmp/bpf.perf" "$tmp/bpf.ours" | head -20
		fail "bpf: KSYMBOL/BPF_EVENT lines differ from stock perf"
	}
	echo "ok: $(wc -l <"$tmp/bpf.ours") KSYMBOL/BPF_EVENT lines equal"
	same_output bpf-all "$tmp/a.data" --show-bpf-events
	same_output text-poke-ksymbol "$tmp/a.data" --show-text-poke-events
else
	echo "note: BPF_PROG_LOAD refused here, no ksymbol check"
fi

if perf record -q -a -e sched:sched_switch -o "$tmp/sw.data" sleep 0.3 >"$tmp/sw.err" 2>&1; then
	same_output tracepoint "$tmp/sw.data"
	same_output tracepoint-fields "$tmp/sw.data" -F comm,tid,cpu,time,event,trace --ns
else
	skip "sched:sched_switch cannot be recorded here: $(head -1 "$tmp/sw.err")"
fi
exit 0
