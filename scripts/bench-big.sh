#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# script on a big recording, every core against stock perf, for
# scripts/bench.sh to call (or alone: scripts/bench-big.sh
# [path/to/perf-textpoke]).
#
# The recording: stock perf record -a -g -e cpu-clock -c 10000 of
# tests/workloads/loop.c called 100 frames deep on one CPU (the other is
# perf record's, which still loses samples), stopped by perf's own
# --max-size at $BENCH_BIG_MB MB (2048; 0 skips this part; ~2 minutes of
# recording here).  The lines go to /dev/null: some 12 GB of them to a
# file would time the disk, not the tools (the bench's other parallel
# rows write to a file).
#
# Stock perf runs once (some 90 s); ours, with one worker per CPU and with
# one, the best of $BENCH_RUNS (5, at most 3 here) in wall time, and the
# least CPU time (task-clock, the workers included).
set -e
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/bench-lib.sh"
bench_setup big "$1"

mb=${BENCH_BIG_MB:-2048}
[ "$mb" -gt 0 ] 2>/dev/null || exit 0
if [ "$(id -u)" != 0 ]; then
	echo "bench-big: recording system-wide needs root" >&2
	exit 0
fi
free=$(df -Pm "$dir" | awk 'NR == 2 { print $4 }')
if [ "$free" -lt $((mb + 1024)) ]; then
	echo "bench-big: needs $((mb + 1024)) MB free in $dir, has $free" >&2
	exit 0
fi

cc -O1 -g -fno-omit-frame-pointer -o "$dir/loop" "$src/tools/perf/tests/workloads/loop.c"
perf record -q --max-size="${mb}M" -e cpu-clock -c 10000 -a -g -o "$dir/big.data" -- \
	"$dir/loop" 3600 100 >/dev/null 2>&1 || true
size=$(($(stat -c %s "$dir/big.data") / 1048576))
nsamples=$("$prog" report --stats -i "$dir/big.data" 2>/dev/null |
	awk '$1 == "SAMPLE" { print $3; exit }')

printf '\n%-62s %12s %12s %8s %8s\n' "script: a $size MB -a -g recording, $nsamples samples, >/dev/null" \
	"perf" "textpoke" "ratio" "target"
big_row() { # fields
	local fields=$1 p pc t tc s sc
	read -r p pc < <(runs=1 measure_wall sh -c "perf script -i '$dir/big.data' $fields >/dev/null")
	[ "$runs" -le 3 ] || runs=3
	read -r t tc < <(measure_wall sh -c "'$prog' script --threads $(nproc) -i '$dir/big.data' $fields >/dev/null")
	read -r s sc < <(measure_wall sh -c "'$prog' script --threads 1 -i '$dir/big.data' $fields >/dev/null")
	par_print "script ${fields:-(default fields)}" "$p" "$t" "$tc" "$s" "$sc"
}
big_row ''
big_row '-F comm,tid,time,ip,sym,dso'
