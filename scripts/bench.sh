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

. "$src/scripts/bench-lib.sh"

cc -O1 -g -fno-omit-frame-pointer -o "$dir/loop" "$src/tools/perf/tests/workloads/loop.c"
# ~300k samples with callchains: both CPUs busy for 3 s, a sample every
# 20 us of cpu-clock
perf record -q -e cpu-clock -c 20000 -a -g -o "$dir/perf.data" -- \
	sh -c "'$dir/loop' 3 & '$dir/loop' 3; wait" 2>/dev/null
nsamples=$(perf script -i "$dir/perf.data" -G -F ip 2>/dev/null | wc -l)

printf '\n%-62s %12s %12s %8s %8s\n' "benchmark: $nsamples samples with callchains" "perf" "textpoke" "ratio" "target"
row() { # fields
	local fields=$1 p t pr tr
	read -r p pr < <(measure perf script -i "$dir/perf.data" $fields)
	read -r t tr < <(measure "$prog" script -i "$dir/perf.data" $fields)
	printf '%-62s %10.0f/s %10.0f/s %7.1fx %8s\n' "script ${fields:-(default fields)}" \
		"$(echo "$nsamples * 1000 / $p" | bc -l)" "$(echo "$nsamples * 1000 / $t" | bc -l)" \
		"$(echo "$p / $t" | bc -l)" ">= 5x"
	printf '%-62s %9s kB %9s kB %7.2fx %8s\n' "  max RSS" "$pr" "$tr" \
		"$(echo "$tr / $pr" | bc -l)" "<= 1x"
}
row ''
row '-F comm,tid,time,ip,sym,dso'
row '-G -F comm,tid,pid,cpu,time,period,event,ip,sym,symoff,dso'
# the filters: both tools still read every record (samples per second of the whole file)
row '--time 10%-90% -C 0 -F comm,tid,time,ip,sym,dso'

# every core (--threads one per CPU; the default only from 64 MB): wall time against
# stock perf's, and the CPU all workers took against one worker's.  The
# lines go to a file, as a user's would: the workers' chunks after the
# first wait in temporary files and are copied out, which /dev/null would
# hide
par_row() { # fields
	local fields=$1 p pc t tc s sc out=$dir/par.out
	wall_out=$out
	read -r p pc < <(measure_wall sh -c "perf script -i '$dir/perf.data' $fields >'$out'")
	read -r t tc < <(measure_wall sh -c "'$prog' script --threads $(nproc) -i '$dir/perf.data' $fields >'$out'")
	read -r s sc < <(measure_wall sh -c "'$prog' script --threads 1 -i '$dir/perf.data' $fields >'$out'")
	wall_out=
	rm -f "$out"
	par_print "script ${fields:-(default fields)} >file" "$p" "$t" "$tc" "$s" "$sc"
}
par_row ''
par_row '-F comm,tid,time,ip,sym,dso'

# insn: what the instruction bytes add to the same fields (our length
# decoder and mapped objects), and against stock perf's own decoder
insn_row() {
	local fields=comm,tid,time,ip,sym,dso p t t0 pr tr tr0
	read -r p pr < <(measure perf script -i "$dir/perf.data" -F $fields,insn)
	read -r t tr < <(measure "$prog" script -i "$dir/perf.data" -F $fields,insn)
	read -r t0 tr0 < <(measure "$prog" script -i "$dir/perf.data" -F $fields)
	printf '%-62s %10.0f/s %10.0f/s %7.1fx %8s\n' "script -F $fields,insn" \
		"$(echo "$nsamples * 1000 / $p" | bc -l)" "$(echo "$nsamples * 1000 / $t" | bc -l)" \
		"$(echo "$p / $t" | bc -l)" ">= 1x"
	printf '%-62s %12s %10.0f ms %7.2fx %8s\n' "  insn's cost: with insn / without (${t0} ms)" "" "$t" \
		"$(echo "$t / $t0" | bc -l)" "<= 1.25x"
}
insn_row

# inject: stock perf inject's plain copy against ours, plain and with
# each mode (which add the side-band pass and the objects or the
# snapshot); the output is removed before each run, by both alike, so
# that no run pays for keeping the previous one as .old
inject_row() {
	local mode=$1 p t pr tr bytes
	read -r p pr < <(measure sh -c "rm -rf '$dir/inj.out' '$dir/inj.out.old'; perf inject -i '$dir/perf.data' -o '$dir/inj.out'")
	read -r t tr < <(measure sh -c "rm -rf '$dir/inj.out' '$dir/inj.out.old'; '$prog' inject -q $mode -i '$dir/perf.data' -o '$dir/inj.out'")
	bytes=$(stat -c %s "$dir/perf.data")
	printf '%-62s %8.0f MB/s %8.0f MB/s %7.1fx %8s\n' "inject ${mode:-(plain copy)} vs perf inject" \
		"$(echo "$bytes / 1000 / $p" | bc -l)" "$(echo "$bytes / 1000 / $t" | bc -l)" \
		"$(echo "$p / $t" | bc -l)" ">= 1x"
	printf '%-62s %9s kB %9s kB %7.2fx %8s\n' "  max RSS" "$pr" "$tr" \
		"$(echo "$tr / $pr" | bc -l)" "<= 1x"
}
inject_row ''
inject_row '--jit'
inject_row '--snapshot=start'

