// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the sample parser, for any sample_type.  The input's first
 * 28 bytes make the attr (sample_type, read_format, the register masks,
 * branch_sample_type, sample_id_all) and the record header's type and
 * misc; the rest is the record's body, copied into an allocation of
 * exactly the record's size so that a read past it is a sanitizer report.
 *
 * Beyond not crashing, a parse that succeeds must keep every pointer it
 * sets inside the record, agree with evsel__parse_sample_time() (verdict
 * and time) and evsel__parse_sample_key() (verdict, time, cpu, id), and find the id where the attr's id_pos / is_pos say it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "../util/event.h"
#include "../util/evsel-time.h"
#include "../util/evsel.h"

/* newer than some uapi headers (Linux 6.8) */
#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS (1ULL << 19)
#endif

struct fuzz_record {
	const u8 *start;
	const u8 *end;
};

static bool fsm__inside(const struct fuzz_record *r, const void *p, u64 len)
{
	const u8 *b = p;

	return b >= r->start && b <= r->end && len <= (u64)(r->end - b);
}

static int fsm__check(const struct evsel *evsel, const union perf_event *event,
		      const struct perf_sample *s)
{
	struct fuzz_record r = {(const u8 *)event, (const u8 *)event + event->header.size};
	u64 n, v;

#define FSM_INSIDE(what, p, len)                                                       \
	do {                                                                           \
		if ((p) && !fsm__inside(&r, (p), (len))) {                             \
			fprintf(stderr, "fuzz sample: %s outside the record\n", what); \
			return FUZZ_BUG;                                               \
		}                                                                      \
	} while (0)

	if (s->callchain) {
		FSM_INSIDE("callchain nr", s->callchain, 8);
		FSM_INSIDE("callchain", s->callchain->ips, s->callchain->nr * 8);
	}
	FSM_INSIDE("raw data", s->raw_data, s->raw_size);
	FSM_INSIDE("branch stack", s->branch_entries, s->branch_nr * sizeof(struct branch_entry));
	FSM_INSIDE("user regs", s->user_regs.regs,
		   8 * (u64)__builtin_popcountll(s->user_regs.mask));
	FSM_INSIDE("intr regs", s->intr_regs.regs,
		   8 * (u64)__builtin_popcountll(s->intr_regs.mask));
	FSM_INSIDE("user stack", s->user_stack.data, s->user_stack.size);
	FSM_INSIDE("aux data", s->aux_data, s->aux_size);
	if (s->read.values && evsel->attr.read_format & PERF_FORMAT_GROUP) {
		u64 rf = evsel->attr.read_format;

		n = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		FSM_INSIDE("read values", s->read.values, s->read.nr * n * 8);
	}
#undef FSM_INSIDE

	/*
	 * where the attr says the id is, as perf finds it without parsing;
	 * with both ID and IDENTIFIER the later slot wins (the kernel writes
	 * the same id in both), as in perf
	 */
	if (__builtin_popcountll(evsel->attr.sample_type &
				 (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) != 1)
		return 0;
	if (event->header.type == PERF_RECORD_SAMPLE && evsel->id_pos >= 0) {
		memcpy(&v, r.start + 8 + 8 * evsel->id_pos, 8);
		if (v != s->id) {
			fprintf(stderr, "fuzz sample: id %#llx, at id_pos %d is %#llx\n",
				(unsigned long long)s->id, evsel->id_pos, (unsigned long long)v);
			return FUZZ_BUG;
		}
	}
	if (event->header.type != PERF_RECORD_SAMPLE && evsel->attr.sample_id_all &&
	    evsel->is_pos >= 0) {
		memcpy(&v, r.end - 8 * evsel->is_pos, 8);
		if (v != s->id) {
			fprintf(stderr, "fuzz sample: trailer id %#llx, at is_pos %d is %#llx\n",
				(unsigned long long)s->id, evsel->is_pos, (unsigned long long)v);
			return FUZZ_BUG;
		}
	}
	return 0;
}

int fuzz__sample(const u8 *data, size_t size)
{
	struct fuzz_input in = {data, size};
	struct perf_event_attr attr = {.size = sizeof(attr)};
	union perf_event *event;
	struct perf_sample s;
	struct evlist *evlist;
	struct evsel *evsel;
	u64 flags, misc, time = 0;
	size_t body, rec_size;
	int err, err_time, ret = 0;

	attr.sample_type = fuzz_input__u64(&in, 8);
	attr.read_format = fuzz_input__u64(&in, 1) & 0x1f;
	attr.sample_regs_user = fuzz_input__u64(&in, 8);
	attr.sample_regs_intr = fuzz_input__u64(&in, 8);
	flags = fuzz_input__u64(&in, 1);
	if (flags & 1)
		attr.branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	if (flags & 2)
		attr.branch_sample_type |= PERF_SAMPLE_BRANCH_COUNTERS;
	attr.sample_id_all = !!(flags & 4);
	misc = fuzz_input__u64(&in, 2);
	attr.sample_period = 4000;

	evlist = evlist__new();
	if (!evlist)
		return 0;
	evsel = evlist__add(evlist, &attr, sizeof(attr), NULL, 0);
	if (!evsel)
		goto out_delete;

	body = in.left > 0xffff - 8 ? 0xffff - 8 : in.left;
	rec_size = 8 + body;
	event = malloc(rec_size);
	if (!event)
		goto out_delete;
	/* type 9 (SAMPLE) most of the time, else another kernel record with a trailer */
	event->header.type = flags & 0x18 ? PERF_RECORD_SAMPLE : 1 + (flags >> 5) % 20;
	event->header.misc = misc;
	event->header.size = rec_size;
	memcpy((u8 *)event + 8, in.p, body);

	err = evsel__parse_sample(evsel, event, &s);
	if (!err)
		ret = fsm__check(evsel, event, &s);
	err_time = evsel__parse_sample_time(evsel, event, &time);
	if (!ret && (err_time != err || (!err && time != s.time))) {
		fprintf(stderr,
			"fuzz sample: parse_sample %d (time %#llx), parse_sample_time %d (%#llx)\n",
			err, (unsigned long long)s.time, err_time, (unsigned long long)time);
		ret = FUZZ_BUG;
	}
	if (!ret) {
		struct sample_key key;
		int err_key = evsel__parse_sample_key(evsel, event, &key);

		if (err_key != err ||
		    (!err && (key.time != s.time || key.cpu != s.cpu || key.id != s.id))) {
			fprintf(stderr,
				"fuzz sample: parse_sample %d, parse_sample_key %d disagree\n", err,
				err_key);
			ret = FUZZ_BUG;
		}
	}
	free(event);
out_delete:
	evlist__delete(evlist);
	return ret;
}
