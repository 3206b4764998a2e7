#!/bin/bash
# record: a file-size limit or a full disk is said, and the previous output kept
# SPDX-License-Identifier: GPL-2.0-only
#
# Each failure must be a one-line error naming the output with the reason
# ("File too large", "No space left on device"), exit status 1 (not death
# by SIGXFSZ, 153), no temporary output left in the directory, and the
# previous recording and its .old byte for byte as they were:
# - ulimit -f with --no-kcore, where the data file passes the limit;
# - ulimit -f with the kcore_dir, where the kallsyms copy passes it (a plain
#   file's kcore_dir is written in TMPDIR before it is packed in the file);
# - a full tmpfs, both ways (TMPDIR on it for the kcore_dir), the temporary
#   kcore_dir removed;
# - the workload itself gets SIGXFSZ back (the recorder ignores it).
# A part whose prerequisite is missing (a tmpfs cannot be mounted here,
# /proc/kallsyms is too small to pass the limit) is not run, and the test
# ends as a Skip naming it after running every other part.
#
# Mutation caught: writer_output__discard() not removing the temporary
# output (the 'File too large' case finds .f.data.PID.XXXXXX left).

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch record-full
export HOME=$tmp
skipped=""
trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT

build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"

# only what the test put there: no .NAME.XXXXXX temporary left behind
no_temp() {
	local left
	left=$(ls -A "$1" | grep "^\.")
	[ -z "$left" ] || fail "$2: temporary output left in $1: $left"
}

# snapshot DIR / same DIR: every file below DIR byte for byte as before
snapshot() {
	(cd "$1" && find . -type f -print0 | sort -z | xargs -0 md5sum) >"$tmp/snap.$2"
}
same() {
	snapshot "$1" now
	cmp -s "$tmp/snap.$2" "$tmp/snap.now" ||
		fail "$2: the previous recordings changed: $(diff "$tmp/snap.$2" "$tmp/snap.now" | head -4)"
}

# failing NAME EXPECTED -- record args: exit 1 and exactly that error line
failing() {
	local name=$1 expect=$2 st
	shift 3
	"$TEXTPOKE" record -e cpu-clock "$@" >/dev/null 2>"$tmp/$name.err"
	st=$?
	[ $st = 1 ] || fail "$name: exit status $st, expected 1: $(cat "$tmp/$name.err")"
	grep -qx "error: $expect" "$tmp/$name.err" ||
		fail "$name: expected 'error: $expect', got: $(cat "$tmp/$name.err")"
}

# the previous recordings: files with their .old (the default is a plain file)
mkdir "$tmp/out"
record "$tmp/out/f.data" --no-kcore -- true
record "$tmp/out/f.data" --no-kcore -- "$tmp/loop" 0.05
record "$tmp/out/d.data" -- true
record "$tmp/out/d.data" -- "$tmp/loop" 0.05
snapshot "$tmp/out" before

# ulimit -f with --no-kcore: even an empty recording is past 2 KiB (the
# header, attrs, kernel map, features), whatever the machine's load
(ulimit -f 2; failing fsize-file "$tmp/out/f.data: File too large" -- \
	--no-kcore -o "$tmp/out/f.data" -- "$tmp/loop" 0.3) || exit 1
no_temp "$tmp/out" "ulimit -f, --no-kcore"
same "$tmp/out" before
echo "ok: ulimit -f, --no-kcore: 'File too large', exit 1, no temporary file, previous output intact"

# ulimit -f with kcore_dir: the copy of /proc/kallsyms passes 64 KiB
if [ "$(wc -c </proc/kallsyms)" -gt 131072 ]; then
	(ulimit -f 64; failing fsize-dir "$tmp/out/d.data: cannot write kcore_dir: File too large" -- \
		-o "$tmp/out/d.data" -- true) || exit 1
	no_temp "$tmp/out" "ulimit -f, kcore_dir"
	same "$tmp/out" before
	echo "ok: ulimit -f, kcore_dir: 'File too large', exit 1, no temporary directory, previous output intact"
else
	skipped="kcore_dir ulimit part: /proc/kallsyms ($(wc -c </proc/kallsyms) bytes) is too small to pass a 64 KiB limit"
fi

# the workload is not left ignoring SIGXFSZ: it dies of it, as without us
record "$tmp/wl.data" --no-kcore -- bash -c \
	'ulimit -f 1; head -c 4096 /dev/zero >"$0/big" 2>/dev/null; echo "status $?" >"$0/wl.status"' "$tmp"
[ "$(cat "$tmp/wl.status")" = "status 153" ] ||
	fail "the workload did not get SIGXFSZ: $(cat "$tmp/wl.status")"
echo "ok: the workload still gets SIGXFSZ"

# a full file system
mkdir "$tmp/small"
if mount -t tmpfs -o size=256k,mode=0755 textpoke-test "$tmp/small" 2>/dev/null; then
	# a kcore_dir (~MBs of kallsyms) would not fit: the previous ones are
	# files; then a filler takes every block left
	cp "$tmp/out/f.data" "$tmp/out/f.data.old" "$tmp/small/" &&
		cp "$tmp/out/f.data" "$tmp/small/d.data" || fail "cannot fill $tmp/small"
	dd if=/dev/zero of="$tmp/small/filler" bs=4k 2>/dev/null
	[ "$(df --output=avail -B1 "$tmp/small" | tail -1 | tr -d " ")" = 0 ] || fail "$tmp/small is not full"
	snapshot "$tmp/small" small
	failing enospc-file "$tmp/small/f.data: No space left on device" -- \
		--no-kcore -o "$tmp/small/f.data" -- "$tmp/loop" 0.3
	no_temp "$tmp/small" "full disk, --no-kcore"
	same "$tmp/small" small
	(export TMPDIR=$tmp/small
	failing enospc-dir "$tmp/small/d.data: cannot write kcore_dir: No space left on device" -- \
		-o "$tmp/small/d.data" -- true) || exit 1
	no_temp "$tmp/small" "full disk, kcore_dir"
	left=$(ls -d "$tmp/small"/perf-textpoke.* 2>/dev/null)
	[ -z "$left" ] || fail "full disk, kcore_dir: the temporary kcore_dir was left: $left"
	same "$tmp/small" small
	umount "$tmp/small"
	echo "ok: a full disk: 'No space left on device', exit 1, nothing left, previous output intact"
else
	skipped="${skipped:+$skipped; }full-disk part: cannot mount a tmpfs here (mount -t tmpfs failed)"
fi
[ -z "$skipped" ] || skip "$skipped"
exit 0
