#!/bin/bash
# report: --itrace profiles the samples of an Intel PT trace as stock perf report does
# SPDX-License-Identifier: GPL-2.0-only
#
# The trace is decoded by script's decoder (itrace.c) and its samples go
# through report's sample path.  Against stock perf 6.1 report --stdio
# (oracle), line for line but its closing tip:
#  - ptgen's pt-start fixture (libipt's encoder, written at test time):
#    --itrace=b, c, r, bc, i1i, i1000i, bp (its psb and cbr events), and b
#    with --sort dso,sym -n; with callchains ('g': perf's call stacks kept
#    from the trace's calls and returns, itrace-stack.c), i1ig and i1000ig
#    (Children and the trees), bg and cg (Children, branch samples have no
#    chain), i1ig with --max-stack 1 -G (perf raises --max-stack to g's
#    16), and i1ig2 --no-children.  The kernel's code changes under the trace: jump labels flip,
#    an ftrace trampoline comes, BPF program A is replaced by B at the
#    same address;
#  - perf_data_converter's perf.data.intel_pt-4.14 (a real trace with
#    recorded cycles samples among its samples), --sort comm,dso (its
#    kernel is not this machine's), --itrace=b, i1000i and i1000ig.
# The code of each moment, by the fixture's own model (truth.txt, the
# generator's line per instruction, not our decoder): with --itrace=i1i
# each BPF program's row counts the instructions of the runs through
# FP_BPF whose code was that program's (A's "31c0" at +9, B's "6690"),
# though both lived at one address.
# Without --itrace, perf report's own default (instructions every 100 us
# with callchains, psb and cbr events with theirs, errors; the recorded
# samples get chains from the call stacks as they are at their time): on
# pt-start of 4000 and 20000 instructions and on the corpus file; and
# periods of time, i100ns and i100nsg on both fixtures.
# Known and left: on the corpus pipe stock perf prints the trees without
# Children, we print neither; on the corpus file with explicit g and p
# stock perf gives the recorded cycles samples Children entries of chains
# it does not print.
#
# Mutation caught: a trace-start branch (from 0) of the cpumode of its
# source (the from-0 rule in itrace__print() left out): the --itrace=b row
# of address 0 prints [.] where perf prints [k] (applied: FAIL; reverted).
# Also applied and reverted: report__itrace_sample() returning 0 before
# report__sample() (no rows: FAIL); a return that pops nothing
# (itrace_stacks__branch()): the i1ig trees grow deeper than perf's (FAIL);
# --max-stack not raised to g's 16: fx-g-stack's trees are cut (FAIL);
# no chain for the recorded samples (itrace__recorded_chain() returning
# NULL): corpus-default's cycles trees go (FAIL); a new trace number after
# every error, code not found included: a corpus psb sample loses its
# caller (FAIL); chains for instruction samples only: fx-default's psb and
# cbr trees go (FAIL).

. "$(dirname "$0")/lib/report-common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
"$TEXTPOKE" version --build-options | grep -q 'libipt: \[ on' || skip "built without libipt"
scratch report-itrace
skipped=

fx=$tmp/fx
"$TEXTPOKE" test --write-fixture pt-start "$fx" >"$tmp/fx.out" 2>&1 ||
	fail "--write-fixture pt-start: $(head -3 "$tmp/fx.out")"
for itrace in b c r bc i1i i1000i bp i1ig i1000ig bg cg i100ns i100nsg; do
	same_report "fx-$itrace" "$fx/perf.data" --itrace=$itrace
	echo "pt-start --itrace=$itrace: $(grep -c '^ ' "$tmp/fx-$itrace.ours") rows, as stock perf"
done
same_report fx-default "$fx/perf.data"
grep -q "of event 'psb'" "$tmp/fx-default.ours" || fail "pt-start, no --itrace: no psb block"
"$TEXTPOKE" test --write-fixture pt-start:20000 "$tmp/fx20k" >"$tmp/fx.out" 2>&1 ||
	fail "--write-fixture pt-start:20000: $(head -3 "$tmp/fx.out")"
same_report fx20k-default "$tmp/fx20k/perf.data"
grep -q "of event 'instructions'" "$tmp/fx20k-default.ours" ||
	fail "pt-start:20000, no --itrace: no instructions block"
same_report fx20k-i100nsg "$tmp/fx20k/perf.data" --itrace=i100nsg
same_report fx-b-sort "$fx/perf.data" --itrace=b --sort dso,sym -n
# perf raises --max-stack to g's chain size: a smaller one cuts nothing
same_report fx-g-stack "$fx/perf.data" --itrace=i1ig --max-stack 1 -G
same_report fx-g2 "$fx/perf.data" --itrace=i1ig2 --no-children
grep -q "^# Samples: 1K of event 'branches'" "$tmp/fx-b.ours" ||
	fail "pt-start --itrace=b: no block of 1K branches"
grep -q -- '--ftrace_trampoline$' "$tmp/fx-i1ig.ours" ||
	fail "pt-start --itrace=i1ig: no tree has the trampoline under its caller"

# the instructions of each BPF program's runs, from the fixture's model
read -r want_a want_b < <(awk '
	function end() { if (n) { if (a) na += n; else nb += n }; n = 0 }
	$3 ~ /^0xffffffffc00020/ {
		if ($3 == "0xffffffffc0002000") end()
		n++
		if ($3 == "0xffffffffc0002009") a = $5 == "31c0"
		next
	}
	{ end() }
	END { end(); print na + 0, nb + 0 }' "$fx/truth.txt")
[ "$want_a" -gt 0 ] && [ "$want_b" -gt 0 ] ||
	fail "truth.txt: A ran $want_a instructions, B $want_b: the fixture has no BPF swap"
"$TEXTPOKE" report --no-changes -i "$fx/perf.data" --itrace=i1i --sort sym -n \
	>"$tmp/bpf" 2>"$tmp/bpf.err" || fail "--itrace=i1i --sort sym -n: $(head -3 "$tmp/bpf.err")"
got_a=$(awk '$NF == "bpf_prog_a3a3a3a3a3a3a3a3_fp_a" { print $2 }' "$tmp/bpf")
got_b=$(awk '$NF == "bpf_prog_b4b4b4b4b4b4b4b4_fp_b" { print $2 }' "$tmp/bpf")
[ "$got_a/$got_b" = "$want_a/$want_b" ] ||
	fail "--itrace=i1i: BPF A $got_a, B $got_b instructions; the fixture ran $want_a, $want_b"
echo "pt-start --itrace=i1i: BPF A $got_a and B $got_b instructions at one address, as the fixture ran them"

c=$TEXTPOKE_CORPUS/perf_data_converter/perf.data.intel_pt-4.14
if [ -r "$c" ]; then
	for itrace in b i1000i i1000ig i100ns; do
		same_report "corpus-$itrace" "$c" --itrace=$itrace --sort comm,dso
	done
	same_report corpus-default "$c" --sort comm,dso
	grep -q "of event 'cycles'" "$tmp/corpus-b.ours" || fail "$c: the cycles block is gone"
else
	skipped="corpus part: no corpus file $c"
fi
[ -z "$skipped" ] || skip "$skipped"
exit 0
