#!/bin/bash
# report: the profile equals stock perf report --stdio (sort keys, -n, -F, filters)
# SPDX-License-Identifier: GPL-2.0-only
#
# Recordings made now with stock perf record: a shell loop, a gcc-built
# two-thread program, and both events of a two-event recording.  For each,
# several --sort combinations, -n, -F, --percent-limit and every filter go
# through stock perf report --stdio and ours; the outputs must be equal
# line for line, header comments included, but for perf's closing tip.
#
# Mutation caught: sorting ties by name descending in entry__cmp()
# (strcmp(b->sym, a->sym)): the sym and default sorts of the shell loop,
# whose cpu-clock samples all weigh the same, come out in another order.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report

build_report_workload "$tmp/w" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/sh.data" -e cpu-clock -F 4000 -- \
	sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done'
perf_record "$tmp/w.data" -e cpu-clock -F 4000 -- "$tmp/w" 30000000
perf_record "$tmp/two.data" -e cpu-clock,task-clock -F 2000 -- "$tmp/w" 20000000

for s in comm pid dso sym dso,sym sym,dso comm,pid,sym cpu,comm; do
	same_report "sh-$s" "$tmp/sh.data" --sort "$s"
done
same_report sh-default "$tmp/sh.data"
same_report sh-n "$tmp/sh.data" -n
same_report sh-limit "$tmp/sh.data" --percent-limit 1.5
same_report sh-F "$tmp/sh.data" -F overhead,sample,sym
same_report sh-F-plus "$tmp/sh.data" -F +sample
same_report sh-F-first "$tmp/sh.data" -F comm,overhead,dso

for s in comm,dso,sym pid,sym dso sym; do
	same_report "w-$s" "$tmp/w.data" --sort "$s" -n
done
same_report w-limit "$tmp/w.data" --percent-limit 5%
same_report w-F-sort "$tmp/w.data" -F overhead,sym --sort dso
# filters: one name (its column goes, a header line names it), two names
same_report w-comm "$tmp/w.data" --comm w
same_report w-dsos1 "$tmp/w.data" --dsos w
same_report w-dsos2 "$tmp/w.data" --dsos 'w,[kernel.kallsyms]'
same_report w-symbols1 "$tmp/w.data" --symbols alpha
same_report w-symbols2 "$tmp/w.data" --symbols alpha,beta --sort comm,sym
tids=$(HOME=$tmp perf report -i "$tmp/w.data" --stdio --sort pid 2>/dev/null |
	awk '/^ +[0-9.]+%/ { split($2, a, ":"); print a[1] }')
tid=$(echo "$tids" | tail -1)
[ -n "$tid" ] || fail "no thread in stock perf report --sort pid"
same_report w-tid "$tmp/w.data" --tid "$tid" --sort pid,sym
pid=$(HOME=$tmp perf script -i "$tmp/w.data" -F pid 2>/dev/null | sort -u | head -1 | tr -d ' ')
same_report w-pid "$tmp/w.data" --pid "$pid" --sort pid,sym
same_report w-time-slice "$tmp/w.data" --time 10%/2
same_report w-time-ranges "$tmp/w.data" --time 0%-25%,50%-75% --sort sym
first=$(HOME=$tmp perf script -i "$tmp/w.data" -F time 2>/dev/null | head -1 | tr -d ' :')
[ -n "$first" ] || fail "no sample time from stock perf script"
same_report w-time-secs "$tmp/w.data" --time "$first,$(echo "$first + 0.02" | bc)"

same_report two-default "$tmp/two.data"
same_report two-n "$tmp/two.data" -n --sort dso,sym
exit 0
