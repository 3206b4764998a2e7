# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Building the guest's initramfs, sourced by the rig's scripts.  The tree
# is laid out as on this host (the merged /usr symlinks included) so that
# a program or library has the same path in the guest as here:
#
#   initramfs_begin DIR KERNEL_ROOT   busybox, /init, the virtio disk modules
#   initramfs_add_elf FILE [...]      a program with its interpreter and libraries
#   initramfs_add FILE [...]          a file at its own path
#   initramfs_add_as FILE DEST        a file at another path
#   initramfs_add_elf_as FILE DEST    a program at another path, with its libraries
#   initramfs_pack DIR OUT            the newc cpio the kernel unpacks
#
# Libraries are found from each object's NEEDED entries (readelf), not with
# ldd: ldd runs the object's loader, and a kernel without 32-bit tasks
# cannot run the i386 one.

ird=
kernel_rig_dir=${kernel_rig_dir:?source config.sh first}

# root_install PATH: host PATH at the same path under $ird, every symlink
# met on the way (the last component, again and again) made as on the host
root_install() {
	local p=$1 dir target

	while :; do
		dir=$(realpath "$(dirname "$p")") || return 1
		p=$dir/$(basename "$p")
		mkdir -p "$ird$dir"
		if [ -L "$p" ]; then
			target=$(readlink "$p")
			[ -L "$ird$p" ] || ln -s "$target" "$ird$p"
			case $target in
			/*) p=$target ;;
			*) p=$dir/$target ;;
			esac
		elif [ -f "$p" ]; then
			[ -e "$ird$p" ] || cp "$p" "$ird$p"
			return
		else
			echo "initramfs: $p: no such file" >&2
			return 1
		fi
	done
}

# the directories the loader of an ELF class searches on Debian
lib_dirs() {
	case $1 in
	ELF32) echo /usr/lib32 /lib32 /usr/lib/i386-linux-gnu /lib/i386-linux-gnu ;;
	*) echo /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu /usr/lib64 /lib64 /usr/lib /lib ;;
	esac
}

# elf_closure FILE: FILE's interpreter and every library it needs, by
# NEEDED, recursively, in the directories of its ELF class; one path a line
elf_closure() {
	local todo=$1 seen=" " f class lib d found

	while [ -n "$todo" ]; do
		# shellcheck disable=SC2086 # one path a word
		set -- $todo
		f=$1
		shift
		todo=$*
		class=$(readelf -h "$f" | sed -n 's/^ *Class: *//p')
		readelf -l "$f" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p'
		for lib in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			case $seen in *" $class:$lib "*) continue ;; esac
			seen="$seen$class:$lib "
			found=
			for d in $(lib_dirs "$class"); do
				[ -e "$d/$lib" ] && [ "$(readelf -h "$d/$lib" 2>/dev/null |
					sed -n 's/^ *Class: *//p')" = "$class" ] && { found=$d/$lib; break; }
			done
			[ -n "$found" ] || { echo "initramfs: $f needs $lib ($class): not found" >&2; return 1; }
			echo "$found"
			todo="$todo $found"
		done
	done
}

initramfs_add() {
	local f
	for f; do root_install "$f" || return 1; done
}

initramfs_add_as() {
	mkdir -p "$ird$(dirname "$2")" && cp "$1" "$ird$2"
}

initramfs_add_elf_as() {
	local libs

	libs=$(elf_closure "$1") || return 1
	initramfs_add_as "$1" "$2" || return 1
	# shellcheck disable=SC2046 # one path a word
	[ -z "$libs" ] || initramfs_add $(echo "$libs" | sort -u)
}

initramfs_add_elf() {
	local f libs
	for f; do
		libs=$(elf_closure "$f") || return 1
		# shellcheck disable=SC2046 # one path a word
		initramfs_add "$f" $(echo "$libs" | sort -u) || return 1
	done
}

# module_deps KERNEL_ROOT NAME: NAME's .ko file after those of the modules
# it depends on (its .modinfo "depends="), each once ($mods_listed)
module_deps() {
	local f dep

	case $mods_listed in *" $2 "*) return 0 ;; esac
	f=$(find "$1"/lib/modules/*/kernel -name "$2.ko" -print -quit)
	[ -n "$f" ] || { echo "initramfs: module $2 not in $1" >&2; return 1; }
	for dep in $(strings -a "$f" | sed -n 's/^depends=//p' | tr , ' '); do
		module_deps "$1" "$dep" || return 1
	done
	mods_listed="$mods_listed$2 "
	echo "$f"
}

# initramfs_begin DIR KERNEL_ROOT: a fresh tree in DIR with busybox, /init
# and the modules that give the guest its results disk (/dev/vda)
initramfs_begin() {
	local kroot=$2 l f mods

	ird=$1
	rm -rf "$ird"
	mkdir -p "$ird"/proc "$ird"/sys "$ird"/dev "$ird"/tmp "$ird"/root "$ird"/out \
		"$ird"/usr/bin "$ird"/etc "$ird"/rig/modules
	# bin -> usr/bin, lib -> usr/lib, ... as here
	for l in /*; do
		[ -L "$l" ] && ln -s "$(readlink "$l")" "$ird$l"
	done
	initramfs_add /bin/busybox || return 1
	cp "$kernel_rig_dir/guest-init.sh" "$ird/init"
	chmod 755 "$ird/init"
	mods_listed=" "
	mods=$(module_deps "$kroot" virtio_pci && module_deps "$kroot" virtio_blk) || return 1
	for f in $mods; do
		cp "$f" "$ird/rig/modules/" || return 1
		basename "$f" .ko >>"$ird/rig/modules/order"
	done
}

initramfs_pack() {
	(cd "$1" && find . | LC_ALL=C sort | busybox cpio -o -H newc -R 0:0) >"$2.tmp" 2>/dev/null &&
		mv "$2.tmp" "$2"
}
