# SPDX-License-Identifier: GPL-2.0-only
# What every shell test needs: skip with a reason, fail, the tools a
# recording test needs, and a scratch directory removed on exit.  Sourced.

skip() {
	echo "$1"
	exit 2
}

fail() {
	echo "FAIL: $*"
	exit 1
}

# stock perf, root and gcc, run through perf-textpoke test
need_perf_root() {
	[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
	command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
	[ "$(id -u)" = 0 ] || skip "needs root to record system-wide side-band events"
	command -v gcc >/dev/null 2>&1 || skip "gcc is not installed"
}

# scratch NAME: $tmp, a fresh /tmp/textpoke-NAME.XXXXXX removed on exit
scratch() {
	tmp=$(mktemp -d "/tmp/textpoke-$1.XXXXXX") || fail "mktemp"
	trap 'rm -rf "$tmp"' EXIT
}

# why_no_32bit: prints nothing when gcc -m32 builds a program and this
# kernel runs it, else the reason, for the skip of a test's 32-bit part.
# gcc and execve() decide (lib/exec-probe.c), never the code under test: a
# kernel without IA-32 emulation refuses the program with ENOEXEC, which a
# shell would report as a syntax error in the binary.  Needs $tmp.
why_no_32bit() {
	local src why

	src="$(dirname "${BASH_SOURCE[0]}")/exec-probe.c"
	if ! gcc -O1 -o "$tmp/exec-probe" "$src" 2>/dev/null; then
		echo "gcc cannot build lib/exec-probe.c"
	elif ! gcc -m32 -O1 -o "$tmp/exec-probe32" "$src" 2>/dev/null; then
		echo "gcc -m32 cannot build a 32-bit program (gcc-multilib missing)"
	elif ! why=$("$tmp/exec-probe" "$tmp/exec-probe32"); then
		echo "this kernel runs no 32-bit program (a gcc -m32 build: ${why:-no reason})"
	fi
}
