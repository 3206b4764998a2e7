#!/bin/bash
# script: callchains (-g), pipe and zstd recordings against perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# Frame-pointer callchains through the kernel and user code print as perf
# 6.1 prints them (one tab-led line per frame, objects' frames relative to
# the object, a blank line after each sample); a recording streamed
# through a pipe (perf record -o - | perf textpoke script -i -), with
# samples, callchains or tracepoints, and a zstd-compressed one (-z) print
# the same as stock perf script prints them.

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
scratch script

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"

perf_record "$tmp/g.data" -e cpu-clock -g "$tmp/w64" 20000000
same_output callchain "$tmp/g.data"
same_output callchain-fields "$tmp/g.data" -F comm,tid,ip,sym,dso
same_output hide-call-graph "$tmp/g.data" -G

# a real pipe: perf record -o - | perf textpoke script -i -, with a copy
# of the stream for stock perf to read afterwards
pipe_check() {
	local name=$1
	shift
	set -o pipefail
	perf record -q -o - "$@" 2>"$tmp/$name.rec.err" | tee "$tmp/$name.data" |
		"$TEXTPOKE" script -i - >"$tmp/$name.ours" 2>"$tmp/$name.ours.err" ||
		fail "$name: perf record -o - | perf textpoke script -i -: $(head -3 "$tmp/$name.ours.err" "$tmp/$name.rec.err")"
	set +o pipefail
	perf script -i "$tmp/$name.data" >"$tmp/$name.perf" 2>/dev/null ||
		fail "$name: stock perf script of the pipe stream"
	[ -s "$tmp/$name.perf" ] || fail "$name: stock perf printed nothing"
	if ! cmp -s "$tmp/$name.perf" "$tmp/$name.ours"; then
		diff -u "$tmp/$name.perf" "$tmp/$name.ours" | head -20
		fail "$name: output differs from stock perf script"
	fi
	echo "ok: $name ($(wc -l <"$tmp/$name.ours") lines through a pipe)"
}
pipe_check pipe -e cpu-clock "$tmp/w64" 20000000
pipe_check pipe-callchain -e cpu-clock -g "$tmp/w64" 20000000
# tracepoint formats arrive as a HEADER_TRACING_DATA record in a pipe
if perf record -q -a -e sched:sched_switch -o /dev/null true >/dev/null 2>&1; then
	pipe_check pipe-tracepoint -a -e sched:sched_switch sleep 0.2
fi
same_output pipe-file "$tmp/pipe.data" --show-task-events --show-mmap-events

if perf record -q -z -e cpu-clock -o "$tmp/z.data" "$tmp/w64" 20000000 >"$tmp/z.err" 2>&1; then
	same_output zstd "$tmp/z.data" --show-task-events --show-mmap-events
else
	echo "note: perf record -z unavailable here: $(head -1 "$tmp/z.err")"
fi
exit 0
