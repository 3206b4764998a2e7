// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring buffer reader on a ring we fill ourselves, laid out as the
 * kernel lays it out (control page, then a power-of-two data area):
 * records that wrap the end come out whole, a header split across the end
 * too, data_tail follows what was consumed, a record whose size runs past
 * data_head is refused, and LOST records are counted.  Plus the -e parser:
 * names, modifiers and the errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/event.h"
#include "../util/perf-event-open.h"
#include "../util/record-events.h"
#include "../util/record.h"

#define DATA_SIZE 256

struct seen {
	int nr;
	u16 sizes[64];
	u8 first[64];
	u8 last[64];
	int stop_at;
};

static int collect(void *ctx, struct perf_ring *ring __maybe_unused, const union perf_event *ev)
{
	struct seen *s = ctx;
	const u8 *p = (const u8 *)ev;

	if (s->nr == s->stop_at)
		return -EINTR;
	s->sizes[s->nr] = ev->header.size;
	s->first[s->nr] = p[8];
	s->last[s->nr] = p[ev->header.size - 1];
	s->nr++;
	return 0;
}

/* write a record of @size bytes at ring position @pos, body bytes = @fill */
static void put(u8 *data, u64 pos, u32 type, u16 size, u8 fill)
{
	u8 rec[DATA_SIZE];
	struct perf_event_header h = {.type = type, .size = size};

	memset(rec, fill, size);
	memcpy(rec, &h, sizeof(h));
	for (u16 i = 0; i < size; i++)
		data[(pos + i) % DATA_SIZE] = rec[i];
}

static int test_ring(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pc = calloc(1, page + DATA_SIZE);
	struct perf_ring ring;
	struct seen s = {.stop_at = -1};
	u64 pos;

	TEST_ASSERT_VAL("alloc", pc);
	memset(&ring, 0, sizeof(ring));
	ring.base = pc;
	ring.data = (u8 *)pc + page;
	ring.size = DATA_SIZE;
	ring.fd = -1;

	/* start near the end: the second record wraps, the third's header is split */
	pos = 200;
	pc->data_tail = pos;
	put(ring.data, pos, PERF_RECORD_COMM, 32, 0x11);
	pos += 32;
	put(ring.data, pos, PERF_RECORD_SAMPLE, 48, 0x22); /* 232..280: wraps */
	pos += 48;
	put(ring.data, pos, PERF_RECORD_MMAP2, 16, 0x33);
	pos += 16;
	/* LOST: u64 id, u64 lost = 5 */
	{
		u8 rec[24] = {0};
		struct perf_event_header h = {.type = PERF_RECORD_LOST, .size = 24};
		u64 lost = 5;

		memcpy(rec, &h, 8);
		memcpy(rec + 16, &lost, 8);
		for (int i = 0; i < 24; i++)
			ring.data[(pos + i) % DATA_SIZE] = rec[i];
		pos += 24;
	}
	pc->data_head = pos;
	TEST_ASSERT_EQUAL("records", perf_ring__drain(&ring, collect, &s), 4);
	TEST_ASSERT_EQUAL("size 0", s.sizes[0], 32);
	TEST_ASSERT_EQUAL("wrapped size", s.sizes[1], 48);
	TEST_ASSERT_EQUAL("wrapped body start", s.first[1], 0x22);
	TEST_ASSERT_EQUAL("wrapped body end", s.last[1], 0x22);
	TEST_ASSERT_EQUAL("after wrap", s.first[2], 0x33);
	TEST_ASSERT_EQUAL("tail", pc->data_tail, pos);
	TEST_ASSERT_EQUAL("lost", ring.lost, 5);

	/* a header split across the end (the kernel's 8-byte records never do this) */
	pos = 2 * DATA_SIZE + DATA_SIZE - 4;
	pc->data_tail = pos;
	put(ring.data, pos, PERF_RECORD_COMM, 40, 0x44);
	pc->data_head = pos + 40;
	s.nr = 0;
	TEST_ASSERT_EQUAL("split header", perf_ring__drain(&ring, collect, &s), 1);
	TEST_ASSERT_EQUAL("split header size", s.sizes[0], 40);
	TEST_ASSERT_EQUAL("split header body", s.last[0], 0x44);

	/* the callback stops the drain: what it refused stays in the ring */
	pos = 4 * DATA_SIZE;
	pc->data_tail = pos;
	put(ring.data, pos, PERF_RECORD_COMM, 16, 0x55);
	put(ring.data, pos + 16, PERF_RECORD_COMM, 16, 0x66);
	pc->data_head = pos + 32;
	s.nr = 0;
	s.stop_at = 1;
	TEST_ASSERT_EQUAL("stopped", perf_ring__drain(&ring, collect, &s), -EINTR);
	TEST_ASSERT_EQUAL("tail after stop", pc->data_tail, pos + 16);
	s.stop_at = -1;
	s.nr = 0;
	TEST_ASSERT_EQUAL("resumed", perf_ring__drain(&ring, collect, &s), 1);
	TEST_ASSERT_EQUAL("resumed record", s.first[0], 0x66);

	/* a size past head is refused and the ring skipped to head */
	pos = pc->data_head;
	put(ring.data, pos, PERF_RECORD_COMM, 64, 0x77);
	pc->data_head = pos + 24;
	TEST_ASSERT_EQUAL("bad size", perf_ring__drain(&ring, collect, &s), -EBADMSG);
	TEST_ASSERT_EQUAL("skipped", pc->data_tail, pos + 24);
	/* and a zero size cannot loop forever */
	pos = pc->data_head;
	put(ring.data, pos, PERF_RECORD_COMM, 16, 0);
	ring.data[(pos + 6) % DATA_SIZE] = 0;
	ring.data[(pos + 7) % DATA_SIZE] = 0;
	pc->data_head = pos + 16;
	TEST_ASSERT_EQUAL("zero size", perf_ring__drain(&ring, collect, &s), -EBADMSG);
	free(pc);
	return TEST_OK;
}

