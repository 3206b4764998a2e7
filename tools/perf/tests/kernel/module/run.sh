#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The module experiment (issue 21): boot the rig's kernel with our
# recorder, dummy.ko and kcore-read, record while dummy loads and unloads,
# and bring the results to OUTDIR (default build/kmod/out).
#
# Usage: run.sh [OUTDIR [kernel parameter...]]   (one qemu at a time: run
# it under flock /tmp/qemu.lock)
set -e
. "$(dirname "$0")/../config.sh"
. "$kernel_rig_dir/initramfs.sh"

work=$kernel_src_dir/build/kmod
out=${1:-$work/out}
shift || true
kroot=$("$kernel_rig_dir/fetch-kernel.sh")
ko=$(find "$kroot"/lib/modules/*/kernel/drivers/net -name dummy.ko -print -quit)
mkdir -p "$work"
gcc -static -O1 -o "$work/kcore-read" "$kernel_rig_dir/module/kcore-read.c"
initramfs_begin "$work/initramfs" "$kroot"
initramfs_add_elf_as "$kernel_src_dir/tools/perf/perf-textpoke" /usr/bin/perf-textpoke
mkdir -p "$work/initramfs/rig/module"
cp "$work/kcore-read" "$ko" "$work/initramfs/rig/module/"
printf '%d\n' "0x$(readelf -SW "$ko" | awk '{ for (i = 1; i < NF; i++) if ($i == ".text") print $(i + 4) }')" >"$work/initramfs/rig/module/text-size"
initramfs_add_as "$kernel_rig_dir/module/experiment.sh" /rig/experiment
chmod 755 "$work/initramfs/rig/experiment"
initramfs_pack "$work/initramfs" "$work/initramfs.cpio"
rm -rf "$out"
"$kernel_rig_dir/run-guest.sh" "$work/initramfs.cpio" "$out" "$@"
