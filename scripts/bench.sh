#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: speed and memory against stock perf, measured in one run on
# this machine and printed as a table of ratios.  Nothing here asserts a
# time; the targets are printed beside the measurements.
set -e
prog=$(realpath "${1:-tools/perf/perf-textpoke}")
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d /tmp/perf-textpoke-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
runs=${BENCH_RUNS:-5}

if ! command -v perf >/dev/null 2>&1; then
	echo "bench: stock perf is needed (apt-get install linux-perf)" >&2
	exit 1
fi

# best wall time of $runs runs, in seconds, and the max RSS of the last (kB)
measure() {
	local best= t0 t1 t rss
	for _ in $(seq "$runs"); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; return 1; }
		t1=$(date +%s%N)
		t=$((t1 - t0))
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
	done
	rss=$( { /usr/bin/time -f %M "$@" >/dev/null 2>/dev/null; } 2>&1 | tail -1)
	[ -x /usr/bin/time ] || rss=0
	echo "$best $rss"
}

cc -O1 -g -fno-omit-frame-pointer -o "$dir/loop" "$src/tools/perf/tests/workloads/loop.c"
# ~300k samples: both CPUs busy for 3 s, a sample every 20 us of cpu-clock
perf record -q -e cpu-clock -c 20000 -a -o "$dir/perf.data" -- \
	sh -c "'$dir/loop' 3 & '$dir/loop' 3; wait" 2>/dev/null
nsamples=$(perf script -i "$dir/perf.data" -F ip 2>/dev/null | wc -l)

printf '\n%-44s %12s %12s %8s %8s\n' "benchmark ($nsamples samples)" "perf" "textpoke" "ratio" "target"
row() { # fields
	local fields=$1 p t pr tr
	read -r p pr < <(measure perf script -i "$dir/perf.data" -F "$fields")
	read -r t tr < <(measure "$prog" script -i "$dir/perf.data" -F "$fields")
	printf '%-44s %10.0f/s %10.0f/s %7.1fx %8s\n' "script -F $fields" \
		"$(echo "$nsamples / ($p / 1000000000)" | bc -l)" \
		"$(echo "$nsamples / ($t / 1000000000)" | bc -l)" \
		"$(echo "$p / $t" | bc -l)" ">= 5x"
	[ "$pr" -gt 0 ] 2>/dev/null && printf '%-44s %10s kB %9s kB %7.2fx\n' "  max RSS" "$pr" "$tr" \
		"$(echo "$tr / $pr" | bc -l)"
	return 0
}
row comm,tid,time,ip,sym,dso
row comm,tid,pid,cpu,time,period,event,ip,sym,symoff,dso

# the code image library's own benchmark, when built
if [ -x "$src/tools/lib/textpoke/bench/run.sh" ]; then
	echo
	"$src/tools/lib/textpoke/bench/run.sh"
fi
