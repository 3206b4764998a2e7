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
# Mutation caught: record_hits__mmap() skipping the [vdso] map (no [vdso]
# entry in the build-id table).

. "$(dirname "$0")/lib/record-common.sh"
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

why=$(why_no_32bit)
[ -z "$why" ] || skip "32-bit part: $why"
build "$tmp/loop32" loop.c -m32 || fail "gcc -m32: $(cat "$tmp/gcc.err")"
record "$tmp/u32.data" -e cpu-clock --user-regs -- "$tmp/loop32" 0.5
check_abi u32 "$tmp/u32.data" 1
exit 0
