#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# DWARF unwinding throughput of perf textpoke script against perf script,
# for scripts/bench.sh to call (or alone: scripts/bench-unwind.sh
# [path/to/perf-textpoke] [perf.data recorded with --call-graph dwarf]).
#
# The recording: the two 64-bit workloads of the unwinding tests
# (tests/workloads/unwind-chain.c and unwind-libc.c, -O2 -g
# -fomit-frame-pointer: only the CFI walks them), one after the other,
# 0.5 s each, with stock perf record -e cpu-clock -c 20000 --call-graph
# dwarf: some 50k samples, 8 kB of stack each (the ring buffer loses
# some; both tools read the same file).  Both print the chains with the
# same fields, -F comm,tid,time,ip,sym,symoff,dso; -G (no chains) is
# printed beside them for the cost of the rest of the listing.
#
# Each figure is the best CPU time (user + system) of $BENCH_RUNS runs
# (5), as bench.sh measures, and the max RSS of that run.  Nothing here
# asserts a time; the target is printed beside the measurement.
set -e
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/bench-lib.sh"
bench_setup unwind "$1"

data=$2
if [ -z "$data" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "bench-unwind: recording needs root (or give a --call-graph dwarf perf.data)" >&2
		exit 0
	fi
	for w in chain libc; do
		cc -O2 -g -fomit-frame-pointer -o "$dir/$w" "$src/tools/perf/tests/workloads/unwind-$w.c"
	done
	perf record -q -e cpu-clock -c 20000 --call-graph dwarf -o "$dir/perf.data" -- \
		sh -c "'$dir/chain' 0.5; '$dir/libc' 0.5" >/dev/null 2>&1
	data=$dir/perf.data
fi
nsamples=$(perf script -i "$data" -G -F ip 2>/dev/null | wc -l)
fields=comm,tid,time,ip,sym,symoff,dso

printf '\n%-62s %12s %12s %8s %8s\n' "unwind: $nsamples samples with --call-graph dwarf stacks" \
	"perf" "textpoke" "ratio" "target"
# LABEL TARGET OPTIONS...
row() {
	local label=$1 target=$2 p t pr tr
	shift 2
	read -r p pr < <(measure perf script -i "$data" "$@")
	read -r t tr < <(measure "$prog" script -i "$data" "$@")
	printf '%-62s %10.0f/s %10.0f/s %7.1fx %8s\n' "$label" \
		"$(echo "$nsamples * 1000 / $p" | bc -l)" "$(echo "$nsamples * 1000 / $t" | bc -l)" \
		"$(echo "$p / $t" | bc -l)" "$target"
	printf '%-62s %9s kB %9s kB %7.2fx %8s\n' "  max RSS" "$pr" "$tr" \
		"$(echo "$tr / $pr" | bc -l)" ""
}
row "script -F $fields (unwound chains)" ">= 2x" -F $fields
row "script -F $fields -G (no chains)" "" -F $fields -G
