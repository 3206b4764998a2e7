# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The real-kernel rig's settings, sourced by its scripts: which kernel,
# where its products are cached, how qemu runs.  Override any of them
# from the environment.

# Debian 12's kernel, pinned: the checked-in recordings were made on it.
# The newest linux-image-6.1.0-*-amd64 apt offered when the rig was built;
# when the archive drops it, pick the newest again (apt-cache search
# --names-only '^linux-image-6.1.0-[0-9]+-amd64$') and regenerate.
: "${KERNEL_PKG:=linux-image-6.1.0-57-amd64}"
: "${KERNEL_PKG_VERSION:=6.1.192-3}"

kernel_rig_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kernel_src_dir=$(cd "$kernel_rig_dir/../../../.." && pwd)

# outside git (build/ is ignored), one directory per package version
: "${KERNEL_CACHE:=$kernel_src_dir/build/kernel}"
# shellcheck disable=SC2034 # used by the scripts that source this
kernel_pkg_dir=$KERNEL_CACHE/${KERNEL_PKG}_$KERNEL_PKG_VERSION

# Guest time counts instructions (4 ns each), not host time: sampling by
# cpu-clock is then exact and the same from run to run, however busy the
# host is (with host time, a loaded host gave 5 times fewer samples in one
# run than in the next).  sleep=off: an idle guest skips to its next timer.
: "${KERNEL_QEMU_ICOUNT:=shift=2,sleep=off}"

# The guest's CPUs, memory and results disk.  The 32-bit recordings use
# one CPU; the text-poke experiments two (pokes race a reader on the
# other CPU) and room for their kcore copies.
: "${KERNEL_QEMU_SMP:=1}"
: "${KERNEL_QEMU_MEM:=1G}"
: "${KERNEL_RESULTS_SIZE:=256M}"

# Every qemu run ends within this many seconds, booted or not.  TCG on one
# host core boots the kernel in ~15 s of wall time.
: "${KERNEL_QEMU_TIMEOUT:=900}"
