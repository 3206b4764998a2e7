#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Regenerate the checked-in 32-bit recordings (tools/perf/tests/data/m32-guest)
# on Debian's kernel under qemu, which runs 32-bit tasks where the host's
# kernel may not: build the workloads here, boot the guest with stock perf
# and them, record (m32/experiment.sh), then pack the objects the
# recordings hit with stock perf archive and install everything into the
# tree.  Review with git diff --stat and commit.
#
# Usage: make-recordings.sh   (or: make kernel-recordings)

set -e
. "$(dirname "$0")/config.sh"
. "$kernel_rig_dir/initramfs.sh"

dest=$kernel_src_dir/tools/perf/tests/data/m32-guest
work=$KERNEL_CACHE/m32
tests=$kernel_src_dir/tools/perf/tests
guest_dir=/opt/textpoke-m32

for t in qemu-system-x86_64 busybox perf gcc readelf; do
	command -v $t >/dev/null || { echo "make-recordings: $t is not installed" >&2; exit 1; }
done
kroot=$("$kernel_rig_dir/fetch-kernel.sh")

# the workloads, built as the tests' live parts build them; the 64-bit
# one static, so that its libc is not packed beside the 32-bit one
rm -rf "$work"
mkdir -p "$work/bin/script" "$work/bin/report"
builds=(
	"loop32|-m32 -O1 -fno-omit-frame-pointer -g|$tests/workloads/loop.c"
	"script/w32|-m32 -O1 -fno-omit-frame-pointer|$tests/shell/lib/script-workload.c"
	"report/w32|-m32 -O1 -fno-omit-frame-pointer -g -pthread|$tests/shell/lib/report-workload.c"
	"report/w64|-static -O1 -fno-omit-frame-pointer -g -pthread|$tests/shell/lib/report-workload.c"
	"chain32|-m32 -O2 -g -fomit-frame-pointer|$tests/workloads/unwind-chain.c"
	"wdw32|-m32 -O2 -fomit-frame-pointer -g|$tests/shell/lib/report-children-workload.c"
	"wfp32|-m32 -O1 -fno-omit-frame-pointer -g|$tests/shell/lib/report-children-workload.c"
)
: >"$work/builds"
for b in "${builds[@]}"; do
	IFS='|' read -r name flags src <<<"$b"
	# shellcheck disable=SC2086
	gcc $flags -o "$work/bin/$name" "$src"
	echo "$guest_dir/$name: gcc $flags ${src#"$kernel_src_dir"/}" >>"$work/builds"
done

initramfs_begin "$work/initramfs" "$kroot"
initramfs_add_elf /usr/bin/perf /usr/lib/perf-core/perf-read-vdso32
for b in "${builds[@]}"; do
	name=${b%%|*}
	initramfs_add_elf_as "$work/bin/$name" "$guest_dir/$name"
done
initramfs_add_as "$kernel_rig_dir/m32/experiment.sh" /rig/experiment
chmod 755 "$work/initramfs/rig/experiment"
initramfs_pack "$work/initramfs" "$work/initramfs.cpio"

"$kernel_rig_dir/run-guest.sh" "$work/initramfs.cpio" "$work/out" || {
	echo "make-recordings: the experiment failed; its output:" >&2
	cat "$work/out/experiment.log" >&2
	exit 1
}

# perf archive per recording (in the guest's build-id cache), then one
# archive of them all: the recordings share the i386 libc
mkdir -p "$work/debug"
for f in "$work"/out/*.data; do
	(cd "$work/out" && HOME=$work/out/home perf archive "$(basename "$f")" >/dev/null)
	tar xjf "$f.tar.bz2" -C "$work/debug"
done

rm -rf "$dest"
mkdir -p "$dest"
cp "$work"/out/*.data "$dest/"
chmod 644 "$dest"/*.data
tar cjf "$dest/debug.tar.bz2" -C "$work/debug" --sort=name --owner=0 --group=0 \
	--numeric-owner --mtime=@0 .
{
	echo "# Made by tools/perf/tests/kernel/make-recordings.sh; do not edit."
	echo "kernel: $KERNEL_PKG $KERNEL_PKG_VERSION ($(cat "$work/out/kernel-release"))"
	echo "perf: $(cat "$work/out/perf-version") (stock, in the guest)"
	echo "gcc: $(gcc -dumpfullversion)"
	echo "debug.tar.bz2: perf archive of every recording, merged: unpack into ~/.debug"
	echo
	echo "## workloads"
	cat "$work/builds"
	echo
	echo "## recordings"
	grep '^perf record' "$work/out/experiment.log"
} >"$dest/MANIFEST"
du -b "$dest"/* | sed "s|$dest/||"
