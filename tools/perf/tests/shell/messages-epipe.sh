#!/bin/bash
# messages: a reader that quits early (head, a pager) is quiet through the perf wrapper
# SPDX-License-Identifier: GPL-2.0-only
#
# "perf textpoke <sub>" runs us as a child of stock perf, which prints
# "FATAL: unable to run 'perf-textpoke'" when its child dies of a signal.
# "perf script | head -1" dies of SIGPIPE quietly, being perf itself; we
# must end normally instead, with nothing on stderr and status 0 for the
# wrapper.  Checked with a real recording made now by stock perf record,
# through head -1, and for each subcommand that writes stdout with a pipe
# whose reader has already gone (so that the first write fails, whatever
# the output's size).
#
# Mutation caught: script__run() no longer taking -EPIPE for a normal end
# ("writing the output failed: Broken pipe" through head -1).

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
scratch epipe
export HOME=$tmp

# the wrapper finds perf-<name> in its exec path, then PATH: both are ours
mkdir "$tmp/bin" && ln -s "$TEXTPOKE" "$tmp/bin/perf-textpoke" || fail "symlink"
export PERF_EXEC_PATH=$tmp/bin PATH=$tmp/bin:$PATH

# Enough output to overrun what head and the pipe take (8 + 64 KiB) while
# our first flush (half of script-print.c's 256 KiB buffer) is written:
# 256 KiB.  A sample every 100 us of the workload's own CPU time, and a
# workload that spins until /proc/self/stat says it has used 1 s of CPU
# (however fast the machine, however busy): about 10000 lines, 1 MB, four
# times the need whatever the load.  (A frequency, or a fixed count of
# iterations, gave 245 KB on one run here and 259 KB on the next.)
perf record -q -e cpu-clock -c 100000 -o "$tmp/perf.data" -- bash -c '
	while :; do
		for ((i = 0; i < 20000; i++)); do :; done
		read -r -a st </proc/self/stat
		((st[13] + st[14] >= $(getconf CLK_TCK))) && break
	done' >"$tmp/rec.err" 2>&1 ||
	fail "stock perf record: $(head -3 "$tmp/rec.err")"
perf script -i "$tmp/perf.data" >"$tmp/perf.out" 2>/dev/null
[ "$(wc -c <"$tmp/perf.out")" -gt 262144 ] ||
	fail "stock perf script printed only $(wc -c <"$tmp/perf.out") bytes of 1 s at 10 kHz (samples lost? $(head -3 "$tmp/rec.err"))"
echo "stock perf script: $(wc -l <"$tmp/perf.out") lines, $(wc -c <"$tmp/perf.out") bytes"

# cmd...: through head -1; nothing on stderr, status 0, the first line perf's
through_head() {
	local st
	"$@" 2>"$tmp/err" | head -1 >"$tmp/head"
	st=${PIPESTATUS[0]}
	[ -s "$tmp/err" ] && fail "$* | head -1 printed on stderr: $(head -3 "$tmp/err")"
	[ "$st" = 0 ] || fail "$* | head -1: status $st"
}

through_head perf textpoke script -i "$tmp/perf.data"
head -1 "$tmp/perf.out" | cmp -s - "$tmp/head" ||
	fail "the first line differs from perf script's: $(cat "$tmp/head")"
echo "ok: perf textpoke script -i <recording> | head -1: quiet, status 0, perf's first line"

# a pipe nobody reads any more: the reader is a process substitution that
# has exited (bash waits for it), so every write fails with EPIPE
exec {dead}> >(:)
wait $! 2>/dev/null
addr=$(perf script -i "$tmp/perf.data" -F ip 2>/dev/null | head -1 | tr -d ' ')
for args in "script -i $tmp/perf.data" "script -i $tmp/perf.data -F ip,sym --show-mmap-events" \
	"code -i $tmp/perf.data --no-kcore $addr 64" "test -l" "version --build-options" \
	"script -h" "-h"; do
	# shellcheck disable=SC2086
	perf textpoke $args >&"$dead" 2>"$tmp/err"
	st=$?
	[ -s "$tmp/err" ] && fail "perf textpoke $args into a closed pipe: $(head -3 "$tmp/err")"
	[ "$st" = 0 ] || fail "perf textpoke $args into a closed pipe: status $st"
	echo "ok: perf textpoke $args into a closed pipe: quiet, status 0"
done
exec {dead}>&-
exit 0