/* what the span callback was handed: the bytes in order, and whether each piece held whole records */
struct spans {
	u8 bytes[4 * DATA_SIZE];
	size_t len;
	int nr;
	bool cut; /* a piece ended inside a record */
};

static int take_span(void *ctx, const void *bytes, size_t len)
{
	struct spans *sp = ctx;
	const u8 *p = bytes;
	size_t off = 0;

	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;

		memcpy(&h, p + off, sizeof(h));
		if (!h.size)
			break;
		off += h.size;
	}
	sp->cut |= off != len;
	memcpy(sp->bytes + sp->len, bytes, len);
	sp->len += len;
	sp->nr++;
	return 0;
}

static int count_record(void *ctx __maybe_unused, struct perf_ring *ring __maybe_unused,
			const union perf_event *ev __maybe_unused)
{
	return 0;
}

/* records of @sizes put from @pos on, the bytes they make one after the other into @want */
static u64 put_all(struct perf_ring *ring, u64 pos, const u16 *sizes, int nr, u8 *want)
{
	for (int i = 0; i < nr; i++) {
		put(ring->data, pos, PERF_RECORD_COMM, sizes[i], 0x10 + i);
		for (u16 j = 0; j < sizes[i]; j++)
			*want++ = ring->data[(pos + j) % DATA_SIZE];
		pos += sizes[i];
	}
	return pos;
}

/*
 * perf_ring__drain_spans(): the pieces, joined, are the records in order;
 * each piece holds whole records, the one across the ring's end too.
 * perf_ring__drain_raw(): the same bytes in two pieces, the ring's end
 * between them, and the space released.
 * Mutation caught: handing the ring's bytes up to its end as one piece
 * (a record cut in two): "whole records" fails.
 */
