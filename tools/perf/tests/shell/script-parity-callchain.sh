#!/bin/bash
# script: callchains (-g), pipe and zstd recordings against perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# Frame-pointer callchains through the kernel and user code print as perf
# 6.1 prints them (one tab-led line per frame, objects' frames relative to
# the object, a blank line after each sample); a recording read from a
# pipe (perf record -o -) and a zstd-compressed one (-z) print the same as
# stock perf script prints them.

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
scratch

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"

perf_record "$tmp/g.data" -e cpu-clock -g "$tmp/w64" 20000000
same_output callchain "$tmp/g.data"
same_output callchain-fields "$tmp/g.data" -F comm,tid,ip,sym,dso
same_output hide-call-graph "$tmp/g.data" -G

perf record -q -e cpu-clock -o - "$tmp/w64" 20000000 2>"$tmp/pipe.err" >"$tmp/pipe.data" ||
	fail "perf record -o -: $(head -3 "$tmp/pipe.err")"
perf script -i "$tmp/pipe.data" >"$tmp/pipe.perf" 2>/dev/null || fail "stock perf script of a pipe file"
"$TEXTPOKE" script -i - <"$tmp/pipe.data" >"$tmp/pipe.ours" 2>"$tmp/pipe.ours.err" ||
	fail "perf textpoke script -i -: $(head -3 "$tmp/pipe.ours.err")"
if ! cmp -s "$tmp/pipe.perf" "$tmp/pipe.ours"; then
	diff -u "$tmp/pipe.perf" "$tmp/pipe.ours" | head -20
	fail "pipe: output differs from stock perf script"
fi
echo "ok: pipe ($(wc -l <"$tmp/pipe.ours") lines)"
same_output pipe-file "$tmp/pipe.data" --show-task-events --show-mmap-events

if perf record -q -z -e cpu-clock -o "$tmp/z.data" "$tmp/w64" 20000000 >"$tmp/z.err" 2>&1; then
	same_output zstd "$tmp/z.data" --show-task-events --show-mmap-events
else
	echo "note: perf record -z unavailable here: $(head -1 "$tmp/z.err")"
fi
exit 0
