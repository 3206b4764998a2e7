#!/bin/bash
# report: -q, --show-total-period, -T and --percent-type equal stock perf report --stdio
# SPDX-License-Identifier: GPL-2.0-only
#
# Recordings made now by stock perf record (cpu-clock): a shell loop, a
# frame-pointer program under -g, and the loop under -s (inherit_stat): the
# loop's child shell exits and leaves a READ record with its count.
# Ours must equal stock perf report --stdio byte for byte with:
#  -q: the rows alone (no hint, lost-samples or block header lines), the
#   one-name filter's "# comm: sh" line kept, with -n, --children, -F;
#  --show-total-period: the Period column after Samples and before -F's
#   "+" fields, 12 wide, with -n, --children, -q; ignored by a strict -F;
#  -T: the "# PID  TID" table after the profile (and after perf's closing
#   tip, which is cut from its output here), with the child's row on the
#   -s recording and alone elsewhere, with -q too;
#  --percent-type: each of perf's four values changes nothing in perf's
#   --stdio report (it sets annotate's percentages), and a value perf
#   refuses we refuse with its exit status, 129.
#
# Mutation caught: report_hist__fprintf() printing the block's header
# lines whatever quiet says (-q gets "# Samples: ..." lines).  And:
# report_layout__parse() adding the Period column after -F's "+" fields
# (-F +sample --show-total-period puts Samples first).  And: the -T table
# printed only without -q (the -q -T output lacks "# PID  TID").

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-output-opts
export HOME=$tmp

loop='i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done'
perf_record "$tmp/flat.data" -e cpu-clock -F 2000 -- sh -c "$loop"
# -g: a program with frame pointers (see report-group.sh)
gcc -O1 -fno-omit-frame-pointer -g -o "$tmp/wfp" "$libdir/report-children-workload.c" \
	2>"$tmp/gcc.err" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/g.data" -g -e cpu-clock -F 2000 -- "$tmp/wfp" 10000000
perf_record "$tmp/stat.data" -s -e cpu-clock -F 2000 -- sh -c "$loop; sh -c true"

# 1. -q
same_report q "$tmp/flat.data" -q
same_report q-n "$tmp/flat.data" -q -n
same_report q-comm "$tmp/flat.data" -q --comm sh
same_report q-F "$tmp/flat.data" -q -F overhead,sym
same_report q-children "$tmp/g.data" -q -g none
same_report q-header "$tmp/flat.data" -q --header
[ "$(head -c 1 "$tmp/q.ours")" = " " ] || fail "-q: the output does not start with a row"

# 2. --show-total-period
same_report period "$tmp/flat.data" --show-total-period
same_report period-n "$tmp/flat.data" --show-total-period -n
same_report period-plus "$tmp/flat.data" --show-total-period -F +sample
same_report period-strict "$tmp/flat.data" --show-total-period -F overhead,sym
same_report period-sort "$tmp/flat.data" --show-total-period -n -s dso
same_report period-children "$tmp/g.data" --show-total-period -n -g none
same_report period-children-plus "$tmp/g.data" --show-total-period -F +sample -g none
same_report period-self "$tmp/g.data" --show-total-period --no-children
same_report period-q "$tmp/flat.data" --show-total-period -q

# 3. -T: perf's output without its tip (the three lines "#", "# (Tip: ...)", "#")
same_threads() {
	local name=$1 file=$2
	shift 2
	HOME=$tmp perf report --stdio -i "$file" "$@" >"$tmp/$name.raw" 2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf report failed: $(head -3 "$tmp/$name.perf.err")"
	awk '{ l[NR] = $0 } END {
		for (i = 1; i <= NR; i++) {
			if (l[i] == "#" && l[i + 1] ~ /^# \(Tip:/ && l[i + 2] == "#") { i += 2; continue }
			print l[i]
		} }' "$tmp/$name.raw" >"$tmp/$name.perf"
	ours_report -i "$file" "$@" >"$tmp/$name.ours" 2>"$tmp/$name.ours.err" ||
		fail "$name: perf textpoke report failed: $(head -3 "$tmp/$name.ours.err")"
	grep -q '^# *PID  *TID' "$tmp/$name.perf" || fail "$name: stock perf printed no -T table"
	if ! cmp -s "$tmp/$name.perf" "$tmp/$name.ours"; then
		diff -u "$tmp/$name.perf" "$tmp/$name.ours" | head -40
		fail "$name: differs from stock perf report --stdio $*"
	fi
	echo "ok: $name (equal to perf report $*)"
}
# the child shell's count: a row under the header, as stock perf prints it
HOME=$tmp perf report --stdio -i "$tmp/stat.data" -T 2>/dev/null |
	grep -A1 '^# *PID  *TID  cpu-clock' | grep -Eq '^  +[0-9]+  +[0-9]+  +[0-9]+$' ||
	fail "stat.data: stock perf -T prints no thread's count (no READ record?)"
same_threads threads "$tmp/stat.data" -T
same_threads threads-q "$tmp/stat.data" -T -q
same_threads threads-none "$tmp/flat.data" -T
grep -qx '# PID  TID' "$tmp/threads-none.ours" || fail "-T without READ records: no bare header"

# 4. --percent-type: perf's values change nothing in --stdio
for t in local-period global-period local-hits global-hits; do
	same_report "pt-$t" "$tmp/g.data" --percent-type "$t" --percentage relative --comm wfp
done
HOME=$tmp perf report --stdio -i "$tmp/flat.data" --percent-type bogus >/dev/null 2>&1
pst=$?
"$TEXTPOKE" report -i "$tmp/flat.data" --percent-type bogus >/dev/null 2>"$tmp/pt.err"
ost=$?
[ $pst = 129 ] && [ $ost = 129 ] || fail "--percent-type bogus: perf exits $pst, ours $ost"
[ "$(wc -l <"$tmp/pt.err")" -ge 1 ] || fail "--percent-type bogus: no error said"
echo "ok: --percent-type bogus refused as perf refuses it (129)"
