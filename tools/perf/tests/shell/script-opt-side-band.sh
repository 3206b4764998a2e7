#!/bin/bash
# script: --show-switch-events, --show-namespace-events, --show-cgroup-events, --show-round-events as perf script
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it records the whole system (-a), which another test would load
#
# A system-wide recording with context switches (SWITCH_CPU_WIDE), a
# per-task one (SWITCH), both with namespaces and cgroups, printed by
# stock perf script and by us with each option: byte-identical, and each
# option's lines are there (else equal outputs prove nothing).  With
# --show-round-events perf prints the records in file order, each
# FINISHED_ROUND bare where it is: so do we.
#
# Mutation caught: print_switch() printing "prev" for "next" (the cpu-wide
# OUT lines differ); script__run() leaving ordered_events set for
# --show-round-events (the rounds come out in the wrong place).

. "$(dirname "$0")/lib/script-opt.sh"
need_perf_root
scratch script-opt-sb
export HOME=$tmp/home
mkdir -p "$HOME"

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/a.data" -a -e cpu-clock --switch-events --namespaces --all-cgroups \
	-- "$tmp/w64" 20000000
perf_record "$tmp/t.data" -e cpu-clock --switch-events --namespaces --all-cgroups \
	-- sh -c "$tmp/w64 2000000; sleep 0.01"

# has NAME PATTERN: our output of case NAME has lines matching PATTERN
has() {
	grep -q "$2" "$tmp/$1.ours" || fail "$1: no line matches '$2'"
}
same_own switch-wide "$tmp/a.data" --show-switch-events
has switch-wide 'PERF_RECORD_SWITCH_CPU_WIDE OUT .* next pid/tid:'
has switch-wide 'PERF_RECORD_SWITCH_CPU_WIDE IN .* prev pid/tid:'
same_own switch "$tmp/t.data" --show-switch-events
has switch 'PERF_RECORD_SWITCH IN'
same_own namespaces "$tmp/a.data" --show-namespace-events
has namespaces 'PERF_RECORD_NAMESPACES .* - nr_namespaces:'
same_own cgroups "$tmp/t.data" --show-cgroup-events
has cgroups 'PERF_RECORD_CGROUP cgroup:'
same_own rounds "$tmp/a.data" --show-round-events
has rounds '^PERF_RECORD_FINISHED_ROUND$'
same_own rounds-all "$tmp/a.data" --show-round-events --show-switch-events \
	--show-task-events --show-namespace-events --show-cgroup-events --show-mmap-events
same_own switch-cpu "$tmp/a.data" --show-switch-events -C 0 --deltatime
exit 0
