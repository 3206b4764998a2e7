#!/bin/bash
# record: a pipe (-o -) carries build-ids, sample times and BPF JIT images after the data, read by stock perf
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it loads BPF programs (another test's would be in its recording)
#
# What a recording knows only at its end goes into a pipe as
# HEADER_BUILD_ID and HEADER_FEATURE records after the last sample; stock
# perf 6.1 takes them there:
# - stock perf report -D sees the BUILD_ID records after the last SAMPLE,
#   and stock perf script prints the pipe without a warning;
# - perf script --header: "time of first/last sample" are the first and
#   last times stock perf script -F time prints;
# - perf buildid-list -i -: the kernel's build-id is the running kernel's
#   (stock perf buildid-list -k), each object's the one readelf -n
#   reads from it, and the shell, whose loop the workload is, among them;
#   stock perf lists a pipe's kernel build-id only when a sample hit the
#   kernel (a file's always), so the workload ends in dd, which runs in
#   the kernel: without it a run whose few kernel samples all missed
#   failed here;
# - BPF part: 300 socket filters loaded and unloaded by the churn helper
#   (more JIT images than one 64 KiB record holds, so they go in
#   pieces): every PROG_LOAD of the workload stock perf script
#   --show-bpf-events prints has its program in the bpf_prog_info lines
#   of perf script --header -I.
# Mutation caught: perf_writer__close() not calling
# writer__pipe_late_features(): no sample times, no build-ids.
# Mutation caught: writer__bpf_prog_info_split() emitting only its first
# piece: programs are missing.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch recpipe
export HOME=$tmp
skipped=""

# a loop of the shell's own code: its samples hit sh, which must have its
# build-id; then dd's copies, whose samples hit the kernel
"$TEXTPOKE" record -q -e cpu-clock -o - -- sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done
	dd if=/dev/zero of=/dev/null bs=1M count=1000 2>/dev/null' \
	>"$tmp/p.pipe" 2>"$tmp/rec.err" || fail "record -o -: $(head -3 "$tmp/rec.err")"
perf report -D -i - <"$tmp/p.pipe" >"$tmp/dump" 2>"$tmp/dump.err" ||
	fail "stock perf report -D: $(head -3 "$tmp/dump.err")"
# each record's offset in the stream and type ("-D" prints samples in time order, late)
offsets() {
	sed -n 's/.* 0x\([0-9a-f]*\) \[0x[0-9a-f]*\]: PERF_RECORD_\([A-Z_]*\).*/\1 \2/p' "$1" |
		while read -r off type; do echo "$((16#$off)) $type"; done
}
offsets "$tmp/dump" >"$tmp/offsets"
last_sample=$(awk '$2 == "SAMPLE" && $1 > m { m = $1 } END { print m }' "$tmp/offsets")
first_bid=$(awk '$2 == "BUILD_ID" && (!m || $1 < m) { m = $1 } END { print m }' "$tmp/offsets")
[ -n "$last_sample" ] || fail "stock perf report -D sees no sample"
[ -n "$first_bid" ] || fail "stock perf report -D sees no BUILD_ID record"
[ "$first_bid" -gt "$last_sample" ] || fail "a BUILD_ID record at $first_bid, before the last sample at $last_sample"
perf script -i - -F time <"$tmp/p.pipe" >"$tmp/times" 2>"$tmp/script.err" ||
	fail "stock perf script: $(head -3 "$tmp/script.err")"
[ -s "$tmp/script.err" ] && fail "stock perf script warned: $(head -3 "$tmp/script.err")"
perf script -i - --header <"$tmp/p.pipe" 2>/dev/null | grep "^# time of" >"$tmp/hdr"
first=$(tr -d ' :' <"$tmp/times" | sort -n | head -1)
last=$(tr -d ' :' <"$tmp/times" | sort -n | tail -1)
grep -q "^# time of first sample : $first$" "$tmp/hdr" ||
	fail "first sample at $first, the header says: $(cat "$tmp/hdr")"
grep -q "^# time of last sample : $last$" "$tmp/hdr" ||
	fail "last sample at $last, the header says: $(cat "$tmp/hdr")"
echo "ok: the pipe's sample times $first..$last, build-ids after the last sample"

kernel=$(perf buildid-list -k 2>/dev/null)
[ -n "$kernel" ] || fail "stock perf buildid-list -k knows no kernel build-id"
perf buildid-list -i - <"$tmp/p.pipe" >"$tmp/bids" 2>"$tmp/bids.err" ||
	fail "stock perf buildid-list -i -: $(head -3 "$tmp/bids.err")"
grep -q "^$kernel \[kernel.kallsyms\]$" "$tmp/bids" ||
	fail "the kernel's build-id is not stock perf's $kernel: $(cat "$tmp/bids")"
sh=$(readlink -f "$(command -v sh)")
grep -q " $sh$" "$tmp/bids" || fail "no build-id of $sh: $(cat "$tmp/bids")"
while read -r id obj; do
	[ "$obj" = "[kernel.kallsyms]" ] && continue
	# a sample in the vdso: stock perf names it by its own copy, and takes
	# no build-id record that comes after the samples for it (its pipes
	# carry none); record-user-regs.sh checks the vdso's id in a file
	case "$id$obj" in /tmp/perf-vdso.so-*) continue ;; esac
	want=$(readelf -n "$obj" 2>/dev/null | sed -n 's/.*Build ID: //p' | head -1)
	[ "$want" = "$id" ] || fail "$obj: build-id $id, readelf says '$want'"
