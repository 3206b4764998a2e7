# SPDX-License-Identifier: GPL-2.0-only
# Shared by the report-*.sh tests: the workload built at test time, stock
# perf record, and the comparison with stock perf report --stdio.  Sourced.

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

libdir=$(dirname "${BASH_SOURCE[0]}")

# build_report_workload OUT [gcc flags...]
build_report_workload() {
	local out=$1
	shift
	gcc -O1 -fno-omit-frame-pointer -g "$@" -o "$out" "$libdir/report-workload.c" \
		-pthread 2>"$tmp/gcc.err"
}

# perf_record OUT ARGS...: stock perf record, quiet; fails the test on error
perf_record() {
	local out=$1
	shift
	HOME=$tmp perf record -q -o "$out" "$@" >"$tmp/record.out" 2>&1 ||
		{ cat "$tmp/record.out"; fail "perf record $*"; }
	[ -s "$out" ] || fail "perf record wrote nothing to $out"
}

# stock perf report --stdio without its closing tip ("#", "# (Tip: ...)", "#");
# the status is stock perf's
perf_report() {
	local st

	HOME=$tmp timeout 120 perf report --stdio "$@" >"$tmp/perf-report.raw"
	st=$?
	# the "#" before the tip goes with it; a report without rows has no tip
	awk '/^# \(Tip:/ { tip = 1; exit } NR > 1 { print prev } { prev = $0 }
	     END { if (!tip && NR) print prev }' "$tmp/perf-report.raw"
	return $st
}

# ours without the per-ABI blocks, which no perf report has
ours_report() {
	"$TEXTPOKE" report --no-changes "$@" |
		awk '/^# Samples per user-register ABI/ { s = 1 } s && /^$/ { s = 0; next } !s'
}

# same_report NAME FILE ARGS...: stock perf report --stdio and ours agree
# line for line, comment lines included, or the test fails; $perf_extra
# (unquoted, words) goes to stock perf alone
same_report() {
	local name=$1 file=$2
	shift 2
	# shellcheck disable=SC2086
	perf_report -i "$file" $perf_extra "$@" >"$tmp/$name.perf.raw" 2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf report failed: $(head -3 "$tmp/$name.perf.err")"
	# perf's fractal "[...]" line borrows a symbol it mallocs and never
	# clears (rem_sq_bracket, ui/stdio/hist.c): its " (inlined)" comes and
	# goes with what perf's heap held; normalised on perf's side only
	sed 's/--\[\.\.\.\] (inlined)$/--[...]/' "$tmp/$name.perf.raw" >"$tmp/$name.perf"
	ours_report -i "$file" "$@" >"$tmp/$name.ours" 2>"$tmp/$name.ours.err" ||
		fail "$name: perf textpoke report failed: $(head -3 "$tmp/$name.ours.err")"
	grep -q '^[^#]' "$tmp/$name.perf" || fail "$name: stock perf printed no rows"
	if ! cmp -s "$tmp/$name.perf" "$tmp/$name.ours"; then
		diff -u "$tmp/$name.perf" "$tmp/$name.ours" | head -40
		fail "$name: differs from stock perf report --stdio $perf_extra $*"
	fi
	echo "ok: $name ($(grep -c '^[^#]' "$tmp/$name.ours") rows equal to perf report $perf_extra $*)"
}

# same_script FILE: stock perf script and ours print FILE alike, byte for
# byte; the outputs stay in $tmp/script.perf and $tmp/script.ours
same_script() {
	HOME=$tmp perf script -i "$1" >"$tmp/script.perf" 2>/dev/null || fail "stock perf script"
	"$TEXTPOKE" script -i "$1" >"$tmp/script.ours" 2>"$tmp/err" ||
		fail "perf textpoke script: $(head -3 "$tmp/err")"
	cmp -s "$tmp/script.perf" "$tmp/script.ours" ||
		{ diff -u "$tmp/script.perf" "$tmp/script.ours" | head -20; fail "script differs"; }
	echo "ok: script ($(grep -c '^	' "$tmp/script.ours") frames equal to perf script)"
}

# corpus_same NAME MARKER OPTION...: every public corpus file stock perf
# reads through "perf report OPTION..." (its output holding MARKER, a
# grep pattern) gives the same output from ours, byte for byte; the
# caller's associative arrays name the exceptions: known[FILE] the
# reason stock perf is wrong there (not compared), fixup[FILE] a sed that
# corrects stock perf's output first (then compared).  Fails on fewer
# than 10 files compared.
corpus_same() {
	local name=$1 marker=$2 f rel n=0
	shift 2
	while IFS= read -r f; do
		rel=${f#"$TEXTPOKE_CORPUS"/}
		perf report -i "$f" "$@" >"$tmp/c.perf" 2>/dev/null || continue
		grep -q -e "$marker" "$tmp/c.perf" || continue
		if [ -n "${known[$rel]}" ] && [ -z "${fixup[$rel]}" ]; then
			echo "known: $rel: ${known[$rel]}"
			continue
		fi
		if [ -n "${fixup[$rel]}" ]; then
			sed -i "${fixup[$rel]}" "$tmp/c.perf"
			echo "known: $rel: ${known[$rel]}; compared with that corrected"
		fi
		"$TEXTPOKE" report -i "$f" "$@" >"$tmp/c.ours" 2>"$tmp/c.err" ||
			fail "$rel: perf textpoke report $*: $(head -3 "$tmp/c.err")"
		cmp -s "$tmp/c.perf" "$tmp/c.ours" ||
			{ diff -u "$tmp/c.perf" "$tmp/c.ours" | head -20; fail "$rel: $* differs from stock perf"; }
		n=$((n + 1))
	done < <(find "$TEXTPOKE_CORPUS" -type f ! -name '*.md' ! -name '*.txt' | sort)
	[ $n -gt 10 ] || fail "$name: only $n corpus files compared"
	echo "ok: $n corpus files: $* equal to stock perf report"
}
