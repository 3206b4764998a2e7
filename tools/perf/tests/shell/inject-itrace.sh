#!/bin/bash
# inject --itrace: an Intel PT trace replaced by its decoded samples, which stock perf reads as perf script decodes them
# SPDX-License-Identifier: GPL-2.0-only
#
# The oracle is stock perf script --itrace=X on the input: stock perf 6.1
# decodes ptgen's pt-start fixture (libipt's encoder, written at test
# time; jump labels flip, an ftrace trampoline comes, BPF program A is
# replaced by B at one address) against the code of each moment.  Stock
# perf script on our inject --itrace=X output (no trace left in it) must
# print the same lines, byte for byte: i1i, b, c, bc, i1000i, bp, i1ig
# (chains in the samples), e, and --itrace alone against perf's default
# for inject (i100usbepwx), through a file and through a pipe.
#
# Where stock perf is wrong: perf inject --itrace on this fixture decodes
# the poked code without the pokes: "Trace doesn't match instruction"
# errors and fewer branches than its own perf script --itrace prints.
# The test says how many, and counts ours against the fixture's truth
# (truth.txt, the generator's line per instruction executed, not our
# decoder): i1i gives one instruction sample per line.
#
# The synthesized events' attrs equal perf inject's (perf evlist -v on
# both outputs), and the trace's records (AUXTRACE_INFO, AUXTRACE, AUX,
# ITRACE_START) are left out as perf inject leaves them.
#
# The public corpus' perf.data.intel_pt-4.14 (a real trace), --itrace=be:
# the sample lines equal perf script's; its decode errors are printed
# where stock perf reads the AUXTRACE_ERROR records, so they are compared
# as a set: each of ours is one of perf's, and perf has the four more that
# script-corpus-parity.sh explains (a second error in four libraries,
# where we report each object once).
#
# --strip on the same real trace (it has 15 cycles samples and 152
# SWITCH_CPU_WIDE records beside the trace): the records of each type
# (the decode errors aside, as above), the attrs and the sample lines
# equal stock perf inject --itrace=be --strip's output.  (Its trace event
# reads with ID, which perf's synthesized events copy: the fixture's
# has no read_format, so only this comparison sees it.)
#
# Mutation caught: the spool flushed only at the end (inject_itrace__flush()
# returning at once unless @all): stock perf meets the samples after it
# flushed their time ("fx-i1i" differs: out-of-order samples).
# Mutation caught: the attrs without their chains (PERF_SAMPLE_CALLCHAIN
# left out in inject_itrace__add_attrs()): stock perf cannot parse the
# i1ig samples, "fx-i1ig" differs.
# Mutation caught: the trace's records copied (inject_itrace__drops()
# returning false): the first AUX record cannot be written after the
# attrs the trace adds, "fx-i1i" fails.
# Mutation caught: --strip leaving the switches (inject__strips() true for
# samples only): "corpus --strip" finds 152 SWITCH_CPU_WIDE records that
# perf's output has not.
# Mutation caught: the synthesized attrs without the trace's read_format
# (inject_itrace__add_attrs()): "corpus --strip: attrs differ".

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
"$TEXTPOKE" version --build-options | grep -q 'libipt: \[ on' || skip "built without libipt"
scratch inject-itrace
export HOME=$tmp
skipped=

fx=$tmp/fx
"$TEXTPOKE" test --write-fixture pt-start "$fx" >"$tmp/fx.out" 2>&1 ||
	fail "--write-fixture pt-start: $(head -3 "$tmp/fx.out")"

# same NAME INPUT ITRACE: perf script on our inject --itrace=ITRACE equals perf script --itrace=ITRACE
same() {
	local name=$1 in=$2 it=$3 want=${4:-$3}
	"$TEXTPOKE" inject -q --itrace${it:+=$it} -i "$in" -o "$tmp/$name.data" 2>"$tmp/$name.err" ||
		fail "$name: inject --itrace=$it: $(head -3 "$tmp/$name.err")"
	[ -s "$tmp/$name.err" ] && fail "$name: inject --itrace=$it said: $(head -3 "$tmp/$name.err")"
	perf script -i "$tmp/$name.data" >"$tmp/$name.ours" 2>"$tmp/$name.ours-err" ||
		fail "$name: stock perf script cannot read our output: $(head -3 "$tmp/$name.ours-err")"
	perf script --itrace="$want" -i "$in" >"$tmp/$name.perf" 2>"$tmp/$name.perf-err" ||
		fail "$name: stock perf script --itrace=$want: $(head -3 "$tmp/$name.perf-err")"
}