# inject -b against perf inject -b: the same table of the objects the
# samples hit (ours finds them in a time-ordered pass, then copies)
bid_row() {
	local p t pr tr bytes
	read -r p pr < <(measure sh -c "rm -rf '$dir/bid.out' '$dir/bid.out.old'; perf inject -b -i '$dir/perf.data' -o '$dir/bid.out'")
	read -r t tr < <(measure sh -c "rm -rf '$dir/bid.out' '$dir/bid.out.old'; '$prog' inject -q -b -i '$dir/perf.data' -o '$dir/bid.out'")
	bytes=$(stat -c %s "$dir/perf.data")
	printf '%-62s %8.0f MB/s %8.0f MB/s %7.1fx %8s\n' "inject -b vs perf inject -b" \
		"$(echo "$bytes / 1000 / $p" | bc -l)" "$(echo "$bytes / 1000 / $t" | bc -l)" \
		"$(echo "$p / $t" | bc -l)" ">= 2x"
	printf '%-62s %9s kB %9s kB %7.2fx %8s\n' "  max RSS" "$pr" "$tr" \
		"$(echo "$tr / $pr" | bc -l)" "<= 1x"
}
bid_row

# inject --jit with a jitdump: Node's (some 2,500 code loads, mostly V8's
# builtins), each load an ELF object written by both; jitted-*.so are
# overwritten in place by each run of either, as perf inject does
if command -v node >/dev/null 2>&1; then
	mkdir "$dir/node"
	echo 'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } fib(27);' >"$dir/node/hot.js"
	(cd "$dir/node" && perf record -q -k mono -F 4000 -o perf.data node --perf-prof \
		--interpreted-frames-native-stack hot.js) >/dev/null 2>&1
	read -r p pr < <(measure sh -c "rm -rf '$dir/node/jit.out'; perf inject --jit -i '$dir/node/perf.data' -o '$dir/node/jit.out'")
	read -r t tr < <(measure sh -c "rm -rf '$dir/node/jit.out'; '$prog' inject -q --jit -i '$dir/node/perf.data' -o '$dir/node/jit.out'")
	loads=$(ls "$dir"/node/jitted-*.so | wc -l)
	printf '%-62s %6.0f loads/s %6.0f loads/s %7.1fx %8s\n' "inject --jit, node's jitdump ($loads loads) vs perf inject --jit" \
		"$(echo "$loads * 1000 / $p" | bc -l)" "$(echo "$loads * 1000 / $t" | bc -l)" \
		"$(echo "$p / $t" | bc -l)" ">= 2x"
	printf '%-62s %9s kB %9s kB %7.2fx %8s\n' "  max RSS" "$pr" "$tr" \
		"$(echo "$tr / $pr" | bc -l)" "<= 1x"
fi

# report: a million pokes and samples, and the profile against perf report
if [ -x "$src/scripts/bench-report.sh" ]; then
	echo
	"$src/scripts/bench-report.sh" "$prog" "$dir/perf.data"
fi

# user stacks of --call-graph dwarf samples unwound, against perf script
if [ -x "$src/scripts/bench-unwind.sh" ]; then
	echo
	"$src/scripts/bench-unwind.sh" "$prog"
fi

# script on a 2 GB -a -g recording, every core against stock perf
# (BENCH_BIG_MB=0 skips it: it takes some 6 minutes)
if [ -x "$src/scripts/bench-big.sh" ]; then
	"$src/scripts/bench-big.sh" "$prog"
fi

# Intel PT decoding of a 10M-instruction trace, against perf script
if [ -x "$src/scripts/bench-pt.sh" ]; then
	echo
	"$src/scripts/bench-pt.sh" "$prog"
fi

# the code image library's own benchmark, when built
if [ -x "$src/tools/lib/textpoke/bench/run.sh" ]; then
	echo
	"$src/tools/lib/textpoke/bench/run.sh"
fi

# the recorder against perf record, when built
if [ -x "$src/scripts/bench-record.sh" ]; then
	echo
	"$src/scripts/bench-record.sh" "$prog"
fi
