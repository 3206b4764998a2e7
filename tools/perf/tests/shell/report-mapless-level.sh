#!/bin/bash
# report: --children levels of chain frames outside every map, met more than once in a chain, as stock perf gives them
# SPDX-License-Identifier: GPL-2.0-only
#
# perf report --children (6.1) walks a chain caller first and makes an
# entry at the first frame it meets of it, the outermost; a frame
# outside every map takes the level of the frame in a map walked before
# it (fill_callchain_info() leaves it), the sample's when there is none.
# So an address outside every map met twice in a chain, under a user
# frame and at the chain's root, is [k] in a kernel sample: issue 22, a
# perf record -a -g recording's "bash [unknown] [k] 0" row, whose
# recursive chains hold frames at 0 between bash's.  lib/mapless-chains.py
# writes such chains byte by byte (not with our writer), with an address
# whose frames' levels go the other way ([k] inside, [.] outside) and one
# met again, under a user frame, in a later sample whose entry is older.
# Stock perf's rows must give the levels worked out by hand from that rule
# (caller and callee order), so that the comparison compares them; then
# ours must equal stock perf report --stdio byte for byte with Children
# (-g none, the default trees, -g callee), and --no-children both orders.
#
# Mutation caught: report_hists__add_frame() holding back a frame's
# level only when the frame made its entry (b->nr grew; the walk callee
# first then takes the innermost frame's level): -g none and the default
# differ on 0 ([.] for [k]) and on 0x8 ([k] for [.]).  And: every frame
# outside every map holding back its entry's level, the entries of
# earlier samples too (the frame_first test left out): 0 turns [.].

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-mapless-level

python3 "$libdir/mapless-chains.py" "$tmp/m.data" || fail "mapless-chains.py"

# stock perf's [level] of the rows of the addresses outside every map
levels() {
	perf_report -i "$tmp/m.data" "$@" 2>/dev/null |
		awk '$4 == "[unknown]" { print $6, $5 }' | sort
}
want_caller=$'0000000000000000 [k]\n0x0000000000000008 [.]\n0x0000000000000010 [k]'
want_callee=$'0000000000000000 [.]\n0x0000000000000008 [k]\n0x0000000000000010 [k]'
got=$(levels -g none)
[ "$got" = "$want_caller" ] || fail "stock perf's levels (caller first) are not the rule's: $got"
got=$(levels -g callee)
[ "$got" = "$want_callee" ] || fail "stock perf's levels (callee first) are not the rule's: $got"

same_report g-none "$tmp/m.data" -g none
same_report default "$tmp/m.data"
same_report callee "$tmp/m.data" -g callee
same_report no-children "$tmp/m.data" --no-children
same_report caller-no-children "$tmp/m.data" -g caller --no-children
exit 0
