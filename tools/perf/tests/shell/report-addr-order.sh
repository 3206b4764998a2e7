#!/bin/bash
# report: rows of frames outside every map in stock perf report's order, their addresses compared as perf compares them
# SPDX-License-Identifier: GPL-2.0-only
#
# A system-wide -g recording has chain frames outside every map at any
# address (frame pointers that are not).  perf 6.1 compares two such
# entries by the difference of their addresses taken as signed
# (_sort__addr_cmp()), which is no order over the 64-bit space: 0x2000
# before 0x6c6f6b6d5f6f696c before 0xabcdd5ca7247dffe before 0x2000.
# Rows of equal figures then come in the order perf's trees give them:
# its tree of entries as they were made, then (comm being a key) the tree
# it collapses them into, then its output tree.  lib/wrap-chains.py
# writes such a recording byte by byte (not with our writer): one task,
# 16 addresses spread over the space, each the caller in 3 chains of
# equal period.  Our report must equal stock perf report --stdio byte for
# byte with Children (the trees), --no-children, -g none, --sort sym and
# --sort dso,sym; and stock perf's address rows must not be in ascending
# order, or nothing of this was compared.
#
# Mutation caught: cmp_u64_wrap() comparing unsigned (default: 168 lines
# differ, -g none 12); entries__input_order() skipping the collapse
# tree (112 and 8 lines differ).

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-addr-order

python3 "$libdir/wrap-chains.py" "$tmp/w.data" || fail "wrap-chains.py"
perf_report -i "$tmp/w.data" -g none >"$tmp/rows" 2>/dev/null || fail "stock perf report -g none"
awk '$2 == "0.00%" && $6 ~ /^0x/ { print $6 }' "$tmp/rows" >"$tmp/addrs"
[ "$(wc -l <"$tmp/addrs")" = 16 ] || fail "stock perf printed $(wc -l <"$tmp/addrs") address rows, not 16"
if python3 -c 'import sys
a = [int(x, 16) for x in open(sys.argv[1])]
sys.exit(0 if a == sorted(a) else 1)' "$tmp/addrs"; then
	fail "stock perf's address rows are in ascending order: nothing tells the orders apart"
fi
same_report default "$tmp/w.data"
same_report no-children "$tmp/w.data" --no-children
same_report g-none "$tmp/w.data" -g none
same_report sort-sym "$tmp/w.data" --sort sym -g none
same_report sort-dso-sym "$tmp/w.data" --sort dso,sym
exit 0
