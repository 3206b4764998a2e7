#!/bin/bash
# record: --control fifo:ctl,ack speaks perf's protocol, --max-size stops the recording, --switch-output rotates files
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
# --switch-output (signal: one SIGUSR2; 8K; 1s), each on a workload that
# never ends, stopped by SIGINT once a switch was said: the files are
# OUT.<YYYYmmddHHMMSScc> as perf names them, exactly those the "Dump"
# lines name, at least two, no OUT left, and stock perf script reads
# each without a warning, the workload's COMM in each (the files after
# the first start with the state synthesized again), and the sample
# times each file's header gives are those of its own first and last
# sample as stock perf script prints them (the recorder notes a file's
# records from the file itself at each switch).
# A timeout of 20 s around each recording turns "never stops" into a
# failure instead of a hang.
# Mutation caught: record_control__read() not splitting at newlines:
# no ack comes, the test fails on the first read.
# Mutation caught: the --max-size check comparing against max_size << 10:
# the recording is stopped by the timeout.
# Mutation caught: record__switch_output() not reading its file's records
# back before the closing features: the first file's header has no
# sample times.
# Mutation caught: record__switch_output() not synthesizing the new
# file's state: stock perf script shows no sh COMM in the second file.

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
[[ "$line" =~ ^\[\ perf\ textpoke\ record:\ perf\ size\ limit\ reached\ \(([0-9]+)\ KB\),\ stopping\ session\ \]$ ]] ||
	fail "--max-size: not perf's line: $(cat "$tmp/m.err")"
[ "${BASH_REMATCH[1]}" -ge 16 ] || fail "--max-size 16K: stopped at ${BASH_REMATCH[1]} KB"
stock_script max "$tmp/m.data" -F time,event
[ -s "$tmp/max.out" ] || fail "--max-size: stock perf script read no sample"
echo "ok: --max-size 16K: $line; stock perf script reads $(wc -l <"$tmp/max.out") samples"

# switched NAME OPTS...: a never-ending workload recorded with OPTS,
# SIGUSR2 once it runs (signal mode), SIGINT after the first switch
switched() {
	local name=$1 i f n=0 hdr first last
	shift
	mkdir "$tmp/$name"
	# no timeout(1) around it: it would take the SIGUSR2
	"$TEXTPOKE" record -v -o "$tmp/$name/out" --no-bpf-capture -e cpu-clock "$@" \
		-- sh -c 'while :; do :; done' >/dev/null 2>"$tmp/$name.err" &
	rec=$!
	wait_started "$tmp/$name.err"
	[ "$*" = --switch-output ] && kill -USR2 $rec
	for i in $(seq 150); do
		grep -q "Dump" "$tmp/$name.err" && break
		sleep 0.02
	done
	kill -INT $rec
	wait $rec || fail "$*: record exited $?: $(tail -3 "$tmp/$name.err")"
	sed -n 's/^\[ perf textpoke record: Dump \(.*\) \]$/\1/p' "$tmp/$name.err" | sort >"$tmp/$name.said"
	find "$tmp/$name" -type f | sort >"$tmp/$name.files"
	cmp -s "$tmp/$name.said" "$tmp/$name.files" ||
		fail "$*: Dump lines '$(tr '\n' ' ' <"$tmp/$name.said")', files '$(tr '\n' ' ' <"$tmp/$name.files")'"
	while read -r f; do
		[[ "$f" =~ /out\.[0-9]{16}$ ]] || fail "$*: $f is not named OUT.<timestamp>"
		stock_script sw "$f" --show-task-events -F comm,event
		grep -q "PERF_RECORD_COMM.*sh:" "$tmp/sw.out" || fail "$*: $f: stock perf script shows no sh COMM"
		stock_script swt "$f" -F time
		perf report --header-only -i "$f" 2>/dev/null | grep "^# time of" >"$tmp/sw.hdr"
		hdr=$(tr '\n' ' ' <"$tmp/sw.hdr")
		if [ -s "$tmp/swt.out" ]; then
			first=$(tr -d ' :' <"$tmp/swt.out" | sort -n | head -1)
			last=$(tr -d ' :' <"$tmp/swt.out" | sort -n | tail -1)
			grep -qx "# time of first sample : $first" "$tmp/sw.hdr" &&
				grep -qx "# time of last sample : $last" "$tmp/sw.hdr" ||
				fail "$*: $f: samples $first..$last, the header says: $hdr"
		elif [ -s "$tmp/sw.hdr" ]; then
			fail "$*: $f: no sample, the header says: $hdr"
		fi
		n=$((n + 1))
	done <"$tmp/$name.files"
	[ $n -ge 2 ] || fail "$*: $n files"
	echo "ok: $*: $n files OUT.<timestamp>, read by stock perf script, sample times their own"
}
switched signal --switch-output
switched size --switch-output=8K
switched time --switch-output=1s