for it in i1i b c bc i1000i bp i1ig e; do
	same "fx-$it" "$fx/perf.data" "$it"
	cmp -s "$tmp/fx-$it.perf" "$tmp/fx-$it.ours" ||
		fail "fx-$it: perf script on our output differs: $(diff "$tmp/fx-$it.perf" "$tmp/fx-$it.ours" | head -5)"
	echo "fx --itrace=$it: $(wc -l <"$tmp/fx-$it.ours") lines, as perf script --itrace=$it"
done
same fx-default "$fx/perf.data" "" i100usbepwx
cmp -s "$tmp/fx-default.perf" "$tmp/fx-default.ours" ||
	fail "fx-default: differs from perf script --itrace=i100usbepwx: $(diff "$tmp/fx-default.perf" "$tmp/fx-default.ours" | head -5)"
# (the fixture runs for less than 100 us: branches, psb and cbr samples)
grep -q "branches:" "$tmp/fx-default.ours" || fail "fx-default: no branches samples"
echo "fx --itrace: $(wc -l <"$tmp/fx-default.ours") lines, perf inject's default"

# through a pipe (which carries no kcore_dir: its kallsyms given to perf)
"$TEXTPOKE" inject -q --itrace=bp -i "$fx/perf.data" -o - 2>"$tmp/pipe.err" |
	perf script --kallsyms "$fx/perf.data/kcore_dir/kallsyms" -i - >"$tmp/pipe.ours" \
		2>"$tmp/pipe.ours-err"
cmp -s "$tmp/fx-bp.perf" "$tmp/pipe.ours" ||
	fail "pipe: perf script - differs: $(head -3 "$tmp/pipe.err" "$tmp/pipe.ours-err")"

# the fixture's truth: one instruction sample per instruction the generator ran
n=$(grep -c 'instructions:' "$tmp/fx-i1i.ours")
[ "$n" = "$(grep -c . "$fx/truth.txt")" ] ||
	fail "i1i: $n instruction samples, the generator ran $(grep -c . "$fx/truth.txt")"

# stock perf inject on the same fixture: wrong where the code was poked
perf inject --itrace=be -i "$fx/perf.data" -o "$tmp/perf-inject.data" >/dev/null 2>&1 ||
	fail "stock perf inject --itrace=be failed"
perf script -i "$tmp/perf-inject.data" >"$tmp/perf-inject.txt" 2>/dev/null
e=$(grep -c "Trace doesn't match instruction" "$tmp/perf-inject.txt")
b=$(grep -c 'branches:' "$tmp/perf-inject.txt")
same fx-be "$fx/perf.data" be
cmp -s "$tmp/fx-be.perf" "$tmp/fx-be.ours" || fail "fx-be: perf script on our output differs"
grep -q "trace error" "$tmp/fx-be.ours" && fail "fx-be: decode errors in our output"
echo "stock perf inject --itrace=be: $e 'Trace doesn't match instruction' errors and $b" \
	"branches; ours: none and $(grep -c 'branches:' "$tmp/fx-be.ours"), as perf script --itrace"

# attrs as perf inject's; the trace's records left out
perf inject --itrace -i "$fx/perf.data" -o "$tmp/perf-inject0.data" >/dev/null 2>&1 ||
	fail "stock perf inject --itrace failed"
perf evlist -v -i "$tmp/perf-inject0.data" >"$tmp/evlist.perf" 2>&1
perf evlist -v -i "$tmp/fx-default.data" >"$tmp/evlist.ours" 2>&1
cmp -s "$tmp/evlist.perf" "$tmp/evlist.ours" ||
	fail "evlist -v differs from perf inject's: $(diff "$tmp/evlist.perf" "$tmp/evlist.ours" | head -5)"
perf report -D -i "$tmp/fx-default.data" 2>/dev/null >"$tmp/dump.txt"
grep -qE 'PERF_RECORD_(AUXTRACE|AUX|ITRACE_START)[ :(]' "$tmp/dump.txt" &&
	fail "records: the trace's records are still in our output"
grep -q 'PERF_RECORD_TEXT_POKE' "$tmp/dump.txt" || fail "records: the TEXT_POKEs are gone"
echo "attrs as perf inject's: $(grep -c . "$tmp/evlist.ours") events; no trace records left"

