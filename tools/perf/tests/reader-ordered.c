// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ordering with FINISHED_ROUND semantics: records are held until the end
 * of the round after the one they arrived in, delivered by time with ties
 * in arrival order; late records are counted and delivered, not dropped;
 * past the memory cap the oldest half goes out early and is counted.
 * Then a corpus file through the session, unordered and ordered: when the
 * file is there (checked with access(), not with the reader) both must
 * succeed.  Mutation caught: unordered sessions failing with -EIO.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/event.h"
#include "../util/ordered-events.h"
#include "../util/session.h"

struct log {
	u64 times[64];
	u64 offs[64];
	int n;
};

static int log_deliver(void *arg, struct ordered_event *oe)
{
	struct log *l = arg;

	if (l->n < 64) {
		l->times[l->n] = oe->timestamp;
		l->offs[l->n] = oe->file_offset;
	}
	l->n++;
	return 0;
}

static int queue(struct ordered_events *oe, u64 t, u64 off)
{
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .size = 64};
	u64 buf[8] = {0};

	memcpy(buf, &h, sizeof(h));
	return ordered_events__queue(oe, (union perf_event *)buf, t, off, NULL, NULL);
}

struct order_tool {
	struct perf_tool tool;
	struct perf_session *session;
	u64 last_offset, last_time, n, offset_back, time_back;
};

static int order_cb(struct perf_tool *tool, union perf_event *event, struct perf_sample *s,
		    struct evsel *evsel, struct machine *machine)
{
	struct order_tool *ot = (struct order_tool *)tool;
	u64 off = ot->session->cur_offset;

	if (ot->n++ && off < ot->last_offset)
		ot->offset_back++;
	ot->last_offset = off;
	if (s->time && s->time != (u64)-1) {
		if (s->time < ot->last_time)
			ot->time_back++;
		ot->last_time = s->time;
	}
	return 0;
}

/* a real file whose records are not in time order in the file */
static int check_session_order(const char *path, bool ordered, struct order_tool *ot)
{
	int err;

	memset(ot, 0, sizeof(*ot));
	ot->tool.sample = order_cb;
	ot->tool.side_band = order_cb;
	ot->tool.ordered_events = ordered;
	ot->session = perf_session__new(path, &ot->tool);
	if (!ot->session)
		return -1;
	err = perf_session__process_events(ot->session);
	perf_session__delete(ot->session);
	return err;
}

static int test__reader_ordered(struct test_suite *t)
{
	struct order_tool ot;
	struct ordered_events oe;
	struct log l = {.n = 0};
	char path[4096];

	ordered_events__init(&oe, log_deliver, &l, 0);
	/* round 1: nothing may go out yet at its end */
	TEST_ASSERT_EQUAL("q", queue(&oe, 30, 1), 0);
	TEST_ASSERT_EQUAL("q", queue(&oe, 10, 2), 0);
	TEST_ASSERT_EQUAL("q", queue(&oe, 20, 3), 0);
	TEST_ASSERT_EQUAL("round 1", ordered_events__round(&oe), 0);
	TEST_ASSERT_EQUAL("held after round 1", l.n, 0);
	/* round 2: older than round 1's newest is legal; at its end deliver <= 30 */
	TEST_ASSERT_EQUAL("q", queue(&oe, 25, 4), 0);
	TEST_ASSERT_EQUAL("q", queue(&oe, 40, 5), 0);
	TEST_ASSERT_EQUAL("q", queue(&oe, 25, 6), 0);
	TEST_ASSERT_EQUAL("round 2", ordered_events__round(&oe), 0);
	TEST_ASSERT_EQUAL("delivered after round 2", l.n, 5);
	TEST_ASSERT_EQUAL("t0", l.times[0], 10);
	TEST_ASSERT_EQUAL("t1", l.times[1], 20);
	TEST_ASSERT_EQUAL("t2", l.times[2], 25);
	TEST_ASSERT_EQUAL("tie keeps file order", l.offs[2], 4);
	TEST_ASSERT_EQUAL("tie keeps file order", l.offs[3], 6);
	TEST_ASSERT_EQUAL("t4", l.times[4], 30);
	TEST_ASSERT_EQUAL("no late ones yet", oe.nr_unordered, 0);
	/* a record older than what went out: late, counted, still delivered */
	TEST_ASSERT_EQUAL("q late", queue(&oe, 15, 7), 0);
	TEST_ASSERT_EQUAL("late counted", oe.nr_unordered, 1);
	TEST_ASSERT_EQUAL("flush", ordered_events__flush_all(&oe), 0);
	TEST_ASSERT_EQUAL("all delivered", l.n, 7);
	TEST_ASSERT_EQUAL("late one delivered first", l.times[5], 15);
	TEST_ASSERT_EQUAL("then 40", l.times[6], 40);
	ordered_events__exit(&oe);

	/* a cap of 4 records: the fifth pushes the oldest half out */
	l.n = 0;
	ordered_events__init(&oe, log_deliver, &l, 4 * 64);
	TEST_ASSERT_EQUAL("q", queue(&oe, 50, 1), 0);
	TEST_ASSERT_EQUAL("q", queue(&oe, 40, 2), 0);
	TEST_ASSERT_EQUAL("q", queue(&oe, 30, 3), 0);
	TEST_ASSERT_EQUAL("q", queue(&oe, 20, 4), 0);
	TEST_ASSERT_EQUAL("under the cap", l.n, 0);
	TEST_ASSERT_EQUAL("q", queue(&oe, 10, 5), 0);
	TEST_ASSERT_EQUAL("forced flush", oe.nr_forced_flushes, 1);
	TEST_ASSERT_EQUAL("oldest half out", l.n, 2);
	TEST_ASSERT_EQUAL("oldest first", l.times[0], 10);
	TEST_ASSERT_EQUAL("then", l.times[1], 20);
	TEST_ASSERT_VAL("bytes bounded", oe.cur_bytes <= 4 * 64);
	ordered_events__exit(&oe); /* frees what is still queued */

	/* through the session: file order when asked, time order otherwise */
	snprintf(path, sizeof(path), "%s/perf_data_converter/perf.data.weight_struct",
		 test_corpus_dir());
	if (access(path, R_OK)) {
		test_skip_part(t, "no corpus file %s: session ordering not checked", path);
		return test_result(t);
	}
	TEST_ASSERT_EQUAL("unordered", check_session_order(path, false, &ot), 0);
	pr_debug("unordered: %llu records, %llu went back in time\n", (unsigned long long)ot.n,
		 (unsigned long long)ot.time_back);
	TEST_ASSERT_EQUAL("file order", ot.offset_back, 0);
	TEST_ASSERT_VAL("this file is not in time order", ot.time_back > 0);
	TEST_ASSERT_EQUAL("ordered", check_session_order(path, true, &ot), 0);
	TEST_ASSERT_EQUAL("time order", ot.time_back, 0);
	TEST_ASSERT_VAL("records", ot.n > 10000);
	return test_result(t);
}

struct test_suite suite__reader_ordered = {
    .desc = "reader: ordered events, FINISHED_ROUND, late records, memory cap",
    .func = test__reader_ordered,
};
