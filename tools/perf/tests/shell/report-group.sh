#!/bin/bash
# report: event groups (--group, --no-group) equal stock perf report --stdio
# SPDX-License-Identifier: GPL-2.0-only
#
# Recordings made now by stock perf record of a shell loop: the group
# '{cpu-clock,task-clock}' (HEADER_GROUP_DESC), the same with -g (of a
# frame-pointer program), a group
# beside a lone event (page-faults), a named group ('mygrp{...}') and two
# lone events.  Stock perf 6.1 shows a group as one block by default: a
# value column per member side by side ("Overhead" 16 wide for two), a
# row for an entry any member has (zeros for a leader that has none),
# sorted on the leader's value then the members', the header "# Samples:
# N  of events 'anon group { cpu-clock, task-clock }'" (the members'
# samples summed).  --no-group prints a block per event, the leader's
# still saying "of events"; --group on lone events makes them one group
# named "cpu-clock, task-clock".  Ours must equal perf byte for byte, with
# -n, --show-total-period, --sort, -F, --percent-limit, -q, filters, and
# on the -g recording with Children, with and without perf's trees (each
# row's tree the leader's, percentages of the leader's period; equal
# Children of one thread ordered by their longest chain as perf's output
# tree orders them), and under --no-group; and on a group recorded with
# :S (PERF_SAMPLE_READ), whose leader's samples carry each member's
# count: a member's sample is the rise of its count, as perf delivers
# them.
#
# Mutation caught: column__width() giving a group's value columns one
# member's width (8, not 16: the "Overhead" header and dots line are
# short).  And: report_hist__fprintf() saying "of event" for a group's
# leader (perf's plural, with and without --group).  And:
# report__sample() giving a PERF_SAMPLE_READ sample to its own event
# (read.data's page-faults get no samples, its column zeros).  And:
# group__fprintf_after() printing the leader's tree with the group's
# block, whose period is the members' summed (the trees of --percent-limit
# 5 -s sym differ from perf's).

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-group
export HOME=$tmp

loop='i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done'
perf_record "$tmp/grp.data" -e '{cpu-clock,task-clock}' -F 2000 -- sh -c "$loop"
# -g: a program with frame pointers; the shell's garbage frames (addresses
# 2^63 apart, which perf's signed comparison orders by its trees' shapes)
# would make the order of some [unknown] rows a matter of sampling
gcc -O1 -fno-omit-frame-pointer -g -o "$tmp/wfp" "$libdir/report-children-workload.c" \
	2>"$tmp/gcc.err" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/grp-g.data" -g -e '{cpu-clock,task-clock}' -F 2000 -- "$tmp/wfp" 10000000
perf_record "$tmp/grp-lone.data" -e '{cpu-clock,task-clock}' -e page-faults -F 2000 -- \
	sh -c "$loop"
perf_record "$tmp/named.data" -e 'mygrp{cpu-clock,task-clock}' -F 2000 -- sh -c "$loop"
perf_record "$tmp/two.data" -e cpu-clock -e task-clock -F 2000 -- sh -c "$loop"
# :S, PERF_SAMPLE_READ of the group: the leader's samples carry every
# member's count, whose rise is that member's sample (perf's
# deliver_sample_group())
perf_record "$tmp/read.data" -e '{cpu-clock,page-faults}:S' -F 2000 -- sh -c "$loop"

# what stock perf says the recordings are, read by perf itself
HOME=$tmp perf report --header-only -i "$tmp/grp.data" 2>/dev/null |
	grep -q '^# group: {cpu-clock,task-clock}' || fail "grp.data: perf lists no group"

# 1. the group's block, as perf's default and with --group
same_report default "$tmp/grp.data"
grep -q "^# Samples: .* of events 'anon group { cpu-clock, task-clock }'" "$tmp/default.ours" ||
	fail "grp.data: not one block for the group"
same_report group "$tmp/grp.data" --group
same_report group-n "$tmp/grp.data" -n --show-total-period
same_report group-sort "$tmp/grp.data" -s dso,sym -n
same_report group-F "$tmp/grp.data" -F overhead,sample,sym
same_report group-limit "$tmp/grp.data" --percent-limit 2
same_report group-q "$tmp/grp.data" -q -n
same_report group-comm "$tmp/grp.data" --comm sh
same_report group-rel "$tmp/grp.data" --dsos libc.so.6 --percentage relative
same_report lone "$tmp/grp-lone.data"
grep -q "^# Samples: .* of event 'page-faults'" "$tmp/lone.ours" || fail "grp-lone.data: no lone block"
same_report named "$tmp/named.data"
grep -q "of events 'mygrp { cpu-clock, task-clock }'" "$tmp/named.ours" ||
	fail "named.data: the group's name is not in its header"
same_report forced "$tmp/two.data" --group
same_report two "$tmp/two.data"

same_report read "$tmp/read.data" -n
same_report read-no-group "$tmp/read.data" --no-group -n
grep -q "^# Samples: .* of event 'page-faults'" "$tmp/read-no-group.ours" ||
	fail "read.data: no samples of the member page-faults"

# 2. --no-group: a block per event
same_report no-group "$tmp/grp.data" --no-group
same_report no-group-lone "$tmp/grp-lone.data" --no-group -n

# 3. callchains: Children columns per member; trees only without the group view
same_report g-none "$tmp/grp-g.data" -g none
same_report g-none-n "$tmp/grp-g.data" -g none -n --show-total-period
same_report g-self "$tmp/grp-g.data" --no-children -g none
same_report g-no-group "$tmp/grp-g.data" --no-group
same_report g-trees "$tmp/grp-g.data"
same_report g-trees-n "$tmp/grp-g.data" -n --show-total-period
same_report g-caller "$tmp/grp-g.data" -G
same_report g-callee "$tmp/grp-g.data" -g callee
same_report g-fractal "$tmp/grp-g.data" -g fractal,0.5,callee
same_report g-self-trees "$tmp/grp-g.data" --no-children
same_report g-limit "$tmp/grp-g.data" --percent-limit 5 -s sym
