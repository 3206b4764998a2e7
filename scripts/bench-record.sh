#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# perf textpoke record against perf record, called by scripts/bench.sh
# (or alone: scripts/bench-record.sh [path/to/perf-textpoke]).  Both CPUs
# run a busy loop while each recorder samples the whole system with
# cpu-clock at ~100k samples/s in total; we compare the recorder's own CPU
# time (user + system, from /usr/bin/time; the workload is `sleep`, so it
# is the recorder alone) and the events lost.  Then 200 BPF programs that
# live microseconds are loaded with both CPUs busy, and we count how many
# JIT images each recorder kept.  Nothing asserts a time.
set -e
prog=$(realpath "${1:-tools/perf/perf-textpoke}")
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d /tmp/perf-textpoke-bench-record.XXXXXX)
busy=
cleanup() {
	[ -n "$busy" ] && kill $busy 2>/dev/null
	wait 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
secs=${BENCH_RECORD_SECONDS:-3}

if ! command -v perf >/dev/null 2>&1 || [ ! -x /usr/bin/time ] || [ "$(id -u)" != 0 ]; then
	echo "bench-record: needs root, stock perf and /usr/bin/time" >&2
	exit 0
fi
w="$src/tools/perf/tests/workloads"
cc -O1 -o "$dir/loop" "$w/loop.c"
cc -O1 -o "$dir/churn" "$w/record-bpf-churn.c"

start_busy() {
	"$dir/loop" 1000 &
	busy="$busy $!"
	"$dir/loop" 1000 &
	busy="$busy $!"
}
stop_busy() {
	kill $busy 2>/dev/null || true
	wait $busy 2>/dev/null || true
	busy=
}

# cpu_seconds OUT CMD...: user+sys seconds of CMD
cpu_seconds() {
	local out=$1
	shift
	/usr/bin/time -f "%U %S" -o "$dir/time" "$@" >/dev/null 2>"$out.err" ||
		{ cat "$out.err" >&2; return 1; }
	awk '{ printf "%.3f\n", $1 + $2 }' "$dir/time"
}

lost() {
	perf report -D -i "$1" 2>/dev/null |
		awk -F'lost:' '/PERF_RECORD_LOST:/ { n += $2 } END { print n + 0 }'
}

samples() {
	perf script -i "$1" -F ip 2>/dev/null | wc -l
}

# 50000 Hz per CPU: the kernel's default perf_event_max_sample_rate is 100000
start_busy
p_cpu=$(cpu_seconds "$dir/p" perf record -q -e cpu-clock -F 50000 -a -o "$dir/p.data" -- sleep "$secs")
t_cpu=$(cpu_seconds "$dir/t" "$prog" record -q -e cpu-clock -F 50000 -a -o "$dir/t.data" -- sleep "$secs")
stop_busy
p_n=$(samples "$dir/p.data")
t_n=$(samples "$dir/t.data")
p_lost=$(lost "$dir/p.data")
t_lost=$(lost "$dir/t.data")

printf '\n%-44s %12s %12s %8s %8s\n' "record -a -F 50000, 2 busy CPUs, ${secs}s" "perf" "textpoke" "ratio" "target"
printf '%-44s %12s %12s %8s %8s\n' "  samples/s written" "$((p_n / secs))" "$((t_n / secs))" \
	"$(echo "scale=2; $t_n / ($p_n + 0.001)" | bc -l)" ""
printf '%-44s %11ss %11ss %8s %8s\n' "  recorder CPU time (user+sys)" "$p_cpu" "$t_cpu" \
	"$(echo "scale=2; $t_cpu / ($p_cpu + 0.001)" | bc -l)" "<= 0.5"
printf '%-44s %12s %12s %8s %8s\n' "  events lost" "$p_lost" "$t_lost" "" "0"

# BPF programs that live microseconds, both CPUs busy: attached to a
# socket for three packets, or closed right after loading
captured() {
	perf report --header-only -I -i "$1" 2>/dev/null | grep -c '^# bpf_prog_info [0-9]*: .*_tp_churn ' || true
}
for mode in churn flash; do
	start_busy
	perf record -q -e cpu-clock -o "$dir/pb.data" -- "$dir/churn" $mode 200 >/dev/null 2>&1
	"$prog" record -q -e cpu-clock -o "$dir/tb.data" -- "$dir/churn" $mode 200 >/dev/null 2>&1
	stop_busy
	p_b=$(captured "$dir/pb.data")
	t_b=$(captured "$dir/tb.data")
	[ $mode = churn ] && what="load,attach,send,close" || what="load+close at once"
	printf '%-44s %11s%% %11s%% %8s %8s\n' "BPF kept: 200 x $what" \
		"$((p_b * 100 / 200))" "$((t_b * 100 / 200))" "" ">= 99%"
done
