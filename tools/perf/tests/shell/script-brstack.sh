#!/bin/bash
# script: -F brstack, brstacksym, brstackoff on the corpus's branch-stack recordings against perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# The public corpus's LBR / branch-stack recordings (perf 3.3 to 5.19,
# x86_64): the raw entries (brstack, with and without dso) must equal
# stock perf's byte for byte, and so must the symbolic and offset forms
# on the files whose objects are all unknown here.  On the two files
# where stock perf names addresses from this machine -- its own vdso for
# an old recording's [vdso], its running kernel's kallsyms moved to a
# foreign kernel's _text (a known perf 6.1 error, see
# perf-textpoke-script.txt) -- an entry may differ only where we print
# [unknown] for that part; and its offset only where the symbol differs.
#
# Mutation caught: the cycles and flags of an entry printed in another
# order (bstack_flags() writing "/%c/%c/%c/%s/%u"), or brstackoff giving
# the kernel's addresses as they are (branch_offset() without the kernel
# case): the exact files differ.

. "$(dirname "$0")/lib/script-common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
[ -n "$TEXTPOKE_SRCDIR" ] || skip "TEXTPOKE_SRCDIR not set: the corpus is found through it"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
corpus=$TEXTPOKE_SRCDIR/../shared/corpus/public
[ -d "$corpus" ] || skip "no public corpus at $corpus"
scratch brstack
export HOME=$tmp

exact="perf_data_converter/perf.data.branch-4.14 perf_data_converter/perf.data.branch_stack_spec
	perfparser/vector_static_gcc__perf.lbr.data"
named="perf_data_converter/perf.data.raw_callgraph_branch-3.4 autofdo/test.lbr"

# run NAME FILE FIELDS: both listings into $tmp/NAME.perf and $tmp/NAME.ours
run() {
	HOME=$tmp perf script -i "$corpus/$2" -F "$3" >"$tmp/$1.perf" 2>/dev/null ||
		fail "$2: stock perf script -F $3"
	"$TEXTPOKE" script -i "$corpus/$2" -F "$3" >"$tmp/$1.ours" 2>"$tmp/$1.err" ||
		fail "$2: perf textpoke script -F $3: $(head -3 "$tmp/$1.err")"
	[ -s "$tmp/$1.perf" ] || fail "$2: stock perf printed nothing for -F $3"
}

n=0
for f in $exact $named; do
	[ -f "$corpus/$f" ] || fail "corpus file missing: $f"
	for fields in brstack dso,brstack; do
		run raw "$f" "$fields"
		cmp -s "$tmp/raw.perf" "$tmp/raw.ours" ||
			fail "$f -F $fields: $(diff "$tmp/raw.perf" "$tmp/raw.ours" | head -4 | cut -c1-200)"
		n=$((n + $(wc -l <"$tmp/raw.perf")))
	done
done
for f in $exact; do
	for fields in brstacksym brstackoff dso,brstacksym; do
		run exact "$f" "$fields"
		cmp -s "$tmp/exact.perf" "$tmp/exact.ours" ||
			fail "$f -F $fields: $(diff "$tmp/exact.perf" "$tmp/exact.ours" | head -4 | cut -c1-200)"
		n=$((n + $(wc -l <"$tmp/exact.perf")))
	done
done
echo "ok: $n lines of brstack, brstacksym and brstackoff equal to stock perf's"

# the files where perf names what it cannot know: entry by entry
differ=0
for f in $named; do
	run sym "$f" brstacksym
	run off "$f" brstackoff
	# one entry per line: "from/to/flags..."
	for x in sym.perf sym.ours off.perf off.ours; do
		tr ' ' '\n' <"$tmp/$x" | grep -v '^$' >"$tmp/$x.e"
	done
	[ "$(wc -l <"$tmp/sym.perf.e")" = "$(wc -l <"$tmp/sym.ours.e")" ] ||
		fail "$f: $(wc -l <"$tmp/sym.perf.e") brstacksym entries from perf, $(wc -l <"$tmp/sym.ours.e") ours"
	paste -d' ' "$tmp/sym.perf.e" "$tmp/sym.ours.e" "$tmp/off.perf.e" "$tmp/off.ours.e" |
		awk -v f="$f" '
		function part(e, i,   a) { split(e, a, "/"); return a[i] }
		{
			same_sym = $1 == $2
			if (!same_sym) {
				for (i = 1; i <= 2; i++)
					if (part($1, i) != part($2, i) && part($2, i) != "[unknown]") {
						print "FAIL: " f ": perf " $1 ", ours " $2 > "/dev/stderr"
						bad = 1
					}
				if (part($1, 3) != part($2, 3) || part($1, 6) != part($2, 6)) {
					print "FAIL: " f ": flags differ: perf " $1 ", ours " $2 > "/dev/stderr"
					bad = 1
				}
				n++
			} else if ($3 != $4) {
				print "FAIL: " f ": offsets differ with the same symbols: " $1 ": " $3 " " $4 > "/dev/stderr"
				bad = 1
			}
		}
		END { print n + 0; exit bad }' >"$tmp/n" 2>"$tmp/bad" ||
		fail "$(head -3 "$tmp/bad")"
	differ=$((differ + $(cat "$tmp/n")))
done
echo "ok: $differ entries where stock perf names this machine's vdso or kernel and we print [unknown]"
exit 0
