#!/bin/bash
# pt-decode: a trace without its HEADER_AUXTRACE index is found in the records, as stock perf finds it
# SPDX-License-Identifier: GPL-2.0-only
#
# perf record lists a file's AUXTRACE records in HEADER_AUXTRACE, but a
# writer that keeps no index, or a recording cut before its header was
# written, has them only in the data; stock perf then finds them by a walk
# of the records (auxtrace_queue_data()) and decodes the same trace.  We
# decoded nothing ("N bytes of hardware trace (AUXTRACE) not decoded").
# ptgen's pt-start fixture written both ways (--write-fixture pt-start and
# pt-start,noindex: the same trace, the index bit set in the one file
# header and not in the other, read here with od):
#  - stock perf's --itrace=be and default listings of the two are equal,
#    and ours of the file without the index are stock perf's, line for
#    line (oracle: stock perf 6.1);
#  - the same file cut as a killed perf record leaves it (data size 0, no
#    feature sections after the data), which stock perf does not read: we
#    read it to its end (with the data size warning) and decode it, every
#    branch one of branches.txt's (the fixture's truth), at least 9 in 10
#    of them (the BPF programs' code, whose JIT bytes are a feature
#    section, is unknown there).
#
# Mutation caught: no walk of the records when the index is missing
# (itrace.c, itrace__read_trace returning 0 there): the trace is then read
# as the records come, a buffer at a time, and restarts at each buffer
# ("tr strt" where stock perf has the jcc and call across the join), FAIL.
# And as it was before (script.c: no decoder for a file without the
# index): no branch at all and "not decoded", FAIL.  Both applied and
# reverted.

. "$(dirname "$0")"/lib/common.sh

[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
"$TEXTPOKE" version --build-options | grep -q 'libipt: \[ on' || skip "built without libipt"
scratch pt-decode-noindex

# the feature bitmap's first word, and whether HEADER_AUXTRACE (bit 18) is set
aux_bit() {
	local w
	w=$(od -A n -t u8 -j 72 -N 8 "$1") || fail "od $1"
	echo $(((w >> 18) & 1))
}

for k in idx noidx; do
	mkdir "$tmp/$k"
	name=pt-start
	[ $k = noidx ] && name=pt-start,noindex
	"$TEXTPOKE" test --write-fixture $name "$tmp/$k" >"$tmp/$k.out" 2>&1 ||
		fail "--write-fixture $name: $(head -3 "$tmp/$k.out")"
done
[ "$(aux_bit "$tmp/idx/perf.data/data")" = 1 ] || fail "pt-start has no HEADER_AUXTRACE"
[ "$(aux_bit "$tmp/noidx/perf.data/data")" = 0 ] || fail "pt-start,noindex has HEADER_AUXTRACE"

for itrace in be ""; do
	for k in idx noidx; do
		HOME=$tmp perf script -i "$tmp/$k/perf.data" ${itrace:+--itrace=$itrace} \
			>"$tmp/perf.$k" 2>"$tmp/perf.$k.err" ||
			fail "stock perf, $k: $(head -3 "$tmp/perf.$k.err")"
	done
	"$TEXTPOKE" script -i "$tmp/noidx/perf.data" ${itrace:+--itrace=$itrace} \
		>"$tmp/ours.noidx" 2>"$tmp/ours.noidx.err" ||
		fail "ours, noindex: $(head -3 "$tmp/ours.noidx.err")"
	[ -s "$tmp/perf.noidx" ] || fail "--itrace=${itrace:-default}: stock perf printed nothing"
	cmp -s "$tmp/perf.idx" "$tmp/perf.noidx" ||
		fail "--itrace=${itrace:-default}: stock perf decodes the two files differently"
	diff "$tmp/perf.noidx" "$tmp/ours.noidx" >"$tmp/d" ||
		fail "--itrace=${itrace:-default}, no index: ours differs from stock perf: $(head -6 "$tmp/d")"
	! grep -q 'not decoded' "$tmp/ours.noidx.err" ||
		fail "no index: $(grep 'not decoded' "$tmp/ours.noidx.err")"
	echo "no index, --itrace=${itrace:-default}: $(wc -l <"$tmp/ours.noidx") lines, as stock perf's"
done

# as a killed perf record leaves it: data size 0, the file ends with the data
d=$tmp/cut/perf.data
mkdir -p "$d"
cp -r "$tmp/noidx/perf.data/kcore_dir" "$d/"
read -r off size < <(od -A n -t u8 -j 40 -N 16 "$tmp/noidx/perf.data/data")
head -c $((off + size)) "$tmp/noidx/perf.data/data" >"$d/data"
printf '\0\0\0\0\0\0\0\0' | dd of="$d/data" bs=1 seek=48 conv=notrunc 2>/dev/null
"$TEXTPOKE" script -i "$d" --itrace=b --ns >"$tmp/ours.cut" 2>"$tmp/ours.cut.err" ||
	fail "ours, cut: exit $?: $(head -3 "$tmp/ours.cut.err")"
grep -q 'data size is 0' "$tmp/ours.cut.err" || fail "cut: no data size warning: $(head -3 "$tmp/ours.cut.err")"
! grep -q 'not decoded' "$tmp/ours.cut.err" || fail "cut: $(grep 'not decoded' "$tmp/ours.cut.err")"
# our branches as branches.txt lines, "cpu time 0xfrom 0xto", restarts from 0 left out
awk '/ branches: / {
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^\[[0-9]+\]$/) { c = $i; gsub(/[\[\]]/, "", c); t = $(i + 1) }
		if ($i == "branches:") from = $(i + 1)
		if ($i == "=>") to = $(i + 1)
	}
	sub(/:$/, "", t); split(t, a, ".")
	printf "%d %d 0x%s 0x%s\n", c, a[1] * 1000000000 + a[2], from, to
}' "$tmp/ours.cut" | sed 's/0x0*\([0-9a-f]\)/0x\1/g' | grep -v ' 0x0 ' | sort >"$tmp/ours.set"
sed 's/0x0*\([0-9a-f]\)/0x\1/g' "$tmp/noidx/branches.txt" | sort >"$tmp/truth.set"
nt=$(wc -l <"$tmp/truth.set")
no=$(wc -l <"$tmp/ours.set")
extra=$(comm -23 "$tmp/ours.set" "$tmp/truth.set" | wc -l)
echo "cut: $no branches of the truth's $nt decoded, $extra not in it"
[ "$extra" = 0 ] || fail "cut: branches not in branches.txt: $(comm -23 "$tmp/ours.set" "$tmp/truth.set" | head -3)"
[ $((no * 10)) -ge $((nt * 9)) ] || fail "cut: $no branches decoded, branches.txt has $nt"
exit 0
