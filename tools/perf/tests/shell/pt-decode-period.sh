#!/bin/bash
# pt-decode: --itrace=i<time> samples the instructions stock perf samples (its TSC-tick estimate)
# SPDX-License-Identifier: GPL-2.0-only
#
# perf 6.1 counts a period of time in TSC ticks rounded down to a power of
# two (100 ns is 64 ticks on the fixture, whose TSC is the time in ns) on
# an estimate of the TSC: the last TSC packet its decoder read plus one
# per instruction since, the packets of a branch being read once the
# branch before it has taken its own, and a PSB+'s TSC restarting the
# count even when its value is the same.  Against stock perf 6.1 script
# (oracle), whole outputs line for line, on ptgen's pt-start fixture
# (written at test time) of 4000 instructions and of 20000 (more PSB+s,
# several AUXTRACE buffers): --itrace=i100ns, i1us, bi100ns (the samples
# among the branches), i100nsp (with the psb and cbr events), ci64nse, and
# i1ns, i2ns, where the estimate often falls back behind the last sample
# (a walk, up to a branch, then counts a whole period).  Known and left:
# with i4ns and i16ns stock perf does not sample the trace's last
# instruction (the jmp whose TIP.PGD ends it) where we do.
#
# Mutation caught: the instructions of a block counted on libipt's time
# of each (ipt_ticks__insn() deciding every instruction at once, no block
# held until its TSC is known): the 4000-instruction i100ns differs from
# its first sample on (applied: FAIL; reverted).  Also applied
# and reverted: a PSB+'s TSC of the same value not restarting the count
# (tk_psbs not counted): 3 of the 20000-instruction fixture's i100ns
# samples move (FAIL); an estimate behind the last sample waiting to pass
# it (ipt_ticks__budget() without its whole-period rule): i100ns on the
# 4000-instruction fixture differs already (FAIL).

. "$(dirname "$0")"/lib/common.sh

[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
"$TEXTPOKE" version --build-options | grep -q 'libipt: \[ on' || skip "built without libipt"
scratch pt-decode-period

for n in 4000 20000; do
	"$TEXTPOKE" test --write-fixture "pt-start:$n" "$tmp/fx$n" >"$tmp/fx.out" 2>&1 ||
		fail "--write-fixture pt-start:$n: $(head -3 "$tmp/fx.out")"
	for itrace in i100ns i1us bi100ns i100nsp ci64nse i1ns i2ns; do
		HOME=$tmp perf script -i "$tmp/fx$n/perf.data" --itrace=$itrace >"$tmp/perf" \
			2>"$tmp/perf.err" || fail "stock perf --itrace=$itrace: $(head -3 "$tmp/perf.err")"
		HOME=$tmp "$TEXTPOKE" script -i "$tmp/fx$n/perf.data" --itrace=$itrace >"$tmp/ours" \
			2>"$tmp/ours.err" || fail "--itrace=$itrace: $(head -3 "$tmp/ours.err")"
		grep -q ' instructions: ' "$tmp/perf" || fail "pt-start:$n --itrace=$itrace: stock perf sampled no instruction"
		diff "$tmp/perf" "$tmp/ours" >"$tmp/d" ||
			fail "pt-start:$n --itrace=$itrace differs from stock perf: $(head -8 "$tmp/d")"
		echo "pt-start:$n --itrace=$itrace: $(grep -c ' instructions: ' "$tmp/ours") instruction samples, as stock perf"
	done
done
exit 0
