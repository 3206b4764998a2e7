# SPDX-License-Identifier: GPL-2.0-only
# Shared by the script-*.sh parity tests: skips, a scratch directory, the
# workloads built at test time, and a line-for-line comparison with stock
# perf script.  Sourced, not run.

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

libdir=$(dirname "${BASH_SOURCE[0]}")

# build_workload OUT [gcc flags...]
build_workload() {
	local out=$1
	shift
	gcc -O1 -fno-omit-frame-pointer -g "$@" -o "$out" "$libdir/script-workload.c" 2>"$tmp/gcc.err"
}

# perf_record OUT ARGS...: stock perf record, quiet; fails the test on error
perf_record() {
	local out=$1
	shift
	HOME=$tmp perf record -q -o "$out" "$@" >"$tmp/record.out" 2>&1 ||
		{ cat "$tmp/record.out"; fail "perf record $*"; }
	[ -s "$out" ] || fail "perf record wrote nothing to $out"
}

# same_output NAME FILE SCRIPT-ARGS...: stock perf script and ours agree, or
# the test fails; with $same_norm set, as the filter it names (a function
# of a file name) prints them
same_output() {
	local name=$1 file=$2 norm=${same_norm:-cat}
	shift 2
	HOME=$tmp perf script -i "$file" "$@" >"$tmp/$name.perf" 2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf script failed: $(head -3 "$tmp/$name.perf.err")"
	"$TEXTPOKE" script -i "$file" "$@" >"$tmp/$name.ours" 2>"$tmp/$name.ours.err" ||
		fail "$name: perf textpoke script failed: $(head -3 "$tmp/$name.ours.err")"
	[ -s "$tmp/$name.perf" ] || fail "$name: stock perf printed nothing"
	if ! cmp -s <("$norm" "$tmp/$name.perf") <("$norm" "$tmp/$name.ours"); then
		diff -u <("$norm" "$tmp/$name.perf") <("$norm" "$tmp/$name.ours") | head -40
		fail "$name: output differs from stock perf script $*"
	fi
	echo "ok: $name ($(wc -l <"$tmp/$name.ours") lines equal to perf script $*)"
}
