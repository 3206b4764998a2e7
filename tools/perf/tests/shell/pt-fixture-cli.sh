#!/bin/bash
# pt-fixture: --write-fixture pt-start/pt-end/pt-none write what they say, and refuse bad values
# SPDX-License-Identifier: GPL-2.0-only
#
# The command line of the Intel PT fixtures (tests/fixture-pt.c): each
# variant writes perf.data/data, kcore_dir/{kallsyms,modules}, a kcore for
# pt-start and pt-end only, truth.txt and branches.txt with as many lines
# as the summary line says, in the documented formats.  The kcores, read
# with od at the ELF segment's file offset (0x1000, from readelf): the
# 5-byte jump label at _text + 0x20a is the booted nop5 in pt-start's and
# a jmp (e9) in pt-end's, as the truth's last instruction there says.  Bad
# lengths and names exit 129 naming the value, and write nothing.
#
# Mutation caught: fp__kcore_dir() given time 0 for pt-end too (the copy
# taken at the start): its kcore holds the nop5.

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
"$TEXTPOKE" version --build-options 2>/dev/null | grep -q 'libipt: \[ on  \]' ||
	skip "perf-textpoke built without libipt (the fixtures' packet encoder)"
command -v readelf >/dev/null 2>&1 || skip "readelf is not installed"
scratch pt-fixture-cli

for f in pt-start pt-end pt-none; do
	d=$tmp/$f
	"$TEXTPOKE" test --write-fixture "$f:3000" "$d" >"$tmp/out" 2>"$tmp/err" ||
		{ cat "$tmp/err"; fail "--write-fixture $f:3000"; }
	read -r _ insns _ branches _ <"$tmp/out"
	[ "$(wc -l <"$d/truth.txt")" = "$insns" ] || fail "$f: truth.txt is not $insns lines"
	[ "$(wc -l <"$d/branches.txt")" = "$branches" ] || fail "$f: branches.txt is not $branches lines"
	[ "$insns" -ge 3000 ] || fail "$f: $insns instructions, asked for 3000"
	grep -Evq '^[01] [0-9]+ 0x[0-9a-f]+ [0-9]+ [0-9a-f]+$' "$d/truth.txt" &&
		fail "$f: truth.txt has a line not '<cpu> <time> 0x<ip> <len> <bytes>'"
	awk '2 * $4 != length($5) { exit 1 }' "$d/truth.txt" ||
		fail "$f: truth.txt has a line whose bytes are not <len> long"
	grep -Evq '^[01] [0-9]+ 0x[0-9a-f]+ 0x[0-9a-f]+$' "$d/branches.txt" &&
		fail "$f: branches.txt has a line not '<cpu> <time> 0x<from> 0x<to>'"
	[ -s "$d/perf.data/data" ] || fail "$f: no perf.data/data"
	for k in kallsyms modules; do
		[ -f "$d/perf.data/kcore_dir/$k" ] || fail "$f: no kcore_dir/$k"
	done
	grep -q '^ffffffff81000000 T _text$' "$d/perf.data/kcore_dir/kallsyms" ||
		fail "$f: kallsyms without _text"
done
[ -e "$tmp/pt-none/perf.data/kcore_dir/kcore" ] && fail "pt-none has a kcore"
cmp -s "$tmp/pt-start/truth.txt" "$tmp/pt-end/truth.txt" ||
	fail "pt-start and pt-end differ in their truth: the trace should not depend on kcore"

# the jump label's first byte in each kcore, at the segment's file offset
site() {
	local off
	off=$(readelf -lW "$1" | awk '$1 == "LOAD" && $3 == "0xffffffff81000000" { print $2 }')
	[ -n "$off" ] || fail "$1: no PT_LOAD at _text"
	od -An -tx1 -j $((off + 0x20a)) -N1 "$1" | tr -d ' '
}
[ "$(site "$tmp/pt-start/perf.data/kcore_dir/kcore")" = 0f ] ||
	fail "pt-start's kcore does not hold the booted nop5 at the jump label"
last=$(awk '$3 == "0xffffffff8100020a" { b = substr($5, 1, 2) } END { print b }' \
	"$tmp/pt-end/truth.txt")
[ "$last" = e9 ] || fail "the truth does not end with the jump label's jmp (got '$last')"
[ "$(site "$tmp/pt-end/perf.data/kcore_dir/kcore")" = e9 ] ||
	fail "pt-end's kcore does not hold the jmp the trace ended with"

for bad in pt-start:0 pt-start:abc pt-start:-1 pt-start:100000001 pt-start: pt-end:12x pt-nonex; do
	"$TEXTPOKE" test --write-fixture "$bad" "$tmp/bad" >/dev/null 2>"$tmp/err"
	st=$?
	[ $st = 129 ] || fail "--write-fixture $bad: exit $st, not 129"
	grep -q "bad value '$bad' for --write-fixture" "$tmp/err" ||
		{ cat "$tmp/err"; fail "--write-fixture $bad: the message does not name it"; }
	[ -e "$tmp/bad" ] && fail "--write-fixture $bad wrote $tmp/bad"
done
exit 0
