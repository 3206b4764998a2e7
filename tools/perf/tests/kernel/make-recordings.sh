#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Regenerate the checked-in 32-bit recordings (tools/perf/tests/data/m32-guest)
# on Debian's kernel under qemu, which runs 32-bit tasks where the host's
# kernel may not: build the workloads here, boot the guest with stock perf,
# this tree's perf-textpoke and them, record (m32/experiment.sh: stock
# perf's *.data, ours *.ours.data), then pack the objects the recordings
# hit with stock perf archive and install everything into the tree.
# Review with git diff --stat and commit.
#
# --ours: record only ours, on the very workloads of the checked-in set,
# taken from its debug.tar.bz2: rebuilt here they would differ (their
# debug info names the tree they were built in), and the stock
# recordings' build-ids would then name objects the archive lacks.  The
# stock recordings stay as they are; the archive gains only the objects
# that no stock recording hit, MANIFEST the lines of ours.
#
# Usage: make-recordings.sh [--ours]   (or: make kernel-recordings)
# TEXTPOKE: the perf-textpoke to record with (default: the tree's).

set -e
. "$(dirname "$0")/config.sh"
. "$kernel_rig_dir/initramfs.sh"

ours_only=false
case "$*" in
"") ;;
--ours) ours_only=true ;;
*) echo "usage: make-recordings.sh [--ours]" >&2; exit 129 ;;
esac
: "${TEXTPOKE:=$kernel_src_dir/tools/perf/perf-textpoke}"
dest=$kernel_src_dir/tools/perf/tests/data/m32-guest
# the products of this tree, beside its build (the kernel cache may be
# shared, and read-only)
work=$kernel_src_dir/build/m32
tests=$kernel_src_dir/tools/perf/tests
guest_dir=/opt/textpoke-m32

for t in qemu-system-x86_64 busybox perf gcc readelf; do
	command -v $t >/dev/null || { echo "make-recordings: $t is not installed" >&2; exit 1; }
done
[ -x "$TEXTPOKE" ] || { echo "make-recordings: $TEXTPOKE: not built (make)" >&2; exit 1; }
kroot=$("$kernel_rig_dir/fetch-kernel.sh")

