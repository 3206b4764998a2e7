# SPDX-License-Identifier: GPL-2.0-only
# Shared by the record-*.sh tests: skips, a scratch directory, workloads
# built at test time, recording with perf textpoke record.  Sourced.

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

workloads="$TEXTPOKE_SRCDIR/tools/perf/tests/workloads"
# the shared test helpers (awk programs among them)
testlib="$TEXTPOKE_SRCDIR/tools/perf/tests/shell/lib"

# build OUT SOURCE [gcc flags...]
build() {
	local out=$1 src=$2
	shift 2
	gcc -O1 -fno-omit-frame-pointer -g "$@" -o "$out" "$workloads/$src" 2>"$tmp/gcc.err"
}

# record OUT ARGS...: perf textpoke record; its stderr in $tmp/record.err
record() {
	local out=$1
	shift
	"$TEXTPOKE" record -o "$out" "$@" >"$tmp/record.out" 2>"$tmp/record.err" ||
		{ cat "$tmp/record.err"; fail "perf textpoke record $*"; }
}

# the sample count our recorder reported
recorded_samples() {
	sed -n 's/.*Captured and wrote .* (\([0-9]*\) samples).*/\1/p' "$tmp/record.err"
}

# stock_script NAME FILE ARGS...: stock perf script, which must not warn
stock_script() {
	local name=$1 file=$2
	shift 2
	perf script -i "$file" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
		fail "$name: stock perf script failed: $(head -3 "$tmp/$name.err")"
	[ -s "$tmp/$name.err" ] && fail "$name: stock perf script warned: $(head -3 "$tmp/$name.err")"
	return 0
}

# wait_started ERRFILE: until a recorder run with -v says its events are on
# (a signal before that ends the recording before it began)
wait_started() {
	local i
	for i in $(seq 600); do
		grep -q "recording: events enabled" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "the recorder did not start: $(cat "$1")"
}
