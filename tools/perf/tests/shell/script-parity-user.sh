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
#
# The 32-bit checks run on two recordings: the one stock perf made on
# Debian's kernel under qemu, checked in (m32-guest/u32.data, its objects
# from its perf archive in the scratch HOME's build-id cache), on every
# machine; and one made now, where this kernel runs 32-bit programs.
#
# Mutation caught: perf_reg_name() giving the 64-bit names to every ABI
# (is32 false): a 32-bit task's registers print as AX..FLAGS.

. "$(dirname "$0")/lib/script-common.sh"
. "$(dirname "$0")/lib/m32-guest.sh"
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

# check32 NAME FILE: a 32-bit task's recording, printed as stock perf
# prints it but for the registers, which must be stock perf's line
# rewritten as a 32-bit task's registers are
check32() {
	local name=$1 file=$2 n=0 head want kv reg val v field theirs ours
	declare -A name32=([AX]=eax [BX]=ebx [CX]=ecx [DX]=edx [SI]=esi [DI]=edi
			   [BP]=ebp [SP]=esp [IP]=eip [FLAGS]=eflags)

	same_output "$name-default" "$file"
	same_output "$name-fields" "$file" -F comm,tid,time,ip,sym,dso
	perf script -i "$file" -F tid,time,uregs >"$tmp/$name.perf" 2>/dev/null ||
		fail "$name: stock perf script -F uregs"
	"$TEXTPOKE" script -i "$file" -F tid,time,abi,uregs >"$tmp/$name.ours" ||
		fail "$name: perf textpoke script -F abi,uregs"
	[ "$(wc -l <"$tmp/$name.perf")" = "$(wc -l <"$tmp/$name.ours")" ] ||
		fail "$name: line counts differ"
	while IFS= read -r theirs && IFS= read -r ours <&3; do
		head=${theirs%% ABI:*}
		case "$theirs" in
		*" ABI:1 "*) ;;
		*) fail "$name: stock perf line without ABI:1: $theirs" ;;
		esac
		want="$head abi:32 ABI:1 "
		for kv in ${theirs#* ABI:1 }; do
			reg=${kv%%:*}
			val=${kv#*:}
			printf -v v '%x' $((val & 0xffffffff))
			printf -v field '%5s:0x%s ' "${name32[$reg]}" "$v"
			want+=$field
		done
		[ "$ours" = "$want" ] || fail "$name: got '$ours', want '$want' (stock: '$theirs')"
		n=$((n + 1))
	done <"$tmp/$name.perf" 3<"$tmp/$name.ours"
	[ $n -gt 0 ] || fail "$name: no samples"
	echo "ok: $name: $n samples of a 32-bit task: abi:32, eax..eflags, low 32 bits"
}

# a real kernel's 32-bit task, recorded by stock perf in the guest
m32_guest_check u32.data
skipped=$why_m32_guest
if [ -z "$skipped" ]; then
	m32_guest_home
	HOME=$tmp check32 guest32 "$m32_guest/u32.data"
else
	skipped="checked-in 32-bit part: $skipped"
fi

why=$(why_no_32bit)
[ -z "$why" ] || skip "${skipped:+$skipped; }32-bit part: $why"
gcc -m32 -O1 -fno-omit-frame-pointer -o "$tmp/w32" "$libdir/script-workload.c" 2>"$tmp/gcc32.err" ||
	fail "gcc -m32: $(cat "$tmp/gcc32.err")"
perf_record "$tmp/u32.data" -e cpu-clock --user-regs=$regs "$tmp/w32" 20000000
check32 u32 "$tmp/u32.data"
[ -z "$skipped" ] || skip "$skipped"
exit 0