# the workloads, built as the tests' live parts build them; the 64-bit
# ones static, so that no 64-bit libc is packed beside the 32-bit one
rm -rf "$work"
mkdir -p "$work/bin/script" "$work/bin/report" "$work/debug"
$ours_only && tar xjf "$dest/debug.tar.bz2" -C "$work/debug"
builds=(
	"loop32|-m32 -O1 -fno-omit-frame-pointer -g|$tests/workloads/loop.c"
	"script/w32|-m32 -O1 -fno-omit-frame-pointer|$tests/shell/lib/script-workload.c"
	"report/w32|-m32 -O1 -fno-omit-frame-pointer -g -pthread|$tests/shell/lib/report-workload.c"
	"report/w64|-static -O1 -fno-omit-frame-pointer -g -pthread|$tests/shell/lib/report-workload.c"
	"chain32|-m32 -O2 -g -fomit-frame-pointer|$tests/workloads/unwind-chain.c"
	"wdw32|-m32 -O2 -fomit-frame-pointer -g|$tests/shell/lib/report-children-workload.c"
	"wfp32|-m32 -O1 -fno-omit-frame-pointer -g|$tests/shell/lib/report-children-workload.c"
	"chain64|-static -O2 -g -fomit-frame-pointer|$tests/workloads/unwind-chain.c"
)
: >"$work/builds"
for b in "${builds[@]}"; do
	IFS='|' read -r name flags src <<<"$b"
	# --ours: the checked-in set's own build, where it has one
	packed=$(ls "$work/debug$guest_dir/$name"/*/elf 2>/dev/null || true)
	if [ -n "$packed" ]; then
		[ "$(echo "$packed" | wc -l)" = 1 ] ||
			{ echo "make-recordings: two builds of $name in debug.tar.bz2" >&2; exit 1; }
		cp "$packed" "$work/bin/$name"
		continue
	fi
	# shellcheck disable=SC2086
	gcc $flags -o "$work/bin/$name" "$src"
	echo "$guest_dir/$name: gcc $flags ${src#"$kernel_src_dir"/}" >>"$work/builds"
done

initramfs_begin "$work/initramfs" "$kroot"
initramfs_add_elf /usr/bin/perf /usr/lib/perf-core/perf-read-vdso32
initramfs_add_elf_as "$TEXTPOKE" /usr/bin/perf-textpoke
for b in "${builds[@]}"; do
	name=${b%%|*}
	initramfs_add_elf_as "$work/bin/$name" "$guest_dir/$name"
done
initramfs_add_as "$kernel_rig_dir/m32/experiment.sh" /rig/experiment
chmod 755 "$work/initramfs/rig/experiment"
initramfs_pack "$work/initramfs" "$work/initramfs.cpio"

params=
$ours_only && params=rig.m32=ours
# shellcheck disable=SC2086 # none or one parameter
"$kernel_rig_dir/run-guest.sh" "$work/initramfs.cpio" "$work/out" $params || {
	echo "make-recordings: the experiment failed; its output:" >&2
	cat "$work/out/experiment.log" >&2
	exit 1
}

# the lines MANIFEST gives ours
manifest_ours() {
	echo "## recordings by perf textpoke record"
	echo "perf-textpoke: $(cat "$work/out/textpoke-version") (this tree's, in the guest)"
	grep '^perf-textpoke record' "$work/out/experiment.log"
}

if $ours_only; then
	# each object ours hit, by build-id, from the checked-in archive or
	# else the guest's build-id cache, in perf archive's layout:
	# .build-id/xx/rest -> ../../<path>/<build-id>, the object in there
	added=0
	for f in "$work"/out/*.ours.data; do
		HOME=$work/out/home perf buildid-list -i "$f" --with-hits 2>/dev/null | grep -v '^ ' >"$work/bids"
		while read -r bid path; do
			link=.build-id/${bid:0:2}/${bid:2}
			[ -e "$work/debug/$link" ] && continue
			[ -e "$work/out/home/.debug/$link" ] || {
				echo "make-recordings: $(basename "$f"): $path $bid is in no build-id cache" >&2
				exit 1
			}
			(cd "$work/out/home/.debug" && tar cf - "$link" "./$path/$bid") | tar xf - -C "$work/debug"
			echo "make-recordings: $(basename "$f"): adding $path $bid to debug.tar.bz2"
			added=$((added + 1))
		done <"$work/bids"
	done
	cp "$work"/out/*.ours.data "$dest/"
	# MANIFEST: the workloads built now join the list, ours replace ours
	awk -v builds="$work/builds" '
		/^## recordings by perf textpoke record/ { exit }
		/^## recordings$/ { while ((getline l <builds) > 0) print l; print ""; blank = 0 }
		/^$/ { blank++; next }
		{ while (blank > 0) { print ""; blank-- } print }' "$dest/MANIFEST" >"$work/MANIFEST"
	{ cat "$work/MANIFEST"; echo; manifest_ours; } >"$dest/MANIFEST"
else
	# perf archive per recording (in the guest's build-id cache), then one
	# archive of them all: the recordings share the i386 libc
	for f in "$work"/out/*.data; do
		(cd "$work/out" && HOME=$work/out/home perf archive "$(basename "$f")" >/dev/null)
		tar xjf "$f.tar.bz2" -C "$work/debug"
	done
	rm -rf "$dest"
	mkdir -p "$dest"
	cp "$work"/out/*.data "$dest/"
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
		echo
		manifest_ours
	} >"$dest/MANIFEST"
	added=all
fi
chmod 644 "$dest"/*.data
# unchanged when --ours added nothing: the same bytes
[ "$added" = 0 ] || tar cjf "$dest/debug.tar.bz2" -C "$work/debug" --sort=name --owner=0 --group=0 \
	--numeric-owner --mtime=@0 .
du -b "$dest"/* | sed "s|$dest/||"
