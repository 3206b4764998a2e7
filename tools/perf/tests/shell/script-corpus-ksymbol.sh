#!/bin/bash
# script: --show-text-poke-events shows KSYMBOLs, as perf script does, on the corpus
# SPDX-License-Identifier: GPL-2.0-only
#
# perf 6.1 hooks its ksymbol printer to --show-text-poke-events as well as
# to --show-bpf-events (a BPF program or trampoline is kernel text that
# appears): the public corpus files that hold KSYMBOL records and that
# stock perf reads must print the same with --show-text-poke-events,
# alone and with --show-bpf-events, KSYMBOL lines included.  The symbol
# after a kernel address is not compared (script-corpus-parity.sh says why).

[ -n "$TEXTPOKE" ] || { echo "TEXTPOKE not set: run through perf-textpoke test"; exit 2; }
[ -d "$TEXTPOKE_CORPUS" ] || { echo "no corpus at '$TEXTPOKE_CORPUS'"; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "stock perf is not installed"; exit 2; }
tmp=$(mktemp -d /tmp/textpoke-corpus-ksymbol.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
mkdir -p "$HOME"

fail() {
	echo "FAIL: $*"
	exit 1
}

norm() {
	sed -E 's/ (ffff[0-9a-f]{12}) [^ ]+ \((\[kernel\.kallsyms\]|\[unknown\])\)/ \1 K/'
}

n=0
for rel in perf_data_converter/perf.data.branch_stack_spec linux-perf-data/sleep.compressed.pipe.data; do
	f=$TEXTPOKE_CORPUS/$rel
	[ -r "$f" ] || fail "$rel: not in the corpus"
	for opts in "--show-text-poke-events" "--show-text-poke-events --show-bpf-events"; do
		# shellcheck disable=SC2086
		perf script -i "$f" $opts 2>/dev/null | norm >"$tmp/perf" ||
			fail "$rel: stock perf script $opts failed"
		# shellcheck disable=SC2086
		"$TEXTPOKE" script -i "$f" $opts 2>"$tmp/err" | norm >"$tmp/ours" ||
			fail "$rel: perf textpoke script $opts failed: $(head -2 "$tmp/err")"
		k=$(grep -c 'PERF_RECORD_KSYMBOL' "$tmp/perf")
		[ "$k" -gt 0 ] || fail "$rel: stock perf shows no KSYMBOL with $opts"
		if ! cmp -s "$tmp/perf" "$tmp/ours"; then
			diff -u "$tmp/perf" "$tmp/ours" | head -20
			fail "$rel: differs from perf script $opts"
		fi
		echo "ok: $rel $opts: $(wc -l <"$tmp/ours") lines, $k KSYMBOL, equal"
		n=$((n + 1))
	done
done
[ $n -gt 0 ] || fail "nothing compared"
exit 0
