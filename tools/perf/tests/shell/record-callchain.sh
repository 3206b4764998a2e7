#!/bin/bash
# record: -g and --call-graph dwarf recordings unwound by stock perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# The loop workload calls main -> middle -> leaf.  With frame pointers
# (-g) and with DWARF (--call-graph dwarf: user registers, a stack copy
# and the data mappings that hold .eh_frame) stock perf script must unwind
# samples in leaf up through middle to main, as it does for perf record's
# own files (frame pointers cannot see middle: leaf has no frame).
# -C 1 keeps the -g recording to CPU 1.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch record

build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"

# check_chain NAME REGEX: some sample's frames, joined, match REGEX
check_chain() {
	local name=$1 re=$2
	# a sample block: header line, then one frame per line, blank line after
	awk -v re="$re" '/^$/ { if (chain ~ re) ok++; chain = ""; next }
	     { chain = chain " " $0 }
	     END { exit ok > 0 ? 0 : 1 }' "$tmp/$name.out" ||
		fail "$name: no sample unwound as $re: $(head -12 "$tmp/$name.out")"
	echo "ok: $name: $(grep -c 'leaf+' "$tmp/$name.out") samples in leaf, unwound as $re"
}

# the last CPU, which is CPU 1 on two cores and exists on one
c=$(($(nproc) - 1))
record "$tmp/fp.data" -g -e cpu-clock -C "$c" -- taskset -c "$c" "$tmp/loop" 0.5
stock_script fp "$tmp/fp.data"
# leaf makes no call: it has no frame of its own, so frame pointers skip middle
check_chain fp 'leaf\+.*main\+'
grep -v '^\s' "$tmp/fp.out" | grep -v '^$' | grep -qv " $(printf '\\[%03d\\]' "$c") " &&
	fail "-C $c: samples from another CPU"

# 8 KiB a sample: at 1000 Hz into 4 MiB a recorder slowed by a busy machine
# (or ASan) loses no chunk, which stock perf script would warn of
record "$tmp/dwarf.data" --call-graph dwarf -e cpu-clock -F 1000 -m 1024 -- "$tmp/loop" 0.5
stock_script dwarf "$tmp/dwarf.data"
check_chain dwarf 'leaf\+.*middle\+.*main\+'
exit 0
