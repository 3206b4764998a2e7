#!/bin/bash
# report: a system-wide recording, narrowed to the test's processes, equals stock perf report
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it records the whole system (-a), which another test would load
#
# stock perf record -a while the workload runs; the other processes of the
# machine are in the recording too, so every comparison is narrowed to
# the workload, by --comm or by --pid, in both outputs alike: the header
# totals still count every process (perf's absolute percentages), the rows
# are the workload's.  Covers --sort cpu and --cpu, which need per-cpu
# samples; and a perf record -a -g recording's trees (Children and not,
# caller and callee, folded; fractal is report-tree.sh's, which reads
# perf's "[...] (inlined)" right); and there the default Children view
# with --comm w, whose rows of equal Children come in the order of
# perf's output tree, where the other processes' entries are too
# (filtered, not shown) and the elided comm column is not compared.
#
# Mutation caught: comparing --pid with the thread id instead of the
# process id in report__filtered() (thread__tid): the second thread's
# samples go missing from the --pid rows.  And: entry__cmp() comparing
# the elided comm key (perf_hpp__should_skip() ignored): rows of equal
# Children move in sysg-children (on each of three recordings tried).

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-system

build_report_workload "$tmp/w" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/sys.data" -a -e cpu-clock -F 1000 -- "$tmp/w" 30000000

same_report sys-comm "$tmp/sys.data" --comm w
same_report sys-comm-n "$tmp/sys.data" --comm w,nonexistent -n --sort comm,dso,sym
pid=$(HOME=$tmp perf script -i "$tmp/sys.data" --comm w -F pid 2>/dev/null | sort -u | head -1 | tr -d ' ')
[ -n "$pid" ] || fail "no sample of w in stock perf script"
same_report sys-pid "$tmp/sys.data" --pid "$pid" --sort pid,dso,sym
# the rows' threads are those stock perf script shows for the pid (the
# workload's two, when both were sampled; -1 for a sample of one exiting)
awk '/^ +[0-9.]+%/ { split($2, a, ":"); print a[1] }' "$tmp/sys-pid.ours" | sort -u \
	>"$tmp/sys-pid.tids"
HOME=$tmp perf script -i "$tmp/sys.data" --pid "$pid" -F tid 2>/dev/null | tr -d ' ' | sort -u \
	>"$tmp/sys-pid.perf-tids"
n=$(wc -l <"$tmp/sys-pid.tids")
[ "$n" -ge 1 ] && cmp -s "$tmp/sys-pid.tids" "$tmp/sys-pid.perf-tids" ||
	fail "sys-pid: threads $(tr '\n' ' ' <"$tmp/sys-pid.tids")in the rows, perf script's: $(tr '\n' ' ' <"$tmp/sys-pid.perf-tids")"
same_report sys-cpu "$tmp/sys.data" --comm w --sort cpu,comm
# a CPU w ran on, as stock perf saw it: on a machine of many CPUs w may
# never have run on CPU 0
cpu=$(HOME=$tmp perf script -i "$tmp/sys.data" --comm w -F cpu 2>/dev/null | head -1 | tr -dc 0-9)
[ -n "$cpu" ] || fail "no cpu of w's samples in stock perf script"
same_report sys-cpu-filter "$tmp/sys.data" --comm w --cpu "$((10#$cpu))" --sort cpu,sym
same_report sys-dsos "$tmp/sys.data" --pid "$pid" --dsos '[kernel.kallsyms]' --sort sym

# -a -g: the trees of w's samples, kernel frames and all
perf_record "$tmp/sysg.data" -a -g -e cpu-clock -F 1000 -- "$tmp/w" 30000000
same_report sysg-no-children "$tmp/sysg.data" --comm w --no-children
same_report sysg-children "$tmp/sysg.data" --comm w
same_report sysg-pid "$tmp/sysg.data" --comm w --sort pid,sym
same_report sysg-folded "$tmp/sysg.data" --comm w --sort pid,dso,sym -g folded
same_report sysg-caller "$tmp/sysg.data" --comm w --sort pid,dso,sym -g caller
same_report sysg-callee "$tmp/sysg.data" --comm w -g graph,0.5,callee --no-children
exit 0
