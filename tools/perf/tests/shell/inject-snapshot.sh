#!/bin/bash
# inject: --snapshot of a recording made now keeps stock perf's kernel symbols and modules
# SPDX-License-Identifier: GPL-2.0-only
#
# A system-wide recording made with perf textpoke record on this machine,
# rewritten with --snapshot=start and --snapshot=end.  Stock perf 6.1 is
# the judge: on each output it resolves every sample to the symbol it
# resolves on the input (its kallsyms is now ours, made from the model's
# symbols), and it accepts the snapshot's kcore_dir: the kallsyms has
# _text where the input's copy of /proc/kallsyms has it (perf's
# validate_kcore_addresses()), the modules file names each module at the
# address of the input's copy of /proc/modules (do_validate_kcore_modules()).
# readelf reads the kcore's symbol table, which holds the kernel's symbols.
# perf textpoke script prints the same on the start snapshot as on the
# input.
# Where the kcore holds code but not the kernel text (no /proc/kcore, but
# pokes or BPF programs), perf keeps only the symbols inside its segments
# (symbol.c: maps__split_kallsyms_for_kcore()): that comparison is then
# skipped, naming why.
# Mutation caught: snap__add_ref_symbol() not adding _text (the machine
# keeps _stext of the two names at one address): the _text check fails.

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
command -v readelf >/dev/null 2>&1 || skip "readelf is not installed"
[ "$(id -u)" = 0 ] || skip "needs root to record the kernel system-wide"
scratch inject-snapshot
export HOME="$tmp"
skipped=""

"$TEXTPOKE" record -q -a -o "$tmp/in.data" -- sleep 0.2 >/dev/null 2>"$tmp/rec.err" ||
	skip "perf textpoke record -a cannot record here: $(head -1 "$tmp/rec.err")"
in_k="$tmp/in.data/kcore_dir"
[ -s "$in_k/kallsyms" ] || fail "perf textpoke record wrote no kcore_dir/kallsyms"

for when in start end; do
	out="$tmp/out-$when.data"
	k="$out/kcore_dir"
	"$TEXTPOKE" inject -q -i "$tmp/in.data" -o "$out" --snapshot=$when 2>"$tmp/err" ||
		{ cat "$tmp/err"; fail "inject --snapshot=$when"; }
	for f in kcore kallsyms modules; do
		[ -f "$k/$f" ] || fail "--snapshot=$when: no kcore_dir/$f"
	done

	want=$(awk '$3 == "_text" && NF == 3 { print $1; exit }' "$in_k/kallsyms")
	have=$(awk '$3 == "_text" && NF == 3 { print $1; exit }' "$k/kallsyms")
	[ -n "$want" ] || fail "the input's kallsyms has no _text"
	[ "$want" = "$have" ] || fail "--snapshot=$when: _text at '$have' in kallsyms, the input's at $want"

	# name and address of each module, as perf's modules__parse() reads them
	awk '{ print $1, $NF }' "$in_k/modules" | sort >"$tmp/mods.in"
	awk '{ print $1, $NF }' "$k/modules" | sort >"$tmp/mods.out"
	cmp -s "$tmp/mods.in" "$tmp/mods.out" ||
		{ diff "$tmp/mods.in" "$tmp/mods.out" | head; fail "--snapshot=$when: modules differ from the input's"; }

	readelf -sW "$k/kcore" >"$tmp/syms" 2>"$tmp/err" || { cat "$tmp/err"; fail "readelf -sW on the $when kcore"; }
	grep -q " _text$" "$tmp/syms" || fail "--snapshot=$when: readelf lists no _text in the kcore"
	nr=$(grep -c " FUNC " "$tmp/syms")
	[ "$nr" -gt 1000 ] || fail "--snapshot=$when: readelf lists $nr functions in the kcore"

	perf script -i "$tmp/in.data" -F ip,sym >"$tmp/a" 2>/dev/null || fail "stock perf script on the input"
	[ -s "$tmp/a" ] || fail "stock perf script printed nothing for the recording"
	perf script -i "$out" -F ip,sym >"$tmp/b" 2>"$tmp/err" || { cat "$tmp/err"; fail "stock perf script on --snapshot=$when"; }
	loads=$(readelf -lW "$k/kcore" | grep -c " LOAD ")
	stext=$(awk '$3 == "_stext" && NF == 3 { print $1; exit }' "$in_k/kallsyms")
	# kernel addresses are negative to bash, and ordered as they should be
	covered=0
	while read -r type _ vaddr _ filesz _; do
		[ "$type" = LOAD ] && [ -n "$stext" ] || continue
		if [ $((16#$stext)) -ge $((vaddr)) ] && [ $((16#$stext)) -lt $((vaddr + filesz)) ]; then
			covered=1
		fi
	done < <(readelf -lW "$k/kcore")
	if [ "$loads" -gt 0 ] && [ "$covered" = 0 ]; then
		skipped="$skipped${skipped:+; }symbols with --snapshot=$when: its kcore holds $loads pieces of code but not the kernel text (no /proc/kcore when recording)"
	else
		cmp -s "$tmp/a" "$tmp/b" ||
			{ diff "$tmp/a" "$tmp/b" | head; fail "stock perf resolves other symbols on --snapshot=$when"; }
	fi
done

"$TEXTPOKE" script -i "$tmp/in.data" >"$tmp/a" 2>/dev/null || fail "perf textpoke script on the input"
"$TEXTPOKE" script -i "$tmp/out-start.data" >"$tmp/b" 2>/dev/null || fail "perf textpoke script on --snapshot=start"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head; fail "perf textpoke script differs on --snapshot=start"; }

[ -z "$skipped" ] || skip "$skipped"
exit 0
