#!/bin/bash
# script: -F tod (time of day from HEADER_CLOCK_DATA) as perf script, and its error without -k
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it records the whole system (-a), which another test would load
#
# Stock perf records a workload with -k monotonic (it then writes
# HEADER_CLOCK_DATA: the wall clock and the monotonic clock read at one
# instant), once per task and once system-wide (samples with cpu), and
# once without -k.  With the clock data, -F tod lines (with other fields,
# --ns, side-band lines, TZ set to a far zone) are byte-identical to stock
# perf script's; without it both refuse with perf's message and exit 255.
# Our own `perf textpoke record -k` must write the feature too: stock perf
# reads its clock data back (perf report --header-only) and prints -F tod
# from it as we do.
#
# Mutation caught: script_tod__scnprintf() printing ns / 1000000 for the
# microseconds (every tod differs); script__check_tod() returning 0 (no
# error without -k).

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
scratch script-tod
export HOME=$tmp/home
mkdir -p "$HOME"

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/k.data" -k monotonic -e cpu-clock -- "$tmp/w64" 20000000
perf_record "$tmp/ka.data" -k CLOCK_MONOTONIC -a -e cpu-clock -- "$tmp/w64" 20000000
perf_record "$tmp/nok.data" -e cpu-clock -- "$tmp/w64" 20000000

HOME=$tmp perf report -i "$tmp/k.data" --header-only 2>&1 | grep -q '^# clockid: monotonic' ||
	fail "stock perf -k wrote no clock data it shows"

same_output tod "$tmp/k.data" -F +tod
same_output tod-only "$tmp/k.data" -F tod
same_output tod-ns "$tmp/k.data" -F comm,tid,tod,time,ip,sym --ns
same_output tod-side-band "$tmp/k.data" -F +tod,+misc --show-task-events --show-mmap-events
TZ=Pacific/Kiritimati same_output tod-tz "$tmp/k.data" -F tid,tod,time
same_output tod-cpu "$tmp/ka.data" -F comm,tid,cpu,misc,tod,time,event,ip -c w64
same_output tod-sw "$tmp/ka.data" -F sw:tod,cpu -c w64

# without clock data: perf's message and status, nothing on stdout
for args in "-F tod" "-F +tod" "-F sw:comm,tod"; do
	# shellcheck disable=SC2086
	HOME=$tmp perf script -i "$tmp/nok.data" $args >"$tmp/p.out" 2>"$tmp/p.err"
	st_perf=$?
	# shellcheck disable=SC2086
	"$TEXTPOKE" script -i "$tmp/nok.data" $args >"$tmp/o.out" 2>"$tmp/o.err"
	st_ours=$?
	[ "$st_perf" = 255 ] || fail "$args: stock perf exits $st_perf, not 255, without clock data"
	[ "$st_ours" = "$st_perf" ] || fail "$args: we exit $st_ours, stock perf $st_perf"
	[ "$(sed 's/^error: //' "$tmp/o.err")" = "$(cat "$tmp/p.err")" ] ||
		fail "$args: we say '$(cat "$tmp/o.err")', stock perf '$(cat "$tmp/p.err")'"
	[ -s "$tmp/o.out" ] && fail "$args: printed on stdout without clock data"
	echo "ok: $args without -k: exit $st_ours, $(cat "$tmp/p.err")"
done

# a pipe: the clock data comes as a record; without it both print perf's "disabled"
for k in "-k monotonic" ""; do
	# shellcheck disable=SC2086
	HOME=$tmp perf record -q $k -e cpu-clock -o - -- "$tmp/w64" 20000000 >"$tmp/pipe.data" \
		2>"$tmp/pipe.err" || fail "stock perf record -o - $k: $(head -3 "$tmp/pipe.err")"
	HOME=$tmp perf script -i - -F tid,tod,time <"$tmp/pipe.data" >"$tmp/pipe.perf" 2>&1 ||
		fail "stock perf script of a pipe ($k): $(head -3 "$tmp/pipe.perf")"
	"$TEXTPOKE" script -i - -F tid,tod,time <"$tmp/pipe.data" >"$tmp/pipe.ours" 2>&1 ||
		fail "perf textpoke script of a pipe ($k): $(head -3 "$tmp/pipe.ours")"
	[ -s "$tmp/pipe.perf" ] || fail "stock perf printed nothing for a pipe ($k)"
	cmp -s "$tmp/pipe.perf" "$tmp/pipe.ours" ||
		{ diff "$tmp/pipe.perf" "$tmp/pipe.ours" | head -5; fail "pipe ($k): differs"; }
	echo "ok: pipe ${k:-without -k}: $(wc -l <"$tmp/pipe.ours") lines equal, $(head -c 40 "$tmp/pipe.ours")"
done

# our record -k: the feature stock perf reads, and the same tod lines
"$TEXTPOKE" record -q -k monotonic -e cpu-clock -o "$tmp/ours.data" -- "$tmp/w64" 20000000 \
	>"$tmp/rec.out" 2>&1 || fail "perf textpoke record -k: $(head -3 "$tmp/rec.out")"
HOME=$tmp perf report -i "$tmp/ours.data" --header-only >"$tmp/ours.header" 2>&1 ||
	fail "stock perf report --header-only on our recording"
grep -q '^# clockid: monotonic (1)' "$tmp/ours.header" &&
	grep -q '^# reference time: .* (TOD) = .* (monotonic)' "$tmp/ours.header" ||
	fail "our record -k: stock perf shows no clock data: $(grep -i clock "$tmp/ours.header")"
same_output ours-tod "$tmp/ours.data" -F comm,tid,tod,time,ip
echo "ok: perf textpoke record -k writes HEADER_CLOCK_DATA"