# a real trace: samples equal, errors a subset of perf's with the four it adds
c=$TEXTPOKE_CORPUS/perf_data_converter/perf.data.intel_pt-4.14
if [ -r "$c" ]; then
	"$TEXTPOKE" inject -q --itrace=be -i "$c" -o "$tmp/c.data" 2>"$tmp/c.err" ||
		fail "corpus: inject --itrace=be: $(head -3 "$tmp/c.err")"
	perf script -i "$tmp/c.data" >"$tmp/c.ours" 2>/dev/null
	perf script --itrace=be -i "$c" >"$tmp/c.perf" 2>/dev/null
	grep -v "trace error" "$tmp/c.perf" >"$tmp/c.perf-s"
	grep -v "trace error" "$tmp/c.ours" >"$tmp/c.ours-s"
	cmp -s "$tmp/c.perf-s" "$tmp/c.ours-s" ||
		fail "corpus: sample lines differ: $(diff "$tmp/c.perf-s" "$tmp/c.ours-s" | head -5)"
	grep -o " instruction trace error .*" "$tmp/c.perf" | sort >"$tmp/c.perf-e"
	grep -o " instruction trace error .*" "$tmp/c.ours" | sort >"$tmp/c.ours-e"
	[ -n "$(comm -13 "$tmp/c.perf-e" "$tmp/c.ours-e")" ] &&
		fail "corpus: errors perf does not report: $(comm -13 "$tmp/c.perf-e" "$tmp/c.ours-e" | head -3)"
	[ "$(comm -23 "$tmp/c.perf-e" "$tmp/c.ours-e" | wc -l)" = 4 ] ||
		fail "corpus: perf reports $(comm -23 "$tmp/c.perf-e" "$tmp/c.ours-e" | wc -l) errors we do not, not the 4 known"
	echo "corpus --itrace=be: $(wc -l <"$tmp/c.ours-s") sample lines as perf's, $(wc -l <"$tmp/c.ours-e") errors"

	"$TEXTPOKE" inject -q --itrace=be --strip -i "$c" -o "$tmp/cs.data" 2>"$tmp/cs.err" ||
		fail "corpus: inject --itrace=be --strip: $(head -3 "$tmp/cs.err")"
	perf inject --itrace=be --strip -i "$c" -o "$tmp/cs-perf.data" >/dev/null 2>&1 ||
		fail "corpus: stock perf inject --itrace=be --strip failed"
	for f in cs cs-perf; do
		perf report -D -i "$tmp/$f.data" 2>/dev/null | grep -oE 'PERF_RECORD_[A-Z_]+' |
			grep -v '^PERF_RECORD_AUXTRACE_ERROR$' | sort | uniq -c >"$tmp/$f.types"
		perf evlist -v -i "$tmp/$f.data" >"$tmp/$f.evlist" 2>&1
		perf script -i "$tmp/$f.data" 2>/dev/null | grep -v "trace error" >"$tmp/$f.lines"
	done
	cmp -s "$tmp/cs-perf.types" "$tmp/cs.types" ||
		fail "corpus --strip: records by type differ from perf inject --strip's:" \
			"$(diff "$tmp/cs-perf.types" "$tmp/cs.types" | head -5)"
	cmp -s "$tmp/cs-perf.evlist" "$tmp/cs.evlist" ||
		fail "corpus --strip: attrs differ: $(diff "$tmp/cs-perf.evlist" "$tmp/cs.evlist" | head -5)"
	cmp -s "$tmp/cs-perf.lines" "$tmp/cs.lines" ||
		fail "corpus --strip: sample lines differ: $(diff "$tmp/cs-perf.lines" "$tmp/cs.lines" | head -5)"
	grep -q "SWITCH" "$tmp/cs.types" && fail "corpus --strip: switch records left"
	grep -q " cycles:" "$tmp/cs.lines" && fail "corpus --strip: cycles samples left"
	echo "corpus --itrace=be --strip: $(wc -l <"$tmp/cs.lines") sample lines, records as perf inject's"
else
	skipped="corpus part: no corpus file $c"
fi

# refused: one line, non-zero
"$TEXTPOKE" inject --itrace=Q -i "$fx/perf.data" -o "$tmp/bad.data" >/dev/null 2>"$tmp/bad.err" &&
	fail "--itrace=Q: exit 0"
grep -q "unknown option 'Q'" "$tmp/bad.err" || fail "--itrace=Q: $(head -2 "$tmp/bad.err")"
[ -e "$tmp/bad.data" ] && fail "--itrace=Q: an output was left"
[ -z "$skipped" ] || skip "$skipped"
exit 0
