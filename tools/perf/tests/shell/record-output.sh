#!/bin/bash
# record: -o a device, FIFO or symlink is written through, never replaced
# SPDX-License-Identifier: GPL-2.0-only
#
# perf record keeps <output>.old and renames a temporary file into place
# for regular files only.  Everything here lives in a scratch directory:
# the device nodes are mknod'ed copies of /dev/null (1:3) and /dev/full
# (1:7), never the real ones.
# - -o a null device: exit 0, still the same character device, no .old,
#   no temporary file; the plain-file fallback (no kcore_dir) said once;
# - -o a full device: "No space left on device" naming it, exit 1, the node
#   intact;
# - -o a symlink to a regular file: the link stays, its target gets the
#   recording (stock perf script reads it) and the previous target is kept
#   as <target>.old; a symlink to the null node writes through it;
# - -o a FIFO nobody reads: a clear error at once, no hang; with a reader
#   the recording streams in pipe mode, read by stock perf script -i -;
#   so does -o /dev/stdout to a pipe (a /proc link that names no path);
# - -o a directory that holds more than a recording: refused, untouched.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch record-output
export HOME=$tmp

mknod "$tmp/null" c 1 3 && mknod "$tmp/full" c 1 7 || skip "mknod failed in $tmp"
echo probe >"$tmp/null" 2>/dev/null || skip "$tmp does not allow device nodes (nodev)"
build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"

# is_node NAME MAJOR MINOR: still the character device we made
is_node() {
	[ -c "$tmp/$1" ] && [ ! -L "$tmp/$1" ] &&
		[ "$(stat -c '%t:%T' "$tmp/$1")" = "$(printf '%x:%x' "$2" "$3")" ]
}

# no_leftovers NAME: no NAME.old and no temporary .NAME.* beside it
no_leftovers() {
	[ -e "$tmp/$1.old" ] && fail "$1.old was created"
	ls -A "$tmp" | grep -q "^\.$1\." && fail "a temporary file was left: $(ls -A "$tmp" | grep "^\.$1\.")"
	return 0
}

# a null device, with the default kcore_dir and with --no-kcore
"$TEXTPOKE" record -e cpu-clock -o "$tmp/null" -- "$tmp/loop" 0.1 >/dev/null 2>"$tmp/null.err" ||
	fail "-o null: exit $?: $(cat "$tmp/null.err")"
is_node null 1 3 || fail "-o null: the node was replaced: $(ls -l "$tmp/null")"
no_leftovers null
[ "$(grep -c "null is not a directory: writing a plain file, without kcore_dir" "$tmp/null.err")" = 1 ] ||
	fail "-o null: the plain-file fallback was not said once: $(cat "$tmp/null.err")"
record "$tmp/null" --no-kcore -z -e cpu-clock -- true
is_node null 1 3 || fail "-o null --no-kcore -z: the node was replaced"
no_leftovers null
echo "ok: -o a null device is written through, no .old, no temporary file"

# a full device
"$TEXTPOKE" record -e cpu-clock -o "$tmp/full" -- "$tmp/loop" 0.1 >/dev/null 2>"$tmp/full.err"
st=$?
[ $st = 1 ] || fail "-o full: exit status $st, expected 1: $(cat "$tmp/full.err")"
grep -q "^error: $tmp/full: No space left on device$" "$tmp/full.err" ||
	fail "-o full: no clear error: $(cat "$tmp/full.err")"
is_node full 1 7 || fail "-o full: the node was replaced: $(ls -l "$tmp/full")"
no_leftovers full
echo "ok: -o a full device: 'No space left on device', exit 1, the node intact"

# a symlink to a regular file: the link stays, the target is the output
record "$tmp/target.data" --no-kcore -e cpu-clock -- true
cp "$tmp/target.data" "$tmp/first.data"
ln -s target.data "$tmp/link.data"
record "$tmp/link.data" --no-kcore -e cpu-clock -- "$tmp/loop" 0.2
n=$(recorded_samples)
[ -L "$tmp/link.data" ] && [ "$(readlink "$tmp/link.data")" = target.data ] ||
	fail "-o link: the symlink was replaced: $(ls -l "$tmp/link.data")"
