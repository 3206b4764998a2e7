# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2154 # $tmp: the test's scratch()
# The checked-in 32-bit recordings, made by stock perf (and *.ours.data by
# our perf textpoke record) on Debian's kernel under qemu
# (tools/perf/tests/kernel, make kernel-recordings), for the tests whose
# 32-bit parts cannot record on a kernel that runs no 32-bit program.  Sourced after common.sh; needs $tmp.
#
# The objects the recordings hit are in m32-guest/debug.tar.bz2, as perf
# archive packs a build-id cache; the recorded paths (/opt/textpoke-m32/...)
# exist nowhere else, so stock perf and ours both take every object from
# the build-id cache of HOME=$tmp, as on a machine that received a
# recording with its perf archive.

m32_guest=${TEXTPOKE_SRCDIR:?}/tools/perf/tests/data/m32-guest
# shellcheck disable=SC2034 # where the guest ran the workloads
m32_guest_dir=/opt/textpoke-m32

# m32_guest_check FILE...: the checked-in files a part reads are in the
# tree, or the test fails (not in a subshell: fail must end the test);
# $why_m32_guest is then empty, or the reason the part cannot run here
m32_guest_check() {
	local f

	for f in debug.tar.bz2 MANIFEST "$@"; do
		[ -r "$m32_guest/$f" ] || fail "$m32_guest/$f is missing from the tree"
	done
	why_m32_guest=
	command -v bzip2 >/dev/null 2>&1 ||
		why_m32_guest="bzip2 is not installed (unpacks the recordings' perf archive)"
}

# m32_guest_home: unpack the recordings' objects into $tmp/.debug, once;
# every command of the test then runs with HOME=$tmp
# (beside what stock perf record put there, when the test recorded with
# HOME=$tmp)
m32_guest_home() {
	[ -e "$tmp/.m32-guest-unpacked" ] && return 0
	mkdir -p "$tmp/.debug" && tar xjf "$m32_guest/debug.tar.bz2" -C "$tmp/.debug" ||
		fail "cannot unpack $m32_guest/debug.tar.bz2 into $tmp/.debug"
	: >"$tmp/.m32-guest-unpacked"
}
