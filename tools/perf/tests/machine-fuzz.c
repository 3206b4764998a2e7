// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hostile side-band: random records of the types the machine handles
 * (random sizes, unterminated names, absurd lengths, addresses that wrap)
 * and random lookups and callchain walks in between must neither crash nor
 * leak (run it under the ASan build).  Deterministic: a fixed seed.
 */
#include <stdlib.h>
#include <string.h>

#include "machine-records.h"
#include "tests.h"
#include "../util/header.h"
#include "../util/machine.h"

static u64 rnd(u64 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static int walk_cb(struct callchain_frame *frame, void *arg)
{
	u64 *sum = arg;

	*sum += callchain_frame__addr(frame) + (frame->al.sym ? frame->al.sym->start : 0);
	return 0;
}

static int test__machine_fuzz(struct test_suite *t)
{
	static const u32 types[] = {
	    PERF_RECORD_MMAP,	   PERF_RECORD_MMAP2,	  PERF_RECORD_COMM,
	    PERF_RECORD_FORK,	   PERF_RECORD_EXIT,	  PERF_RECORD_KSYMBOL,
	    PERF_RECORD_BPF_EVENT, PERF_RECORD_TEXT_POKE, PERF_RECORD_LOST};
	struct perf_env env = {.os_release = (char *)"0.0-not-this-kernel"};
	struct machine *m = machine__new(&env, NULL);
	union record_buf buf;
	u64 state = 0x9e3779b97f4a7c15ULL, sum = 0;
	int i;

	TEST_ASSERT_VAL("machine__new", m);
	for (i = 0; i < 20000; i++) {
		struct perf_sample s;
		size_t size = 8 + (rnd(&state) % 32) * 8, j;
		union perf_event *e = &buf.event;

		for (j = 0; j < size; j += 8) {
			u64 v = rnd(&state);

			/* small pids and tids so that records meet the same threads */
			if (j == 8)
				v = (v % 8) | ((v >> 32) % 8) << 32;
			memcpy(buf.bytes + j, &v, 8);
		}
		e->header.type = types[rnd(&state) % ARRAY_SIZE(types)];
		e->header.size = size;
		e->header.misc = rnd(&state) % 3 ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
		sample__at(&s, rnd(&state) % 1000);
		machine__process_event(m, e, &s);

		if (i % 7 == 0) {
			struct {
				u64 nr;
				u64 ips[8];
			} chain;
			struct thread *th =
			    machine__findnew_thread(m, rnd(&state) % 8, rnd(&state) % 8);
			struct addr_location al;

			TEST_ASSERT_VAL("findnew", th);
			chain.nr = 8;
			/* PERF_CONTEXT_KERNEL or _USER every third entry */
			for (j = 0; j < 8; j++)
				chain.ips[j] =
				    j % 3 ? rnd(&state) : (u64)-128 - 384 * (rnd(&state) % 2);
			sample__at(&s, rnd(&state) % 1000);
			s.callchain = (const struct ip_callchain *)&chain;
			thread__walk_callchain(th, &s, walk_cb, &sum);
			addr_location__init(&al);
			thread__find_symbol(th, 1 + rnd(&state) % 2, rnd(&state), s.time, &al);
			sum += al.addr + (thread__comm_str(th)[0] == 0);
			addr_location__exit(&al);
			thread__put(th);
		}
	}
	pr_debug("checksum %#llx, %llu records ignored\n", (unsigned long long)sum,
		 (unsigned long long)machine__stats(m)->nr_ignored);
	machine__delete(m);
	return TEST_OK;
}

struct test_suite suite__machine_fuzz = {
    .desc = "Machine model: random hostile side-band records",
    .func = test__machine_fuzz,
};
