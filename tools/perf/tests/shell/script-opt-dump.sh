#!/bin/bash
# script: --per-event-dump writes <input>.<event>.dump files as perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# perf script --per-event-dump writes each event's samples to
# <input>.<event>.dump (every event gets its file, an empty one too),
# prints side-band lines on stdout and ends with one "[ perf script: Wrote
# N MB <file> (S samples) ]" line per event.  Stock perf and we run in
# directories of our own on copies of one recording; the files and stdout
# must be byte-identical, with filters too.
#
# Mutation caught: script__sample() not counting dump->samples (the
# closing lines differ); the files named <input>.<event>.txt (the
# directories differ).

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
scratch script-opt-dump
export HOME=$tmp/home
mkdir -p "$HOME"

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/two.data" -e cpu-clock,task-clock --switch-events -- "$tmp/w64" 40000000

# dumped NAME ARGS...: both in a directory of their own, files and stdout compared
dumped() {
	local name=$1 who
	shift
	for who in perf ours; do
		mkdir -p "$tmp/$name.$who"
		cp "$tmp/two.data" "$tmp/$name.$who/two.data"
		(
			cd "$tmp/$name.$who" || exit 1
			if [ $who = perf ]; then
				HOME=$tmp perf script -i two.data --per-event-dump "$@"
			else
				"$TEXTPOKE" script -i two.data --per-event-dump "$@"
			fi
		) >"$tmp/$name.$who.out" 2>"$tmp/$name.$who.err" ||
			fail "$name: $who failed: $(head -3 "$tmp/$name.$who.err")"
		rm "$tmp/$name.$who/two.data"
	done
	[ -s "$tmp/$name.perf/two.data.cpu-clock.dump" ] ||
		fail "$name: stock perf wrote no two.data.cpu-clock.dump, or an empty one"
	diff -r "$tmp/$name.perf" "$tmp/$name.ours" >"$tmp/$name.diff" || {
		head -20 "$tmp/$name.diff"
		fail "$name: the .dump files differ from stock perf's"
	}
	cmp -s "$tmp/$name.perf.out" "$tmp/$name.ours.out" || {
		diff -u "$tmp/$name.perf.out" "$tmp/$name.ours.out" | head -20
		fail "$name: stdout differs from stock perf's"
	}
	grep -q '([1-9][0-9]* samples) ]$' "$tmp/$name.ours.out" || fail "$name: no samples counted"
	echo "ok: $name: $(ls "$tmp/$name.ours" | tr '\n' ' ')as perf; $(grep -c . "$tmp/$name.ours.out") stdout lines"
}
dumped plain
dumped side-band --show-switch-events --show-task-events
dumped fields -F comm,tid,ip,sym
dumped filtered --time 20%-60%
exit 0
