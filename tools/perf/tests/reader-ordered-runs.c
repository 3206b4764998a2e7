// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ordered-events queue keeps time-ordered runs apart from its heap:
 * whatever the arrival pattern (per-CPU blocks, more streams than runs,
 * random times, many equal times), the delivery order must be the stable
 * sort of the arrivals by time, as with a plain heap.
 */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../util/event.h"
#include "../util/ordered-events.h"

#define NR_RECORDS 20000

struct arrival {
	u64 time;
	u64 seq;
};

struct runs_log {
	u64 *seq;
	u64 n;
};

static int runs_deliver(void *arg, struct ordered_event *oe)
{
	struct runs_log *l = arg;

	if (l->n < NR_RECORDS)
		l->seq[l->n] = oe->file_offset;
	l->n++;
	return 0;
}

static int arrival__cmp(const void *a, const void *b)
{
	const struct arrival *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/* xorshift: the same sequence on every run */
static u64 next_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * @streams interleaved streams, each in time order, arriving in blocks of
 * @block records; @spread random extra to each step (0: all times equal
 * within a stream step, so many ties)
 */
static void make_arrivals(struct arrival *a, int streams, int block, u64 spread, u64 seed)
{
	u64 clock[64] = {0}, s = seed;
	int i;

	for (i = 0; i < NR_RECORDS; i++) {
		int k = (i / block) % streams;

		clock[k] += 1 + (spread ? next_rand(&s) % spread : 0);
		a[i].time = streams == 1 ? next_rand(&s) % 1000 : clock[k];
		a[i].seq = i;
	}
}

static int check_pattern(struct arrival *a, u64 *seq, const char *what)
{
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .size = 16};
	struct runs_log l = {.seq = seq, .n = 0};
	struct ordered_events oe;
	u64 buf[2] = {0};
	int i, err = 0;

	memcpy(buf, &h, sizeof(h));
	ordered_events__init(&oe, runs_deliver, &l, 0);
	for (i = 0; i < NR_RECORDS && !err; i++)
		err = ordered_events__queue(&oe, (union perf_event *)buf, a[i].time, a[i].seq, NULL,
					    NULL);
	if (!err)
		err = ordered_events__flush_all(&oe);
	ordered_events__exit(&oe);
	if (err) {
		pr_debug("%s: error %d\n", what, err);
		return -1;
	}
	qsort(a, NR_RECORDS, sizeof(*a), arrival__cmp);
	if (l.n != NR_RECORDS) {
		pr_debug("%s: %llu delivered\n", what, (unsigned long long)l.n);
		return -1;
	}
	for (i = 0; i < NR_RECORDS; i++) {
		if (seq[i] != a[i].seq) {
			pr_debug("%s: delivery %d is arrival %llu, expected %llu\n", what, i,
				 (unsigned long long)seq[i], (unsigned long long)a[i].seq);
			return -1;
		}
	}
	return 0;
}

static int test__reader_ordered_runs(struct test_suite *t)
{
	static const struct {
		const char *what;
		int streams, block;
		u64 spread;
	} patterns[] = {
	    {"2 cpus in blocks", 2, 100, 7},
	    {"2 cpus alternating", 2, 1, 3},
	    {"8 streams", 8, 13, 5},
	    {"40 streams, more than the runs", 40, 7, 11},
	    {"ties", 5, 3, 0},
	    {"random times", 1, 1, 0},
	};
	struct arrival *a = calloc(NR_RECORDS, sizeof(*a));
	u64 *seq = calloc(NR_RECORDS, sizeof(*seq));
	size_t i;
	int ret = TEST_OK;

	if (!a || !seq) {
		free(a);
		free(seq);
		return TEST_FAIL;
	}
	for (i = 0; i < ARRAY_SIZE(patterns); i++) {
		make_arrivals(a, patterns[i].streams, patterns[i].block, patterns[i].spread,
			      0x9e3779b97f4a7c15ULL + i);
		if (check_pattern(a, seq, patterns[i].what)) {
			ret = TEST_FAIL;
			break;
		}
	}
	free(a);
	free(seq);
	return ret;
}

struct test_suite suite__reader_ordered_runs = {
    .desc = "reader: ordered events from runs and heap equal a stable sort by time",
    .func = test__reader_ordered_runs,
};
