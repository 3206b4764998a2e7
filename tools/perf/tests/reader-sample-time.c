// SPDX-License-Identifier: GPL-2.0-only
/*
 * evsel__parse_sample_time() and evsel__parse_sample_key() (time, cpu,
 * id: what script's --time and -C drop samples on before the queue) have
 * a short cut for samples of u64 fields and a callchain: on random sample
 * types, sizes, callchain lengths and contents their verdict and values
 * must be those of evsel__parse_sample().  And, apart from that
 * self-comparison, hand-built samples whose time, cpu, id and verdict are
 * known from the kernel's field order (FORMAT.md).
 * Mutation caught: the short cut counting PERF_SAMPLE_CPU before TIME
 * (the hand-built time is then read from the wrong word);
 * sample_fixed_slot() taking the fields in bit order (CPU before
 * STREAM_ID: the hand-built cpu is read from the stream id).
 */
#include <string.h>

#include "tests.h"
#include "../util/event.h"
#include "../util/evsel.h"
#include "../util/evsel-time.h"

#define ROUNDS 20000

static u64 next_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* the short cut's verdict and time for one sample of @sample_type made of @words */
static int time_of(u64 sample_type, const u64 *words, int nr, u64 *time)
{
	struct perf_event_attr attr = {.size = sizeof(attr), .sample_type = sample_type};
	struct evlist *evlist = evlist__new();
	u64 buf[64] = {0}, ids[] = {7};
	union perf_event *e = (union perf_event *)buf;
	struct evsel *evsel;
	int err = -1;

	if (!evlist)
		return -1;
	attr.sample_id_all = 1;
	evsel = evlist__add(evlist, &attr, sizeof(attr), ids, 1);
	if (evsel && nr < 16) {
		memcpy(buf + 1, words, nr * sizeof(u64));
		e->header.type = PERF_RECORD_SAMPLE;
		e->header.size = 8 + nr * 8;
		*time = 0;
		err = evsel__parse_sample_time(evsel, e, time);
	}
	evlist__delete(evlist);
	return err;
}

/* identifier, ip, time, id, stream id, cpu: the id from ID, the cpu after the stream id */
static int check_key_by_hand(void)
{
	const u64 st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		       PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	const u64 w[] = {9, 0x401000, 0x5555, 9, 0x77, 3, 1000};
	struct perf_event_attr attr = {.size = sizeof(attr), .sample_type = st};
	struct evlist *evlist = evlist__new();
	u64 buf[64] = {0}, ids[] = {9};
	union perf_event *e = (union perf_event *)buf;
	struct sample_key key = {0};
	struct evsel *evsel;
	int err = -1;

	TEST_ASSERT_VAL("evlist", evlist);
	evsel = evlist__add(evlist, &attr, sizeof(attr), ids, 1);
	if (evsel) {
		memcpy(buf + 1, w, sizeof(w));
		e->header.type = PERF_RECORD_SAMPLE;
		e->header.size = 8 + sizeof(w);
		err = evsel__parse_sample_key(evsel, e, &key);
	}
	evlist__delete(evlist);
	TEST_ASSERT_EQUAL("hand-built key", err, 0);
	TEST_ASSERT_EQUAL("time is word 2", key.time, 0x5555);
	TEST_ASSERT_EQUAL("id is word 3", key.id, 9);
	TEST_ASSERT_EQUAL("cpu is word 5, after the stream id", key.cpu, 3);
	return TEST_OK;
}

static int check_by_hand(void)
{
	/* ip, pid/tid, time, cpu/res, callchain nr 2 and its two ips */
	const u64 st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
		       PERF_SAMPLE_CALLCHAIN;
	const u64 w[] = {0x401000, 0x0000002a0000002aULL, 0x123456789ULL, 3, 2, 0x401000, 0x402000};
	/* identifier first, then time */
	const u64 w2[] = {77, 0xabcdef};
	u64 time;

	TEST_ASSERT_EQUAL("hand-built", time_of(st, w, ARRAY_SIZE(w), &time), 0);
	TEST_ASSERT_EQUAL("time is word 2", time, 0x123456789ULL);
	/* the callchain says 2 ips, the record holds one: refused */
	TEST_ASSERT_VAL("callchain cut short", time_of(st, w, ARRAY_SIZE(w) - 1, &time) != 0);
	/* cut before the time */
	TEST_ASSERT_VAL("no room for the time", time_of(st, w, 2, &time) != 0);
	TEST_ASSERT_EQUAL("identifier, time",
			  time_of(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME, w2, 2, &time), 0);
	TEST_ASSERT_EQUAL("time is word 1", time, 0xabcdef);
	return check_key_by_hand();
}

