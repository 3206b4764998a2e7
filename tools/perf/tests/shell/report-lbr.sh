#!/bin/bash
# report, script: --call-graph lbr chains built from the LBR call stack, as stock perf builds them
# SPDX-License-Identifier: GPL-2.0-only
#
# A sample of an event whose branch_sample_type has CALL_STACK (perf
# record --call-graph lbr) has a chain whose user part perf 6.1 takes
# from the branch stack, not from the recorded chain: the kernel's frames
# of the recorded chain, then the latest call's target, then each call's
# site, latest first.  This machine has no LBR, so lib/lbr-chains.py
# writes such a recording byte by byte (not with our writer): samples in
# user code and in the kernel, call stacks of one to three calls, and
# recorded user parts that perf ignores (0x7777, 0x8888).  Stock perf
# script and report --stdio (Children and callee/caller trees, folded,
# fractal, --sort sym, -G) must equal ours byte for byte, and the ignored
# frames must be in neither.
#
# Mutation caught: thread__walk_lbr_callchain() never taking the chain
# (*handled left false): the recorded user part is printed, 0x7777 and
# all, and every form differs.  And: the latest call's target (entry 0's
# "to") left out: each chain loses its innermost user frame.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-lbr

python3 "$libdir/lbr-chains.py" "$tmp/l.data" || fail "lbr-chains.py"
same_script "$tmp/l.data"
grep -q ' 403000 ' "$tmp/script.perf" || fail "stock perf script shows no frame from the LBR"
grep -qE ' (7777|8888) ' "$tmp/script.perf" &&
	fail "stock perf script shows the recorded user part: not an LBR chain to it"
same_report default "$tmp/l.data"
same_report no-children "$tmp/l.data" --no-children
same_report caller-no-children "$tmp/l.data" -g caller --no-children
same_report callee "$tmp/l.data" -g callee
same_report folded "$tmp/l.data" -g folded
same_report fractal "$tmp/l.data" -g fractal
same_report sort-sym "$tmp/l.data" --sort sym
same_report inverted "$tmp/l.data" -G
exit 0
