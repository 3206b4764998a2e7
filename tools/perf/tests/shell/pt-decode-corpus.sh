#!/bin/bash
# pt-decode: the corpus Intel PT recordings decode as stock perf decodes them
# SPDX-License-Identifier: GPL-2.0-only
#
# perf_data_converter's perf.data.intel_pt-4.14 (file) and
# perf.data.piped.intel_pt-4.14 (pipe, fed through a real pipe to both: stock
# perf misreads a pipe-format file given as a regular file) with --itrace=b
# and --itrace=i1i, against stock perf 6.1:
#  - every line that is not a synthesized branch (the recorded cycles
#    samples) is equal, in place: the trace's samples are merged in time;
#  - our branch lines are stock perf's, in order, with the same time,
#    thread, flags, addresses and objects, and the first one is perf's
#    first.  The code of these recordings is not on this machine, so
#    after a decode error libipt resyncs at the next PSB, while perf's own
#    decoder starts again at each IP packet: the lines we lack are the
#    ones perf makes from packets alone, without decoding an instruction:
#    "tr strt" from 0, "hw int" (FUP + TIP) and "tr end async" (FUP +
#    TIP.PGD); any other missing line fails;
#  - --itrace=i1i: the same number of instruction samples (none: no code);
#  - --itrace=e: our first error is perf's first (time to the ns, cpu, pid,
#    tid, ip, code), and every error names its trace offset and AUXTRACE.
# In the pipe, perf resolves kernel symbols from this machine's kallsyms
# (we print [unknown]) and pads event names wider: symbols and runs of
# spaces are normalized there.
#
# Mutation caught: giving a branch after a resync at a PSB's FUP
# (intel-pt-decode.c: q->trace_begin = true after the error) adds lines
# perf does not have.  Also: the SWITCH_CPU_WIDE switch-in instead of the
# switch-out's next task gives ":1760" where perf has "echo 3174".

. "$(dirname "$0")"/lib/common.sh

[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
c=$TEXTPOKE_CORPUS/perf_data_converter
[ -r "$c/perf.data.intel_pt-4.14" ] || skip "no corpus file $c/perf.data.intel_pt-4.14"
[ -r "$c/perf.data.piped.intel_pt-4.14" ] || skip "no corpus file $c/perf.data.piped.intel_pt-4.14"
"$TEXTPOKE" version --build-options | grep -q 'libipt: \[ on' ||
	skip "built without libipt"
scratch pt-decode-corpus

# run "perf" or "ours" on file or pipe: stdout to $tmp/$1.$2.$3
run() {
	local who=$1 mode=$2 itrace=$3 cmd=perf
	[ "$who" = ours ] && cmd=$TEXTPOKE
	if [ "$mode" = file ]; then
		HOME=$tmp $cmd script -i "$c/perf.data.intel_pt-4.14" --itrace=$itrace -F +flags \
			>"$tmp/$who.$mode.$itrace.raw" 2>"$tmp/$who.$mode.$itrace.err"
	else
		cat "$c/perf.data.piped.intel_pt-4.14" |
			HOME=$tmp $cmd script -i - --itrace=$itrace -F +flags \
				>"$tmp/$who.$mode.$itrace.raw" 2>"$tmp/$who.$mode.$itrace.err"
	fi || fail "$who $mode --itrace=$itrace: exit $?: $(head -3 "$tmp/$who.$mode.$itrace.err")"
	if [ "$mode" = pipe ]; then
		sed -E 's/ [^ ]+\+0x[0-9a-f]+ \(/ [unknown] (/g; s/ +/ /g' \
			"$tmp/$who.$mode.$itrace.raw" >"$tmp/$who.$mode.$itrace"
	else
		cp "$tmp/$who.$mode.$itrace.raw" "$tmp/$who.$mode.$itrace"
	fi
}

for mode in file pipe; do
	for itrace in b i1i e; do
		run perf $mode $itrace
		run ours $mode $itrace
	done
	p=$tmp/perf.$mode.b o=$tmp/ours.$mode.b
	grep -v ' branches: ' "$p" >"$tmp/p.rest"
	grep -v ' branches: ' "$o" >"$tmp/o.rest"
	[ -s "$tmp/p.rest" ] || fail "$mode: stock perf printed no recorded samples"
	diff "$tmp/p.rest" "$tmp/o.rest" >"$tmp/d" ||
		fail "$mode: the recorded samples differ from stock perf's: $(head -5 "$tmp/d")"
	# ours must be an in-order subsequence of perf's branch lines
	result=$(awk -v ours="$o" '
		/ branches: / { p[n++] = $0 }
		END {
			j = 0; got = 0; first = ""
			while ((getline l < ours) > 0) {
				if (l !~ / branches: /)
					continue
				if (!got++)
					first = l
				while (j < n && p[j] != l) {
					if (p[j] !~ / (tr strt|hw int|tr end  async) /) {
						print "perf line missing from ours: " p[j]; exit
					}
					j++
				}
				if (j == n) { print "not among perf lines: " l; exit }
				j++
			}
			for (; j < n; j++)
				if (p[j] !~ / (tr strt|hw int|tr end  async) /) {
					print "perf line missing from ours: " p[j]; exit
				}
			if (first != p[0]) { print "first branch differs: " first; exit }
			print "ok " got " " n
		}' "$p")
	case "$result" in
	"ok 0 "*) fail "$mode: we printed no branch at all" ;;
	ok*) echo "$mode: ${result#ok } (ours, perf's) branch lines: ours are perf's, in order" ;;
	*) fail "$mode: $result" ;;
	esac
	pi=$(grep -c ' instructions: ' "$tmp/perf.$mode.i1i")
	oi=$(grep -c ' instructions: ' "$tmp/ours.$mode.i1i")
	[ "$pi" = "$oi" ] || fail "$mode: --itrace=i1i: $oi instruction samples, stock perf $pi"
	diff "$tmp/perf.$mode.i1i" "$tmp/ours.$mode.i1i" >"$tmp/d" ||
		fail "$mode: --itrace=i1i differs from stock perf: $(head -5 "$tmp/d")"
	pe=$(grep -m1 'instruction trace error' "$tmp/perf.$mode.e" | sed 's/: Failed.*//')
	oe=$(grep -m1 'instruction trace error' "$tmp/ours.$mode.e" | sed 's/: code bytes.*//')
	[ -n "$pe" ] || fail "$mode: stock perf reported no decode error"
	[ "$pe" = "$oe" ] || fail "$mode: first error '$oe', stock perf's '$pe'"
	if grep 'instruction trace error' "$tmp/ours.$mode.e" |
		grep -v -q 'of the AUXTRACE at 0x'; then
		fail "$mode: an error without its trace position: $(grep -m1 error "$tmp/ours.$mode.e")"
	fi
done
exit 0