static int test__reader_sample_time(struct test_suite *t)
{
	static const u64 bits[] = {
	    PERF_SAMPLE_IDENTIFIER,
	    PERF_SAMPLE_IP,
	    PERF_SAMPLE_TID,
	    PERF_SAMPLE_TIME,
	    PERF_SAMPLE_ADDR,
	    PERF_SAMPLE_ID,
	    PERF_SAMPLE_STREAM_ID,
	    PERF_SAMPLE_CPU,
	    PERF_SAMPLE_PERIOD,
	    PERF_SAMPLE_CALLCHAIN,
	    PERF_SAMPLE_DATA_SRC,
	    PERF_SAMPLE_TRANSACTION,
	    PERF_SAMPLE_PHYS_ADDR,
	    PERF_SAMPLE_CGROUP,
	    PERF_SAMPLE_DATA_PAGE_SIZE,
	    PERF_SAMPLE_CODE_PAGE_SIZE,
	    /* not in the short cut: the general parse must still be taken */
	    PERF_SAMPLE_READ,
	    PERF_SAMPLE_RAW,
	    PERF_SAMPLE_WEIGHT,
	};
	u64 seed = 0x2545f4914f6cdd1dULL, buf[64];
	int round, fast = 0;

	if (check_by_hand())
		return TEST_FAIL;

	for (round = 0; round < ROUNDS; round++) {
		struct perf_event_attr attr = {.size = sizeof(attr)};
		struct evlist *evlist = evlist__new();
		union perf_event *e = (union perf_event *)buf;
		struct perf_sample s, slow;
		struct evsel *evsel;
		u64 time = 0, r = next_rand(&seed), ids[] = {7};
		struct sample_key key;
		int err_time, err_key, err_full, err_slow;
		size_t i;

		TEST_ASSERT_VAL("evlist", evlist);
		for (i = 0; i < ARRAY_SIZE(bits); i++)
			if ((r >> i) & 1 && (i < 16 || !(r >> 40 & 7)))
				attr.sample_type |= bits[i];
		attr.sample_id_all = 1;
		attr.read_format = PERF_FORMAT_ID;
		evsel = evlist__add(evlist, &attr, sizeof(attr), ids, 1);
		TEST_ASSERT_VAL("evsel", evsel);

		for (i = 0; i < ARRAY_SIZE(buf); i++)
			buf[i] = next_rand(&seed);
		e->header.type = PERF_RECORD_SAMPLE;
		e->header.misc = 0;
		/* sizes around what the fields need, some cut short, some not 8-aligned */
		e->header.size = (next_rand(&seed) % 30) * 8 + (next_rand(&seed) % 8 ? 0 : 4);
		if (attr.sample_type & PERF_SAMPLE_CALLCHAIN) {
			/* the callchain nr sits after the u64 fields before it */
			int at = 1 + __builtin_popcountll(attr.sample_type &
							  (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
							   PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
							   PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
							   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
							   PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ));

			if (at < (int)ARRAY_SIZE(buf))
				buf[at] = next_rand(&seed) % 8 ? next_rand(&seed) % 12 : buf[at];
		}
		err_time = evsel__parse_sample_time(evsel, e, &time);
		err_key = evsel__parse_sample_key(evsel, e, &key);
		err_full = evsel__parse_sample(evsel, e, &s);
		err_slow = evsel__parse_sample_slow(evsel, e, &slow);
		/* a fast layout's parse by offsets: every field (both zero the rest) */
		if (err_slow != err_full || (!err_full && memcmp(&s, &slow, sizeof(s)))) {
			pr_debug("sample_type %#llx size %u: parse %d, field by field %d, or "
				 "fields differ\n",
				 (unsigned long long)attr.sample_type, e->header.size, err_full,
				 err_slow);
			evlist__delete(evlist);
			return TEST_FAIL;
		}
		if (!(attr.sample_type & (PERF_SAMPLE_READ | PERF_SAMPLE_RAW | PERF_SAMPLE_WEIGHT)))
			fast++;
		if (err_time != err_full || (!err_full && time != s.time)) {
			pr_debug(
			    "sample_type %#llx size %u: time parse %d %#llx, full parse %d %#llx\n",
			    (unsigned long long)attr.sample_type, e->header.size, err_time,
			    (unsigned long long)time, err_full, (unsigned long long)s.time);
			evlist__delete(evlist);
			return TEST_FAIL;
		}
		if (err_key != err_full ||
		    (!err_full && (key.time != s.time || key.cpu != s.cpu || key.id != s.id))) {
			pr_debug(
			    "sample_type %#llx size %u: key parse %d time %#llx cpu %u id %#llx, "
			    "full parse %d %#llx %u %#llx\n",
			    (unsigned long long)attr.sample_type, e->header.size, err_key,
			    (unsigned long long)key.time, key.cpu, (unsigned long long)key.id,
			    err_full, (unsigned long long)s.time, s.cpu, (unsigned long long)s.id);
			evlist__delete(evlist);
			return TEST_FAIL;
		}
		evlist__delete(evlist);
	}
	pr_debug("%d rounds, about %d through the short cut\n", ROUNDS, fast);
	return TEST_OK;
}

struct test_suite suite__reader_sample_time = {
    .desc = "reader: a record's time for the queue, and the parse of a fast layout, as the full "
	    "sample parse gives them",
    .func = test__reader_sample_time,
};
