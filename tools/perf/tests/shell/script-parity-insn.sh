#!/bin/bash
# script: -F insn on 64-bit, -m32 and libc-heavy workloads equals stock perf's
# SPDX-License-Identifier: GPL-2.0-only
#
# Recordings made now with stock perf record; stock perf script -F insn
# prints each sample's bytes with its own instruction-length decoder, in
# the mode of the object's ELF class, and ours must print the same bytes
# (our decoder, no capstone).  Kernel samples have no bytes without a
# kcore, in both.  -F insnlen prints that length (" ilen: N", 0 with no
# bytes).
#
# The 32-bit checks also run, on every machine, on recordings stock perf
# made on Debian's kernel under qemu (m32-guest/insn32.data, and the
# loop's m32.data for the compat vdso), checked in with the perf archive
# of their objects, which the scratch HOME's build-id cache holds: the
# recorded paths exist nowhere else.
#
# Mutation caught: insnlen printing how many bytes were read instead of
# the decoded length (" ilen: %d", n in user_sample()).  Mutation caught:
# user_bytes() reading a user object at its recorded path, not
# dso__data_path(): the checked-in 32-bit program, which only the
# build-id cache holds, prints no insn where stock perf prints its bytes.

. "$(dirname "$0")/lib/script-common.sh"
. "$(dirname "$0")/lib/m32-guest.sh"
need_perf_root
scratch script-insn
# a scratch HOME: no build-id cache or config of this machine's
export HOME=$tmp

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/u64.data" -e cpu-clock -c 50000 "$tmp/w64" 20000000
same_output insn64 "$tmp/u64.data" -F comm,tid,ip,sym,dso,insn
same_output insn64-only "$tmp/u64.data" -F ip,insn
# insnlen: perf's " ilen: N" before insn, 0 where it knows no bytes (the kernel here)
same_output insnlen64 "$tmp/u64.data" -F comm,tid,ip,sym,insnlen,insn

# a pipe carries no build-ids: the vdso's bytes come from its image in memory
# (this process's vdso), as perf takes them from its own copy; loop.c
# spends its time around clock_gettime(), in the vdso
loop_c=$libdir/../../workloads/loop.c
gcc -O1 -o "$tmp/loop64" "$loop_c" 2>"$tmp/gcc.err" || fail "gcc loop.c: $(cat "$tmp/gcc.err")"
perf record -q -e cpu-clock -c 20000 -o - "$tmp/loop64" 1 2>/dev/null >"$tmp/p64.data" ||
	fail "perf record -o - (64-bit)"
same_output insn64-pipe-file "$tmp/p64.data" -F ip,sym,insn
"$TEXTPOKE" script -i - -F ip,sym,insn <"$tmp/p64.data" >"$tmp/p64.ours" || fail "script -i - (64-bit)"
cmp -s "$tmp/insn64-pipe-file.perf" "$tmp/p64.ours" ||
	{ diff "$tmp/insn64-pipe-file.perf" "$tmp/p64.ours" | head; fail "insn64-pipe: differs from stock perf"; }
grep -q 'vdso.* insn: ' "$tmp/p64.ours" || fail "insn64-pipe: no insn in the vdso"
echo "ok: insn64-pipe ($(wc -l <"$tmp/p64.ours") lines from stdin equal to perf script)"

# libc's string functions (AVX2/EVEX forms where the CPU has them), sort, gzip
head -c 4000000 /dev/urandom | od -An -tx1 >"$tmp/text"
perf_record "$tmp/libc.data" -e cpu-clock -c 50000 -- sh -c \
	"sort '$tmp/text' | gzip -1 >/dev/null; tr a-f A-F <'$tmp/text' | md5sum >/dev/null"
same_output insn-libc "$tmp/libc.data" -F comm,tid,ip,sym,dso,insn
n=$(grep -c ' insn: ' "$tmp/insn-libc.ours")
[ "$n" -gt 100 ] || fail "insn-libc: only $n samples with insn"

# 32-bit tasks of a real kernel, from the tree: their objects from the build-id cache
m32_guest_check insn32.data m32.data
skipped=$why_m32_guest
if [ -z "$skipped" ]; then
	m32_guest_home
	same_output guest-insn32 "$m32_guest/insn32.data" -F comm,tid,ip,sym,dso,insn
	same_output guest-insnlen32 "$m32_guest/insn32.data" -F ip,insnlen
	grep -q 'w32) insn: ' "$tmp/guest-insn32.ours" || fail "guest-insn32: no insn in the 32-bit program"
	same_output guest-vdso32 "$m32_guest/m32.data" -F ip,sym,dso,insn
	# a sample's block: its IP's line, the callchain's, then its insn
	awk 'BEGIN { RS = ""; FS = "\n" } $1 ~ /\(\[vdso32\]\)$/ && $NF ~ /^ insn: / { n++ }
	     END { exit !n }' "$tmp/guest-vdso32.ours" || fail "guest-vdso32: no insn in the vdso32"
else
	skipped="checked-in 32-bit part: $skipped"
fi

why=$(why_no_32bit)
[ -z "$why" ] || skip "${skipped:+$skipped; }32-bit part: $why"
gcc -m32 -O1 -fno-omit-frame-pointer -o "$tmp/w32" "$libdir/script-workload.c" 2>"$tmp/gcc32.err" ||
	fail "gcc -m32: $(cat "$tmp/gcc32.err")"
perf_record "$tmp/u32.data" -e cpu-clock -c 50000 "$tmp/w32" 20000000
same_output insn32 "$tmp/u32.data" -F comm,tid,ip,sym,dso,insn
same_output insnlen32 "$tmp/u32.data" -F ip,insnlen
# the 32-bit task's own code and its libc decode in 32-bit mode
grep -q 'w32) insn: ' "$tmp/insn32.ours" || fail "insn32: no insn in the 32-bit program"
# from a pipe the vdso32 is perf's helper's copy, held in memory
gcc -m32 -O1 -o "$tmp/loop32" "$loop_c" 2>"$tmp/gcc.err" || fail "gcc -m32 loop.c: $(cat "$tmp/gcc.err")"
perf record -q -e cpu-clock -c 20000 -o - "$tmp/loop32" 1 2>/dev/null >"$tmp/p32.data" ||
	fail "perf record -o - (32-bit)"
same_output insn32-pipe-file "$tmp/p32.data" -F ip,sym,insn
"$TEXTPOKE" script -i - -F ip,sym,insn <"$tmp/p32.data" >"$tmp/p32.ours" || fail "script -i - (32-bit)"
cmp -s "$tmp/insn32-pipe-file.perf" "$tmp/p32.ours" ||
	{ diff "$tmp/insn32-pipe-file.perf" "$tmp/p32.ours" | head; fail "insn32-pipe: differs from stock perf"; }
grep -q 'vdso.* insn: ' "$tmp/p32.ours" || fail "insn32-pipe: no insn in the vdso32"
echo "ok: insn32-pipe ($(wc -l <"$tmp/p32.ours") lines from stdin equal to perf script)"
[ -z "$skipped" ] || skip "$skipped"
exit 0
