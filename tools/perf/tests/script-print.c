// SPDX-License-Identifier: GPL-2.0-only
/*
 * The script printers against lines stock perf 6.1 printed for the same
 * values (recorded on the development machine with perf record -e
 * cpu-clock --user-regs=ax,bx,cx,dx,si,di,bp,sp,ip,flags), and the
 * better answers where perf is wrong (ABI 1).
 */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../util/evsel.h"
#include "../util/script-print.h"

struct capture {
	struct script_fields fields;
	struct script_printer p;
	char *text;
	size_t size;
	FILE *fp;
};

static int capture__init(struct capture *c)
{
	memset(c, 0, sizeof(*c));
	script_fields__init(&c->fields);
	c->fp = open_memstream(&c->text, &c->size);
	if (!c->fp || script_buf__init(&c->p.out, c->fp))
		return -1;
	c->p.fields = &c->fields;
	c->p.name_width = 9; /* strlen("cpu-clock") */
	return 0;
}

/* the text printed so far; resets the capture */
static const char *capture__text(struct capture *c)
{
	script_buf__flush(&c->p.out);
	fflush(c->fp);
	return c->text;
}

/* a fresh stream: memstreams cannot be truncated */
static void capture__reset(struct capture *c)
{
	capture__text(c);
	fclose(c->fp);
	free(c->text);
	c->text = NULL;
	c->fp = open_memstream(&c->text, &c->size);
	c->p.out.fp = c->fp;
}

static void capture__exit(struct capture *c)
{
	script_buf__exit(&c->p.out);
	fclose(c->fp);
	free(c->text);
}

#define CHECK_TEXT(c, expected)                                                                \
	do {                                                                                   \
		const char *__t = capture__text(c);                                            \
		if (!__t || strcmp(__t, expected)) {                                           \
			pr_debug("got:\n%s\nexpected:\n%s\n", __t ? __t : "(null)", expected); \
			ret = TEST_FAIL;                                                       \
			goto out;                                                              \
		}                                                                              \
		capture__reset(c);                                                             \
	} while (0)

static const u64 regs64[] = {
    0xff60ff40, 0xff60ff40,	0x300c0140,	0x20080140,	0xbb,
    0x0,	0x7ffeacd88be8, 0x7ffeacd88b50, 0x7faabdea869e, 0x216,
};

/* a 32-bit task in a system call: eax holds -ENOSYS sign-extended to 64 bits */
static const u64 regs32[] = {
    0xffffffffffffffda, 0xf7d48000, 0x179000, 0x5, 0x812, 0x3, 0x22, 0xffebc230, 0xf7f86aed, 0x216,
};

