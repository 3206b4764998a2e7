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

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
scratch epipe
export HOME=$tmp

# the wrapper finds perf-<name> in its exec path, then PATH: both are ours
mkdir "$tmp/bin" && ln -s "$TEXTPOKE" "$tmp/bin/perf-textpoke" || fail "symlink"
export PERF_EXEC_PATH=$tmp/bin PATH=$tmp/bin:$PATH

# enough output to fill the pipe (64 KiB) and our buffers several times over
perf record -q -F 5000 -o "$tmp/perf.data" -- \
	sh -c 'i=0; while [ $i -lt 400000 ]; do i=$((i + 1)); done' >"$tmp/rec.err" 2>&1 ||
	fail "stock perf record: $(head -3 "$tmp/rec.err")"
perf script -i "$tmp/perf.data" >"$tmp/perf.out" 2>/dev/null
[ "$(wc -c <"$tmp/perf.out")" -gt 262144 ] ||
	skip "stock perf script printed only $(wc -c <"$tmp/perf.out") bytes: too few samples"

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
