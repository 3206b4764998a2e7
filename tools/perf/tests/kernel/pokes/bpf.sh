# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# BPF socket filters (tools/perf/tests/workloads/record-bpf-churn.c): short
# lived programs in the module area, addresses reused.

exp_body() {
	truth quiet
	record-bpf-churn churn 10 5 >/dev/null
	truth quiet
	busy record-bpf-churn busy 2
	sleep 0.2
	truth busy
	busy_end
	busy record-bpf-churn churn 1000 2
	truth busy
	busy_end
	truth quiet
}
