#!/bin/bash
# kernel-rig: a real kernel under qemu pokes its code while we and stock perf record; every byte shown is its own
# SPDX-License-Identifier: GPL-2.0-only
#
# make check-kernel, inside the suite: tools/perf/tests/kernel/check-kernel.sh
# boots Debian's 6.1 kernel under qemu twice (KASLR on, off), runs the
# text-poke experiments there (tracepoint toggles, the function tracer,
# kprobes, BPF, fentry trampolines, a module loaded and unloaded, a
# toggler while the recorder starts), each recorded by the binary under
# test and by stock perf record --kcore, while the guest reads its own
# code from /proc/kcore at moments tied to perf's clock (kcore-truth).
# The oracle is that truth, read back by check-pokes.py with stock perf's
# script alone; nothing of ours reads it.  Fails on any byte `code --time` shows
# that the kernel did not hold (our recordings and stock perf's, kcore at
# start, end, fitted, none), on a byte shown where nothing was mapped on
# our recordings, and on a fitted verdict not "trusted" on ours.  Stock
# perf's own -F insn count and its recordings' unmapped bytes are printed.
# Skips, naming it, when qemu, busybox, libbpf-dev or the kernel package
# is absent (check-kernel.sh looks with command -v, gcc -E of <bpf/btf.h>
# and apt-get download).
# Mutation caught: the reader before issue 21's product fixes (branch
# i21-rig alone): 205 wrong bytes, 320 shown where nothing was mapped.
# Mutation caught: code listing a kprobed push %r12 with its slot's
# bytes (41 54) where the kernel held cc 54: wrong bytes at the kprobe.

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
rig=${TEXTPOKE_SRCDIR:?}/tools/perf/tests/kernel
[ -f "$rig/check-kernel.sh" ] || skip "$rig: not in this tree"
scratch kernelrig

TEXTPOKE=$TEXTPOKE bash "$rig/check-kernel.sh" "$tmp/out" >"$tmp/log" 2>&1
rc=$?
# the table's totals and the checker's own lines, then the verdict
grep -E '^(total|stock perf|check-kernel|skip|run-guest)' "$tmp/log"
case $rc in
0) exit 0 ;;
2) skip "$(tail -1 "$tmp/log")" ;;
*)
	tail -40 "$tmp/log"
	fail "check-kernel.sh exited $rc"
	;;
esac
