/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_THREADS_H
#define __PERF_TEXTPOKE_REPORT_THREADS_H

#include <stdio.h>

#include "types.h"

/*
 * perf report -T/--threads: the counts the recording's READ records hold
 * (an inherited counter's, written as each child task exits: perf record
 * -s), summed per thread and event, printed after the profile as perf
 * 6.1's perf_read_values_display() prints them.  Without READ records
 * the table is its header line alone, as in perf.
 */
struct report_threads {
	size_t nr_threads, nr_counters;
	struct report_thread_row {
		s32 pid, tid;
		u64 *values; /* nr_counters of them (alloc_counters allocated) */
	} * threads;
	struct report_counter {
		int idx; /* the event's index */
		char *name;
	} * counters;
	size_t alloc_threads, alloc_counters;
};

/* one READ record's count of event @idx (named @name); 0 or -ENOMEM */
int report_threads__add(struct report_threads *t, s32 pid, s32 tid, int idx, const char *name,
			u64 value);
void report_threads__fprintf(const struct report_threads *t, FILE *fp);
void report_threads__exit(struct report_threads *t);

#endif /* __PERF_TEXTPOKE_REPORT_THREADS_H */
