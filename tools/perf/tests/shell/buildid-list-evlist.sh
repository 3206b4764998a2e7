#!/bin/bash
# buildid-list, evlist: byte for byte what stock perf buildid-list and perf evlist print
# SPDX-License-Identifier: GPL-2.0-only
#
# Stock perf 6.1 is the judge, on the same files: a stock recording with a
# group, a tracepoint and frame-pointer callchains (file, and streams with
# and without the tracepoint), one without build-ids (record -B: the listing falls
# back to the objects hit), one of ours, and public recordings perf reads
# (groups, old attrs, a stream with short attrs).  buildid-list with and
# without -H, evlist with each of -v, -g, -F, --trace-fields; an ELF file
# as input, -k; -g with -v refused as perf refuses it.
# Mutation caught: the evlist attr separator of perf's comma_fprintf()
# (':' after the name, ',' after a field) printed as script --header's
# (every field after ', '): every -v line differs.

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
[ -r /sys/kernel/tracing/events/sched/sched_switch/id ] ||
	[ -r /sys/kernel/debug/tracing/events/sched/sched_switch/id ] ||
	skip "no sched:sched_switch tracepoint here"
scratch bid-evlist
export HOME="$tmp"

work='i=0; while [ $i -lt 10000 ]; do i=$((i+1)); done; ls / >/dev/null'
ev=(-e '{cpu-clock,task-clock}' -e sched:sched_switch -g -c 100000)
perf record -q "${ev[@]}" -o "$tmp/stock.data" -- sh -c "$work" >/dev/null 2>&1 ||
	skip "stock perf record cannot record here"
# perf 6.1's buildid-list cannot skip a stream's tracing data: none in this one
perf record -q -e '{cpu-clock,task-clock}' -g -c 100000 -o - -- sh -c "$work" 2>/dev/null \
	>"$tmp/stock.pipe" || fail "stock perf record -o -"
perf record -q "${ev[@]}" -o - -- sh -c "$work" 2>/dev/null >"$tmp/tp.pipe" ||
	fail "stock perf record -o - with a tracepoint"
perf record -q -B -e cpu-clock -c 100000 -o "$tmp/nobid.data" -- sh -c "$work" >/dev/null 2>&1 ||
	fail "stock perf record -B"
"$TEXTPOKE" record -q -e cpu-clock -F 4000 -o "$tmp/ours.data" -- sh -c "$work" >/dev/null 2>&1 ||
	fail "perf textpoke record"

# same WHAT CMD ARGS...: perf CMD ARGS and perf textpoke CMD ARGS print the same bytes
same() {
	local what=$1 cmd=$2

	shift 2
	perf "$cmd" "$@" >"$tmp/b" 2>/dev/null || fail "$what: stock perf $cmd $* failed"
	"$TEXTPOKE" "$cmd" "$@" >"$tmp/a" 2>"$tmp/err" || { cat "$tmp/err"; fail "$what: $cmd $* failed"; }
	[ -s "$tmp/b" ] || fail "$what: stock perf $cmd $* printed nothing"
	cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head; fail "$what: $cmd $* differs from perf's"; }
	n=$((n + 1))
}

n=0
for f in stock.data stock.pipe nobid.data ours.data; do
	same "$f" buildid-list -i "$tmp/$f"
	same "$f" buildid-list -H -i "$tmp/$f"
done
for f in stock.data stock.pipe ours.data; do
	same "$f" evlist -v -i "$tmp/$f"
done
for o in "" -F -g; do
	same stock.data evlist $o -i "$tmp/stock.data"
done
same stock.pipe evlist -g -i "$tmp/stock.pipe"
# a stream's tracepoint is "unknown tracepoint" to perf; it crashes on --trace-fields there
same tp.pipe evlist -i "$tmp/tp.pipe"
same tp.pipe evlist -v -i "$tmp/tp.pipe"
same stock.data evlist --trace-fields -i "$tmp/stock.data"
same stock.data evlist -v --trace-fields -i "$tmp/stock.data"
grep -q '^sched:sched_switch: .*trace_fields: prev_comm,' "$tmp/a" || fail "no sched_switch fields"
grep -q '^{cpu-clock,task-clock}$' <("$TEXTPOKE" evlist -g -i "$tmp/stock.data") || fail "-g: no group line"

corpus="${TEXTPOKE_CORPUS:-}"
if [ -n "$corpus" ] && [ -r "$corpus/INDEX.md" ]; then
	for f in perf_data_converter/perf.data.group_desc-4.14 perf_data_converter/perf.data.piped.lost_samples-4.4 \
		 perf_data_converter/perf.data.intel_pt-4.14; do
		same "$f" buildid-list -i "$corpus/$f"
		same "$f" evlist -v -i "$corpus/$f"
	done
	same group_desc-4.14 evlist -g -i "$corpus/perf_data_converter/perf.data.group_desc-4.14"
	# modules hit: named kernel in the table (3.8), and user, another object to perf
	same callgraph-3.8 buildid-list -H -i "$corpus/perf_data_converter/perf.data.callgraph-3.8"
	same generated_by_linux_perf buildid-list -H \
		-i "$corpus/platform_system_extras/generated_by_linux_perf.data"
fi

same "ELF" buildid-list -i /bin/sh
same "-k" buildid-list -k
"$TEXTPOKE" evlist -g -v -i "$tmp/stock.data" >/dev/null 2>&1 && fail "-g -v accepted"
echo "$n comparisons"
exit 0
