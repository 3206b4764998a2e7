# SPDX-License-Identifier: GPL-2.0-only
# The parallel readers' tests (script-threads.sh, annotate-threads.sh):
# a recording made now by stock perf record -a -g of a loop on each CPU
# and of BPF socket filters loaded, run and closed (addresses handed out
# again), which the parallel run must cut into chunks while the programs
# churn.  Sourced after record-common.sh; $tmp is the scratch directory.

# the workload's commands: another process's object may be gone between
# two runs (a test's scratch directory), and be read by one run only
threads_live_comms=loop,churn,work.sh

# threads_live_record OUT: records it (skips where BPF cannot be loaded)
threads_live_record() {
	local out=$1
	build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"
	build "$tmp/churn" record-bpf-churn.c || fail "gcc: $(cat "$tmp/gcc.err")"
	"$tmp/churn" churn 1 >/dev/null 2>"$tmp/churn.err" ||
		skip "cannot load BPF socket filters here: $(cat "$tmp/churn.err")"
	cat >"$tmp/work.sh" <<EOS
#!/bin/sh
"$tmp/loop" 2 &
for v in 1 2 3; do
	"$tmp/churn" churn 20 >/dev/null || exit 1
	"$tmp/churn" busy 0.2 \$v >/dev/null || exit 1
done
wait
EOS
	chmod +x "$tmp/work.sh"
	HOME=$tmp perf record -q -e cpu-clock -c 20000 -a -g -o "$out" -- "$tmp/work.sh" \
		>/dev/null 2>"$tmp/rec.err" || fail "stock perf record: $(cat "$tmp/rec.err")"
}

# threads_live_churn_cut FILE PLAN: fails unless a chunk of PLAN (the -v
# line) begins between FILE's first and last BPF program load
threads_live_churn_cut() {
	local file=$1 p=$2 first last
	read -r first last < <(HOME=$tmp perf script -i "$file" --show-bpf-events -F time 2>/dev/null |
		awk '/PERF_RECORD_KSYMBOL/ { t = $1; sub(":", "", t); if (f == "") f = t; l = t }
		     END { print f, l }')
	[ -n "$first" ] || fail "stock perf script shows no KSYMBOL in the live recording"
	echo "$p" | awk -v f="$first" -v l="$last" '{ for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+$/ && $i + 0 > f + 0 && $i + 0 < l + 0) n++ }
		END { exit !n }' || fail "no chunk begins while BPF programs churn ($first..$last): $p"
}
