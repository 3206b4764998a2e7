#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Fetch Debian's kernel package named in config.sh and unpack it into the
# cache (never into /boot: nothing is installed).  Idempotent: a finished
# unpack is marked by a stamp and reused.  Prints the unpacked root.
#
# Usage: fetch-kernel.sh

set -e
. "$(dirname "$0")/config.sh"

root=$kernel_pkg_dir/root
if [ -f "$kernel_pkg_dir/unpacked" ]; then
	echo "$root"
	exit 0
fi
mkdir -p "$kernel_pkg_dir"
rm -rf "$root" "$kernel_pkg_dir"/*.deb
# run as root, apt's download sandbox user cannot write the cache: say
# so to apt instead of reading its warning
(cd "$kernel_pkg_dir" && apt-get download -q -o APT::Sandbox::User=root \
	"$KERNEL_PKG=$KERNEL_PKG_VERSION") >&2 || {
	echo "fetch-kernel: apt-get download $KERNEL_PKG=$KERNEL_PKG_VERSION failed;" \
	     "set KERNEL_PKG and KERNEL_PKG_VERSION to one apt offers (see config.sh)" >&2
	exit 1
}
dpkg -x "$kernel_pkg_dir/${KERNEL_PKG}_${KERNEL_PKG_VERSION}_amd64.deb" "$root"
ls "$root"/boot/vmlinuz-* >/dev/null
touch "$kernel_pkg_dir/unpacked"
echo "$root"
