#!/bin/bash
# script: 64-bit and 32-bit user registers, ABI and fields against perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# A workload is recorded with stock perf record -e cpu-clock --user-regs,
# once 64-bit and once built with -m32, and perf textpoke script must print
# what stock perf script prints.  For the 32-bit task stock perf 6.1 is
# wrong: it prints the bare "ABI:1" with the 64-bit names (AX, SP, IP) and
# the full 64-bit values (AX:0xffffffffffffffda in a system call); we
# check for abi:32, the i386 names and the low 32 bits instead.

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
scratch script

regs=ax,bx,cx,dx,si,di,bp,sp,ip,flags
build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/u64.data" -e cpu-clock --user-regs=$regs "$tmp/w64" 20000000

same_output default64 "$tmp/u64.data"
same_output fields64 "$tmp/u64.data" -F comm,tid,pid,time,event,ip,sym,symoff,dso,period,uregs
same_output plus64 "$tmp/u64.data" -F +pid,-period --ns
same_output uregs64 "$tmp/u64.data" -F ip,uregs

# abi: every sample of a 64-bit task says abi:64
"$TEXTPOKE" script -i "$tmp/u64.data" -F tid,abi >"$tmp/abi64" || fail "-F tid,abi"
[ -s "$tmp/abi64" ] || fail "abi64: no output"
grep -v ' abi:64$' "$tmp/abi64" | head -3 | grep . && fail "abi64: a sample without abi:64"
echo "ok: abi:64 on $(wc -l <"$tmp/abi64") samples"

why=$(why_no_32bit)
[ -z "$why" ] || skip "32-bit part: $why"
gcc -m32 -O1 -fno-omit-frame-pointer -o "$tmp/w32" "$libdir/script-workload.c" 2>"$tmp/gcc32.err" ||
	fail "gcc -m32: $(cat "$tmp/gcc32.err")"
perf_record "$tmp/u32.data" -e cpu-clock --user-regs=$regs "$tmp/w32" 20000000
same_output default32 "$tmp/u32.data"
same_output fields32 "$tmp/u32.data" -F comm,tid,time,ip,sym,dso

perf script -i "$tmp/u32.data" -F tid,time,uregs >"$tmp/u32.perf" 2>/dev/null ||
	fail "stock perf script -F uregs"
"$TEXTPOKE" script -i "$tmp/u32.data" -F tid,time,abi,uregs >"$tmp/u32.ours" ||
	fail "perf textpoke script -F abi,uregs"
[ "$(wc -l <"$tmp/u32.perf")" = "$(wc -l <"$tmp/u32.ours")" ] || fail "u32: line counts differ"

# Stock perf's line, rewritten to what a 32-bit task's registers are
declare -A name32=([AX]=eax [BX]=ebx [CX]=ecx [DX]=edx [SI]=esi [DI]=edi
		   [BP]=ebp [SP]=esp [IP]=eip [FLAGS]=eflags)
n=0
while IFS= read -r theirs && IFS= read -r ours <&3; do
	head=${theirs%% ABI:*}
	case "$theirs" in
	*" ABI:1 "*) ;;
	*) fail "u32: stock perf line without ABI:1: $theirs" ;;
	esac
	want="$head abi:32 ABI:1 "
	for kv in ${theirs#* ABI:1 }; do
		reg=${kv%%:*}
		val=${kv#*:}
		printf -v v '%x' $((val & 0xffffffff))
		printf -v field '%5s:0x%s ' "${name32[$reg]}" "$v"
		want+=$field
	done
	[ "$ours" = "$want" ] || fail "u32: got '$ours', want '$want' (stock: '$theirs')"
	n=$((n + 1))
done <"$tmp/u32.perf" 3<"$tmp/u32.ours"
[ $n -gt 0 ] || fail "u32: no samples"
echo "ok: $n samples of a 32-bit task: abi:32, eax..eflags, low 32 bits"
exit 0
