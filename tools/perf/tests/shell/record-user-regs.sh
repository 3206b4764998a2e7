#!/bin/bash
# record: 64-bit and -m32 workloads with --user-regs, read by stock perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# perf textpoke record -e cpu-clock --user-regs on a 64-bit and a 32-bit
# build of the loop workload.  Stock perf 6.1 must read both files without
# a warning, print as many samples as the recorder says it wrote, and show
# ABI:2 on every sample of the 64-bit task, ABI:1 on every sample of the
# 32-bit one (but for kernel samples before its first ABI:1 one, taken
# while its execve still ran as the 64-bit caller).  The side-band event must carry every bit text tracking
# needs.  perf buildid-list lists the workload and the vdso, whose id is
# the one this shell's vdso holds.
#
# Where this kernel runs no 32-bit program, the 32-bit checks run on what
# the same options record on a kernel that does: m32-guest/u32-regs.data,
# stock perf record -e cpu-clock:u --user-regs of the loop workload -m32
# on Debian's kernel under qemu (checked in, with its objects' perf
# archive), on every machine.  Stock perf must read it without a warning
# and show ABI:1 on every sample; ours must print abi:32 on the same
# samples, each with as many registers as stock perf's line.
#
# Mutation caught: record_hits__mmap() skipping the [vdso] map (no [vdso]
# entry in the build-id table).  Mutation caught: perf_regs__kind()
# taking ABI word 1 for a 64-bit task (PERF_REGS_KIND_64): the checked-in
# 32-bit samples print abi:64.

. "$(dirname "$0")/lib/record-common.sh"
. "$(dirname "$0")/lib/m32-guest.sh"
need_perf_root
scratch record

check_abi() {
	local name=$1 data=$2 abi=$3 n

	n=$(recorded_samples)
	[ -n "$n" ] && [ "$n" -gt 0 ] || fail "$name: recorder reported no samples: $(cat "$tmp/record.err")"
	stock_script "$name" "$data" -F comm,tid,ip,sym,uregs
	[ "$(wc -l <"$tmp/$name.out")" = "$n" ] ||
		fail "$name: perf script shows $(wc -l <"$tmp/$name.out") samples, recorder wrote $n"
	# a 32-bit task's first samples may fall in the kernel while it still
	# execs from the 64-bit caller: ABI:2 there, before its first ABI:1
	awk -v abi="ABI:$abi" '
		index($0, " " abi " ") { seen = 1; next }
		!seen && $3 ~ /^ffffffff/ { next }
		{ print; bad++ } END { exit bad > 0 }' "$tmp/$name.out" >"$tmp/$name.bad" ||
		fail "$name: a sample without ABI:$abi: $(head -3 "$tmp/$name.bad")"
	echo "ok: $name: $n samples, all ABI:$abi, no warning from perf script"
}

build "$tmp/loop64" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"
record "$tmp/u64.data" -e cpu-clock --user-regs -- "$tmp/loop64" 0.5
check_abi u64 "$tmp/u64.data" 2

perf evlist -v -i "$tmp/u64.data" >"$tmp/evlist" 2>&1 || fail "perf evlist: $(cat "$tmp/evlist")"
for bit in "text_poke: 1" "ksymbol: 1" "bpf_event: 1" "mmap2: 1" "comm_exec: 1" "task: 1" \
	   "sample_id_all: 1"; do
	grep -q "$bit" "$tmp/evlist" || fail "no side-band event with $bit: $(cat "$tmp/evlist")"
done
grep -q "sample_type: .*TIME.*IDENTIFIER" "$tmp/evlist" || fail "side-band without TIME|IDENTIFIER"
echo "ok: side-band bits present"

perf report --header-only -I -i "$tmp/u64.data" >"$tmp/header" 2>&1 || fail "perf report --header-only"
for f in "hostname" "os release" "perf version" "arch" "nrcpus online" "cpudesc" "cpuid" \
	 "total memory" "cmdline" "event : name = cpu-clock" "time of first sample"; do
	grep -q "^# $f" "$tmp/header" || fail "feature '$f' missing"
