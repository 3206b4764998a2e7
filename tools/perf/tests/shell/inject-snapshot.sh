#!/bin/bash
# inject: --snapshot of a recording made now keeps stock perf's kernel symbols and modules
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it loads BPF programs (another test's would be in its recording)
#
# A system-wide recording made with perf textpoke record on this machine,
# with a BPF program loaded before it and one that runs on packets during
# it, rewritten with --snapshot=start and --snapshot=end.  Stock perf 6.1
# is the judge: on each output it resolves every sample to the symbol
# and object it resolves on the input (its kallsyms is now ours, made from
# the model's symbols), and it accepts the snapshot's kcore_dir: the
# kallsyms has _text where the input's copy of /proc/kallsyms has it
# (perf's validate_kcore_addresses()), the modules file names each module
# at the address of the input's copy of /proc/modules
# (do_validate_kcore_modules()).  readelf reads the kcore's symbol table,
# which holds the kernel's functions.  perf textpoke script prints the
# same on the start snapshot as on the input.
# Known costs, checked as such rather than hidden: where the kcore holds
# code but not the kernel text (pokes without /proc/kcore), perf keeps
# only the symbols inside its segments (symbol.c:
# maps__split_kallsyms_for_kcore()), so that comparison is skipped,
# naming why; an end snapshot holding BPF programs loaded during the
# recording says so, and perf's BPF samples are left out of its
# comparison (bpf-event.c: machine__process_bpf_event_load()).
# What the snapshots can hold is decided without inject: the kernel text
# comes only from a copy of /proc/kcore (readable here, where the test
# records), poked sites only from the TEXT_POKE records stock perf lists
# in the input.  With /proc/kcore the snapshots must hold _stext; without
# it and without pokes they must hold no code at all (a BPF program's is
# in HEADER_BPF_PROG_INFO), and stock perf's symbols are compared.  Our
# recorder failing to record -a is a failure, once stock perf has shown
# that this machine can.
# Mutation caught: snap__add_ref_symbol() not adding _text (the machine
# keeps _stext of the two names at one address): the _text check fails;
# snap__without_kernel_text() keeping the BPF programs' code in a kcore
# without the kernel text: "holds code but no kernel text" (it was a Skip,
# decided from that very kcore).

. "$(dirname "$0")/lib/record-common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
command -v readelf >/dev/null 2>&1 || skip "readelf is not installed"
[ "$(id -u)" = 0 ] || skip "needs root to record the kernel system-wide"
scratch inject-snapshot
export HOME="$tmp"
skipped=""
busy=""
trap '[ -n "$busy" ] && kill $busy 2>/dev/null; rm -rf "$tmp"' EXIT

# the prerequisite, shown by stock perf: a system-wide recording here
perf record -q -a -e cpu-clock -o "$tmp/probe.data" -- true >/dev/null 2>"$tmp/probe.err" ||
	skip "stock perf cannot record system-wide here: $(head -1 "$tmp/probe.err")"
rm -f "$tmp/probe.data"

workload="sleep 0.3"
if ! command -v gcc >/dev/null 2>&1; then
	skipped="BPF part: gcc is not installed"
elif ! build "$tmp/churn" record-bpf-churn.c; then
	fail "gcc: $(cat "$tmp/gcc.err")"
elif ! "$tmp/churn" churn 1 >/dev/null 2>"$tmp/churn.err"; then
	skipped="BPF part: cannot load BPF socket filters here: $(cat "$tmp/churn.err")"
else
	# one program alive from before the recording, one loaded during it
	"$tmp/churn" busy 3 >/dev/null &
	busy=$!
	for _ in $(seq 300); do
		grep -qs '^prog_id:' /proc/$busy/fdinfo/* && break
		sleep 0.1
	done
	grep -qs '^prog_id:' /proc/$busy/fdinfo/* || fail "the busy program did not load"
	workload="$tmp/churn busy 0.3"
fi

# the whole kallsyms: record keeps only the symbols samples hit, and the kcore's
# symbol table is checked below to hold the kernel's functions
# -o an existing directory: its kcore_dir/kallsyms is what stock perf reads
mkdir "$tmp/in.data" || fail "mkdir"
# shellcheck disable=SC2086
"$TEXTPOKE" record -q -a -e cpu-clock --full-kallsyms -o "$tmp/in.data" -- $workload >/dev/null 2>"$tmp/rec.err" ||
	fail "perf textpoke record -a: $(head -3 "$tmp/rec.err")"
[ -n "$busy" ] && { kill $busy 2>/dev/null; wait $busy 2>/dev/null; busy=""; }
in_k="$tmp/in.data/kcore_dir"
[ -s "$in_k/kallsyms" ] || fail "perf textpoke record wrote no kcore_dir/kallsyms"
perf script -i "$tmp/in.data" -F ip,sym,dso >"$tmp/a" 2>/dev/null || fail "stock perf script on the input"
[ -s "$tmp/a" ] || fail "stock perf script printed nothing for the recording"
case $workload in *churn*)
	grep -q "_tp_busy (bpf_prog_" "$tmp/a" || fail "no sample of the busy BPF program on the input"
esac
# what a snapshot can hold, known without inject: the kernel text from a
# copy of /proc/kcore, the bytes of the sites stock perf lists as poked
kcore_here=no
[ -r /proc/kcore ] && kcore_here=yes
nr_pokes=$(perf script -i "$tmp/in.data" -F ip --show-text-poke-events 2>/dev/null |
	grep -c "PERF_RECORD_TEXT_POKE")

for when in start end; do
	out="$tmp/out-$when.data"
	k="$out/kcore_dir"
	"$TEXTPOKE" inject -q -i "$tmp/in.data" -o "$out" --snapshot=$when 2>"$tmp/err.$when" ||
		{ cat "$tmp/err.$when"; fail "inject --snapshot=$when"; }
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

	perf script -i "$out" -F ip,sym,dso >"$tmp/b" 2>"$tmp/err" || { cat "$tmp/err"; fail "stock perf script on --snapshot=$when"; }
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
	if [ $kcore_here = yes ]; then
		[ "$covered" = 1 ] ||
			fail "--snapshot=$when: /proc/kcore was copied, but the kcore's $loads segments miss _stext ($stext)"
	elif [ "$nr_pokes" -gt 0 ]; then
		skipped="$skipped${skipped:+; }symbols with --snapshot=$when: no /proc/kcore here and $nr_pokes text pokes recorded: the kcore holds poked code but not the kernel text, and perf keeps only the symbols inside it"
		continue
	elif [ "$loads" -gt 0 ]; then
		fail "--snapshot=$when: its kcore holds code ($loads segments) but no kernel text, though nothing was poked and there is no /proc/kcore"
	fi
	if grep -q "BPF programs\? loaded during the recording" "$tmp/err.$when"; then
		[ "$when" = end ] || fail "--snapshot=start holds BPF programs loaded during the recording"
		grep -v " (bpf_prog_\| bpf_prog_" "$tmp/a" >"$tmp/a.nobpf"
		grep -v " (bpf_prog_\| bpf_prog_" "$tmp/b" >"$tmp/b.nobpf"
		cmp -s "$tmp/a.nobpf" "$tmp/b.nobpf" ||
			{ diff "$tmp/a.nobpf" "$tmp/b.nobpf" | head; fail "stock perf resolves other symbols on --snapshot=$when"; }
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