[ -e "$tmp/link.data.old" ] && fail "-o link: link.data.old was created"
cmp -s "$tmp/first.data" "$tmp/target.data.old" || fail "-o link: the previous target is not target.data.old"
stock_script link "$tmp/link.data" -F comm,tid,time,ip
[ "$(wc -l <"$tmp/link.out")" = "$n" ] || fail "-o link: perf script shows $(wc -l <"$tmp/link.out") samples, we wrote $n"
ln -s null "$tmp/link-null"
record "$tmp/link-null" -e cpu-clock -- true
[ -L "$tmp/link-null" ] && is_node null 1 3 || fail "-o a symlink to the null node: replaced"
no_leftovers link-null
echo "ok: -o a symlink writes its target ($n samples read by stock perf), the link stays"

# a FIFO nobody reads: an error at once, not a wait in open()
mkfifo "$tmp/fifo"
timeout 30 "$TEXTPOKE" record -e cpu-clock -o "$tmp/fifo" -- true >/dev/null 2>"$tmp/fifo.err"
st=$?
[ $st = 124 ] && fail "-o a FIFO without a reader: hung in open()"
[ $st = 1 ] || fail "-o a FIFO without a reader: exit status $st: $(cat "$tmp/fifo.err")"
grep -q "^error: $tmp/fifo: no process has the FIFO open for reading" "$tmp/fifo.err" ||
	fail "-o a FIFO without a reader: no clear error: $(cat "$tmp/fifo.err")"
[ -p "$tmp/fifo" ] || fail "-o a FIFO: the FIFO was replaced"
no_leftovers fifo

# with a reader: its open() and ours meet through fd 3, which writes nothing
cat "$tmp/fifo" >"$tmp/fifo.data" &
reader=$!
exec 3>"$tmp/fifo"
timeout 60 "$TEXTPOKE" record -e cpu-clock -o "$tmp/fifo" -- "$tmp/loop" 0.2 >/dev/null 2>"$tmp/record.err"
st=$?
exec 3>&-
wait $reader
[ $st = 0 ] || fail "-o a FIFO with a reader: exit status $st: $(cat "$tmp/record.err")"
n=$(recorded_samples)
[ -p "$tmp/fifo" ] || fail "-o a FIFO: the FIFO was replaced"
no_leftovers fifo
perf script -i - -F comm,tid,time,ip <"$tmp/fifo.data" >"$tmp/fifo.perf" 2>"$tmp/fifo.perr" ||
	fail "stock perf script -i - on what the FIFO carried: $(head -3 "$tmp/fifo.perr")"
[ "$(wc -l <"$tmp/fifo.perf")" = "$n" ] ||
	fail "-o a FIFO: perf script shows $(wc -l <"$tmp/fifo.perf") samples, we wrote $n"
echo "ok: -o a FIFO: no reader is an error at once; a reader gets pipe mode, $n samples"

# /dev/stdout as a pipe: a /proc magic link, pipe mode; the workload's own
# stdout goes to stderr so that it does not mix with the stream
"$TEXTPOKE" record -e cpu-clock -o /dev/stdout -- sh -c "echo workload-says-hi; exec $tmp/loop 0.2" \
	2>"$tmp/record.err" | cat >"$tmp/stdout.data"
[ "${PIPESTATUS[0]}" = 0 ] || fail "-o /dev/stdout: $(cat "$tmp/record.err")"
n=$(recorded_samples)
grep -q workload-says-hi "$tmp/record.err" || fail "-o /dev/stdout: the workload's output is not on stderr"
perf script -i - -F comm,tid,time,ip <"$tmp/stdout.data" >"$tmp/stdout.perf" 2>"$tmp/stdout.perr" ||
	fail "stock perf script -i - on -o /dev/stdout: $(head -3 "$tmp/stdout.perr")"
[ "$(wc -l <"$tmp/stdout.perf")" = "$n" ] ||
	fail "-o /dev/stdout: perf script shows $(wc -l <"$tmp/stdout.perf") samples, we wrote $n"
echo "ok: -o /dev/stdout to a pipe streams pipe mode, $n samples, the workload's stdout apart"

# a directory that is not a recording is not renamed away
mkdir "$tmp/mine"
echo keep >"$tmp/mine/notes"
"$TEXTPOKE" record -e cpu-clock -o "$tmp/mine" -- true >/dev/null 2>"$tmp/mine.err" &&
	fail "-o a directory of other files succeeded"
grep -q "^error: $tmp/mine: it or $tmp/mine.old is a directory that holds more than a recording" \
	"$tmp/mine.err" || fail "-o a directory of other files: no clear error: $(cat "$tmp/mine.err")"
[ "$(cat "$tmp/mine/notes")" = keep ] && [ "$(ls -A "$tmp/mine")" = notes ] ||
	fail "-o a directory of other files: it was changed"
no_leftovers mine
echo "ok: -o a directory that holds more than a recording is refused"
exit 0
