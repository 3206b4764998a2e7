#!/bin/bash
# annotate: user code against perf annotate --stdio, figure by address
# SPDX-License-Identifier: GPL-2.0-only
#
# A workload built now with -O2 -g (lib/annotate-workload.c), recorded by
# stock perf record -e cpu-clock, with and without -g, and with two
# events.  For each set of options, stock perf annotate --stdio (HOME a
# scratch directory, so no build-id cache answers) and ours must print
# the same blocks (object, first address, event), the same header
# figures (samples, event, percent type, Percent or Samples), the same
# figure at every instruction address, and the blocks in perf's order,
# event by event (lib/annotate-check.py; the instruction text differs:
# objdump's against capstone's).  Covered: every symbol (alpha, beta and
# the loader's few), -s alpha, beta as a positional argument, -n, each
# --percent-type, -d (whose global percentages are of -d's samples
# only), two events, --asm-raw (perf's continuation lines of a long
# instruction's bytes left out, they are no instruction).
#
# Where perf 6.1 is wrong: --percent-type global-hits prints 0.00 at every
# address (its annotate never counts the event's samples); ours is checked
# against the count of the samples at each symbol offset from stock perf
# script -F ip,sym,symoff,dso instead.
#
# A symbol with no samples: perf prints nothing and exits 0; so must we,
# and say why on stderr.  A truncated file: an error naming the file and
# the record cut (its offset from bi_records, awk over od), exit status
# not 0, nothing on stdout.
#
# Mutation caught: the global period percentages taken of all samples
# rather than of those -d keeps (annotate__sample() counting the totals
# before the filters): "-d annotate-workload --percent-type global-period" differs.
# Mutation caught: the link-time address printed a page past the file
# offset's (annotate_code__vaddr() adding 0x1000): perf's blocks are not
# found in ours.  Mutation caught: global hits of the symbol's samples,
# not the event's (annotate_sym__fprintf() dividing by as->nr_samples):
# the perf script counts differ.

. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/bad-input.sh"
need_perf_root
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
scratch annotate
export HOME=$tmp
lib=$(dirname "$0")/lib
check="$lib/annotate-check.py"

gcc -O2 -g -o "$tmp/annotate-workload" "$lib/annotate-workload.c" 2>"$tmp/gcc.err" ||
	fail "gcc cannot build lib/annotate-workload.c: $(head -3 "$tmp/gcc.err")"
perf record -q -e cpu-clock -o "$tmp/plain.data" "$tmp/annotate-workload" 60000000 \
	>"$tmp/record.out" 2>&1 || fail "perf record: $(head -3 "$tmp/record.out")"
perf record -q -e cpu-clock,task-clock -o "$tmp/two.data" "$tmp/annotate-workload" 30000000 \
	>"$tmp/record.out" 2>&1 || fail "perf record, two events: $(head -3 "$tmp/record.out")"
perf record -q -g -e cpu-clock -o "$tmp/chain.data" "$tmp/annotate-workload" 30000000 \
	>"$tmp/record.out" 2>&1 || fail "perf record -g: $(head -3 "$tmp/record.out")"

# same NAME DATA ARGS...: stock perf annotate --stdio and ours agree
same() {
	local name=$1 data=$2 st
	shift 2
	perf annotate --stdio -i "$data" "$@" >"$tmp/$name.perf" 2>"$tmp/$name.perf-err"
	st=$?
	[ $st = 0 ] || fail "$name: stock perf annotate $* exits $st: $(head -3 "$tmp/$name.perf-err")"
	"$TEXTPOKE" annotate -i "$data" "$@" >"$tmp/$name.ours" 2>"$tmp/$name.err" ||
		fail "$name: perf textpoke annotate $*: $(head -3 "$tmp/$name.err")"
	python3 "$check" "$tmp/$name.perf" "$tmp/$name.ours" >"$tmp/$name.check" ||
		fail "$name: annotate $* differs from perf's: $(head -5 "$tmp/$name.check")"
	echo "$name: $(cat "$tmp/$name.check")"
}

