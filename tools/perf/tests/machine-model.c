// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine model fed with hand-built side-band records: threads, their
 * names over time, fork inheritance of maps, threads sharing a process's
 * maps, mmaps splitting older ones, anon/heap naming (and the short names
 * perf report prints), and the callchain walk skipping context markers.
 *
 * Mutation caught: maps__insert() keeping maps->last (the last map
 * maps__find() returned): a lookup after an mmap that split it answers
 * with the map the split replaced; dso__set_short_name() taking the
 * basename of /tmp/perf-PID.map too (perf-200.map, not "[JIT] tid 200").
 */
#include <errno.h>
#include <string.h>

#include "machine-records.h"
#include "tests.h"
#include "../util/header.h"
#include "../util/machine.h"

#define MISC_USER PERF_RECORD_MISC_USER
#define MISC_KERNEL PERF_RECORD_MISC_KERNEL

/* the short name (report's Shared Object) of what the last lookup() found */
static char short_name[256];

/* user address @ip of @pid/@tid at @time: the dso name and object address */
static const char *lookup(struct machine *machine, s32 pid, s32 tid, u64 ip, u64 time, u64 *addr)
{
	struct thread *thread = machine__findnew_thread(machine, pid, tid);
	static char name[256];
	struct addr_location al;

	addr_location__init(&al);
	if (!thread)
		return "(no thread)";
	thread__find_symbol(thread, MISC_USER, ip, time, &al);
	snprintf(name, sizeof(name), "%s", al.map ? map__dso_name(al.map) : "(none)");
	snprintf(short_name, sizeof(short_name), "%s", al.map ? map__dso_short(al.map) : "(none)");
	if (addr)
		*addr = al.addr;
	addr_location__exit(&al);
	thread__put(thread);
	return name;
}

static int check_threads(struct machine *m)
{
	union record_buf buf;
	struct perf_sample s;
	struct thread *t;
	u64 addr;

	t = machine__find_thread(m, 0, 0);
	TEST_ASSERT_VAL("swapper exists", t);
	TEST_ASSERT_VAL("swapper name", !strcmp(thread__comm_str(t), "swapper"));
	thread__put(t);

	t = machine__findnew_thread(m, 555, 555);
	TEST_ASSERT_VAL("unknown thread named by tid", t && !strcmp(thread__comm_str(t), ":555"));
	thread__put(t);

	/* parent process 100 runs bash with one text map */
	TEST_ASSERT_EQUAL("comm",
			  machine__process_event(m, record__comm(&buf, 100, 100, "bash", false),
						 sample__at(&s, 5)),
			  0);
	machine__process_event(m,
			       record__mmap2(&buf, MISC_USER, 100, 100, 0x400000, 0x10000, 0x1000,
					     "/nonexistent/bash", NULL),
			       sample__at(&s, 6));

	/* a thread of 100 shares its maps: what it maps, 100 sees */
	machine__process_event(m, record__task(&buf, PERF_RECORD_FORK, 100, 100, 102, 100, 8),
			       sample__at(&s, 8));
	machine__process_event(m,
			       record__mmap2(&buf, MISC_USER, 100, 102, 0x7f0000000000, 0x2000, 0,
					     "/nonexistent/libshared.so", NULL),
			       sample__at(&s, 9));
	TEST_ASSERT_VAL(
	    "thread's mmap seen by its process",
	    !strcmp(lookup(m, 100, 100, 0x7f0000000010, 9, NULL), "/nonexistent/libshared.so"));
	t = machine__find_thread(m, 100, 102);
	TEST_ASSERT_VAL("thread inherits the name", t && !strcmp(thread__comm_str(t), "bash"));
	thread__put(t);

	/* a child process 101 gets a copy */
	machine__process_event(m, record__task(&buf, PERF_RECORD_FORK, 101, 100, 101, 100, 10),
			       sample__at(&s, 10));
	t = machine__find_thread(m, 101, 101);
	TEST_ASSERT_VAL("child exists", t);
	TEST_ASSERT_VAL("child inherits the name", !strcmp(thread__comm_str(t), "bash"));
	thread__put(t);
	TEST_ASSERT_VAL("child inherits the maps",
			!strcmp(lookup(m, 101, 101, 0x400010, 11, &addr), "/nonexistent/bash"));
	TEST_ASSERT_EQUAL("object address = ip - start + pgoff", addr, 0x1010);

	/* exec in the child: a rename and a new image over the old one */
	machine__process_event(m, record__comm(&buf, 101, 101, "ls", true), sample__at(&s, 20));
	machine__process_event(
	    m,
	    record__mmap2(&buf, MISC_USER, 101, 101, 0x400000, 0x8000, 0, "/nonexistent/ls", NULL),
	    sample__at(&s, 21));
	t = machine__find_thread(m, 101, 101);
	TEST_ASSERT_VAL("exec renames", !strcmp(thread__comm_str(t), "ls"));
	TEST_ASSERT_VAL("name before the exec", !strcmp(thread__comm_at(t, 15), "bash"));
	TEST_ASSERT_VAL("name after the exec", !strcmp(thread__comm_at(t, 25), "ls"));
	thread__put(t);
	TEST_ASSERT_VAL("child sees its new image",
			!strcmp(lookup(m, 101, 101, 0x400010, 22, NULL), "/nonexistent/ls"));
	TEST_ASSERT_VAL("the tail of the old image stays in the child",
			!strcmp(lookup(m, 101, 101, 0x409000, 22, &addr), "/nonexistent/bash"));
	TEST_ASSERT_EQUAL("tail keeps its file offset", addr, 0x1000 + 0x9000);
	TEST_ASSERT_VAL("parent keeps its image",
			!strcmp(lookup(m, 100, 100, 0x400010, 22, NULL), "/nonexistent/bash"));

	/* EXIT keeps the thread for late samples */
	machine__process_event(m, record__task(&buf, PERF_RECORD_EXIT, 101, 100, 101, 100, 30),
			       sample__at(&s, 30));
	TEST_ASSERT_VAL("exited thread still resolves",
			!strcmp(lookup(m, 101, 101, 0x400010, 31, NULL), "/nonexistent/ls"));
	return TEST_OK;
}

