#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make demo: real recordings made on this machine, shown with perf
# textpoke.
#
#  1. a 64-bit and (when gcc -m32 works and the kernel runs it) a 32-bit
#     build of a workload, recorded with perf textpoke record: each
#     task's register ABI and its
#     registers under the right names (stock perf prints a bare ABI:1 and
#     x86_64 names for the 32-bit one);
#  2. as root: BPF socket filters loaded, run on loopback packets and
#     unloaded while the system is recorded: the JIT code of each program
#     captured the moment it loaded, and samples in it shown with the
#     instruction bytes and disassembly of the program that held that
#     address at that moment, and annotated per load of the program;
#  3. a real kernel's checked-in recording: vfs_read annotated once per
#     version of its code while the function tracer patched it.
set -e
prog=$(realpath "${1:-tools/perf/perf-textpoke}")
src=$(cd "$(dirname "$0")/.." && pwd)
out=${DEMO_DIR:-$(mktemp -d /tmp/perf-textpoke-demo.XXXXXX)}
wl=$src/tools/perf/tests/workloads

cc -O1 -g -fno-omit-frame-pointer -o "$out/loop64" "$wl/loop.c"
bits="64"
if ! cc -m32 -O1 -g -fno-omit-frame-pointer -o "$out/loop32" "$wl/loop.c" 2>/dev/null; then
	echo "demo: no 32-bit toolchain (apt-get install gcc-multilib): 64-bit only"
elif ! "$out/loop32" 0 >/dev/null 2>&1; then
	# the kernel refused it (ENOEXEC: IA-32 emulation off) and the shell
	# read the ELF as a script
	echo "demo: this kernel runs no 32-bit program (IA-32 emulation off): 64-bit only"
else
	bits="64 32"
fi

for b in $bits; do
	echo
	echo "== perf textpoke record -e cpu-clock --user-regs=ax,sp,ip -- loop$b 0.3"
	"$prog" record -q -e cpu-clock -F 499 --user-regs=ax,sp,ip --no-kcore \
		-o "$out/perf-$b.data" -- "$out/loop$b" 0.3 >/dev/null
	echo "== perf textpoke script -F comm,tid,time,ip,sym,dso,abi,uregs (first samples)"
	"$prog" script -i "$out/perf-$b.data" -F comm,tid,time,ip,sym,dso,abi,uregs | head -5
done

# a real kernel's recording (Debian's 6.1 under qemu, checked in): the
# function tracer patched vfs_read's first instruction while it ran
kg=$src/tools/perf/tests/data/kernel-guest/kaslr-ftrace.ours
if [ -f "$kg/data.gz" ] && command -v gzip >/dev/null 2>&1; then
	mkdir -p "$out/kguest/kcore_dir"
	gzip -dc "$kg/data.gz" >"$out/kguest/data"
	for f in kallsyms kcore; do
		gzip -dc "$kg/kcore_dir/$f.gz" >"$out/kguest/kcore_dir/$f"
	done
	cp "$kg/kcore_dir/modules" "$out/kguest/kcore_dir/modules"
	echo
	echo "== perf textpoke annotate -n -s vfs_read   (a real kernel's recording: one block per"
	echo "   version of the code ftrace made, each with the samples taken while it was live)"
	"$prog" annotate -i "$out/kguest" -n -s vfs_read 2>/dev/null |
		grep -E '^# vfs_read, version|Source code|: +[0-9a-f]+:' | cut -c1-150 |
		awk '/^# vfs_read, version/ { first = 1; print; next }
		     /Source code/ { print; next }
		     first || $1 > 0 { print; first = 0 }'
	echo "   (the first line of each block is the poked instruction: a call while traced)"
fi

if [ "$(id -u)" != 0 ]; then
	echo
	echo "demo: not root: skipping the BPF part"
	echo "demo: recordings left in $out"
	exit 0
fi
cc -O1 -o "$out/bpf-churn" "$wl/record-bpf-churn.c"
echo
echo "== perf textpoke record -a -- bpf-churn busy 1   (a socket filter that loops per packet)"
if ! "$prog" record -q -a -o "$out/bpf.data" -- "$out/bpf-churn" busy 1 >/dev/null 2>"$out/bpf.err"; then
	echo "demo: BPF programs cannot be loaded here: $(tail -1 "$out/bpf.err")"
	exit 0
fi
echo "== the program's KSYMBOL, as perf textpoke script --show-bpf-events prints it"
"$prog" script -i "$out/bpf.data" --show-bpf-events -F comm,tid,time |
	grep 'KSYMBOL.*tp_busy' | head -1
echo "== samples in it: the JIT bytes and disassembly as of each sample's time"
"$prog" script -i "$out/bpf.data" -F comm,tid,time,ip,sym,insn,disasm |
	grep 'bpf_prog_.*tp_busy' | head -3
addr=$("$prog" script -i "$out/bpf.data" --show-bpf-events -F comm |
	sed -n 's/.*KSYMBOL addr \([0-9a-f]*\) len \([0-9]*\) .*tp_busy.*/\1 \2/p' | head -1)
if [ -n "$addr" ]; then
	set -- $addr
	echo "== perf textpoke code $1 $2   (the whole program)"
	"$prog" code -i "$out/bpf.data" "$1" "$2" | head -16
fi
prog_sym=$("$prog" script -i "$out/bpf.data" -F ip,sym 2>/dev/null | grep -o 'bpf_prog_[0-9a-f]*_tp_busy' | head -1)
if [ -n "$prog_sym" ] && command -v perf >/dev/null 2>&1 && command -v objdump >/dev/null 2>&1; then
	echo "== perf textpoke inject --jit: an ELF object per BPF program, so that stock perf annotates it"
	"$prog" inject -q --jit -i "$out/bpf.data" -o "$out/jit.data" 2>&1 | tail -1
	echo "== stock perf annotate on the recording itself:"
	HOME=$out perf annotate -i "$out/bpf.data" --stdio -s "$prog_sym" 2>&1 | grep -m1 libopcode
	echo "== stock perf annotate on inject --jit's output:"
	HOME=$out perf annotate -i "$out/jit.data" --stdio -s "$prog_sym" 2>/dev/null | grep -v "^ *:* *$" | head -10
fi
if [ -n "$prog_sym" ]; then
	echo "== perf textpoke annotate on the recording itself: one block per load of the program"
	"$prog" annotate -i "$out/bpf.data" -s "$prog_sym" 2>/dev/null | grep -v "^ *:* *$" | head -12
fi
echo
echo "demo: recordings left in $out"
