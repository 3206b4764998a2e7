#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make demo: record a real workload on this machine with stock perf, a
# 64-bit and (when gcc -m32 works) a 32-bit build of it, and show the
# samples with perf textpoke script: the register ABI of each task and
# its registers under the right names.
set -e
prog=${1:-tools/perf/perf-textpoke}
src=$(cd "$(dirname "$0")/.." && pwd)
out=${DEMO_DIR:-$(mktemp -d /tmp/perf-textpoke-demo.XXXXXX)}

if ! command -v perf >/dev/null 2>&1; then
	echo "demo: stock perf is needed to record (apt-get install linux-perf)" >&2
	exit 1
fi

cc -O1 -g -fno-omit-frame-pointer -o "$out/loop64" "$src/tools/perf/tests/workloads/loop.c"
bits="64"
if cc -m32 -O1 -g -fno-omit-frame-pointer -o "$out/loop32" \
	"$src/tools/perf/tests/workloads/loop.c" 2>/dev/null; then
	bits="64 32"
else
	echo "demo: no 32-bit toolchain (apt-get install gcc-multilib): 64-bit only"
fi

for b in $bits; do
	echo
	echo "== perf record -e cpu-clock -g --user-regs=ax,sp,ip -- loop$b 0.3"
	perf record -q -e cpu-clock -F 499 -g --user-regs=ax,sp,ip \
		-o "$out/perf-$b.data" -- "$out/loop$b" 0.3
	echo "== perf textpoke script -F comm,tid,time,ip,sym,dso,abi,uregs (first samples)"
	"$prog" script -i "$out/perf-$b.data" -G -F comm,tid,time,ip,sym,dso,abi,uregs | head -8
done
echo
echo "demo: recordings left in $out"