static int check_overlaps(struct machine *m)
{
	union record_buf buf;
	struct perf_sample s;
	u64 addr;

	machine__process_event(
	    m, record__mmap2(&buf, MISC_USER, 200, 200, 0x10000, 0x10000, 0, "/x/a", NULL),
	    sample__at(&s, 1));
	machine__process_event(
	    m, record__mmap2(&buf, MISC_USER, 200, 200, 0x14000, 0x2000, 0x3000, "/x/b", NULL),
	    sample__at(&s, 2));
	TEST_ASSERT_VAL("head of the split map",
			!strcmp(lookup(m, 200, 200, 0x12000, 3, &addr), "/x/a"));
	TEST_ASSERT_EQUAL("head offset", addr, 0x2000);
	TEST_ASSERT_VAL("new map in the middle",
			!strcmp(lookup(m, 200, 200, 0x15000, 3, &addr), "/x/b"));
	TEST_ASSERT_EQUAL("middle offset", addr, 0x4000);
	TEST_ASSERT_VAL("tail of the split map",
			!strcmp(lookup(m, 200, 200, 0x17000, 3, &addr), "/x/a"));
	TEST_ASSERT_EQUAL("tail offset", addr, 0x7000);
	TEST_ASSERT_VAL("past the end", !strcmp(lookup(m, 200, 200, 0x20000, 3, NULL), "(none)"));

	/* one map covering several: all replaced */
	machine__process_event(
	    m, record__mmap2(&buf, MISC_USER, 200, 200, 0xf000, 0x20000, 0, "/x/c", NULL),
	    sample__at(&s, 4));
	TEST_ASSERT_VAL("covering map wins",
			!strcmp(lookup(m, 200, 200, 0x15000, 5, NULL), "/x/c"));
	TEST_ASSERT_VAL("covering map wins at the edge",
			!strcmp(lookup(m, 200, 200, 0x1f000, 5, NULL), "/x/c"));
	TEST_ASSERT_VAL("short name: the basename", !strcmp(short_name, "c"));

	/* the MMAP (v1) form, anon code and the heap */
	machine__process_event(
	    m, record__mmap(&buf, MISC_USER, 200, 200, 0x50000, 0x1000, 0, "//anon"),
	    sample__at(&s, 6));
	TEST_ASSERT_VAL("anon is perf-PID.map",
			!strcmp(lookup(m, 200, 200, 0x50010, 7, &addr), "/tmp/perf-200.map"));
	TEST_ASSERT_EQUAL("anon addresses are absolute", addr, 0x50010);
	/* perf's dso__set_basename(): what perf report prints as its object */
	TEST_ASSERT_VAL("anon's short name is perf's [JIT] tid PID",
			!strcmp(short_name, "[JIT] tid 200"));
	machine__process_event(
	    m, record__mmap2(&buf, MISC_USER, 200, 200, 0x60000, 0x1000, 0, "[heap]", NULL),
	    sample__at(&s, 8));
	/*
	 * an executable heap (r-x here) is a JIT's, named as anon code: perf's
	 * map__new() does so for [stack] and [heap] too (report-tasks.sh sees
	 * stock perf print an rwxp [stack] as /tmp/perf-PID.map)
	 */
	TEST_ASSERT_VAL("executable heap is perf-PID.map",
			!strcmp(lookup(m, 200, 200, 0x60010, 9, &addr), "/tmp/perf-200.map"));
	TEST_ASSERT_EQUAL("heap addresses are absolute", addr, 0x60010);
	return TEST_OK;
}