done <"$tmp/bids"
echo "ok: $(wc -l <"$tmp/bids") build-ids, the kernel's as stock perf buildid-list -k, the objects' as readelf reads them"

if ! build "$tmp/churn" record-bpf-churn.c; then
	skipped="$skipped BPF part: gcc cannot build the churn helper;"
elif ! "$tmp/churn" churn 1 >/dev/null 2>"$tmp/churn.err"; then
	skipped="$skipped BPF part: cannot load BPF socket filters here: $(head -1 "$tmp/churn.err");"
else
	"$TEXTPOKE" record -q -e cpu-clock -o - -- "$tmp/churn" churn 300 >"$tmp/bpf.pipe" 2>"$tmp/rec.err" ||
		fail "record -o - of the churn: $(head -3 "$tmp/rec.err")"
	perf script -i - --show-bpf-events -F comm,tid <"$tmp/bpf.pipe" 2>/dev/null |
		grep '^ *churn .*PERF_RECORD_BPF_EVENT type 1,' | sed 's/.* id //' | sort -u >"$tmp/loaded"
	perf script -i - --header -I <"$tmp/bpf.pipe" 2>/dev/null |
		sed -n 's/^# bpf_prog_info \([0-9]*\): bpf_prog_[0-9a-f]*_tp_churn .*/\1/p' | sort -u >"$tmp/captured"
	loaded=$(wc -l <"$tmp/loaded")
	[ "$loaded" = 300 ] || fail "$loaded PROG_LOAD events of the workload in the pipe, expected 300"
	missing=$(comm -23 "$tmp/loaded" "$tmp/captured" | wc -l)
	[ "$missing" = 0 ] || fail "$missing of $loaded loaded programs have no bpf_prog_info in the pipe"
	perf report -D -i - <"$tmp/bpf.pipe" >"$tmp/bpf.dump" 2>/dev/null
	offsets "$tmp/bpf.dump" >"$tmp/bpf.offsets"
	pieces=$(awk '$2 == "SAMPLE" && $1 > m { m = $1 } $2 == "FEATURE" { f[NR] = $1 }
		END { for (i in f) n += f[i] > m; print n + 0 }' "$tmp/bpf.offsets")
	echo "ok: all $loaded BPF programs' JIT images in the pipe, $pieces HEADER_FEATURE records after the data"
fi
[ -z "$skipped" ] || skip "$skipped"
