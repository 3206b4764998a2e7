#!/bin/bash
# bad input: altered TRACING_DATA text never reaches libtraceevent's parser bugs
# SPDX-License-Identifier: GPL-2.0-only
#
# Two real recordings of the public corpus, altered at test time where a
# hostile tester found libtraceevent 1.7.1 misbehaving when handed what the
# file holds:
#   - parallel_static_gcc__perf.data.zstd with the little-endian u64
#     0x7fffffff written at 0x98f0, inside the printk_formats text: a NUL
#     now ends a line that has no " : ", and tep_parse_printk_formats()
#     read past its heap copy (ASan);
#   - probe.data.file with the byte at 16835 (0x41c3) XORed with 0x08, the
#     blank in "field:unsigned char common_preempt_count" becoming '(':
#     tep_parse_event() leaked the word "unsigned" (LSan).
# perf textpoke script, plain and with -D, must read both (exit 0), print
# their samples, warn once naming the file and the offset of the damage,
# and show no sanitizer report (run it with the ASan/UBSan build to prove
# the last).  The bytes are checked before they are altered: the test
# fails if the corpus file is not the one the offsets were measured on.

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
[ -d "$TEXTPOKE_CORPUS" ] || skip "no corpus at '$TEXTPOKE_CORPUS'"
scratch bad-tracing-data
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

# bytes N at OFF of FILE as hex
hexat() {
	od -An -v -tx1 -j "$2" -N "$3" "$1" | tr -d ' \n'
}

printk=$tmp/printk.data
cp "$TEXTPOKE_CORPUS/perfparser/parallel_static_gcc__perf.data.zstd" "$printk" ||
	fail "corpus file parallel_static_gcc__perf.data.zstd missing"
# "e75ea1 :" of the line "0xffffffffaee75ea1 : \"End CPU kthread@rcu_yield\""
[ "$(hexat "$printk" $((0x98f0)) 8)" = 653735656131203a ] ||
	fail "parallel_static_gcc__perf.data.zstd: 0x98f0 is not in its printk formats text"
printf '\377\377\377\177\0\0\0\0' | dd of="$printk" bs=1 seek=$((0x98f0)) conv=notrunc status=none
# the line that now holds the NUL starts at 0x98e4
printk_line=0x98e4

field=$tmp/field.data
cp "$TEXTPOKE_CORPUS/perfparser/probe.data.file" "$field" || fail "corpus file probe.data.file missing"
[ "$(hexat "$field" $((16835 - 8)) 9)" = 756e7369676e656420 ] ||
	fail "probe.data.file: 16835 is not the blank after 'unsigned' in a field declaration"
printf '(' | dd of="$field" bs=1 seek=16835 conv=notrunc status=none
[ "$(hexat "$field" 16835 1)" = 28 ] || fail "probe.data.file: alteration not written"

# check FILE OFFSET WHAT [script options]
check() {
	local file=$1 off=$2 what=$3 status sample=' [0-9]*\.[0-9]*: '
	shift 3
	[ "$1" = -D ] && sample='PERF_RECORD_SAMPLE'

	"$TEXTPOKE" script -i "$file" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$tmp/err"; then
		head -20 "$tmp/err"
		fail "$what $*: sanitizer report"
	fi
	[ $status = 0 ] || fail "$what $*: exit status $status: $(head -3 "$tmp/err")"
	[ "$(grep -c "$sample" "$tmp/out")" -gt 0 ] || fail "$what $*: its samples are not printed"
	grep "$file" "$tmp/err" | grep -q "$off" ||
		fail "$what $*: no message naming $file and $off: $(head -3 "$tmp/err")"
	[ "$(grep -c "$off" "$tmp/err")" = 1 ] || fail "$what $*: the warning is not said once"
	echo "ok: $what${*:+ $*}: $(grep "$off" "$tmp/err")"
}

check "$printk" $printk_line "printk formats"
check "$printk" $printk_line "printk formats" -D
check "$field" 0x41c3 "event format"
check "$field" 0x41c3 "event format" -D

# the intact files are read without a word about their tracing data
for f in perfparser/parallel_static_gcc__perf.data.zstd perfparser/probe.data.file; do
	"$TEXTPOKE" script -i "$TEXTPOKE_CORPUS/$f" >/dev/null 2>"$tmp/err" || fail "$f: intact file not read"
	grep -i 'tracing data' "$tmp/err" && fail "$f: intact file gets a tracing data warning"
done
echo "ok: the intact files have no tracing data warning"
exit 0
