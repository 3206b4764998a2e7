// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tracing data container: a hand-built one in both byte orders is
 * parsed and a tracepoint sample formatted; a truncated one is refused
 * with an error, not read past its end.
 */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../util/trace-event.h"

static const char header_page[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
				  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char format[] =
    "name: tp_test\n"
    "ID: 42\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:char name[8];\toffset:12;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"value=%d name=%s\", REC->value, REC->name\n";

struct blob {
	u8 buf[4096];
	size_t len;
	size_t formats_end; /* what must be there: the rest is optional */
	bool swap;
};

static void put(struct blob *b, const void *p, size_t n)
{
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static void put32(struct blob *b, u32 v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	put(b, &v, 4);
}

static void put64(struct blob *b, u64 v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	put(b, &v, 8);
}

static void build(struct blob *b, bool big_endian)
{
	static const u8 magic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
	u8 endian[2] = {big_endian, 8};

	b->len = 0;
	b->swap = big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	put(b, magic, sizeof(magic));
	put(b, "0.6", 4);
	put(b, endian, 2);
	put32(b, 4096);
	put(b, "header_page", 12);
	put64(b, strlen(header_page));
	put(b, header_page, strlen(header_page));
	put(b, "header_event", 13);
	put64(b, 0);
	put32(b, 0); /* ftrace formats */
	put32(b, 1); /* systems */
	put(b, "tpsys", 6);
	put32(b, 1);
	put64(b, strlen(format));
	put(b, format, strlen(format));
	b->formats_end = b->len;
	put32(b, 0); /* kallsyms */
	put32(b, 0); /* printk formats */
	put64(b, 0); /* saved cmdlines */
}

static int test__script_trace_event(struct test_suite *t)
{
	u8 raw[20] = {42, 0};
	struct trace_events *te;
	struct blob *b;
	char name[64];
	void *fmt;
	int be;

	if (!trace_events__built_in()) {
		test_skip(t, "libtraceevent is not built in");
		return TEST_SKIP;
	}
	b = calloc(1, sizeof(*b));
	TEST_ASSERT_VAL("alloc", b);
	for (be = 0; be <= 1; be++) {
		const char *text;
		s32 value = 7;

		build(b, be);
		te = trace_events__new(b->buf, b->len, "test.data");
		TEST_ASSERT_VAL("parse", te);
		fmt = trace_events__find(te, 42);
		TEST_ASSERT_VAL("find", fmt);
		trace_events__name(fmt, name, sizeof(name));
		TEST_ASSERT_VAL("name", !strcmp(name, "tpsys:tp_test"));
		if (be != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
			value = __builtin_bswap32(value);
		raw[0] = be ? 0 : 42; /* common_type, in the recording's byte order */
		raw[1] = be ? 42 : 0;
		memcpy(raw + 8, &value, 4);
		memcpy(raw + 12, "abc", 4);
		text = trace_events__format(te, fmt, 0, raw, sizeof(raw));
		pr_debug("formatted: '%s'\n", text);
		TEST_ASSERT_VAL("format", !strcmp(text, "value=7 name=abc"));
		TEST_ASSERT_VAL("no such id", !trace_events__find(te, 43));
		trace_events__delete(te);
	}
	/* every truncation of the required part fails cleanly */
	build(b, false);
	{
		size_t cut;

		for (cut = 0; cut < b->formats_end; cut++) {
			te = trace_events__new(b->buf, cut, "test.data");
			if (te) {
				pr_debug("accepted a container cut at %zu of %zu\n", cut, b->len);
				trace_events__delete(te);
				free(b);
				return TEST_FAIL;
			}
		}
	}
	free(b);
	return TEST_OK;
}

struct test_suite suite__script_trace_event = {
    .desc = "script: tracing data container and tracepoint fields",
    .func = test__script_trace_event,
};
