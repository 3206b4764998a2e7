#!/bin/bash
# report: the profile equals stock perf report --stdio (sort keys, -n, -F, filters)
# SPDX-License-Identifier: GPL-2.0-only
#
# Recordings made now with stock perf record: a shell loop, a gcc-built
# two-thread program, and both events of a two-event recording.  For each,
# several --sort combinations, -n, -F, --percent-limit, every filter and
# --header, --header-only and -I (of a file and of a pipe) go
# through stock perf report --stdio and ours; the outputs must be equal
# line for line, header comments included, but for perf's closing tip.
#
# Mutation caught: sorting ties by name descending in entry__cmp()
# (strcmp(b->sym, a->sym)): the sym and default sorts of the shell loop,
# whose cpu-clock samples all weigh the same, come out in another order.
# And: report__run() not keeping a pipe's features (r.header.pipe left
# false): header-pipe lacks every section after the block.
# And: the pid column printing the command of the sample instead of the
# thread's last one (e->comm for e->thread_comm in entry__snprintf()): the
# exec'ing shell's row of exec-comm-pid differs.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report

build_report_workload "$tmp/w" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/sh.data" -e cpu-clock -F 4000 -- \
	sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done'
perf_record "$tmp/w.data" -e cpu-clock -F 4000 -- "$tmp/w" 30000000
perf_record "$tmp/two.data" -e cpu-clock,task-clock -F 2000 -- "$tmp/w" 20000000
# a shell that execs the program: one thread, two commands
perf_record "$tmp/exec.data" -e cpu-clock -F 4000 -- \
	sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i + 1)); done; exec $tmp/w 20000000"

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
same_report w-time-secs2 "$tmp/w.data" --sort sym \
	--time "$first,$(echo "$first + 0.02" | bc) $(echo "$first + 0.04" | bc),"

# our tid key: the thread ids and counts of stock perf's pid column
perf_report -i "$tmp/w.data" --sort pid -n 2>/dev/null |
	awk '/^ +[0-9.]+%/ { split($3, a, ":"); print $1, $2, a[1] }' >"$tmp/tid.perf"
"$TEXTPOKE" report --no-changes -i "$tmp/w.data" --sort tid -n |
	awk '/^ +[0-9.]+%/ { print $1, $2, $3 }' >"$tmp/tid.ours"
[ -s "$tmp/tid.perf" ] || fail "tid: no rows from stock perf --sort pid"
cmp -s "$tmp/tid.perf" "$tmp/tid.ours" ||
	{ diff -u "$tmp/tid.perf" "$tmp/tid.ours"; fail "--sort tid differs from perf's pid column"; }
echo "ok: --sort tid: $(wc -l <"$tmp/tid.ours") threads as stock perf's pid column"

# the pid column shows the thread's last command, the comm column each one
same_report exec-comm-pid "$tmp/exec.data" --sort comm,pid
same_report exec-pid-dso "$tmp/exec.data" --sort pid,dso -n
same_report exec-comm-sh "$tmp/exec.data" --comm sh --sort pid,sym

same_report two-default "$tmp/two.data"
same_report two-n "$tmp/two.data" -n --sort dso,sym

# the header block: --header before the profile, -I in full, and a pipe's
# features, which come as records
same_report header "$tmp/w.data" --header
same_report header-info "$tmp/two.data" --header -I
HOME=$tmp perf record -q -o - -e cpu-clock -F 4000 -- "$tmp/w" 10000000 >"$tmp/pipe.data" 2>/dev/null ||
	fail "perf record -o -"
perf_report -i - --header <"$tmp/pipe.data" >"$tmp/header-pipe.perf" 2>/dev/null ||
	fail "stock perf report --header of a pipe"
ours_report -i - --header <"$tmp/pipe.data" >"$tmp/header-pipe.ours" ||
	fail "perf textpoke report --header of a pipe"
cmp -s "$tmp/header-pipe.perf" "$tmp/header-pipe.ours" ||
	{ diff -u "$tmp/header-pipe.perf" "$tmp/header-pipe.ours" | head -20; fail "header-pipe differs"; }
echo "ok: header-pipe"
# --header-only: the block alone, of a file and of a pipe
for f in "$tmp/w.data" -; do
	HOME=$tmp perf report --stdio -i "$f" --header-only <"$tmp/pipe.data" >"$tmp/ho.perf" 2>/dev/null ||
		fail "stock perf report --header-only -i $f"
	"$TEXTPOKE" report -i "$f" --header-only <"$tmp/pipe.data" >"$tmp/ho.ours" ||
		fail "perf textpoke report --header-only -i $f"
	grep -q '^# ========$' "$tmp/ho.perf" || fail "stock perf printed no header block for $f"
	cmp -s "$tmp/ho.perf" "$tmp/ho.ours" ||
		{ diff -u "$tmp/ho.perf" "$tmp/ho.ours" | head -20; fail "--header-only -i $f differs"; }
	echo "ok: --header-only -i $f"
done
exit 0
