// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf report -T: per-thread counts from the READ records, rows and
 * columns in the order they were first seen, as perf's read values table.
 */
#include <errno.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "report-threads.h"

static int threads__counter(struct report_threads *t, int idx, const char *name)
{
	size_t i;

	for (i = 0; i < t->nr_counters; i++)
		if (t->counters[i].idx == idx)
			return i;
	if (t->nr_counters == t->alloc_counters) {
		size_t n = t->alloc_counters ? 2 * t->alloc_counters : 4;
		struct report_counter *c = realloc(t->counters, n * sizeof(*c));

		if (!c)
			return -ENOMEM;
		t->counters = c;
		/* every row has a value slot per counter there may be */
		for (i = 0; i < t->nr_threads; i++) {
			u64 *v = realloc(t->threads[i].values, n * sizeof(*v));

			if (!v)
				return -ENOMEM;
			memset(v + t->alloc_counters, 0, (n - t->alloc_counters) * sizeof(*v));
			t->threads[i].values = v;
		}
		t->alloc_counters = n;
	}
	t->counters[t->nr_counters].idx = idx;
	t->counters[t->nr_counters].name = strdup(name);
	if (!t->counters[t->nr_counters].name)
		return -ENOMEM;
	return t->nr_counters++;
}

static int threads__row(struct report_threads *t, s32 pid, s32 tid)
{
	struct report_thread_row *row;
	size_t i;

	for (i = 0; i < t->nr_threads; i++)
		if (t->threads[i].pid == pid && t->threads[i].tid == tid)
			return i;
	if (t->nr_threads == t->alloc_threads) {
		size_t n = t->alloc_threads ? 2 * t->alloc_threads : 16;

		row = realloc(t->threads, n * sizeof(*row));
		if (!row)
			return -ENOMEM;
		t->threads = row;
		t->alloc_threads = n;
	}
	row = &t->threads[t->nr_threads];
	row->pid = pid;
	row->tid = tid;
	row->values = calloc(t->alloc_counters ?: 1, sizeof(*row->values));
	if (!row->values)
		return -ENOMEM;
	return t->nr_threads++;
}

int report_threads__add(struct report_threads *t, s32 pid, s32 tid, int idx, const char *name,
			u64 value)
{
	int r = threads__row(t, pid, tid), c;

	if (r < 0)
		return r;
	c = threads__counter(t, idx, name);
	if (c < 0)
		return c;
	/* perf sums a thread's READ records of one event */
	t->threads[r].values[c] += value;
	return 0;
}

static int digits(long long v)
{
	return snprintf(NULL, 0, "%lld", v);
}

/* the width of counter @j: its name, or its widest value */
static int counter__width(const struct report_threads *t, size_t j)
{
	int w = strlen(t->counters[j].name);

	for (size_t i = 0; i < t->nr_threads; i++) {
		int n = snprintf(NULL, 0, "%" PRIu64, t->threads[i].values[j]);

		w = n > w ? n : w;
	}
	return w;
}

void report_threads__fprintf(const struct report_threads *t, FILE *fp)
{
	int pid_w = 3, tid_w = 3, w, *cw = calloc(t->nr_counters ?: 1, sizeof(int));
	size_t i, j;

	if (!cw) {
		pr_err("-T: out of memory for the table\n");
		return;
	}
	for (i = 0; i < t->nr_threads; i++) {
		w = digits(t->threads[i].pid);
		pid_w = w > pid_w ? w : pid_w;
		w = digits(t->threads[i].tid);
		tid_w = w > tid_w ? w : tid_w;
	}
	fprintf(fp, "# %*s  %*s", pid_w, "PID", tid_w, "TID");
	for (j = 0; j < t->nr_counters; j++) {
		cw[j] = counter__width(t, j);
		fprintf(fp, "  %*s", cw[j], t->counters[j].name);
	}
	fprintf(fp, "\n");
	for (i = 0; i < t->nr_threads; i++) {
		fprintf(fp, "  %*d  %*d", pid_w, t->threads[i].pid, tid_w, t->threads[i].tid);
		for (j = 0; j < t->nr_counters; j++)
			fprintf(fp, "  %*" PRIu64, cw[j], t->threads[i].values[j]);
		fprintf(fp, "\n");
	}
	free(cw);
}

void report_threads__exit(struct report_threads *t)
{
	for (size_t i = 0; i < t->nr_threads; i++)
		free(t->threads[i].values);
	for (size_t j = 0; j < t->nr_counters; j++)
		free(t->counters[j].name);
	free(t->threads);
	free(t->counters);
	memset(t, 0, sizeof(*t));
}
