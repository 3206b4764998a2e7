#!/bin/bash
# writers under faults: full disk, SIGINT, SIGTERM, SIGKILL, FIFO and symlink outputs keep the previous output
# SPDX-License-Identifier: GPL-2.0-only
#
# inject (and report --html, record where it applies) against what kills
# or starves a writer half way:
# - a full tmpfs: exit 1, "No space left on device" naming the output;
# - SIGINT and SIGTERM while the output is written (its temporary name is
#   seen beside it): the writer dies of that signal (status 130, 143),
#   says the output was not written, and leaves no temporary file;
# - SIGKILL: the temporary output stays; the next run of any writer to the
#   same output removes it, naming it and the dead pid, and succeeds;
# - -o a FIFO (read by cat) gets the same bytes as a regular file; -o a
#   symlink keeps the link and replaces its target (the target's .old
#   kept); -o /dev/null stays the device.
# In every case the previous output and its .old are byte for byte as they
# were and the input is unchanged.  (ulimit -f: record-full.sh and
# inject-pass-through.sh.)  Where no tmpfs can be mounted the full-disk
# part is not run, every other part is, and the test ends as a Skip that
# names the part.
#
# Mutation caught: interrupt__install() not called in inject (SIGTERM's
# default action): the SIGTERM case finds its temporary file left behind.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch writer-faults
skipped=""
trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT

# an input inject takes a second or more over: 400k pokes and samples
"$TEXTPOKE" test --write-fixture big-pokes:400000,400000,10000 "$tmp/in.data" >/dev/null ||
	fail "the big-pokes fixture"
md5sum "$tmp/in.data/data" >"$tmp/in.md5"

mkdir "$tmp/out"
"$TEXTPOKE" inject -q -i "$tmp/in.data" -o "$tmp/out/o.data" 2>"$tmp/err" || fail "inject: $(cat "$tmp/err")"
"$TEXTPOKE" inject -q -i "$tmp/in.data" -o "$tmp/out/o.data" 2>"$tmp/err" || fail "inject: $(cat "$tmp/err")"
[ -d "$tmp/out/o.data.old" ] || fail "no .old after the second inject"
snap() { (cd "$tmp/out" && find . -type f -print0 | sort -z | xargs -0 md5sum); }
snap >"$tmp/before"
intact() {
	snap | cmp -s - "$tmp/before" || fail "$1: the previous output changed"
	md5sum -c --quiet "$tmp/in.md5" || fail "$1: the input changed"
	local left
	left=$(ls -A "$tmp/out" | grep '^\.')
	[ -z "$left" ] || fail "$1: temporary output left: $left"
}

# start_mid NAME ARGS...: run ARGS in the background, wait (up to 20 s) for
# its temporary output in $tmp/out; $pid is the writer
start_mid() {
	local name=$1 i
	shift
	"$@" >/dev/null 2>"$tmp/$name.err" &
	pid=$!
	for i in $(seq 4000); do
		ls -A "$tmp/out" | grep -q "^\..*\.$pid\." && return 0
		kill -0 $pid 2>/dev/null || break
		sleep 0.005
	done
	wait $pid
	fail "$name: no temporary output seen while it ran (exit $?): $(cat "$tmp/$name.err")"
}

# SIGINT and SIGTERM
for sig in INT TERM; do
	start_mid "sig$sig" "$TEXTPOKE" inject -q -i "$tmp/in.data" -o "$tmp/out/o.data"
	kill -$sig $pid
	wait $pid
	st=$?
	want=$((128 + $(kill -l $sig)))
	[ $st = $want ] || fail "SIG$sig: exit $st, not $want: $(cat "$tmp/sig$sig.err")"
	grep -q "o.data: interrupted by .*: not written" "$tmp/sig$sig.err" ||
		fail "SIG$sig: $(cat "$tmp/sig$sig.err")"
	intact "SIG$sig"
	echo "ok: SIG$sig: exit $st, $(cat "$tmp/sig$sig.err")"
done

# SIGKILL: the leftover is removed by the next run, which names it
start_mid kill "$TEXTPOKE" inject -q -i "$tmp/in.data" -o "$tmp/out/o.data"
kill -KILL $pid
wait $pid 2>/dev/null
left=$(ls -A "$tmp/out" | grep "^\..*\.$pid\.")
[ -n "$left" ] || fail "SIGKILL: no temporary output left to clean"
"$TEXTPOKE" inject -q -i "$tmp/in.data" -o "$tmp/out/o.data" 2>"$tmp/err" ||
	fail "after SIGKILL: inject failed: $(cat "$tmp/err")"
grep -q "removed .*$left, left by a killed run (pid $pid)" "$tmp/err" ||
	fail "after SIGKILL: the leftover's removal not said: $(cat "$tmp/err")"
[ -z "$(ls -A "$tmp/out" | grep '^\.')" ] || fail "after SIGKILL: $(ls -A "$tmp/out")"
snap >"$tmp/before"
echo "ok: SIGKILL: $(cat "$tmp/err")"