done
perf buildid-list -i "$tmp/u64.data" >"$tmp/buildids" 2>&1 || fail "perf buildid-list"
grep -q "$tmp/loop64" "$tmp/buildids" || fail "no build-id for the workload: $(cat "$tmp/buildids")"
# loop.c's time is around clock_gettime(), some of it in the vdso: its
# build-id is the one this shell's vdso holds, read from its memory
vdso=$(grep -m1 '\[vdso\]' /proc/$$/maps | cut -d' ' -f1)
vstart=$((16#${vdso%-*}))
vend=$((16#${vdso#*-}))
dd if=/proc/$$/mem of="$tmp/vdso.so" bs=4096 skip=$((vstart / 4096)) count=$(((vend - vstart) / 4096)) \
	2>/dev/null || fail "cannot read this shell's vdso at $vdso"
want=$(readelf -n "$tmp/vdso.so" | sed -n 's/.*Build ID: //p')
[ -n "$want" ] || fail "no build-id in this shell's vdso"
grep -qx "$want \[vdso\]" "$tmp/buildids" || fail "no [vdso] $want: $(cat "$tmp/buildids")"
echo "ok: features and build-ids"

# the checked-in recording of a 32-bit task from a real kernel
m32_guest_check u32-regs.data
skipped=$why_m32_guest
if [ -z "$skipped" ]; then
	m32_guest_home
	HOME=$tmp stock_script guest32 "$m32_guest/u32-regs.data" -F comm,tid,ip,sym,uregs
	n=$(wc -l <"$tmp/guest32.out")
	[ "$n" -gt 0 ] || fail "guest32: stock perf script shows no sample"
	grep -v ' ABI:1 ' "$tmp/guest32.out" | head -3 | grep . &&
		fail "guest32: stock perf shows samples without ABI:1"
	HOME=$tmp "$TEXTPOKE" script -i "$m32_guest/u32-regs.data" -F comm,tid,ip,sym,abi,uregs \
		>"$tmp/guest32.ours" 2>"$tmp/guest32.err" || fail "guest32: $(head -3 "$tmp/guest32.err")"
	# comm tid ip sym, the ABI, and how many registers: ours and stock perf's alike
	awk '{ n = 0; for (i = 1; i <= NF; i++) if ($i ~ /^[A-Z0-9]+:0x/) n++
	       sub(/ ABI:1 .*/, ""); print $0, "abi:32 ABI:1", n }' "$tmp/guest32.out" >"$tmp/guest32.want"
	awk '{ n = 0; for (i = 1; i <= NF; i++) if ($i ~ /^[a-z0-9]+:0x/) n++
	       sub(/ ABI:1 .*/, " ABI:1"); print $0, n }' "$tmp/guest32.ours" >"$tmp/guest32.got"
	if ! cmp -s "$tmp/guest32.want" "$tmp/guest32.got"; then
		diff -u "$tmp/guest32.want" "$tmp/guest32.got" | head -10
		fail "guest32: our ABI or register count differs from stock perf's ABI:1 samples"
	fi
	echo "ok: guest32: $n samples of a 32-bit task on a real kernel: ABI:1 in stock perf," \
	     "abi:32 and $(awk 'NR == 1 { print $NF }' "$tmp/guest32.got") registers in ours"
else
	skipped="checked-in 32-bit part: $skipped"
fi

why=$(why_no_32bit)
[ -z "$why" ] || skip "${skipped:+$skipped; }32-bit part: $why"
build "$tmp/loop32" loop.c -m32 || fail "gcc -m32: $(cat "$tmp/gcc.err")"
record "$tmp/u32.data" -e cpu-clock --user-regs -- "$tmp/loop32" 0.5
check_abi u32 "$tmp/u32.data" 1
[ -z "$skipped" ] || skip "$skipped"
exit 0
