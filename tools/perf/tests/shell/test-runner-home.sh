#!/bin/bash
# test runner: each test runs with a fresh, empty HOME of its own, removed afterwards
# SPDX-License-Identifier: GPL-2.0-only
#
# perf record fills ~/.debug with the build-ids it saw, and perf script,
# perf report and our reader all take symbols from there: with the
# machine's HOME, what stock perf answers in a test depends on what was
# recorded on the machine before (test 26 read its kernel symbols from
# /root/.debug).  So the runner gives every test a HOME of its own.
# Checked from outside: this script runs the runner on itself, where it is
# the probe (TEXTPOKE_HOME_PROBE set): the probe's HOME must be an empty
# directory that is not the user's home, and must be gone, with what the
# probe left in it (a build-id cache, a read-only directory), once the
# nested runner has reported.
#
# Mutation caught: run_one() not setting HOME in the child (the probe sees
# the user's home); home__remove() not called after the test (its HOME is
# still there).

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"

if [ -n "$TEXTPOKE_HOME_PROBE" ]; then
	echo "probe HOME=$HOME"
	[ -d "$HOME" ] || fail "HOME $HOME is not a directory"
	[ -z "$(ls -A "$HOME")" ] || fail "HOME $HOME is not empty: $(ls -A "$HOME" | head -3)"
	[ "$HOME" != "$TEXTPOKE_HOME_PROBE" ] || fail "HOME is the user's home, $HOME"
	mkdir -p "$HOME/.debug/.build-id/ab" "$HOME/ro" && : >"$HOME/.debug/.build-id/ab/cd" &&
		: >"$HOME/ro/f" && chmod 500 "$HOME/ro" || fail "cannot write in HOME $HOME"
	exit 0
fi

scratch runner-home
user_home=$(getent passwd "$(id -u)" | cut -d: -f6)
TEXTPOKE_HOME_PROBE=${user_home:-/} "$TEXTPOKE" test -v "a fresh, empty HOME of its own" \
	>"$tmp/out" 2>&1
st=$?
[ "$st" = 0 ] || fail "the nested runner: status $st: $(tail -5 "$tmp/out")"
home=$(sed -n 's/^probe HOME=//p' "$tmp/out")
[ -n "$home" ] || fail "the probe did not run: $(tail -5 "$tmp/out")"
[ ! -e "$home" ] || fail "the probe's HOME $home is still there after its test"
echo "ok: the probe ran with HOME=$home (empty, not $user_home), removed afterwards"
