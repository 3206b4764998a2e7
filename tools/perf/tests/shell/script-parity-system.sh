#!/bin/bash
# script: system-wide, BPF ksymbol and tracepoint recordings against perf script
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it loads BPF programs (another test's would be in its recording)
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

# A system-wide recording holds whatever else the machine ran, and perf
# 6.1 resolves some foreign objects oddly (its PLT lookups depend on its
# rb-tree's shape).  So the comparison keeps only the lines of this test's
# own processes (comm w64 and bpf) and the KSYMBOL/BPF_EVENT lines, in both
# outputs alike, and any difference there fails: one recording, no retry.
# Mutation caught: a difference that shows in half the recordings (the old
# retry let it pass half the time).

# own_output NAME FILE SCRIPT-ARGS...: both scripts, filtered to our processes
own_output() {
	local name=$1 file=$2 who='$1 == "w64" || $1 == "bpf" || /PERF_RECORD_(KSYMBOL|BPF_EVENT)/'
	shift 2
	HOME=$tmp perf script -i "$file" "$@" >"$tmp/$name.perf.raw" 2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf script failed: $(head -3 "$tmp/$name.perf.err")"
	"$TEXTPOKE" script -i "$file" "$@" >"$tmp/$name.ours.raw" 2>"$tmp/$name.ours.err" ||
		fail "$name: perf textpoke script failed: $(head -3 "$tmp/$name.ours.err")"
	awk "$who" "$tmp/$name.perf.raw" >"$tmp/$name.perf"
	awk "$who" "$tmp/$name.ours.raw" >"$tmp/$name.ours"
	grep -q '^ *w64 ' "$tmp/$name.perf" || fail "$name: stock perf shows no line of the workload"
	if ! cmp -s "$tmp/$name.perf" "$tmp/$name.ours"; then
		diff -u "$tmp/$name.perf" "$tmp/$name.ours" | head -40
		fail "$name: the workload's lines differ from stock perf script $*"
	fi
	echo "ok: $name ($(wc -l <"$tmp/$name.ours") lines of the workload equal to perf script $*;" \
		"$(wc -l <"$tmp/$name.ours.raw") lines in all)"
}

# about 4 s: still running when perf's events are enabled however slowly
# perf starts, and killed once the recording ends
"$tmp/w64" 4000000000 &
wl=$!
# The BPF churn is perf's workload, so it starts only once perf's events
# are enabled: run beside perf, a loaded machine could let it finish
# before perf had started, and the recording would have none of it.
if [ $bpf_ok = 1 ]; then
	perf_record "$tmp/a.data" -a -e cpu-clock -- \
		sh -c '"$1" churn 30 20 >/dev/null 2>&1; sleep 0.4' sh "$tmp/bpf"
else
	perf_record "$tmp/a.data" -a -e cpu-clock sleep 1
fi
kill $wl 2>/dev/null
wait
own_output system "$tmp/a.data"
own_output system-task-mmap "$tmp/a.data" --show-task-events --show-mmap-events \
	-F comm,tid,cpu,time,event,ip,sym,dso

skipped=
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
	own_output bpf-all "$tmp/a.data" --show-bpf-events
	own_output text-poke-ksymbol "$tmp/a.data" --show-text-poke-events
else
	skipped="BPF_PROG_LOAD refused here (the churn helper fails): no ksymbol check"
fi

if perf record -q -a -e sched:sched_switch -o "$tmp/sw.data" sleep 0.3 >"$tmp/sw.err" 2>&1; then
	same_output tracepoint "$tmp/sw.data"
	same_output tracepoint-fields "$tmp/sw.data" -F comm,tid,cpu,time,event,trace --ns
else
	skipped="${skipped:+$skipped; }sched:sched_switch cannot be recorded here: $(head -1 "$tmp/sw.err")"
fi
[ -z "$skipped" ] || skip "$skipped"
exit 0
