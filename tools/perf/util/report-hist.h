/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_HIST_H
#define __PERF_TEXTPOKE_REPORT_HIST_H

#include <stdio.h>

#include "types.h"

struct perf_sample;
struct evsel;
struct addr_location;

/*
 * perf textpoke report: the profile, as perf report --stdio prints it.
 * Samples are attributed at their time (machine__resolve()), so a BPF
 * address that held program A and later program B splits as perf's
 * forward pass splits it.  One histogram per event (evsel), as perf
 * prints one block per event.
 */
enum report_sort_key {
	SORT_COMM,
	SORT_PID,
	SORT_TID,
	SORT_DSO,
	SORT_SYM,
	SORT_CPU,
	SORT_ABI, /* the user-register ABI word of the sample: none, 32, 64 */
	SORT__MAX,
};

struct hist_entry {
	/* the keys, filled for the ones sorted on */
	const char *comm;
	u32 pid, tid;
	const char *dso;
	const char *sym; /* NULL: [unknown], printed with the address as perf does */
	u64 ip;		 /* for an unknown symbol */
	char level;	 /* '.' user, 'k' kernel, as perf's [.] [k] */
	s32 cpu;
	u64 abi;
	u64 nr_samples;
	u64 period;
};

struct report_hist {
	const char *event_name;
	size_t nr_entries;
	struct hist_entry *entries; /* sorted as printed: overhead, then keys */
	u64 nr_samples;
	u64 total_period;
	/* per command: samples of each ABI (0 none, 1 32-bit, 2 64-bit, 3 other) */
	size_t nr_comms;
	struct report_abi_count {
		const char *comm;
		u64 nr[4];
	} *abi_counts;
};

#endif /* __PERF_TEXTPOKE_REPORT_HIST_H */