static int test_spans(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pc = calloc(1, page + DATA_SIZE);
	struct perf_ring ring;
	static struct spans sp;
	static const u16 across[] = {32, 48, 16, 24, 40}; /* 200: the second crosses the end */
	static const u16 at_end[] = {40, 16, 32, 24};	  /* 200: the end falls between records */
	u8 want[4 * DATA_SIZE];
	u64 pos;

	TEST_ASSERT_VAL("alloc", pc);
	memset(&ring, 0, sizeof(ring));
	ring.base = pc;
	ring.data = (u8 *)pc + page;
	ring.size = DATA_SIZE;
	ring.fd = -1;

	pc->data_tail = 200;
	pc->data_head = put_all(&ring, 200, across, 5, want);
	memset(&sp, 0, sizeof(sp));
	TEST_ASSERT_EQUAL("across: records",
			  perf_ring__drain_spans(&ring, count_record, take_span, &sp), 5);
	TEST_ASSERT_EQUAL("across: bytes", sp.len, 160);
	TEST_ASSERT_VAL("across: in order", !memcmp(sp.bytes, want, sp.len));
	TEST_ASSERT_VAL("across: whole records", !sp.cut);
	TEST_ASSERT_EQUAL("across: pieces", sp.nr, 3);

	pos = 3 * DATA_SIZE + 200;
	pc->data_tail = pos;
	pc->data_head = put_all(&ring, pos, at_end, 4, want);
	memset(&sp, 0, sizeof(sp));
	TEST_ASSERT_EQUAL("at end: records",
			  perf_ring__drain_spans(&ring, count_record, take_span, &sp), 4);
	TEST_ASSERT_VAL("at end: in order", sp.len == 112 && !memcmp(sp.bytes, want, sp.len));
	TEST_ASSERT_VAL("at end: whole records", !sp.cut);

	/* a bad size after two: those two are handed over, nothing past them */
	pos = pc->data_head;
	pc->data_tail = pos;
	put_all(&ring, pos, across, 2, want);
	put(ring.data, pos + 80, PERF_RECORD_COMM, 64, 0x77);
	pc->data_head = pos + 80 + 24;
	memset(&sp, 0, sizeof(sp));
	TEST_ASSERT_EQUAL("bad size", perf_ring__drain_spans(&ring, count_record, take_span, &sp),
			  -EBADMSG);
	TEST_ASSERT_VAL("bad size: the records before",
			sp.len == 80 && !memcmp(sp.bytes, want, 80));

	/* raw: tail to head in two pieces split at the ring's end, a record cut there */
	pos = 5 * DATA_SIZE + 200;
	pc->data_tail = pos;
	pc->data_head = put_all(&ring, pos, across, 5, want);
	memset(&sp, 0, sizeof(sp));
	TEST_ASSERT_EQUAL("raw", perf_ring__drain_raw(&ring, take_span, &sp), 1);
	TEST_ASSERT_VAL("raw: the bytes in order", sp.len == 160 && !memcmp(sp.bytes, want, 160));
	TEST_ASSERT_EQUAL("raw: pieces", sp.nr, 2);
	TEST_ASSERT_VAL("raw: released", pc->data_tail == pc->data_head);
	TEST_ASSERT_EQUAL("raw: empty", perf_ring__drain_raw(&ring, take_span, &sp), 0);
	/* a head more than the ring ahead: nothing handed over, reset to head */
	pc->data_head = pc->data_tail + DATA_SIZE + 8;
	memset(&sp, 0, sizeof(sp));
	TEST_ASSERT_EQUAL("raw: head too far", perf_ring__drain_raw(&ring, take_span, &sp),
			  -EBADMSG);
	TEST_ASSERT_VAL("raw: head too far, reset", !sp.len && pc->data_tail == pc->data_head);
	free(pc);
	return TEST_OK;
}