# each of the workload's symbols has samples on several addresses: not a vacuous comparison
for sym in alpha beta; do
	perf annotate --stdio -i "$tmp/plain.data" -s "$sym" 2>/dev/null |
		awk '$1 ~ /^[0-9.]+$/ && $1 + 0 > 0 { n++ } END { exit n < 2 }' ||
		fail "stock perf annotate shows fewer than 2 addresses with samples in $sym"
done

same all "$tmp/plain.data"
same all-chain "$tmp/chain.data"
same two-events "$tmp/two.data" -d annotate-workload
same sym-alpha "$tmp/plain.data" -s alpha
same sym-beta "$tmp/plain.data" beta
same nr "$tmp/plain.data" -n
for type in local-period global-period local-hits; do
	same "type-$type" "$tmp/plain.data" --percent-type "$type"
done
same dso "$tmp/plain.data" -d annotate-workload
same dso-global "$tmp/plain.data" -d annotate-workload --percent-type global-period
same asm-raw "$tmp/plain.data" --asm-raw -d annotate-workload

# global-hits: perf 6.1 prints 0.00 everywhere; the samples at each offset from perf script
perf annotate --stdio -i "$tmp/plain.data" --percent-type global-hits -s alpha 2>/dev/null |
	awk '$1 ~ /^[0-9.]+$/ && $1 + 0 > 0 { n++ } END { exit n > 0 }' ||
	echo "note: stock perf's global hits are no longer all 0.00"
perf script -i "$tmp/plain.data" -F ip,sym,symoff,dso >"$tmp/script.txt" 2>/dev/null ||
	fail "stock perf script -F ip,sym,symoff,dso"
"$TEXTPOKE" annotate -i "$tmp/plain.data" --percent-type global-hits >"$tmp/hits.ours" \
	2>"$tmp/hits.err" || fail "annotate --percent-type global-hits: $(head -3 "$tmp/hits.err")"
python3 "$check" hits "$tmp/hits.ours" "$tmp/script.txt" annotate-workload >"$tmp/hits.check" ||
	fail "global-hits: $(head -5 "$tmp/hits.check")"
echo "global-hits: $(cat "$tmp/hits.check")"

# a symbol with no samples: nothing printed, exit 0, as perf
perf annotate --stdio -i "$tmp/plain.data" -s never >"$tmp/never.perf" 2>/dev/null
st=$?
[ $st = 0 ] && [ ! -s "$tmp/never.perf" ] ||
	fail "never: stock perf annotate -s never exits $st with $(wc -l <"$tmp/never.perf") lines"
"$TEXTPOKE" annotate -i "$tmp/plain.data" -s never >"$tmp/never.ours" 2>"$tmp/never.err"
st=$?
[ $st = 0 ] || fail "never: we exit $st: $(head -3 "$tmp/never.err")"
[ -s "$tmp/never.ours" ] && fail "never: we print $(head -3 "$tmp/never.ours")"
grep -q "no samples" "$tmp/never.err" || fail "never: stderr does not say why: $(cat "$tmp/never.err")"
echo "never: no output, exit 0, as perf"

# a truncated file: the record cut is named, nothing printed, exit status not 0
data_off=$(bi_get "$tmp/plain.data" 40 8)
read -r off size type < <(bi_records "$tmp/plain.data" | awk -v n=0 '$3 == 9 { if (++n == 200) { print; exit } }')
[ -n "$off" ] || fail "truncated: fewer than 200 SAMPLE records in plain.data"
head -c $((off + 12)) "$tmp/plain.data" >"$tmp/cut.data"
want="$tmp/cut.data: $(bi_record_at "$off" "$type" "$size")"
"$TEXTPOKE" annotate -i "$tmp/cut.data" >"$tmp/cut.ours" 2>"$tmp/cut.err"
st=$?
[ $st != 0 ] && [ $st -lt 128 ] || fail "truncated: exit status $st"
[ -s "$tmp/cut.ours" ] && fail "truncated: partial output: $(head -3 "$tmp/cut.ours")"
grep -qF "$want" "$tmp/cut.err" ||
	fail "truncated: stderr lacks '$want': $(head -3 "$tmp/cut.err")"
echo "truncated: '$want', exit $st, no output (data at $data_off)"
exit 0
