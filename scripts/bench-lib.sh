# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by the bench scripts.
#
# bench_setup NAME [PROG]: $prog (PROG, default tools/perf/perf-textpoke),
# $dir (a scratch directory removed on exit), $runs ($BENCH_RUNS or 5) and
# a scratch $HOME, since stock perf keeps ~/.debug between runs; exits 0
# with a line when stock perf or /usr/bin/time is missing.
bench_setup() {
	prog=$(realpath "${2:-tools/perf/perf-textpoke}")
	dir=$(mktemp -d "/tmp/perf-textpoke-bench-$1.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
	runs=${BENCH_RUNS:-5}
	export HOME=$dir/home
	mkdir "$HOME"
	if ! command -v perf >/dev/null 2>&1 || [ ! -x /usr/bin/time ]; then
		echo "bench-$1: needs stock perf and /usr/bin/time" >&2
		exit 0
	fi
}
#
# measure CMD...: the best CPU time (user + system) of $runs runs, in ms,
# and the max RSS of that run in kB.  CPU time, not wall time, so that
# other work on the machine disturbs the ratio as little as possible.
measure() {
	local best= bestrss= u s t rss
	for _ in $(seq "$runs"); do
		/usr/bin/time -o "$dir/time" -f '%U %S %M' "$@" >/dev/null 2>"$dir/err" ||
			{ cat "$dir/err" >&2; return 1; }
		read -r u s rss <"$dir/time"
		t=$(echo "($u + $s) * 1000" | bc)
		t=${t%.*}
		[ "$t" -gt 0 ] 2>/dev/null || t=1
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; bestrss=$rss; fi
	done
	echo "$best $bestrss"
}

# measure_wall CMD...: the best wall time of $runs runs, in ms, and the
# least CPU time (task-clock: user + system, its workers included) of the
# runs, in ms, each to a tenth of a ms (time(1) rounds to 10 ms, the size
# of the difference measured): for the parallel rows, whose gain is in
# wall time.  With $wall_out set, that file is removed before each run,
# untimed: a shell's '>' onto the last run's 150 MB would otherwise time
# the file system giving its blocks back (40 ms here, a quarter of a
# parallel run's wall time)
measure_wall() {
	local best= bestcpu= s e w c
	for _ in $(seq "$runs"); do
		[ -z "$wall_out" ] || rm -f "$wall_out"
		s=$(date +%s%N)
		perf stat -x, -e task-clock -o "$dir/stat" -- "$@" >/dev/null 2>"$dir/err" ||
			{ cat "$dir/err" >&2; return 1; }
		e=$(date +%s%N)
		w=$(((e - s) / 1000000))
		c=$(awk -F, '/task-clock/ { printf "%.1f", $1 }' "$dir/stat")
		[ "$w" -gt 0 ] || w=1
		if [ -z "$best" ] || [ "$w" -lt "$best" ]; then best=$w; fi
		if [ -z "$bestcpu" ] || [ "$(echo "$c < $bestcpu" | bc)" = 1 ]; then bestcpu=$c; fi
	done
	echo "$best $bestcpu"
}

# par_print LABEL PERF_MS OURS_MS OURS_CPU_MS ONE_MS ONE_CPU_MS: a parallel
# row (wall against perf's, target 8x) and the workers' CPU against one
# worker's (target 1.15x)
par_print() {
	printf '%-62s %9.0f ms %9.0f ms %7.1fx %8s\n' "$1, $(nproc) workers: wall" "$2" "$3" \
		"$(echo "$2 / $3" | bc -l)" ">= 8x"
	printf '%-62s %12s %9.0f ms %7.2fx %8s\n' \
		"  CPU of all workers / one worker's (${6} ms, wall ${5} ms)" "" "$4" \
		"$(echo "$4 / $6" | bc -l)" "<= 1.15x"
}