static int test_events(void)
{
	struct record_event ev;
	u64 mask;

	TEST_ASSERT_EQUAL("cpu-clock", record_event__parse(&ev, "cpu-clock"), 0);
	TEST_ASSERT_EQUAL("type", ev.attr.type, PERF_TYPE_SOFTWARE);
	TEST_ASSERT_EQUAL("config", ev.attr.config, PERF_COUNT_SW_CPU_CLOCK);
	TEST_ASSERT_VAL("no excludes", !ev.attr.exclude_user && !ev.attr.exclude_kernel);
	record_event__exit(&ev);

	TEST_ASSERT_EQUAL("task-clock:u", record_event__parse(&ev, "task-clock:u"), 0);
	TEST_ASSERT_VAL(":u",
			!ev.attr.exclude_user && ev.attr.exclude_kernel && ev.attr.exclude_hv);
	TEST_ASSERT_VAL("name", !strcmp(ev.name, "task-clock:u"));
	record_event__exit(&ev);

	TEST_ASSERT_EQUAL("cycles:kpp", record_event__parse(&ev, "cycles:kpp"), 0);
	TEST_ASSERT_EQUAL("hw", ev.attr.type, PERF_TYPE_HARDWARE);
	TEST_ASSERT_VAL(":k", ev.attr.exclude_user && !ev.attr.exclude_kernel);
	TEST_ASSERT_EQUAL(":pp", ev.attr.precise_ip, 2);
	record_event__exit(&ev);

	TEST_ASSERT_EQUAL("instructions:ppp", record_event__parse(&ev, "instructions:ppp"), 0);
	TEST_ASSERT_EQUAL(":ppp", ev.attr.precise_ip, 3);
	record_event__exit(&ev);

	/* perf's grammar: the forms and the modifier rules record-events.sh cannot reach */
	TEST_ASSERT_EQUAL("raw", record_event__parse(&ev, "r1a3c:k"), 0);
	TEST_ASSERT_VAL("raw attr", ev.attr.type == PERF_TYPE_RAW && ev.attr.config == 0x1a3c &&
					ev.attr.exclude_user && !ev.attr.exclude_guest);
	record_event__exit(&ev);
	TEST_ASSERT_EQUAL("mem:x", record_event__parse(&ev, "mem:0x40:xu"), 0);
	TEST_ASSERT_VAL("mem:x attr", ev.attr.type == PERF_TYPE_BREAKPOINT &&
					  ev.attr.bp_type == 4 && ev.attr.bp_len == 8 &&
					  ev.attr.exclude_kernel && ev.attr.exclude_guest &&
					  ev.has_period);
	TEST_ASSERT_VAL("mem name", !strcmp(ev.name, "mem:0x40:xu"));
	record_event__exit(&ev);
	TEST_ASSERT_EQUAL("G then u", record_event__parse(&ev, "cpu-clock:Gu"), 0);
	/* G chose guest/host: u no longer implies exclude_guest */
	TEST_ASSERT_VAL("G then u attr", !ev.attr.exclude_guest && ev.attr.exclude_host);
	record_event__exit(&ev);
	{
		struct perf_event_attr a = {};

		TEST_ASSERT_EQUAL("split range",
				  record_event__format_place(&a, "config1:0-7,32-35", 0x1ff), 0);
		TEST_ASSERT_EQUAL("split range bits", a.config1, 0xffULL | (1ULL << 32));
		TEST_ASSERT_EQUAL("one bit", record_event__format_place(&a, "config:63", 1), 0);
		TEST_ASSERT_EQUAL("one bit set", a.config, 1ULL << 63);
		TEST_ASSERT_EQUAL("too big", record_event__format_place(&a, "config2:0-3", 16),
				  -ERANGE);
	}
	/* a PMU of this machine's sysfs: its type, a format term, a named event */
	if (!access("/sys/bus/event_source/devices/msr/events/tsc", F_OK)) {
		TEST_ASSERT_EQUAL("msr/tsc/", record_event__parse(&ev, "msr/tsc/"), 0);
		TEST_ASSERT_VAL("msr type", ev.attr.type > PERF_TYPE_BREAKPOINT);
		TEST_ASSERT_VAL("msr name", !strcmp(ev.name, "msr/tsc/"));
		record_event__exit(&ev);
		TEST_ASSERT_EQUAL("msr/event=5/", record_event__parse(&ev, "msr/event=5/"), 0);
		TEST_ASSERT_EQUAL("msr config", ev.attr.config, 5);
		record_event__exit(&ev);
	}

	quiet = true;
	TEST_ASSERT_EQUAL("group", record_event__parse(&ev, "{cpu-clock,task-clock}"), -EINVAL);
	TEST_ASSERT_EQUAL("no pmu", record_event__parse(&ev, "nopmu/x=1/"), -ENOENT);
	TEST_ASSERT_EQUAL("unknown term", record_event__parse(&ev, "cpu-clock/bogus=1/"), -EINVAL);
	TEST_ASSERT_EQUAL("pppp", record_event__parse(&ev, "cycles:pppp"), -EINVAL);
	TEST_ASSERT_EQUAL("bad modifier", record_event__parse(&ev, "cpu-clock:x"), -EINVAL);
	TEST_ASSERT_EQUAL("unknown", record_event__parse(&ev, "no-such-event"), -EINVAL);
	TEST_ASSERT_VAL("no tracepoint", record_event__parse(&ev, "nosys:noevent") < 0);
	quiet = false;

	TEST_ASSERT_EQUAL("regs default", record_opts__parse_regs(NULL, &mask), 0);
	/* perf's x86_64 mask: AX..R15 without DS, ES, FS, GS */
	TEST_ASSERT_EQUAL("regs mask", mask, 0xff0fffULL);
	TEST_ASSERT_EQUAL("regs list", record_opts__parse_regs("ax,sp,ip,r15", &mask), 0);
	TEST_ASSERT_EQUAL("regs list mask", mask,
			  (1ULL << 0) | (1ULL << 7) | (1ULL << 8) | (1ULL << 23));
	quiet = true;
	TEST_ASSERT_EQUAL("bad reg", record_opts__parse_regs("ax,zz", &mask), -EINVAL);
	quiet = false;
	{
		struct record_opts o;

		record_opts__init(&o);
		TEST_ASSERT_EQUAL("dwarf", record_opts__parse_call_graph(&o, "dwarf,4000"), 0);
		TEST_ASSERT_EQUAL("dwarf mode", o.call_graph, CALL_GRAPH_DWARF);
		TEST_ASSERT_EQUAL("dwarf size", o.stack_size, 4000);
		TEST_ASSERT_EQUAL("fp", record_opts__parse_call_graph(&o, "fp"), 0);
		TEST_ASSERT_EQUAL("fp mode", o.call_graph, CALL_GRAPH_FP);
		TEST_ASSERT_EQUAL("fp,12", record_opts__parse_call_graph(&o, "fp,12"), 0);
		TEST_ASSERT_EQUAL("fp,12 depth", o.max_stack, 12);
		/* as perf: past the kernel's limit (perf_event_max_stack) asks for nothing */
		TEST_ASSERT_EQUAL("fp,2000000000",
				  record_opts__parse_call_graph(&o, "fp,2000000000"), 0);
		TEST_ASSERT_EQUAL("fp,2000000000 depth", o.max_stack, 0);
		TEST_ASSERT_EQUAL("lbr", record_opts__parse_call_graph(&o, "lbr"), 0);
		TEST_ASSERT_EQUAL("lbr mode", o.call_graph, CALL_GRAPH_LBR);
		TEST_ASSERT_EQUAL("bad", record_opts__parse_call_graph(&o, "fp,x"), -EINVAL);
		TEST_ASSERT_EQUAL("bad mode", record_opts__parse_call_graph(&o, "lbrx"), -EINVAL);
		TEST_ASSERT_EQUAL("too big", record_opts__parse_call_graph(&o, "dwarf,100000"),
				  -EINVAL);
	}
	return TEST_OK;
}

static int test__record_ring(struct test_suite *t __maybe_unused)
{
	int err = test_ring();

	if (!err)
		err = test_spans();
	return err ? err : test_events();
}

struct test_suite suite__record_ring = {
    .desc = "record: ring buffer reader (wrap, split header, bad sizes) and -e parsing",
    .func = test__record_ring,
};
