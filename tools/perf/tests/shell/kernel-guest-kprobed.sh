#!/bin/bash
# kernel-guest: a real kprobe's instruction shown from its slot, int3 and optimized, as kprobed
# SPDX-License-Identifier: GPL-2.0-only
#
# kaslr-kprobes.ours: Debian's 6.1 kernel under qemu (the rig of
# tools/perf/tests/kernel/, pokes/kprobes.sh), a kprobe at
# do_sys_openat2+5 (ffffffffae363fa5, push %r12 = 41 54) recorded by perf
# textpoke record.  What the recording holds, read by hand from its
# records (script --show-text-poke-events, the bytes in the issue 21
# notes): the slot "41 54 cc" poked into kprobe_insn_page at 39.252, the
# optprobe detour (ending "41 54 49 89 f4", jmp back to +0xa) into
# kprobe_optinsn_page at 39.258; the int3 armed at 39.485081248, the
# optimizer's jmp at 39.649156908, taken back at 40.098768396 (cc 54 49 89
# f4), again at 40.369155148, taken back and disarmed at 40.951218032 and
# 40.951223276.  At a time in each phase, code must list push %r12 tagged
# [kprobed] (int3 phases), push %r12 and movq %rsi,%r12 tagged [kprobed,
# optimized] (jmp phases), and after the removal untagged; never the
# "push %rsp" the int3 leaves in memory; the bytes column always what
# memory held (cc 54, the jmp), never the slot's 41 54 while armed.
# Mutation caught: kprobe_armed() taking the optimizer's 5-byte pokes for a
# disarming: at 39.7 the optimized jmp lists as "jmp kprobe_optinsn_page".

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
src=${TEXTPOKE_SRCDIR:?}/tools/perf/tests/data/kernel-guest/kaslr-kprobes.ours
[ -f "$src/data.gz" ] || skip "$src: not in the tree (the rig's recordings, branch i21-rig)"
command -v gzip >/dev/null 2>&1 || skip "gzip is not installed"
scratch kguestkp
export HOME=$tmp

rec=$tmp/kprobes
mkdir -p "$rec/kcore_dir" || fail "mkdir $rec"
gzip -dc "$src/data.gz" >"$rec/data" &&
	gzip -dc "$src/kcore_dir/kallsyms.gz" >"$rec/kcore_dir/kallsyms" &&
	gzip -dc "$src/kcore_dir/kcore.gz" >"$rec/kcore_dir/kcore" &&
	cp "$src/kcore_dir/modules" "$rec/kcore_dir/modules" || fail "$src: cannot unpack"

site=ffffffffae363fa5
# the bytes are memory's (perf report -D: the arming poke's new cc, the
# optimizer's new e9 56 a0 20 12), the instructions the slot's and detour's
int3_lines="$site:  cc 54                 push %r12 [kprobed]
ffffffffae363fa7:  49 89 f4              movq %rsi,%r12"
opt_lines="$site:  e9 56                 push %r12 [kprobed, optimized]
ffffffffae363fa7:  a0 20 12              movq %rsi,%r12 [kprobed, optimized]"
gone_line="$site:  41 54                 push %r12 [poked 40.951223276]"

# code at TIME: the site's lines, without the poked markers
listing() {
	"$TEXTPOKE" code -i "$rec" --time "$1" $site 5 >"$tmp/out" 2>"$tmp/err" ||
		fail "code --time $1: $(head -3 "$tmp/err")"
	grep -v '^#' "$tmp/out" | sed 's/ \[poked [0-9.]*\]$//'
}

check() {
	local t=$1 want=$2 got

	got=$(listing "$t")
	grep -q 'push %rsp' <<<"$got" && fail "at $t the int3's push %rsp is listed: $got"
	[ "$got" = "$want" ] || fail "at $t: got
$got
expected
$want"
	echo "ok: $t: $(head -1 <<<"$got")"
}

check 39.5 "$int3_lines"
check 39.7 "$opt_lines"
check 40.2 "$int3_lines"
check 40.5 "$opt_lines"
got=$("$TEXTPOKE" code -i "$rec" --time 41 $site 2 2>/dev/null | grep -v '^#')
[ "$got" = "$gone_line" ] || fail "after the removal: got '$got', expected '$gone_line'"
echo "ok: 41: the kprobe is gone: $got"
