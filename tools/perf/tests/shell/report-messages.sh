#!/bin/bash
# report: bad options and bad input: one clear error, an exit status, no partial output
# SPDX-License-Identifier: GPL-2.0-only
#
# Each case runs perf textpoke report once and checks the exit status
# (129 for a usage error, 1 for a recording that cannot be reported), that
# stderr names what is wrong (the unknown key, the file and offset of the
# cut record), that stdout stays empty, and for --html that an existing
# file is left as it was and no temporary file stays behind, and that a
# symlink given to --html stays a symlink.  A recording cut off
# mid-record is the exception: the report of its complete records, then
# the error as the last line, exit 1 (salvage.sh checks the figures).
#
# Mutation caught: report__run() not returning err_cut after the salvaged
# report (a cut-off recording exits 0): the cut cases fail on the status.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-messages

perf_record "$tmp/ok.data" -e cpu-clock -F 2000 -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done'
HOME=$tmp perf record -q -o - -e cpu-clock -F 2000 -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' >"$tmp/pipe.data" 2>/dev/null ||
	fail "perf record -o -"
# cut inside the stream's last SAMPLE, found by walking its records as
# the format defines them (a 16-byte pipe header, then records of
# type u32, misc u16, size u16): cutting a fixed count of bytes off the
# end met an MMAP2 when the loop happened to take few samples
cut=$(python3 - "$tmp/pipe.data" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
off, last = 16, None
while off + 8 <= len(data):
    rtype, misc, size = struct.unpack_from("<IHH", data, off)
    if size < 8 or rtype in (66, 71):  # a payload after the record: not in this stream
        sys.exit("record at %#x: type %u size %u" % (off, rtype, size))
    if rtype == 9:
        last = (off, size)
    off += size
if last is None:
    sys.exit("no SAMPLE in the stream")
print(last[0] + 8 + (last[1] - 8) // 2)
PY
) || fail "pipe.data: $cut"
head -c "$cut" "$tmp/pipe.data" >"$tmp/cut.data"
head -c 4096 /dev/zero | tr "\\0" x >"$tmp/bad.data"

# expect NAME STATUS PATTERN ARGS...: the status, stderr matching PATTERN, no stdout
expect() {
	local name=$1 want=$2 pattern=$3 st
	shift 3
	"$TEXTPOKE" report "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	st=$?
	[ "$st" = "$want" ] || fail "$name: exit $st, not $want: $(head -2 "$tmp/$name.err")"
	grep -q -e "$pattern" "$tmp/$name.err" ||
		fail "$name: stderr does not say '$pattern': $(head -2 "$tmp/$name.err")"
	[ -s "$tmp/$name.out" ] && fail "$name: output on stdout: $(head -2 "$tmp/$name.out")"
	echo "ok: $name: $(grep -m1 -e "$pattern" "$tmp/$name.err")"
}

expect sort-key 129 "unknown sort key 'foo'" -i "$tmp/ok.data" --sort comm,foo
[ "$(wc -l <"$tmp/sort-key.err")" = 1 ] || fail "sort-key: not one line: $(cat "$tmp/sort-key.err")"
expect field 129 "unknown field 'bar'" -i "$tmp/ok.data" -F overhead,bar
expect sort-field 129 "unknown sort key 'sample'" -i "$tmp/ok.data" --sort sample
expect percent 129 "bad value 'x' for --percent-limit" -i "$tmp/ok.data" --percent-limit x
expect pid 129 "--pid 1x" -i "$tmp/ok.data" --pid 1x
expect cpu-list 129 "--cpu 3-1" -i "$tmp/ok.data" --cpu 3-1
expect json-stdio 129 "choose one" -i "$tmp/ok.data" --json --stdio
expect time 1 "--time 12" -i "$tmp/ok.data" --time 12
expect no-file 1 "$tmp/none.data: cannot open" -i "$tmp/none.data"
expect no-cpu 1 "ok.data: --cpu: the recording has no cpu" -i "$tmp/ok.data" --cpu 0
expect abi 1 "no event samples the user registers" -i "$tmp/ok.data" --sort abi
# salvaged NAME PATTERN ARGS...: exit 1, the report on stdout, the error last
salvaged() {
	local name=$1 pattern=$2 st
	shift 2
	"$TEXTPOKE" report "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	st=$?
	[ "$st" = 1 ] || fail "$name: exit $st, not 1: $(tail -2 "$tmp/$name.err")"
	tail -1 "$tmp/$name.err" | grep -q -e "^error: .*$pattern" ||
		fail "$name: the last stderr line does not say '$pattern': $(tail -1 "$tmp/$name.err")"
	grep -q "^# Samples: .* of event 'cpu-clock" "$tmp/$name.out" ||
		fail "$name: no report of the complete records: $(head -2 "$tmp/$name.out")"
	echo "ok: $name: $(tail -1 "$tmp/$name.err")"
}
salvaged cut "cut.data: record at 0x[0-9a-f]* (type 9 SAMPLE" -i "$tmp/cut.data"
salvaged cut-stdin "record at 0x[0-9a-f]* (type 9 SAMPLE" -i - <"$tmp/cut.data"

# no sample in the --time range: perf's two header lines, exit 0, a warning
HOME=$tmp perf report -i "$tmp/ok.data" --stdio --time 1,2 >"$tmp/empty.perf" 2>/dev/null
"$TEXTPOKE" report -i "$tmp/ok.data" --no-changes --time 1,2 >"$tmp/empty.ours" 2>"$tmp/empty.err" ||
	fail "empty: exit $?"
cmp -s "$tmp/empty.perf" "$tmp/empty.ours" ||
	{ diff -u "$tmp/empty.perf" "$tmp/empty.ours"; fail "empty: stdout differs from stock perf's"; }
grep -q 'no samples in the --time' "$tmp/empty.err" || fail "empty: $(cat "$tmp/empty.err")"
echo "ok: empty: $(cat "$tmp/empty.err")"

# --html: a bad recording leaves an existing file alone and no temporary
# file; a cut-off one replaces it with the whole page of what is complete
echo keep >"$tmp/out.html"
expect html-bad 1 "bad.data: not a perf.data file" -i "$tmp/bad.data" --html "$tmp/out.html"
[ "$(cat "$tmp/out.html")" = keep ] || fail "html-bad: out.html was changed"
"$TEXTPOKE" report -i "$tmp/cut.data" --html "$tmp/out.html" >/dev/null 2>"$tmp/html-cut.err" &&
	fail "html-cut: exit 0"
tail -1 "$tmp/html-cut.err" | grep -q "cut.data: record at" || fail "html-cut: $(tail -1 "$tmp/html-cut.err")"
tail -c 8 "$tmp/out.html" | grep -q '</html>' || fail "html-cut: out.html is not a whole page"
ls -a "$tmp" | grep -q '^\.out\.html\.' && fail "html-cut: a temporary file was left"
mkdir "$tmp/dir.html"
expect html-dir 1 "dir.html: is a directory" -i "$tmp/ok.data" --html "$tmp/dir.html"
# a symlink stays: its target is what is replaced (output-path.h)
echo keep >"$tmp/real.html"
ln -s real.html "$tmp/link.html"
"$TEXTPOKE" report -q -i "$tmp/ok.data" --html "$tmp/link.html" >/dev/null 2>"$tmp/link.err" ||
	fail "html-link: $(head -3 "$tmp/link.err")"
[ -L "$tmp/link.html" ] || fail "html-link: the symlink was replaced"
grep -q '<svg' "$tmp/real.html" || fail "html-link: the link's target was not written"
exit 0
