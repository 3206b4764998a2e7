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
