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

/* what follows the formats; NULL: empty */
struct tail {
	const char *format, *kallsyms, *printk, *cmdlines;
};

static void build_tail(struct blob *b, bool big_endian, const struct tail *tail)
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
	put64(b, strlen(tail->format));
	put(b, tail->format, strlen(tail->format));
	b->formats_end = b->len;
	put32(b, tail->kallsyms ? strlen(tail->kallsyms) : 0);
	if (tail->kallsyms)
		put(b, tail->kallsyms, strlen(tail->kallsyms));
	put32(b, tail->printk ? strlen(tail->printk) : 0);
	if (tail->printk)
		put(b, tail->printk, strlen(tail->printk));
	put64(b, tail->cmdlines ? strlen(tail->cmdlines) : 0);
	if (tail->cmdlines)
		put(b, tail->cmdlines, strlen(tail->cmdlines));
}

static void build(struct blob *b, bool big_endian)
{
	struct tail tail = {.format = format};

	build_tail(b, big_endian, &tail);
}

/*
 * Pieces libtraceevent 1.7.1 mishandles, each beside a good one: a field
 * whose type is one word then '(' (leaks it), a type that starts with
 * __attribute__ (NULL to strlen(): a crash in any build), a byte it
 * cannot tokenize after '[' (strcmp(NULL): a crash), an array size that
 * runs into the next lines, __print_flags() of a field that is not
 * declared (NULL dereference: a crash), an operator after a ternary's
 * branch (another NULL dereference, found by the trial parse in a child
 * process), a printk format of two
 * characters (read before the copy), a last printk line without " : "
 * (read past it), a saved_cmdlines pid that overflows (leaks the comm), a
 * kallsyms line without a name.  The container must still be read, the
 * bad event left out, the good pieces kept; the ASan build shows that
 * nothing reached the library's bugs.  A kernel's own
 * "__attribute__((user))" (which the library leaks a ')' of) is decoded.
 */
static int hostile_pieces(struct blob *b)
{
	static const char *const bad_fields[] = {
	    "\tfield:unsigned(char x;\toffset:8;\tsize:1;\tsigned:0;\n",
	    "\tfield:__attribute__((user)) int x;\toffset:8;\tsize:4;\tsigned:1;\n",
	    "\tfield:int;\toffset:8;\tsize:4;\tsigned:1;\n",
	    "\tfield:char x[\001];\toffset:8;\tsize:4;\tsigned:1;\n",
	    "\tfield:char x[4;\toffset:8;\tsize:4;\tsigned:1;\n",
	    /* stands for the print fmt */
	    "print fmt: \"%s\", __print_flags(REC->nosuch, \"|\", { 1, \"A\" })\n",
	    "print fmt: \"%d\", REC->value ? \"+\" : \"\"$ REC->value\n",
	};
	struct tail tail = {
	    .kallsyms = "ffffffff81000000 T _text\nffffffff81000010 T\n",
	    .printk = "0xffffffff81000020 : \"ok %d\\n\"\n0xffffffff81000030 : \"\"\n0x1234",
	    .cmdlines = "99999999999999999999 leaked\n4242 good\n",
	};
	char fmt[1024];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_fields); i++) {
		struct trace_events *te;
		const char *keep = strstr(format, "\tfield:int value;");

		/* the bad field stands where "value" was */
		if (!strncmp(bad_fields[i], "print", 5))
			keep = strstr(format, "print fmt:");
		snprintf(fmt, sizeof(fmt), "%.*s%s%s", (int)(keep - format), format, bad_fields[i],
			 *keep == 'p' ? "" : strstr(keep, "\tfield:char name"));
		tail.format = fmt;
		build_tail(b, false, &tail);
		te = trace_events__new(b->buf, b->len, "test.data", 0x1000);
		TEST_ASSERT_VAL("container with hostile pieces read", te);
		TEST_ASSERT_VAL("event with a bad field left out", !trace_events__find(te, 42));
		trace_events__delete(te);
	}
	tail.format = format;
	build_tail(b, false, &tail);
	{
		struct trace_events *te = trace_events__new(b->buf, b->len, "test.data", 0x1000);

		TEST_ASSERT_VAL("good format beside bad lines", te && trace_events__find(te, 42));
		trace_events__delete(te);
	}
	{
		const char *keep = strstr(format, "\tfield:int value;");
		struct trace_events *te;
		u8 raw[20] = {42, 0};
		s32 value = 7;
		void *ev;

		snprintf(fmt, sizeof(fmt), "%.*s%s", (int)(keep - format), format,
			 "\tfield:int __attribute__((btf_type_tag(\"user\"))) value;\toffset:8;"
			 "\tsize:4;\tsigned:1;\n\nprint fmt: \"value=%d\", REC->value\n");
		tail.format = fmt;
		build_tail(b, false, &tail);
		te = trace_events__new(b->buf, b->len, "test.data", 0x1000);
		ev = te ? trace_events__find(te, 42) : NULL;
		TEST_ASSERT_VAL("a field with __attribute__ decoded", ev);
		memcpy(raw + 8, &value, 4);
		TEST_ASSERT_VAL(
		    "its value",
		    !strcmp(trace_events__format(te, ev, 0, raw, sizeof(raw)), "value=7"));
		trace_events__delete(te);
	}
	return TEST_OK;
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
		te = trace_events__new(b->buf, b->len, "test.data", 0);
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
			te = trace_events__new(b->buf, cut, "test.data", 0);
			if (te) {
				pr_debug("accepted a container cut at %zu of %zu\n", cut, b->len);
				trace_events__delete(te);
				free(b);
				return TEST_FAIL;
			}
		}
	}
	if (hostile_pieces(b)) {
		free(b);
		return TEST_FAIL;
	}
	free(b);
	return TEST_OK;
}

struct test_suite suite__script_trace_event = {
    .desc = "script: tracing data container and tracepoint fields",
    .func = test__script_trace_event,
};
