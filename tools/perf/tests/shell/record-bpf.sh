#!/bin/bash
# record: short-lived BPF programs captured, listed by stock perf, samples resolve
# SPDX-License-Identifier: GPL-2.0-only
# Exclusive: it loads BPF programs (another test's would be in its recording)
#
# The churn workload loads 200 socket filters that each live microseconds
# (load, attach to a loopback UDP socket, three packets, close).  Every
# PROG_LOAD the kernel reported in the recording must have its JIT image
# in HEADER_BPF_PROG_INFO, which stock perf report --header-only -I lists
# with its name, address and size; the target is at least 99% (stock perf
# 6.1 got 94% of such programs on the test machine), and we ask for all.
# Then one filter that loops on every packet is sampled system-wide:
# stock perf script must resolve samples to bpf_prog_<tag>_tp_busy, the
# program whose code we captured.  A program loaded before the recording
# is synthesized (KSYMBOL + BPF_EVENT at time 0) and captured as well.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch record

build "$tmp/churn" record-bpf-churn.c || fail "gcc: $(cat "$tmp/gcc.err")"
"$tmp/churn" churn 1 >/dev/null 2>"$tmp/churn.err" ||
	skip "cannot load BPF socket filters here: $(cat "$tmp/churn.err")"

record "$tmp/churn.data" -e cpu-clock -- "$tmp/churn" churn 200
stock_script events "$tmp/churn.data" --show-bpf-events -F comm,tid
# ours only: other tasks may load and unload programs meanwhile
grep '^ *churn .*PERF_RECORD_BPF_EVENT type 1,' "$tmp/events.out" | sed 's/.* id //' | sort -u >"$tmp/loaded"
perf report --header-only -I -i "$tmp/churn.data" >"$tmp/header" 2>"$tmp/header.err" ||
	fail "perf report --header-only: $(head -3 "$tmp/header.err")"
sed -n 's/^# bpf_prog_info \([0-9]*\): bpf_prog_[0-9a-f]*_tp_churn addr 0x[0-9a-f]* size \([0-9]*\)$/\1 \2/p' \
	"$tmp/header" >"$tmp/captured"
loaded=$(wc -l <"$tmp/loaded")
[ "$loaded" = 200 ] || fail "$loaded PROG_LOAD events of the workload in the recording, expected 200"
missing=0
while read -r id; do
	grep -q "^$id " "$tmp/captured" || missing=$((missing + 1))
done <"$tmp/loaded"
[ "$(wc -l <"$tmp/captured")" -ge 200 ] || fail "only $(wc -l <"$tmp/captured") of 200 tp_churn programs captured"
[ "$missing" = 0 ] || fail "$missing of $loaded loaded programs have no BPF_PROG_INFO"
awk '$2 == 0 { exit 1 }' "$tmp/captured" || fail "a program with no JIT bytes"
echo "ok: $loaded of $loaded short-lived programs captured with their JIT images"

record "$tmp/busy.data" -e cpu-clock -a -- "$tmp/churn" busy 1
stock_script busy "$tmp/busy.data" -F comm,ip,sym,symoff,dso
name=$(sed -n 's/^# bpf_prog_info [0-9]*: \(bpf_prog_[0-9a-f]*_tp_busy\) .*/\1/p' \
	<(perf report --header-only -I -i "$tmp/busy.data" 2>/dev/null) | head -1)
[ -n "$name" ] || fail "the busy program is not in BPF_PROG_INFO"
hits=$(grep -c " $name+0x[0-9a-f]* ($name)" "$tmp/busy.out")
[ "$hits" -gt 0 ] || fail "no sample resolves to $name"
echo "ok: $hits samples resolve to $name"

# a program loaded before the recording starts: synthesized as KSYMBOL +
# BPF_EVENT at time 0, its code captured too
# killed once recorded: it need only outlive the wait and a slow start
"$tmp/churn" busy 60 >/dev/null &
busy=$!
for _ in $(seq 300); do
	grep -qs '^prog_id:' /proc/$busy/fdinfo/* && break
	sleep 0.1
done
grep -qs '^prog_id:' /proc/$busy/fdinfo/* || fail "the busy program did not load"
record "$tmp/pre.data" -e cpu-clock -a -- sleep 0.3
kill $busy 2>/dev/null
wait $busy 2>/dev/null
stock_script pre "$tmp/pre.data" --show-bpf-events -F comm,tid,time
line=$(perf report --header-only -I -i "$tmp/pre.data" 2>/dev/null | grep '^# bpf_prog_info [0-9]*: bpf_prog_[0-9a-f]*_tp_busy ')
[ -n "$line" ] || fail "the program loaded before the recording has no BPF_PROG_INFO"
id=$(echo "$line" | sed 's/^# bpf_prog_info \([0-9]*\):.*/\1/')
prog=$(echo "$line" | sed 's/^# bpf_prog_info [0-9]*: \([^ ]*\) .*/\1/')
grep -q " 0.000000: PERF_RECORD_KSYMBOL addr .* type 1 flags 0x0 name $prog\$" "$tmp/pre.out" ||
	fail "no synthesized KSYMBOL for $prog"
grep -q " 0.000000: PERF_RECORD_BPF_EVENT type 1, flags 0, id $id\$" "$tmp/pre.out" ||
	fail "no synthesized BPF_EVENT for program $id"
echo "ok: program $id loaded before the recording synthesized and captured"
exit 0
