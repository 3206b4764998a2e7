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
#
# Then the same workloads recorded by our perf-textpoke record (issue 21:
# ours on a real kernel that runs 32-bit tasks), as <name>.ours.data,
# --no-kcore: a plain file, as the options ask nothing of the kernel's
# text.  With rig.m32=ours on the kernel command line only ours record
# (make-recordings.sh --ours: the stock set stays as checked in).

W=/opt/textpoke-m32
export HOME=/out/home
mkdir -p "$HOME"
set -e

rec() {
	echo "perf record $*"
	perf record -q "$@"
}

ours() {
	echo "perf-textpoke record --no-kcore $*"
	perf-textpoke record -q --no-kcore "$@"
}

case " $(cat /proc/cmdline) " in
*" rig.m32=ours "*) stock=false ;;
*) stock=true ;;
esac

if $stock; then

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
fi

# record-user-regs.sh: every register of a 32-bit task
ours -e cpu-clock:u --user-regs -o u32-regs.ours.data $W/loop32 0.075
# report-abi.sh: 32-bit, then 64-bit samples in one process
ours -e cpu-clock:u -F 4000 --user-regs=ip,sp -o mixed.ours.data $W/report/w32 600000 $W/report/w64 600000
# unwind-compat.sh: dwarf stacks of a 32-bit task, and of the same
# program built 64-bit (static: no 64-bit libc to pack; its frames past
# main need more than 512 bytes)
ours -e cpu-clock:u -c 200000 --call-graph dwarf,512 -o chain32.ours.data $W/chain32 0.06
ours -e cpu-clock:u -c 200000 --call-graph dwarf,1024 -o chain64.ours.data $W/chain64 0.03
# our record fills no build-id cache: chain64 is in no stock recording
perf buildid-cache -a $W/chain64

uname -r >kernel-release
perf --version >perf-version
perf-textpoke version >textpoke-version