struct walked {
	int nr;
	u64 ip[8];
	u8 cpumode[8];
	char dso[8][64];
};

static int walk_cb(struct callchain_frame *frame, void *arg)
{
	struct walked *w = arg;

	if (w->nr >= 8)
		return -E2BIG;
	w->ip[w->nr] = frame->ip;
	w->cpumode[w->nr] = frame->cpumode;
	snprintf(w->dso[w->nr], sizeof(w->dso[0]), "%s",
		 frame->al.map ? map__dso_name(frame->al.map) : "(none)");
	w->nr++;
	return 0;
}

static int check_callchain(struct machine *m)
{
	union record_buf buf;
	struct perf_sample s;
	struct {
		u64 nr;
		u64 ips[6];
	} chain = {6,
		   {PERF_CONTEXT_KERNEL, 0xffffffff81000100ULL, PERF_CONTEXT_USER, 0x12000,
		    0x99999999, 0}};
	struct walked w = {.nr = 0};
	struct thread *t;

	machine__process_event(m,
			       record__mmap(&buf, MISC_KERNEL, -1, 0, 0xffffffff81000000ULL,
					    0x1000000, 0xffffffff81000000ULL,
					    "[kernel.kallsyms]_text"),
			       sample__at(&s, 0));
	sample__at(&s, 10);
	s.callchain = (const struct ip_callchain *)&chain;
	t = machine__findnew_thread(m, 200, 200);
	TEST_ASSERT_VAL("thread", t);
	TEST_ASSERT_EQUAL("walk", thread__walk_callchain(t, &s, walk_cb, &w), 0);
	TEST_ASSERT_EQUAL("markers are not frames", w.nr, 4);
	TEST_ASSERT_EQUAL("kernel frame", w.cpumode[0], MISC_KERNEL);
	TEST_ASSERT_VAL("kernel dso", !strcmp(w.dso[0], "[kernel.kallsyms]"));
	TEST_ASSERT_EQUAL("user frame", w.cpumode[1], MISC_USER);
	TEST_ASSERT_VAL("user dso", !strcmp(w.dso[1], "/x/c"));
	TEST_ASSERT_VAL("unmapped", !strcmp(w.dso[2], "(none)"));
	TEST_ASSERT_EQUAL("zero frame kept", w.ip[3], 0);

	/* a marker perf does not know: the whole chain is dropped */
	chain.ips[2] = (u64)-42;
	w.nr = 0;
	TEST_ASSERT_EQUAL("walk", thread__walk_callchain(t, &s, walk_cb, &w), 0);
	TEST_ASSERT_EQUAL("corrupt chain dropped", w.nr, 0);
	thread__put(t);
	return TEST_OK;
}

static int test__machine_model(struct test_suite *t)
{
	struct perf_env env = {.os_release = (char *)"0.0-not-this-kernel"};
	struct machine *m = machine__new(&env, NULL);
	int ret;

	TEST_ASSERT_VAL("machine__new", m);
	ret = check_threads(m);
	if (!ret)
		ret = check_overlaps(m);
	if (!ret)
		ret = check_callchain(m);
	if (!ret) {
		const struct machine_stats *st = machine__stats(m);

		if (st->nr_fork != 2 || st->nr_exit != 1 || st->nr_comm != 2)
			ret = TEST_FAIL;
	}
	machine__delete(m);
	return ret;
}

struct test_suite suite__machine_model = {
    .desc = "Machine model: threads, fork, exec, mmap splitting, callchain walk",
    .func = test__machine_model,
};
