// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sample parsing of every PERF_SAMPLE_* field from records built in
 * memory with known bytes, every truncation of them rejected with
 * -EFAULT (under ASan a read past the record would fail the test), and
 * the id trailer of non-sample records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../util/event.h"
#include "../util/evsel.h"

struct rec {
	u64 w[512];
	int n;
};

static void put(struct rec *r, u64 v)
{
	r->w[r->n++] = v;
}

static void put2(struct rec *r, u32 a, u32 b)
{
	u64 v;

	memcpy(&v, &a, 4);
	memcpy((char *)&v + 4, &b, 4);
	put(r, v);
}

/* an exact-size heap copy, so that ASan sees any read past its end */
static union perf_event *finish(struct rec *r, u32 type, u16 misc, u32 size)
{
	struct perf_event_header h = {.type = type, .misc = misc, .size = size};
	void *e;

	memcpy(r->w, &h, sizeof(h));
	e = malloc(size);
	if (!e)
		return NULL;
	memcpy(e, r->w, size);
	return e;
}

static void set_size(union perf_event *e, u16 size)
{
	memcpy((char *)e + 6, &size, 2);
}

static int test_all_fields(struct evlist *evlist)
{
	struct perf_event_attr attr = {.size = sizeof(attr)};
	struct perf_sample s;
	union perf_event *e;
	struct evsel *evsel;
	struct rec r = {.n = 1};
	u64 ids[] = {42};
	u32 size, cut;
	int err;

	attr.sample_type =
	    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
	    PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
	    PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
	    PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
	    PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |
	    PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			   PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	attr.sample_regs_user = 0x1ff; /* 9 regs */
	attr.sample_regs_intr = 0x5;   /* 2 regs */
	attr.sample_id_all = 1;
	evsel = evlist__add(evlist, &attr, sizeof(attr), ids, 1);
	TEST_ASSERT_VAL("evsel", evsel);
	TEST_ASSERT_EQUAL("id_pos with IDENTIFIER", evsel->id_pos, 0);
	TEST_ASSERT_EQUAL("is_pos with IDENTIFIER", evsel->is_pos, 1);

	put(&r, 42);			/* IDENTIFIER */
	put(&r, 0xffffffff81000010ULL); /* IP */
	put2(&r, 1234, 1235);		/* TID */
	put(&r, 1000000007ULL);		/* TIME */
	put(&r, 0xdead0000);		/* ADDR */
	put(&r, 42);			/* ID */
	put(&r, 43);			/* STREAM_ID */
	put2(&r, 3, 0);			/* CPU */
	put(&r, 4000);			/* PERIOD */
	put(&r, 2);			/* READ: nr */
	put(&r, 111);			/* time_enabled */
	put(&r, 99);			/* time_running */
	put(&r, 500);
	put(&r, 42);
	put(&r, 1); /* value, id, lost */
	put(&r, 600);
	put(&r, 44);
	put(&r, 0);
	put(&r, 3); /* CALLCHAIN nr */
	put(&r, PERF_CONTEXT_KERNEL);
	put(&r, 0xffffffff81000010ULL);
	put(&r, 0xffffffff81000020ULL);
	put2(&r, 12, 0x64636261);	/* RAW: size 12, "abcd" */
	put(&r, 0x6867666500000000ULL); /* ... "efgh" (after 4 zero bytes) */
	put(&r, 2);			/* BRANCH nr */
	put(&r, 7);			/* hw_idx */
	put(&r, 0x1000);
	put(&r, 0x2000);
	put(&r, 1); /* from, to, flags: mispred */
	put(&r, 0x3000);
	put(&r, 0x4000);
	put(&r, 2); /* predicted */
	put(&r, 2); /* REGS_USER abi 64 */
	for (int i = 0; i < 9; i++)
		put(&r, 0x100 + i);
	put(&r, 16); /* STACK_USER size */
	put(&r, 0x1111111111111111ULL);
	put(&r, 0x2222222222222222ULL);
	put(&r, 8);				  /* dyn_size */
	put(&r, (3ULL << 48) | (2ULL << 32) | 1); /* WEIGHT_STRUCT */
	put(&r, 0x12345);			  /* DATA_SRC */
	put(&r, 0x77);				  /* TRANSACTION */
	put(&r, 1);				  /* REGS_INTR abi 32 */
	put(&r, 0xa);
	put(&r, 0xb);
	put(&r, 0x5000);  /* PHYS_ADDR */
	put(&r, 9);	  /* CGROUP */
	put(&r, 4096);	  /* DATA_PAGE_SIZE */
	put(&r, 2097152); /* CODE_PAGE_SIZE */
	put(&r, 8);	  /* AUX size */
	put(&r, 0x0807060504030201ULL);
	size = r.n * 8;

	e = finish(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, size);
	TEST_ASSERT_VAL("alloc", e);
	err = evsel__parse_sample(evsel, e, &s);
	TEST_ASSERT_EQUAL("parse", err, 0);
	TEST_ASSERT_EQUAL("id", s.id, 42);
	TEST_ASSERT_EQUAL("ip", s.ip, 0xffffffff81000010ULL);
	TEST_ASSERT_EQUAL("pid", s.pid, 1234);
	TEST_ASSERT_EQUAL("tid", s.tid, 1235);
	TEST_ASSERT_EQUAL("time", s.time, 1000000007ULL);
	TEST_ASSERT_EQUAL("addr", s.addr, 0xdead0000);
	TEST_ASSERT_EQUAL("stream_id", s.stream_id, 43);
	TEST_ASSERT_EQUAL("cpu", s.cpu, 3);
	TEST_ASSERT_EQUAL("period", s.period, 4000);
	TEST_ASSERT_EQUAL("read nr", s.read.nr, 2);
	TEST_ASSERT_EQUAL("read enabled", s.read.time_enabled, 111);
	TEST_ASSERT_EQUAL("read running", s.read.time_running, 99);
	TEST_ASSERT_EQUAL("read value 0", s.read.values[0], 500);
	TEST_ASSERT_EQUAL("read id 0", s.read.values[1], 42);
	TEST_ASSERT_EQUAL("read lost 0", s.read.values[2], 1);
	TEST_ASSERT_EQUAL("read value 1", s.read.values[3], 600);
	TEST_ASSERT_EQUAL("read id 1", s.read.values[4], 44);
	TEST_ASSERT_EQUAL("callchain nr", s.callchain->nr, 3);
	TEST_ASSERT_EQUAL("callchain marker", s.callchain->ips[0], PERF_CONTEXT_KERNEL);
	TEST_ASSERT_EQUAL("callchain ip", s.callchain->ips[2], 0xffffffff81000020ULL);
	TEST_ASSERT_EQUAL("raw size", s.raw_size, 12);
	TEST_ASSERT_VAL("raw bytes", !memcmp(s.raw_data, "abcd\0\0\0\0efgh", 12));
	TEST_ASSERT_EQUAL("branch nr", s.branch_nr, 2);
	TEST_ASSERT_VAL("hw_idx present", !s.no_hw_idx);
	TEST_ASSERT_EQUAL("branch hw_idx", s.branch_hw_idx, 7);
	TEST_ASSERT_EQUAL("branch 0 from", s.branch_entries[0].from, 0x1000);
	TEST_ASSERT_EQUAL("branch 0 mispred", s.branch_entries[0].flags.mispred, 1);
	TEST_ASSERT_EQUAL("branch 1 to", s.branch_entries[1].to, 0x4000);
	TEST_ASSERT_EQUAL("branch 1 predicted", s.branch_entries[1].flags.predicted, 1);
	TEST_ASSERT_EQUAL("uregs abi", s.user_regs.abi, PERF_REGS_ABI_64_);
	TEST_ASSERT_EQUAL("uregs mask", s.user_regs.mask, 0x1ff);
	TEST_ASSERT_VAL("uregs", s.user_regs.regs);
	TEST_ASSERT_EQUAL("uregs[8]", s.user_regs.regs[8], 0x108);
	TEST_ASSERT_EQUAL("ustack size", s.user_stack.size, 16);
	TEST_ASSERT_EQUAL("ustack dyn", s.user_stack.dyn_size, 8);
	TEST_ASSERT_EQUAL("ustack byte", (u8)s.user_stack.data[15], 0x22);
	TEST_ASSERT_EQUAL("weight", s.weight, 1);
	TEST_ASSERT_EQUAL("ins_lat", s.ins_lat, 2);
	TEST_ASSERT_EQUAL("p_stage_cyc", s.p_stage_cyc, 3);
	TEST_ASSERT_EQUAL("data_src", s.data_src, 0x12345);
	TEST_ASSERT_EQUAL("transaction", s.transaction, 0x77);
	TEST_ASSERT_EQUAL("iregs abi", s.intr_regs.abi, PERF_REGS_ABI_32_);
	TEST_ASSERT_EQUAL("iregs[1]", s.intr_regs.regs[1], 0xb);
	TEST_ASSERT_EQUAL("phys", s.phys_addr, 0x5000);
	TEST_ASSERT_EQUAL("cgroup", s.cgroup, 9);
	TEST_ASSERT_EQUAL("data page", s.data_page_size, 4096);
	TEST_ASSERT_EQUAL("code page", s.code_page_size, 2097152);
	TEST_ASSERT_EQUAL("aux size", s.aux_size, 8);
	TEST_ASSERT_EQUAL("aux byte", ((const u8 *)s.aux_data)[7], 8);
	TEST_ASSERT_EQUAL("cpumode", s.cpumode, PERF_RECORD_MISC_KERNEL);
	free(e);

	/* every shorter record must be refused, never read past */
	for (cut = 8; cut < size; cut += 8) {
		e = finish(&r, PERF_RECORD_SAMPLE, 0, cut);
		TEST_ASSERT_VAL("alloc", e);
		err = evsel__parse_sample(evsel, e, &s);
		free(e);
		if (err != -EFAULT) {
			pr_debug("truncated to %u bytes: %d\n", cut, err);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

static int test_minimal_forms(struct evlist *evlist)
{
	struct perf_event_attr attr = {.size = PERF_ATTR_SIZE_VER5};
	struct perf_sample s;
	union perf_event *e;
	struct evsel *evsel;
	struct rec r = {.n = 1};

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_READ |
			   PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			   PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT;
	attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	attr.sample_regs_user = 0xff0fff;
	evsel = evlist__add(evlist, &attr, PERF_ATTR_SIZE_VER5, NULL, 0);
	TEST_ASSERT_VAL("evsel", evsel);
	TEST_ASSERT_EQUAL("id_pos", evsel->id_pos, 2);

	put(&r, 0x400000); /* IP */
	put2(&r, 7, 8);	   /* TID */
	put(&r, 5);	   /* ID */
	put(&r, 77);	   /* READ value */
	put(&r, 1000);	   /* enabled */
	put(&r, 5);	   /* id */
	put(&r, 1);	   /* BRANCH nr, no hw_idx */
	put(&r, 1);
	put(&r, 2);
	put(&r, 0);
	put(&r, 0);    /* REGS_USER abi none: no regs follow */
	put(&r, 0);    /* STACK_USER size 0: no data, no dyn_size */
	put(&r, 1234); /* WEIGHT */
	e = finish(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, r.n * 8);
	TEST_ASSERT_VAL("alloc", e);
	TEST_ASSERT_EQUAL("parse", evsel__parse_sample(evsel, e, &s), 0);
	TEST_ASSERT_EQUAL("read nr", s.read.nr, 1);
	TEST_ASSERT_EQUAL("read value", s.read.one_value, 77);
	TEST_ASSERT_EQUAL("read id", s.read.one_id, 5);
	TEST_ASSERT_EQUAL("read enabled", s.read.time_enabled, 1000);
	TEST_ASSERT_VAL("no hw_idx", s.no_hw_idx);
	TEST_ASSERT_EQUAL("branch nr", s.branch_nr, 1);
	TEST_ASSERT_EQUAL("branch to", s.branch_entries[0].to, 2);
	TEST_ASSERT_EQUAL("abi none", s.user_regs.abi, 0);
	TEST_ASSERT_VAL("no regs", !s.user_regs.regs);
	TEST_ASSERT_EQUAL("stack size 0", s.user_stack.size, 0);
	TEST_ASSERT_VAL("no stack", !s.user_stack.data);
	TEST_ASSERT_EQUAL("weight", s.weight, 1234);
	TEST_ASSERT_EQUAL("time absent", s.time, (u64)-1);
	free(e);

	/* ABI 1 (32-bit task) with regs; an unknown future ABI value is kept */
	r.n = 1;
	put(&r, 0x8048000);
	put2(&r, 7, 8);
	put(&r, 5);
	put(&r, 77);
	put(&r, 1000);
	put(&r, 5);
	put(&r, 0); /* BRANCH nr 0 */
	put(&r, 1); /* abi 32: 20 regs for mask 0xff0fff */
	for (int i = 0; i < 20; i++)
		put(&r, i);
	put(&r, 0);
	put(&r, 1);
	e = finish(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, r.n * 8);
	TEST_ASSERT_EQUAL("parse abi 1", evsel__parse_sample(evsel, e, &s), 0);
	TEST_ASSERT_EQUAL("abi 1", s.user_regs.abi, 1);
	TEST_ASSERT_EQUAL("reg 15", s.user_regs.regs[15], 15);
	/* too few regs for the mask */
	set_size(e, r.n * 8 - 8 * 4);
	TEST_ASSERT_EQUAL("short regs", evsel__parse_sample(evsel, e, &s), -EFAULT);
	free(e);
	return TEST_OK;
}

static int test_hostile_counts(struct evlist *evlist)
{
	struct perf_event_attr attr = {.size = sizeof(attr)};
	struct perf_sample s;
	union perf_event *e;
	struct evsel *evsel;
	struct rec r = {.n = 1};

	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	evsel = evlist__add(evlist, &attr, sizeof(attr), NULL, 0);
	TEST_ASSERT_VAL("evsel", evsel);
	put(&r, 0x2000000000000001ULL); /* nr * 8 wraps to 8 */
	put(&r, 1);
	e = finish(&r, PERF_RECORD_SAMPLE, 0, r.n * 8);
	TEST_ASSERT_EQUAL("callchain nr overflow", evsel__parse_sample(evsel, e, &s), -EFAULT);
	free(e);

	attr.sample_type = PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	evsel = evlist__add(evlist, &attr, sizeof(attr), NULL, 0);
	r.n = 1;
	put(&r, 0x1000000000000001ULL); /* nr * 16 wraps */
	put(&r, 1);
	put(&r, 2);
	e = finish(&r, PERF_RECORD_SAMPLE, 0, r.n * 8);
	TEST_ASSERT_EQUAL("read nr overflow", evsel__parse_sample(evsel, e, &s), -EFAULT);
	free(e);

	attr.sample_type = PERF_SAMPLE_RAW;
	evsel = evlist__add(evlist, &attr, sizeof(attr), NULL, 0);
	r.n = 1;
	put2(&r, 0xfffffffc, 0);
	e = finish(&r, PERF_RECORD_SAMPLE, 0, r.n * 8);
	TEST_ASSERT_EQUAL("raw size overflow", evsel__parse_sample(evsel, e, &s), -EFAULT);
	free(e);
	return TEST_OK;
}

static int test_id_trailer(struct evlist *evlist)
{
	struct perf_event_attr attr = {.size = sizeof(attr)};
	struct perf_sample s;
	union perf_event *e;
	struct evsel *evsel;
	struct rec r = {.n = 1};

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	attr.sample_id_all = 1;
	evsel = evlist__add(evlist, &attr, sizeof(attr), NULL, 0);
	TEST_ASSERT_VAL("evsel", evsel);
	TEST_ASSERT_EQUAL("is_pos", evsel->is_pos, 3);
	put2(&r, 10, 11);   /* COMM pid, tid */
	put(&r, 0x6f6f66);  /* "foo" */
	put2(&r, 10, 11);   /* trailer: TID */
	put(&r, 123456789); /* TIME */
	put(&r, 77);	    /* ID */
	put(&r, 78);	    /* STREAM_ID */
	put2(&r, 1, 0);	    /* CPU */
	e = finish(&r, PERF_RECORD_COMM, 0, r.n * 8);
	TEST_ASSERT_EQUAL("parse trailer", evsel__parse_sample(evsel, e, &s), 0);
	TEST_ASSERT_EQUAL("trailer pid", s.pid, 10);
	TEST_ASSERT_EQUAL("trailer tid", s.tid, 11);
	TEST_ASSERT_EQUAL("trailer time", s.time, 123456789);
	TEST_ASSERT_EQUAL("trailer id", s.id, 77);
	TEST_ASSERT_EQUAL("trailer stream", s.stream_id, 78);
	TEST_ASSERT_EQUAL("trailer cpu", s.cpu, 1);
	set_size(e, 8 + 24); /* trailer longer than the body */
	TEST_ASSERT_EQUAL("short trailer", evsel__parse_sample(evsel, e, &s), -EFAULT);
	free(e);
	return TEST_OK;
}

static int test_id_lookup(void)
{
	struct perf_event_attr attr = {.size = sizeof(attr)};
	struct evlist *evlist = evlist__new();
	struct evsel *a, *b;
	u64 ida[] = {100, 101}, idb[] = {200};
	struct rec r = {.n = 1};
	union perf_event *e;
	int ret = TEST_FAIL;

	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
	attr.sample_id_all = 1;
	a = evlist__add(evlist, &attr, sizeof(attr), ida, 2);
	attr.config = 1;
	b = evlist__add(evlist, &attr, sizeof(attr), idb, 1);
	if (!a || !b)
		goto out;
	if (evlist__check_consistency(evlist))
		goto out;
	put(&r, 200);
	put(&r, 1);
	put(&r, 2);
	e = finish(&r, PERF_RECORD_SAMPLE, 0, r.n * 8);
	if (evlist__event2evsel(evlist, e) != b)
		goto out_free;
	/* a non-sample record: IDENTIFIER is the last u64 */
	r.n = 1;
	put(&r, 0);
	put(&r, 5);
	put(&r, 101);
	free(e);
	e = finish(&r, PERF_RECORD_LOST_SAMPLES, 0, r.n * 8);
	if (evlist__event2evsel(evlist, e) != a)
		goto out_free;
	/* perf 6.1 shows host and guest counting as :HG when exclude_guest is clear */
	TEST_ASSERT_VAL("names", !strcmp(evsel__name(a), "cycles:HG") &&
				     !strcmp(evsel__name(b), "instructions:HG"));
	/* sample_id_all disagreeing is refused, as by perf */
	attr.sample_id_all = 0;
	if (!evlist__add(evlist, &attr, sizeof(attr), NULL, 0))
		goto out_free;
	if (evlist__check_consistency(evlist) != -EINVAL)
		goto out_free;
	ret = TEST_OK;
out_free:
	free(e);
out:
	evlist__delete(evlist);
	return ret;
}

static int test_names(void)
{
	static const struct {
		u32 type;
		u64 config;
		u8 precise, excl_kernel;
		const char *name;
	} cases[] = {
	    {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, 0, "cpu-clock"},
	    {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, 0, "task-clock"},
	    {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0, 0, "dummy"},
	    {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 2, 0, "cycles:ppH"},
	    {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 1, "instructions:uH"},
	    {PERF_TYPE_HW_CACHE, 0x10000, 0, 0, "L1-dcache-load-misses"},
	    {PERF_TYPE_HW_CACHE, 0x3, 0, 0, "dTLB-loads"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct perf_event_attr attr = {.size = sizeof(attr)};
		struct evlist *evlist = evlist__new();
		struct evsel *evsel;
		bool ok;

		attr.type = cases[i].type;
		attr.config = cases[i].config;
		attr.precise_ip = cases[i].precise;
		attr.exclude_kernel = cases[i].excl_kernel;
		attr.exclude_hv = cases[i].excl_kernel;
		attr.exclude_guest = 1; /* as perf record sets it */
		evsel = evlist__add(evlist, &attr, sizeof(attr), NULL, 0);
		ok = evsel && !strcmp(evsel__name(evsel), cases[i].name);
		if (!ok)
			pr_debug("name %s, want %s\n", evsel ? evsel__name(evsel) : "?",
				 cases[i].name);
		evlist__delete(evlist);
		if (!ok)
			return TEST_FAIL;
	}
	return TEST_OK;
}

static int test__reader_sample(struct test_suite *t)
{
	struct evlist *evlist;
	int ret;

	evlist = evlist__new();
	TEST_ASSERT_VAL("evlist", evlist);
	ret = test_all_fields(evlist);
	if (!ret)
		ret = test_minimal_forms(evlist);
	if (!ret)
		ret = test_hostile_counts(evlist);
	if (!ret)
		ret = test_id_trailer(evlist);
	evlist__delete(evlist);
	if (!ret)
		ret = test_id_lookup();
	if (!ret)
		ret = test_names();
	return ret;
}

struct test_suite suite__reader_sample = {
    .desc = "reader: sample parsing of every PERF_SAMPLE_* field",
    .func = test__reader_sample,
};
