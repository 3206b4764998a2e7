#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The text-poke experiments of issue 21 (pokes/): build their initramfs
# (our perf-textpoke, stock perf, kcore-truth, the BPF churn helper, a
# module of the kernel package) and boot it once with the kernel
# parameters given, the results in OUTDIR: the recordings, the truth
# moments, the logs (pokes/lib.sh says what each file is).
#
# Usage: run-pokes.sh OUTDIR [kernel parameter...]   (nokaslr, rig.exp=a,b)
# TEXTPOKE: the perf-textpoke to record with (default: the tree's).

set -e
. "$(dirname "$0")/config.sh"
. "$kernel_rig_dir/initramfs.sh"

[ $# -ge 1 ] || { echo "usage: run-pokes.sh OUTDIR [kernel parameter...]" >&2; exit 129; }
out=$1
shift
: "${TEXTPOKE:=$kernel_src_dir/tools/perf/perf-textpoke}"
# the products of this tree, beside its build (the kernel cache may be shared)
work=$kernel_src_dir/build/pokes
tests=$kernel_src_dir/tools/perf/tests

for t in qemu-system-x86_64 busybox perf gcc readelf; do
	command -v $t >/dev/null || { echo "run-pokes: $t is not installed" >&2; exit 1; }
done
[ -x "$TEXTPOKE" ] || { echo "run-pokes: $TEXTPOKE: not built (make)" >&2; exit 1; }
kroot=$("$kernel_rig_dir/fetch-kernel.sh")
dummy=$(find "$kroot"/lib/modules/*/kernel/drivers/net -name dummy.ko -print -quit)
[ -n "$dummy" ] || { echo "run-pokes: no drivers/net/dummy.ko in $kroot" >&2; exit 1; }

mkdir -p "$work/bin"
gcc -static -O2 -Wall -Wextra -Werror -o "$work/bin/kcore-truth" "$kernel_rig_dir/pokes/kcore-truth.c"
gcc -static -O2 -o "$work/bin/record-bpf-churn" "$tests/workloads/record-bpf-churn.c"
# libbpf only finds the fentry target in the kernel's BTF
gcc -static -O2 -Wall -Wextra -Werror -o "$work/bin/bpf-fentry" "$kernel_rig_dir/pokes/bpf-fentry.c" \
	-lbpf -lelf -lz -lzstd

initramfs_begin "$work/initramfs" "$kroot"
initramfs_add_elf /usr/bin/perf
initramfs_add_elf_as "$TEXTPOKE" /rig/pokes/perf-textpoke
for f in "$work"/bin/*; do
	initramfs_add_as "$f" "/rig/pokes/$(basename "$f")"
done
initramfs_add_as "$dummy" /rig/pokes/dummy.ko
for f in "$kernel_rig_dir"/pokes/*.sh; do
	initramfs_add_as "$f" "/rig/pokes/$(basename "$f")"
done
initramfs_add_as "$kernel_rig_dir/pokes/experiment.sh" /rig/experiment
chmod 755 "$work"/initramfs/rig/pokes/* "$work/initramfs/rig/experiment"
initramfs_pack "$work/initramfs" "$work/initramfs.cpio"

rm -rf "$out"
KERNEL_QEMU_SMP=${KERNEL_QEMU_SMP_POKES:-1} KERNEL_QEMU_MEM=3G KERNEL_RESULTS_SIZE=2G \
	"$kernel_rig_dir/run-guest.sh" "$work/initramfs.cpio" "$out" "$@"
