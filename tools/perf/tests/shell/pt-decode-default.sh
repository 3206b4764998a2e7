#!/bin/bash
# pt-decode: perf's default --itrace (calls, errors, psb and cbr events) and the c, r, p filters as stock perf
# SPDX-License-Identifier: GPL-2.0-only
#
# Without --itrace perf 6.1 script decodes an Intel PT trace with
# itrace_synth_opts__set_default(no_sample): branches filtered to calls
# (PERF_IP_FLAG_CALL, and ASYNC and TRACE_END with them), errors, power
# events (a "psb" event at each PSB, "cbr" when the core:bus ratio
# changes), ptwrites and transactions; their events ("branches",
# "transactions", "ptwrite", "cbr", "psb") widen the event column whether
# or not a sample of them comes.  Against stock perf 6.1 (oracle):
#  - perf_data_converter's perf.data.intel_pt-4.14 and, through a real
#    pipe, perf.data.piped.intel_pt-4.14 (symbols and runs of spaces
#    normalized there: perf resolves the kernel against this machine's):
#    without --itrace and with --itrace=p, cr, bc, every line but the
#    decode errors (their text is ours; pt-decode-corpus.sh) is perf's.
#    The file's default listing has perf's 10 psb, 2 cbr and 5 branch
#    lines, one of them a trace end (to 0, "tr end  async"), which the
#    calls filter keeps;
#  - ptgen's pt-start fixture (PSB+s with FUPs, CBRs, and PSBs at the head
#    of buffers whose offsets perf counts across the queue's buffers):
#    without --itrace and with --itrace=bpe and i1ipe, the whole output is
#    perf's, line for line.
#
# Mutation caught: the calls filter as PERF_IP_FLAG_CALL alone (itrace.c,
# itrace__wants_branch, as it was) prints 4 of the corpus file's 5
# branches (applied: FAIL; reverted); without TRACE_END only, pt-start's
# trace ends go (FAIL).  Also applied and reverted: a PSB reached while
# looking for an ip keeping its FUP as ip (ipt_queue__psb_flush) changes
# the file's psb lines (FAIL); an unreached PSB flushed before an item of
# its own time puts pt-start's psb lines before the branches that precede
# them (FAIL).

. "$(dirname "$0")"/lib/common.sh

[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
c=$TEXTPOKE_CORPUS/perf_data_converter
[ -r "$c/perf.data.intel_pt-4.14" ] || skip "no corpus file $c/perf.data.intel_pt-4.14"
[ -r "$c/perf.data.piped.intel_pt-4.14" ] || skip "no corpus file $c/perf.data.piped.intel_pt-4.14"
"$TEXTPOKE" version --build-options | grep -q 'libipt: \[ on' || skip "built without libipt"
scratch pt-decode-default

# run WHO MODE ITRACE: stdout to $tmp/WHO, errors left out where MODE asks
run() {
	local cmd=perf
	[ "$1" = ours ] && cmd=$TEXTPOKE
	case $2 in
	file)
		HOME=$tmp $cmd script -i "$c/perf.data.intel_pt-4.14" ${3:+--itrace=$3} \
			>"$tmp/$1.raw" 2>"$tmp/$1.err"
		;;
	pipe)
		cat "$c/perf.data.piped.intel_pt-4.14" |
			HOME=$tmp $cmd script -i - ${3:+--itrace=$3} >"$tmp/$1.raw" 2>"$tmp/$1.err"
		;;
	*)
		HOME=$tmp $cmd script -i "$2" ${3:+--itrace=$3} >"$tmp/$1.raw" 2>"$tmp/$1.err"
		;;
	esac || fail "$1 $2 --itrace=${3:-default}: exit $?: $(head -3 "$tmp/$1.err")"
	case $2 in
	file) grep -v '^ instruction trace error ' "$tmp/$1.raw" >"$tmp/$1" ;;
	pipe)
		grep -v '^ instruction trace error ' "$tmp/$1.raw" |
			sed -E 's/ [^ ]+\+0x[0-9a-f]+ \(/ [unknown] (/g; s/ +/ /g' >"$tmp/$1"
		;;
	*) cp "$tmp/$1.raw" "$tmp/$1" ;;
	esac
}

check() {
	run perf "$1" "$2"
	run ours "$1" "$2"
	[ -s "$tmp/perf" ] || fail "$1 --itrace=${2:-default}: stock perf printed nothing"
	diff "$tmp/perf" "$tmp/ours" >"$tmp/d" ||
		fail "$1 --itrace=${2:-default} differs from stock perf: $(head -6 "$tmp/d")"
}

check file ""
np=$(grep -c ' psb: ' "$tmp/ours")
nc=$(grep -c ' cbr: ' "$tmp/ours")
nb=$(grep -c ' branches: ' "$tmp/ours")
echo "file, default --itrace: $np psb, $nc cbr, $nb branch lines, as stock perf"
[ "$np/$nc/$nb" = 10/2/5 ] || fail "file: $np psb, $nc cbr, $nb branches; stock perf 6.1 has 10, 2, 5"
grep ' branches: ' "$tmp/ours" | grep -q '=>  *0 \[unknown\]' ||
	fail "file: no branch is a trace end (to 0)"
for itrace in p cr bc; do
	check file $itrace
done
for itrace in "" p; do
	check pipe "$itrace"
done

mkdir "$tmp/fx"
"$TEXTPOKE" test --write-fixture pt-start "$tmp/fx" >"$tmp/fx.out" 2>&1 ||
	fail "--write-fixture pt-start: $(head -3 "$tmp/fx.out")"
for itrace in "" bpe i1ipe; do
	check "$tmp/fx/perf.data" "$itrace"
done
echo "pt-start: $(grep -c ' psb: ' "$tmp/ours") psb lines, $(wc -l <"$tmp/ours") lines in all, as stock perf"
exit 0
