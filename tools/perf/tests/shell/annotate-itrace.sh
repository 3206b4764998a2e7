#!/bin/bash
# annotate --itrace: each instruction's executions in an Intel PT trace, as the generator ran them
# SPDX-License-Identifier: GPL-2.0-only
#
# ptgen's pt-start fixture (libipt's encoder, written at test time, 20158
# instructions on 2 CPUs): a loop of calls run ~500 times, jump labels and
# an ftrace site flipped mid-trace, BPF program A replaced by B at one
# address.  The oracle is the generator's own record of what ran
# (truth.txt: each instruction with its bytes; branches.txt: each taken
# branch), read by lib/annotate-itrace-check.py, which shares nothing with
# the decoder or annotate:
#  - --itrace=i1ib -n --asm-raw: every (address, bytes) the fixture ran is
#    one line of an instructions block with its number of executions, and
#    nothing else is; the headers say "N instructions executed" and add up
#    to the fixture's count; an address that ran two codes (a poked site)
#    has a line per code, each saying so; each branch block's line and
#    each "# taken N" is the number of times that code was taken (0 on a
#    jump never taken);
#  - --itrace=i1i without -n: each line's percentage is its share of the
#    block's executions;
#  - the --json of the first run, read with Python's json module: the same
#    executions, taken counts and "code k of n" per (address, bytes) as the
#    fixture ran them, each block's count its lines' sum, each percent its
#    line's share; its --html: each trace block's rows the JSON's lines
#    (address, samples, data-taken, data-code, data-codes);
#  - stock perf 6.1 annotate --stdio -n on the same file (it decodes this
#    fixture, and annotates the kcore copy; it refuses the BPF programs
#    and the trampoline): --itrace=i1i, --itrace=i1000i and no --itrace
#    (perf's default, instructions every 100 us): the same figure in each
#    instructions block's header and at every address it prints, ours
#    summed over the codes run there.  Not compared: the default's psb
#    block (kernel code of recorded-like samples, not annotated yet).
#
# Mutation caught: the codes at an address counted as one (ai__same()
# and ai__hash() ignoring the bytes): 0xffffffff8100020a shows nopl with
# 102, the fixture ran nopl 46 times and jmp 56 (applied: FAIL; reverted).
# Also applied and reverted: the taken count looked up at the next address
# (ai__taken() from ins->off + 1): the calls of fp_loop say no "taken" (FAIL).
# And for --json: the taken count left out of annotate_json__trace_insn()
# (always null): "taken null, the fixture took it N times" (FAIL).  And for
# --html: data-code written as the number of codes (ti->nr_codes for
# ti->code in annotate_html__trace_insn()): the rows differ (FAIL).

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
"$TEXTPOKE" version --build-options 2>/dev/null | grep -q 'libipt: \[ on' ||
	skip "built without libipt"
"$TEXTPOKE" version --build-options 2>/dev/null | grep -q 'capstone: \[ on' ||
	skip "built without capstone"
scratch annotate-itrace
export HOME=$tmp
check="$(dirname "$0")/lib/annotate-itrace-check.py"
fx=$tmp/fx

"$TEXTPOKE" test --write-fixture pt-start:20000 "$fx" >"$tmp/fx.out" 2>&1 ||
	fail "--write-fixture pt-start:20000: $(head -3 "$tmp/fx.out")"

# ours NAME ARGS...: perf textpoke annotate on the fixture, nothing on stderr
ours() {
	local name=$1
	shift
	"$TEXTPOKE" annotate --stdio -i "$fx/perf.data" "$@" >"$tmp/$name" 2>"$tmp/$name.err" ||
		fail "annotate $*: $(head -3 "$tmp/$name.err")"
	[ ! -s "$tmp/$name.err" ] || fail "annotate $*: $(head -3 "$tmp/$name.err")"
}
ours n-raw --itrace=i1ib -n --asm-raw --json="$tmp/n-raw.json" --html="$tmp/n-raw.html"
ours pct --itrace=i1i
python3 "$check" truth "$fx/truth.txt" "$fx/branches.txt" "$tmp/n-raw" "$tmp/pct" || exit 1
python3 "$check" json "$fx/truth.txt" "$fx/branches.txt" "$tmp/n-raw.json" "$tmp/n-raw.html" ||
	exit 1

command -v perf >/dev/null 2>&1 || skip "stock perf is not installed: its part not run"
for itrace in i1i i1000i default; do
	opt=--itrace=$itrace
	[ $itrace != default ] || opt=
	"$TEXTPOKE" annotate --stdio -i "$fx/perf.data" -n $opt >"$tmp/n-$itrace" \
		2>"$tmp/n-$itrace.err" || fail "annotate -n $opt: $(head -3 "$tmp/n-$itrace.err")"
	perf annotate --stdio -n -i "$fx/perf.data" $opt >"$tmp/perf-$itrace" \
		2>"$tmp/perf-$itrace.err" || fail "perf annotate -n $opt: $(head -3 "$tmp/perf-$itrace.err")"
	echo "${opt:-no --itrace} against stock perf:"
	python3 "$check" stock "$tmp/n-$itrace" "$tmp/perf-$itrace" || exit 1
done
exit 0