static int test__script_print(struct test_suite *t)
{
	struct evsel evsel = {.name = (char *)"cpu-clock"};
	struct perf_sample sample = {
	    .ip = 0x7faabdea869e,
	    .pid = 6138,
	    .tid = 6138,
	    .time = 331447084977ULL,
	    .period = 250000,
	    .cpumode = PERF_RECORD_MISC_USER,
	};
	struct script_sample_info info = {
	    .comm = "loop64",
	    .loc =
		{
		    .ip = 0x7faabdea869e,
		    .addr = 0x1e69e,
		    .relative = true,
		    .sym = "handle_amd",
		    .sym_start = 0x1e620,
		    .dso = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
		},
	};
	struct capture c;
	int ret = TEST_OK;

	TEST_ASSERT_VAL("capture", !capture__init(&c));
	evsel.attr.type = PERF_TYPE_SOFTWARE;
	evsel.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 PERF_SAMPLE_PERIOD | PERF_SAMPLE_REGS_USER;
	evsel.attr.sample_regs_user = 0x3ff;
	sample.user_regs.abi = 2;
	sample.user_regs.mask = 0x3ff;
	sample.user_regs.regs = regs64;

	/* the default fields lose cpu: the samples have no PERF_SAMPLE_CPU */
	if (script_fields__check_evsel(&c.fields, &evsel, "test.data")) {
		ret = TEST_FAIL;
		goto out;
	}
	script_print__sample(&c.p, &sample, &evsel, &info);
	CHECK_TEXT(
	    &c, "          loop64  6138   331.447084:     250000 cpu-clock:      "
		"7faabdea869e handle_amd+0x7e (/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n");

	c.p.nanosecs = true;
	script_fields__init(&c.fields);
	TEST_ASSERT_VAL("-F", !script_fields__parse(&c.fields, "time,ip,dso"));
	script_print__sample(&c.p, &sample, &evsel, &info);
	CHECK_TEXT(
	    &c,
	    "  331.447084977:      7faabdea869e (/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n");
	c.p.nanosecs = false;

	/* stock perf: -F comm,tid,time,ip,sym,uregs */
	script_fields__init(&c.fields);
	TEST_ASSERT_VAL("-F", !script_fields__parse(&c.fields, "comm,tid,time,ip,sym,uregs"));
	script_print__sample(&c.p, &sample, &evsel, &info);
	CHECK_TEXT(&c, "          loop64  6138   331.447084:      7faabdea869e handle_amd ABI:2 "
		       "   AX:0xff60ff40    BX:0xff60ff40    CX:0x300c0140    DX:0x20080140 "
		       "   SI:0xbb    DI:0x0    BP:0x7ffeacd88be8    SP:0x7ffeacd88b50 "
		       "   IP:0x7faabdea869e FLAGS:0x216 \n");

	/* ABI 1: perf prints AX:0xffffffffffffffda; the task saw eax = 0xffffffda */
	sample.user_regs.abi = 1;
	sample.user_regs.regs = regs32;
	script_fields__init(&c.fields);
	TEST_ASSERT_VAL("-F", !script_fields__parse(&c.fields, "tid,abi,uregs"));
	script_print__sample(&c.p, &sample, &evsel, &info);
	CHECK_TEXT(&c, " 6138  abi:32 ABI:1   eax:0xffffffda   ebx:0xf7d48000   ecx:0x179000 "
		       "  edx:0x5   esi:0x812   edi:0x3   ebp:0x22   esp:0xffebc230 "
		       "  eip:0xf7f86aed eflags:0x216 \n");

	/* ABI 0: a kernel thread has no user registers; perf prints nothing */
	sample.user_regs.abi = 0;
	sample.user_regs.regs = NULL;
	script_print__sample(&c.p, &sample, &evsel, &info);
	CHECK_TEXT(&c, " 6138  abi:none\n");

	/* an ABI word from a future kernel is shown as the number it is */
	sample.user_regs.abi = 7;
	sample.user_regs.regs = regs64;
	script_fields__init(&c.fields);
	TEST_ASSERT_VAL("-F", !script_fields__parse(&c.fields, "abi,uregs"));
	script_print__sample(&c.p, &sample, &evsel, &info);
	TEST_ASSERT_VAL("unknown abi", strstr(capture__text(&c), " abi:7 ABI:7    AX:0xff60ff40 "));
	capture__reset(&c);
	sample.user_regs.abi = 2;

	/* +field keeps the defaults; pid with tid prints perf's pid/tid pair */
	script_fields__init(&c.fields);
	TEST_ASSERT_VAL("+pid", !script_fields__parse(&c.fields, "+pid,+abi"));
	TEST_ASSERT_VAL("check", !script_fields__check_evsel(&c.fields, &evsel, "test.data"));
	script_print__sample(&c.p, &sample, &evsel, &info);
	CHECK_TEXT(
	    &c,
	    "          loop64  6138/6138    331.447084:     250000 cpu-clock:      "
	    "7faabdea869e handle_amd+0x7e (/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2) abi:64\n");

	script_fields__init(&c.fields);
	TEST_ASSERT_VAL("-period", !script_fields__parse(&c.fields, "-period"));
	TEST_ASSERT_VAL("check", !script_fields__check_evsel(&c.fields, &evsel, "test.data"));
	script_print__sample(&c.p, &sample, &evsel, &info);
	CHECK_TEXT(
	    &c, "          loop64  6138   331.447084: cpu-clock:      "
		"7faabdea869e handle_amd+0x7e (/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n");

	/* callchains: comm unaligned, one tab-led line per frame, a blank line after */
	{
		static const struct script_loc frames[] = {
		    {.ip = 0xffffffff816267f4,
		     .sym = "unlink_file_vma_batch_process",
		     .sym_start = 0xffffffff81626780,
		     .addr = 0xffffffff816267f4,
		     .relative = true,
		     .dso = "[kernel.kallsyms]"},
		    {.ip = 0x7f2011e8aca3,
		     .addr = 0x20ca3,
		     .relative = true,
		     .sym = "mmap64",
		     .sym_start = 0x20c90,
		     .dso = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"},
		    {.ip = 0x7f2011e988a8},
		    {.ip = 0},
		};

		evsel.attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
		c.p.use_callchain = true;
		info.has_chain = true;
		info.frames = frames;
		info.nr_frames = ARRAY_SIZE(frames);
		script_fields__init(&c.fields);
		TEST_ASSERT_VAL("check",
				!script_fields__check_evsel(&c.fields, &evsel, "test.data"));
		script_print__sample(&c.p, &sample, &evsel, &info);
		CHECK_TEXT(
		    &c,
		    "loop64  6138   331.447084:     250000 cpu-clock: \n"
		    "\tffffffff816267f4 unlink_file_vma_batch_process+0x74 ([kernel.kallsyms])\n"
		    "\t           20ca3 mmap64+0x13 (/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n"
		    "\t    7f2011e988a8 [unknown] ([unknown])\n"
		    "\t               0 [unknown] ([unknown])\n"
		    "\n");
		script_fields__init(&c.fields);
		TEST_ASSERT_VAL("-F", !script_fields__parse(&c.fields, "comm,tid,ip,sym"));
		info.nr_frames = 1;
		script_print__sample(&c.p, &sample, &evsel, &info);
		CHECK_TEXT(&c,
			   "loop64  6138 \n\tffffffff816267f4 unlink_file_vma_batch_process\n\n");
		/* -G: one line as without callchains */
		c.p.use_callchain = false;
		script_print__sample(&c.p, &sample, &evsel, &info);
		CHECK_TEXT(&c, "          loop64  6138      7faabdea869e handle_amd\n");
	}
out:
	capture__exit(&c);
	return ret;
}

struct test_suite suite__script_print = {
    .desc = "script: sample lines as perf 6.1 prints them",
    .func = test__script_print,
};
