#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# In the guest (busybox sh): the 32-bit recordings, each made by stock perf
# record as the live 32-bit part of the test named beside it records, with
# three changes that keep the checked-in files small: cpu-clock:u (no
# kernel samples, so no kallsyms to pack), shorter runs, and a 512-byte
# --call-graph dwarf stack dump (the frames up to _start lie within it:
# unwind-compat.sh checks that every chain reaches the entry point).
# perf record fills the build-id cache in $HOME/.debug, which comes back
# with the recordings; the host packs it with perf archive.

W=/opt/textpoke-m32
export HOME=/out/home
mkdir -p "$HOME"
set -e

rec() {
	echo "perf record $*"
	perf record -q "$@"
}

# record-user-regs.sh (u32): every register
rec -e cpu-clock:u --user-regs -o u32-regs.data $W/loop32 0.075
# script-parity-user.sh (w32): the general registers
rec -e cpu-clock:u --user-regs=ax,bx,cx,dx,si,di,bp,sp,ip,flags -o u32.data $W/script/w32 2000000
# script-parity-insn.sh (w32): samples for -F insn
rec -e cpu-clock:u -c 50000 -o insn32.data $W/script/w32 500000
# unwind-compat.sh (chain32)
rec -e cpu-clock:u -c 200000 --call-graph dwarf,512 -o chain32.data $W/chain32 0.06
# report-children.sh: -m32 under --call-graph dwarf and fp
rec -e cpu-clock:u -F 4000 --call-graph dwarf,512 -o dw32.data $W/wdw32 330000
rec -e cpu-clock:u -F 4000 -g -o fp32.data $W/wfp32 600000
# report-abi.sh: a 32-bit task, then a 64-bit one; no shell between them
# (its samples would pack the shell): w32 execs w64 when done
rec -e cpu-clock:u -F 4000 --user-regs=ip,sp -o mixed.data $W/report/w32 600000 $W/report/w64 600000
# machine-perf-script.c (m32): frame-pointer callchains, the compat vdso
rec -e cpu-clock:u -g -o m32.data $W/loop32 0.1

uname -r >kernel-release
perf --version >perf-version