# record, SIGKILL: the next recording to that name cleans up
build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"
start_mid rkill "$TEXTPOKE" record -q -e cpu-clock -o "$tmp/out/r.data" -- "$tmp/loop" 3
kill -KILL $pid
wait $pid 2>/dev/null
pkill -KILL -f "$tmp/loop" 2>/dev/null
left=$(ls -A "$tmp/out" | grep "^\..*\.$pid\.")
[ -n "$left" ] || fail "record SIGKILL: no temporary output left"
"$TEXTPOKE" record -e cpu-clock -o "$tmp/out/r.data" -- true 2>"$tmp/err" ||
	fail "record after SIGKILL: $(cat "$tmp/err")"
grep -q "removed .*$left, left by a killed run (pid $pid)" "$tmp/err" ||
	fail "record after SIGKILL: $(cat "$tmp/err")"
[ -z "$(ls -A "$tmp/out" | grep '^\.')" ] || fail "record after SIGKILL: $(ls -A "$tmp/out")"
rm -rf "$tmp/out/r.data"
echo "ok: record SIGKILL: $(cat "$tmp/err")"

# report --html, SIGTERM: the page named stays as it was
echo keep >"$tmp/out/r.html"
snap >"$tmp/before"
start_mid html "$TEXTPOKE" report -i "$tmp/in.data" --html "$tmp/out/r.html"
kill -TERM $pid
wait $pid
st=$?
[ $st = 143 ] || fail "report --html SIGTERM: exit $st: $(cat "$tmp/html.err")"
intact "report --html SIGTERM"
echo "ok: report --html SIGTERM: exit $st"

# a full disk
mkdir "$tmp/small"
if mount -t tmpfs -o size=512k tmpfs "$tmp/small" 2>/dev/null; then
	echo old >"$tmp/small/o.data"
	"$TEXTPOKE" inject -q -i "$tmp/in.data" -o "$tmp/small/o.data" 2>"$tmp/err" &&
		fail "full disk: inject succeeded"
	grep -q "error: $tmp/small/o.data.*: No space left on device" "$tmp/err" || fail "full disk: $(cat "$tmp/err")"
	[ "$(cat "$tmp/small/o.data")" = old ] || fail "full disk: the previous output changed"
	[ -z "$(ls -A "$tmp/small" | grep '^\.')" ] || fail "full disk: $(ls -A "$tmp/small")"
	echo "ok: full disk: $(tail -1 "$tmp/err")"
	umount "$tmp/small"
else
	skipped="full-disk part: cannot mount a tmpfs here (mount -t tmpfs failed)"
fi

# a small input for the through outputs
"$TEXTPOKE" test --write-fixture big-pokes:2000,2000,100 "$tmp/s.data" >/dev/null || fail "small fixture"
"$TEXTPOKE" inject -q -i "$tmp/s.data" -o - >"$tmp/s.pipe" 2>"$tmp/err" || fail "inject -o -: $(cat "$tmp/err")"
mkfifo "$tmp/fifo"
# the reader's open() and ours meet through fd 3, which writes nothing:
# inject opens without blocking and fails with ENXIO if no reader has it
# open yet, which a reader started in the background may not have
cat "$tmp/fifo" >"$tmp/s.fifo" &
reader=$!
exec 3>"$tmp/fifo"
"$TEXTPOKE" inject -q -i "$tmp/s.data" -o "$tmp/fifo" 2>"$tmp/err"
st=$?
exec 3>&-
wait $reader
[ $st = 0 ] || fail "inject -o FIFO: $(cat "$tmp/err")"
[ -p "$tmp/fifo" ] || fail "the FIFO was replaced"
cmp -s "$tmp/s.pipe" "$tmp/s.fifo" || fail "-o FIFO: not the bytes of -o -"
echo "ok: -o FIFO: $(wc -c <"$tmp/s.fifo") bytes, as -o -"

"$TEXTPOKE" inject -q -i "$tmp/s.data" -o "$tmp/target.data" 2>"$tmp/err" || fail "inject: $(cat "$tmp/err")"
ln -s target.data "$tmp/link.data"
"$TEXTPOKE" inject -q -i "$tmp/s.data" -o "$tmp/link.data" 2>"$tmp/err" || fail "inject -o link: $(cat "$tmp/err")"
[ -L "$tmp/link.data" ] || fail "-o symlink: the link was replaced"
[ -e "$tmp/target.data.old" ] || fail "-o symlink: the target's previous version not kept as .old"
echo "ok: -o symlink: the link kept, its target replaced, target.data.old kept"

"$TEXTPOKE" inject -q -i "$tmp/s.data" -o /dev/null 2>"$tmp/err" || fail "inject -o /dev/null: $(cat "$tmp/err")"
[ -c /dev/null ] || fail "/dev/null is no longer a device"
echo "ok: -o /dev/null written through"
[ -z "$skipped" ] || skip "$skipped"
exit 0
