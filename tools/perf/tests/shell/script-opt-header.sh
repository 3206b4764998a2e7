#!/bin/bash
# script: --header, --header-only and -I print the recording's header as perf script
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it records the whole system (-a), which another test would load
#
# perf script --header-only prints the "# ========" block perf report
# --header-only prints (file layout, one or more lines per feature, the
# features missing); --header prints it before the samples.  Recordings
# made at test time with what changes the block (callchains, a clockid
# and its reference time, an event group, zstd, system-wide context
# switches, pipe mode: whose features come as records and are printed
# where they come) are printed by stock perf and by us: byte-identical,
# with -I (the topologies in full) too.
#
# Mutation caught: fprint_u() printing zero fields too (every event line
# differs); feature__full_only() forgetting CACHE (its "info available,
# use -I to display" line is replaced); fprint_unit() dividing by 1000
# (-I's memory node size reads 25G where perf says 24G).

. "$(dirname "$0")/lib/script-opt.sh"
need_perf_root
scratch script-opt-header
export HOME=$tmp/home
mkdir -p "$HOME"

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/plain.data" -e cpu-clock "$tmp/w64" 2000000
perf_record "$tmp/g.data" -g -e cpu-clock "$tmp/w64" 2000000
perf_record "$tmp/mono.data" -k mono -e cpu-clock "$tmp/w64" 2000000
perf_record "$tmp/group.data" -e '{cpu-clock,task-clock}' "$tmp/w64" 2000000
perf_record "$tmp/z.data" -z -e cpu-clock "$tmp/w64" 2000000
perf_record "$tmp/a.data" -a --switch-events -e cpu-clock "$tmp/w64" 2000000
HOME=$tmp perf record -q -o - -e cpu-clock "$tmp/w64" 2000000 >"$tmp/pipe.data" 2>"$tmp/rec.err" ||
	fail "perf record -o -: $(head -3 "$tmp/rec.err")"

# the features the block must show, else a comparison proves little
grep_perf() {
	HOME=$tmp perf script -i "$tmp/$1" --header-only 2>/dev/null | grep -q "$2" ||
		fail "stock perf shows no '$2' for $1: the test's premise is wrong"
}
grep_perf mono.data '# reference time:'
grep_perf group.data '# group: {cpu-clock,task-clock}'
grep_perf z.data '# compressed : Zstd'
grep_perf plain.data 'CACHE info available, use -I to display'
HOME=$tmp perf script -i "$tmp/plain.data" --header-only -I | grep -q '^# CPU cache info:' ||
	fail "stock perf -I shows no cache info: the test's premise is wrong"

# BPF programs other tests load meanwhile are in the recordings' BPF_PROG_INFO
same_own_drop='^# (bpf_prog_info |\tsub_prog )'
for f in plain g mono group z a pipe; do
	same_own "$f-header-only" "$tmp/$f.data" --header-only
	same_own "$f-header" "$tmp/$f.data" --header
	same_own "$f-info" "$tmp/$f.data" --header-only -I
done
grep -q '^# event : name = cpu-clock, , id = {' "$tmp/plain-header-only.ours" ||
	fail "no event line in the header"
grep -q 'cpu-clock:' "$tmp/plain-header.ours" || fail "--header printed no sample"
grep -q 'cpu-clock:' "$tmp/plain-header-only.ours" && fail "--header-only printed samples"
exit 0
