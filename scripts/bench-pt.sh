#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Intel PT decoding against stock perf script, called by scripts/bench.sh
# (or alone: scripts/bench-pt.sh [path/to/perf-textpoke] [NINSN]).
#
# A generated trace of NINSN (10M) instructions over the made-up kernel
# whose code changes while it runs (perf textpoke test --write-fixture
# pt-start, tools/perf/tests/fixture-pt.h), with its kcore taken at the
# start, so that stock perf decodes it too: instructions per second of
# --itrace=i1i, each decoded instruction a sample line, against a target
# of at least 1x.  $BENCH_PT_RUNS (2) runs each: a run of stock perf takes
# seconds.  The figure is CPU time (user + system), as bench.sh measures.
set -e
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/bench-lib.sh"
bench_setup pt "$1"
runs=${BENCH_PT_RUNS:-2}
ninsn=${2:-10000000}

if ! "$prog" script -h 2>&1 | grep -q -e '--itrace'; then
	echo "bench-pt: this perf-textpoke has no --itrace (built without libipt?)"
	exit 0
fi
"$prog" test --write-fixture "pt-start:$ninsn" "$dir/pt" >/dev/null
# the ground truth is for the tests, and large
rm -f "$dir/pt/truth.txt" "$dir/pt/branches.txt"
data=$dir/pt/perf.data

read -r p pr < <(measure perf script -i "$data" --itrace=i1i)
read -r t tr < <(measure "$prog" script -i "$data" --itrace=i1i)
printf '\n%-62s %12s %12s %8s %8s\n' "Intel PT: $ninsn instructions over changing kernel code" \
	"perf" "textpoke" "ratio" "target"
printf '%-62s %8.2f Mi/s %8.2f Mi/s %7.1fx %8s\n' "script --itrace=i1i (instructions/s)" \
	"$(echo "$ninsn / 1048.576 / $p" | bc -l)" "$(echo "$ninsn / 1048.576 / $t" | bc -l)" \
	"$(echo "$p / $t" | bc -l)" ">= 1x"
printf '%-62s %9s kB %9s kB %7.2fx %8s\n' "  max RSS" "$pr" "$tr" "$(echo "$tr / $pr" | bc -l)" ""
