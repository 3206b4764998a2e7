#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot the rig's kernel under qemu (TCG, one host thread) into INITRAMFS
# and bring the guest's /out back into OUTDIR, with the console in
# OUTDIR/console.log.  Exit status: the experiment's, or 1 when the guest
# wrote no results (it did not boot, hung past KERNEL_QEMU_TIMEOUT, or
# panicked).
#
# Usage: run-guest.sh INITRAMFS OUTDIR [kernel parameter...]
#
# -accel tcg,thread=single: multi-threaded TCG deadlocked in
# text_poke_bp_batch under a tracepoint toggler.  -icount: see config.sh.
# -no-reboot: a panic (panic=1) ends qemu instead of booting again.

set -e
. "$(dirname "$0")/config.sh"

[ $# -ge 2 ] || { echo "usage: run-guest.sh INITRAMFS OUTDIR [kernel parameter...]" >&2; exit 129; }
initramfs=$1 out=$2
shift 2
kroot=$("$kernel_rig_dir/fetch-kernel.sh")
vmlinuz=$(ls "$kroot"/boot/vmlinuz-*)

mkdir -p "$out"
disk=$out/results.img
rm -f "$disk"
truncate -s "$KERNEL_RESULTS_SIZE" "$disk"
echo "run-guest: booting $(basename "$vmlinuz") (timeout ${KERNEL_QEMU_TIMEOUT}s), console in $out/console.log" >&2
set +e
timeout -k 10 "$KERNEL_QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg,thread=single \
	-smp "$KERNEL_QEMU_SMP" -m "$KERNEL_QEMU_MEM" \
	-icount "$KERNEL_QEMU_ICOUNT" -nographic -no-reboot -kernel "$vmlinuz" -initrd "$initramfs" \
	-drive "file=$disk,format=raw,if=virtio" \
	-append "console=ttyS0 panic=1 $*" </dev/null >"$out/console.log" 2>&1
qemu_status=$?
set -e
[ $qemu_status = 124 ] && echo "run-guest: qemu timed out after ${KERNEL_QEMU_TIMEOUT}s" >&2
if ! tar x -C "$out" -f "$disk" 2>/dev/null || [ ! -f "$out/experiment.status" ]; then
	echo "run-guest: the guest wrote no results (qemu exit $qemu_status); the console's end:" >&2
	tail -20 "$out/console.log" >&2
	exit 1
fi
rm -f "$disk"
exit "$(cat "$out/experiment.status")"
