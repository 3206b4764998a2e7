#!/bin/bash
# report: call-graph trees of 32-bit tasks' dwarf chains, which stock perf 6.1 does not unwind, equal our script's chains
# SPDX-License-Identifier: GPL-2.0-only
#
# Stock perf 6.1 unwinds no 32-bit user stack ("unwind: target
# platform=x86 is not supported"): on a -m32 --call-graph dwarf
# recording it draws no tree at all, which this test checks of it, so
# that a perf that learns the unwinding makes this test its oracle.
# Ours unwinds them; its trees are checked against the chains our own
# script prints for every sample (-F period,ip,sym), summed per path in
# Python (lib/tree-script-check.py), in caller and callee order: a check
# of the tree (its build, order, periods, inlined frames) over the chains,
# not of the unwinding, which unwind-compat.sh checks against gdb.
# The recordings are stock perf's, made under qemu on Debian's 6.1
# kernel and checked in (m32-guest/dw32.data: the report-children
# workload, an inlined descend(); chain32.data: a deeper chain), with the
# perf archive of their objects.
#
# Mutation caught: report__chain() not walking the unwound part of a
# dwarf sample (its goto out taken always): the trees hold each sample's
# own frame alone, and dw32's differ from the script's chains.  (A split
# of a node where a chain ends, its hit left 0, passes here: these files'
# chains never end inside a longer one's run; report-tree.sh has them.)

. "$(dirname "$0")/lib/report-common.sh"
. "$(dirname "$0")/lib/m32-guest.sh"
need_perf_root
scratch report-tree-m32
m32_guest_check dw32.data chain32.data
[ -z "$why_m32_guest" ] || skip "$why_m32_guest"
m32_guest_home

for f in dw32 chain32; do
	file=$m32_guest/$f.data
	HOME=$tmp perf report -i "$file" --stdio --no-children --sort comm -g folded,0,caller,period \
		>"$tmp/$f.perf" 2>/dev/null || fail "$f: stock perf report"
	grep -q '^[^#]' "$tmp/$f.perf" || fail "$f: stock perf printed no row"
	if grep -qE '^[0-9]+ .*;' "$tmp/$f.perf"; then
		fail "$f: stock perf now draws 32-bit dwarf chains: compare with it instead"
	fi
	HOME=$tmp "$TEXTPOKE" script -i "$file" -F period,ip,sym >"$tmp/$f.script" 2>"$tmp/err" ||
		fail "$f: perf textpoke script: $(head -3 "$tmp/err")"
	for order in caller callee; do
		HOME=$tmp "$TEXTPOKE" report --no-changes -i "$file" --stdio --no-children --sort comm \
			-g "folded,0,$order,period" >"$tmp/$f.$order" 2>"$tmp/err" ||
			fail "$f: perf textpoke report: $(head -3 "$tmp/err")"
		python3 "$libdir/tree-script-check.py" "$tmp/$f.script" "$tmp/$f.$order" "$order" \
			>"$tmp/check" 2>&1 || { cat "$tmp/check"; fail "$f $order: trees differ"; }
		echo "ok: $f $order: $(cat "$tmp/check")"
	done
done
grep -q 'descend (inlined);level3' "$tmp/dw32.caller" || fail "dw32: no inlined descend() in the trees"
exit 0
