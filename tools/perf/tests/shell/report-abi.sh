#!/bin/bash
# report: the abi sort key and the per-command ABI counts, 32- and 64-bit tasks
# SPDX-License-Identifier: GPL-2.0-only
#
# A 32-bit (gcc -m32) and a 64-bit build of the workload run one after the
# other under stock perf record --user-regs.  The oracle is stock perf
# script, which prints each sample's ABI word as ABI:1 (32-bit) or ABI:2
# (64-bit): per command and ABI its counts must equal the rows of our
# --sort comm,abi -n and the counts of our per-ABI block.  The profile
# itself (--sort comm,dso) must equal stock perf report's.  Without
# gcc -m32, or on a kernel that runs no 32-bit program, the 64-bit part
# runs alone and the test ends as a skip.
#
# The same checks run, on every machine, on m32-guest/mixed.data: stock
# perf record --user-regs=ip,sp on Debian's kernel under qemu of one
# process that runs the workload -m32 and then execs its 64-bit build
# (static), checked in with the perf archive of its objects, which the
# scratch HOME's build-id cache holds.
#
# Mutation caught: taking the ABI word from the sample's interrupt
# registers (sample->intr_regs.abi, 0 here) for a new entry in
# report_hists__add(): every row says none.  Mutation caught:
# hist_build__count_abi() counting ABI word 1 as none (nr[abi == 1 ? 0 :
# abi]): the checked-in 32-bit task's samples leave the 32 column.

. "$(dirname "$0")/lib/report-common.sh"
. "$(dirname "$0")/lib/m32-guest.sh"
need_perf_root
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed (reads report --json)"
scratch report-abi

build_report_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
skipped=$(why_no_32bit)
if [ -z "$skipped" ]; then
	build_report_workload "$tmp/w32" -m32 || fail "gcc -m32: $(cat "$tmp/gcc.err")"
	cmd="$tmp/w32 10000000; $tmp/w64 10000000"
else
	skipped="32-bit part: $skipped"
	cmd="$tmp/w64 10000000"
fi
perf_record "$tmp/abi.data" -e cpu-clock -F 4000 --user-regs=ip,sp -- sh -c "$cmd"

# check_abi NAME FILE: --sort comm,dso as stock perf report; --sort
# comm,abi -n and the per-ABI block as the ABI words stock perf script
# prints; the oracle's "comm abi samples" rows are left in $tmp/NAME.oracle
check_abi() {
	local name=$1 file=$2

	same_report "$name-comm-dso" "$file" --sort comm,dso -n

	# stock perf script: "comm ABI:n ..." per sample, counted per command and ABI
	perf script -i "$file" -F comm,uregs 2>/dev/null |
		awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^ABI:/) { n[$1 " " substr($i, 5)]++; break } }
		     END { for (k in n) print k, n[k] }' | sort >"$tmp/$name.oracle"
	[ -s "$tmp/$name.oracle" ] || fail "$name: stock perf script printed no ABI words"

	# ours, as rows: comm abi samples.  From --json: the text's Command column
	# is as wide as the threads' last names, as perf's, so a sample taken
	# while a thread was still "perf-exec" prints cut to that width there
	"$TEXTPOKE" report -i "$file" --no-changes --sort comm,abi -n >"$tmp/$name.rows" ||
		fail "$name: report --sort comm,abi -n"
	"$TEXTPOKE" report -i "$file" --no-changes --sort comm,abi --json >"$tmp/$name.json" ||
		fail "$name: report --sort comm,abi --json"
	python3 -c '
import json, sys
for ev in json.load(open(sys.argv[1]))["profile"]:
    for e in ev["entries"]:
        print(e["comm"], e["abi"], e["nr_samples"])' "$tmp/$name.json" | sort >"$tmp/$name.ours" ||
		fail "$name: report --json: not the document described"
	if ! cmp -s "$tmp/$name.oracle" "$tmp/$name.ours"; then
		diff -u "$tmp/$name.oracle" "$tmp/$name.ours"
		fail "$name: --sort comm,abi -n differs from the ABI words stock perf script prints"
	fi
	echo "ok: $name: --sort comm,abi -n: $(wc -l <"$tmp/$name.ours") rows, as stock perf script's ABI words"

	# ours, as the per-ABI block: comm none 32 64 other
	awk '/^# Samples per user-register ABI/ { s = 1; next } s && /^$/ { exit }
	     s && !/^#/ { if ($2) print $1, 0, $2; if ($3) print $1, 1, $3; if ($4) print $1, 2, $4 }' \
		"$tmp/$name.rows" | sort >"$tmp/$name.block"
	if ! cmp -s "$tmp/$name.oracle" "$tmp/$name.block"; then
		diff -u "$tmp/$name.oracle" "$tmp/$name.block"
		fail "$name: the per-ABI block differs from the ABI words stock perf script prints"
	fi
	echo "ok: $name: per-ABI block: $(wc -l <"$tmp/$name.block") counts"
}

HOME=$tmp check_abi abi "$tmp/abi.data"
if [ -z "$skipped" ]; then
	grep -q '^w32 1 ' "$tmp/abi.oracle" || fail "no 32-bit sample of w32 in stock perf script"
fi

# a 32-bit, then 64-bit process of a real kernel, from the tree
m32_guest_check mixed.data
whyguest=$why_m32_guest
if [ -z "$whyguest" ]; then
	m32_guest_home
	HOME=$tmp check_abi guest "$m32_guest/mixed.data"
	grep -q '^w32 1 ' "$tmp/guest.oracle" && grep -q '^w64 2 ' "$tmp/guest.oracle" ||
		fail "guest: stock perf script has not both w32 with ABI:1 and w64 with ABI:2: $(cat "$tmp/guest.oracle")"
else
	skipped="checked-in 32-bit part: $whyguest${skipped:+; $skipped}"
fi

# a recording without user registers: the key has nothing to sort on
perf_record "$tmp/plain.data" -e cpu-clock -F 1000 -- "$tmp/w64" 1000000
"$TEXTPOKE" report -i "$tmp/plain.data" --sort abi >"$tmp/plain.out" 2>"$tmp/plain.err" &&
	fail "--sort abi on a recording without user registers succeeded"
grep -q 'user registers' "$tmp/plain.err" || fail "--sort abi: $(cat "$tmp/plain.err")"
[ -s "$tmp/plain.out" ] && fail "--sort abi: output despite the error"
echo "ok: --sort abi without user registers: $(cat "$tmp/plain.err")"
[ -z "$skipped" ] || skip "$skipped"
exit 0
