#!/bin/bash
# record: --control fifo:ctl,ack speaks perf's protocol, --max-size stops the recording
# SPDX-License-Identifier: GPL-2.0-only
#
# --control: a recording started with -D -1 (events off until told) and
# -k monotonic, of a shell spinning forever; the test sends perf's
# commands through the FIFO and waits for each "ack" as a perf user's
# script does: "enable", "disable cpu-clock" after 0.2 s, "ping",
# "enable nosuch" (perf acks it with its "can't find" line), "stop".
# Every sample must lie between the moment before "enable" was sent and
# the "disable" ack (CLOCK_MONOTONIC read by python, the clock -k
# monotonic stamps samples with), there must be some, and "stop" must
# end the recording of a workload that never ends.  The lines said are
# stock perf 6.1's for the same commands (checked on this machine:
# Events disabled / Events enabled / Event cpu-clock disabled).
# --max-size 16K on a workload that never ends: it stops by itself with
# perf's "size limit reached" line, and stock perf script reads it.
# A timeout of 20 s around each recording turns "never stops" into a
# failure instead of a hang.
# Mutation caught: record_control__read() not splitting at newlines:
# no ack comes, the test fails on the first read.
# Mutation caught: the --max-size check comparing against max_size << 10:
# the recording is stopped by the timeout.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
command -v python3 >/dev/null || skip "python3 is not installed (the test's monotonic clock)"
scratch recctl
export HOME=$tmp

mono() {
	python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC))'
}

# cmd WORDS: send a command, wait (5 s at most) for its ack
cmd() {
	local a
	echo "$*" >&7
	read -r -t 5 a <&8 || fail "--control: no ack for '$*'"
	[ "$a" = ack ] || fail "--control: '$a' for '$*', not ack"
}

mkfifo "$tmp/ctl" "$tmp/ack"
# both ends held here, so that neither side's open waits for the other
exec 7<>"$tmp/ctl" 8<>"$tmp/ack"
timeout 20 "$TEXTPOKE" record -v -o "$tmp/c.data" --no-bpf-capture --no-kcore -k monotonic \
	-D -1 --control "fifo:$tmp/ctl,$tmp/ack" -e cpu-clock -- sh -c 'while :; do :; done' \
	>/dev/null 2>"$tmp/c.err" &
rec=$!
wait_started "$tmp/c.err"
t0=$(mono)
cmd enable
sleep 0.2
cmd disable cpu-clock
t1=$(mono)
cmd ping
cmd enable nosuch
cmd stop
wait $rec
rc=$?
[ $rc = 124 ] && fail "--control: 'stop' did not end the recording"
[ $rc = 0 ] || fail "--control: record exited $rc: $(tail -3 "$tmp/c.err")"
grep -E "^(Event|failed)" "$tmp/c.err" >"$tmp/said"
printf '%s\n' "Events disabled" "Events enabled" "Event cpu-clock disabled" \
	"failed: can't find 'nosuch' event" | cmp -s - "$tmp/said" ||
	fail "--control: said '$(tr '\n' '|' <"$tmp/said")'"
stock_script ctl "$tmp/c.data" -F time,event
awk -v t0="$t0" -v t1="$t1" '
	{ sub(/:$/, "", $1); t = $1 * 1e9; n++ }
	# perf script prints microseconds: a microsecond of slack
	t < t0 - 1000 || t > t1 + 1000 { bad++; if (!first_bad) first_bad = $1 }
	END {
		if (!n) { print "FAIL: --control: no sample while enabled"; exit 1 }
		if (bad) { printf "FAIL: --control: %d of %d samples outside enable..disable (%s)\n", bad, n, first_bad; exit 1 }
		printf "ok: --control: %d samples, all between enable and the disable ack\n", n
	}' "$tmp/ctl.out" || exit 1

timeout 20 "$TEXTPOKE" record -o "$tmp/m.data" --no-bpf-capture --no-kcore --max-size 16K \
	-e cpu-clock -- sh -c 'while :; do :; done' >/dev/null 2>"$tmp/m.err"
rc=$?
[ $rc = 124 ] && fail "--max-size 16K: the recording did not stop"
[ $rc = 0 ] || fail "--max-size: record exited $rc: $(tail -3 "$tmp/m.err")"
line=$(grep "size limit reached" "$tmp/m.err")
[[ "$line" =~ ^\[\ perf\ record:\ perf\ size\ limit\ reached\ \(([0-9]+)\ KB\),\ stopping\ session\ \]$ ]] ||
	fail "--max-size: not perf's line: $(cat "$tmp/m.err")"
[ "${BASH_REMATCH[1]}" -ge 16 ] || fail "--max-size 16K: stopped at ${BASH_REMATCH[1]} KB"
stock_script max "$tmp/m.data" -F time,event
[ -s "$tmp/max.out" ] || fail "--max-size: stock perf script read no sample"
echo "ok: --max-size 16K: $line; stock perf script reads $(wc -l <"$tmp/max.out") samples"
