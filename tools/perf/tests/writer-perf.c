// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer's files as stock perf 6.1 sees them: the fixture recording
 * in every mode (file, pipe, directory, zstd, other endianness) must be
 * read without a warning, with the records, attrs and features that were
 * written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "../util/writer.h"

struct perf_out {
	char *out;
	char *err;
	int status;
};

static void perf_out__exit(struct perf_out *o)
{
	zfree(&o->out);
	zfree(&o->err);
}

/*
 * Run a stock perf command on @f; @input is what goes after -i.  Output
 * and errors are kept for the checks and shown with -v.
 */
static int perf_out__run(struct perf_out *o, const char *fmt, const char *input)
{
	char *cmd;

	if (asprintf(&cmd, fmt, input) < 0)
		return -ENOMEM;
	o->status = fixture__run(cmd, &o->out, &o->err);
	pr_debug("$ %s\n-> %d\n%s", cmd, o->status, o->err ? o->err : "");
	free(cmd);
	return o->out && o->err ? 0 : -ENOMEM;
}

/* stock perf prints nothing on stderr for a healthy file */
static bool perf_out__clean(struct perf_out *o)
{
	return o->status == 0 && o->err && !o->err[0];
}

/*
 * "perf report -D" ends with the aggregated stats:
 *	"          SAMPLE events:         12"
 */
static long perf_out__nr_events(struct perf_out *o, const char *name)
{
	char needle[64];
	const char *p, *last = NULL;

	snprintf(needle, sizeof(needle), " %s events:", name);
	for (p = o->out; (p = strstr(p, needle)); p++)
		last = p;
	if (!last)
		return 0;
	return strtol(last + strlen(needle), NULL, 10);
}

struct record_name {
	u32 type;
	const char *name;
};

static const struct record_name record_names[] = {
	{ PERF_RECORD_MMAP2, "MMAP2" },	  { PERF_RECORD_COMM, "COMM" },
	{ PERF_RECORD_FORK, "FORK" },	  { PERF_RECORD_EXIT, "EXIT" },
	{ PERF_RECORD_SAMPLE, "SAMPLE" }, { PERF_RECORD_KSYMBOL, "KSYMBOL" },
	{ PERF_RECORD_BPF_EVENT, "BPF_EVENT" }, { PERF_RECORD_TEXT_POKE, "TEXT_POKE" },
	{ PERF_RECORD_FINISHED_ROUND, "FINISHED_ROUND" },
};

/*
 * "PERF_RECORD_TEXT_POKE ffffffff81001000 <sym+off> old len 5 new len 5"
 * followed by the bytes, with @tail after the address somewhere on the
 * same line.
 */
static bool poke_printed(const char *out, u64 addr, const char *tail)
{
	char head[64];
	const char *p;

	snprintf(head, sizeof(head), "PERF_RECORD_TEXT_POKE %llx ", (unsigned long long)addr);
	for (p = out; (p = strstr(p, head)); p++) {
		const char *t = strstr(p, tail), *nl = strchr(p, '\n');

		if (t && nl && t < nl)
			return true;
	}
	return false;
}

static int check_fixture(struct fixture *f, const char *input, bool pipe, bool text_events)
{
	static const char *const report = "perf report -D -i %s";
	static const char *const script =
		"perf script -i %s --show-task-events --show-mmap-events --show-bpf-events "
		"--show-text-poke-events";
	struct perf_out o = { 0 };
	size_t i;
	int ret = TEST_FAIL;

	if (perf_out__run(&o, report, input))
		goto out;
	TEST_ASSERT_VAL("perf report -D exits 0 without a warning", perf_out__clean(&o));
	for (i = 0; i < ARRAY_SIZE(record_names); i++) {
		long n = perf_out__nr_events(&o, record_names[i].name);

		pr_debug("%s: perf counts %ld, written %llu\n", record_names[i].name, n,
			 (unsigned long long)f->nr_records[record_names[i].type]);
		TEST_ASSERT_EQUAL(record_names[i].name, n, f->nr_records[record_names[i].type]);
	}
	perf_out__exit(&o);

	if (perf_out__run(&o, script, input))
		goto out;
	TEST_ASSERT_VAL("perf script exits 0 without a warning", perf_out__clean(&o));
	pr_debug("%s", o.out);
	if (!text_events)
		goto no_text_events;
	/* perf names the site from this machine's kallsyms: check around it */
	TEST_ASSERT_VAL("jump label nop5 -> jmp rel32",
			poke_printed(o.out, FIXTURE_JL5_ADDR, "old len 5 new len 5\n"
			"            Old bytes: 0f 1f 44 00 00\n"
			"            New bytes: e9 7b 00 00 00\n"));
	TEST_ASSERT_VAL("jump label jmp rel32 -> nop5",
			poke_printed(o.out, FIXTURE_JL5_ADDR, "old len 5 new len 5\n"
			"            Old bytes: e9 7b 00 00 00\n"
			"            New bytes: 0f 1f 44 00 00\n"));
	TEST_ASSERT_VAL("jump label nop2 -> jmp rel8",
			poke_printed(o.out, FIXTURE_JL2_ADDR, "old len 2 new len 2\n"
			"            Old bytes: 66 90\n"
			"            New bytes: eb 0e\n"));
	TEST_ASSERT_VAL("jump label jmp rel8 -> nop2",
			poke_printed(o.out, FIXTURE_JL2_ADDR, "old len 2 new len 2\n"
			"            Old bytes: eb 0e\n"
			"            New bytes: 66 90\n"));
	TEST_ASSERT_EQUAL("text pokes printed", fixture__count(o.out, "PERF_RECORD_TEXT_POKE"),
			  f->nr_records[PERF_RECORD_TEXT_POKE]);
	TEST_ASSERT_VAL("ksymbol of prog A",
			strstr(o.out, "PERF_RECORD_KSYMBOL addr ffffffffc0001000 len 256 type 1 "
				      "flags 0x0 name " FIXTURE_BPF_A_NAME));
	TEST_ASSERT_VAL("prog A unregistered",
			strstr(o.out, "PERF_RECORD_KSYMBOL addr ffffffffc0001000 len 256 type 1 "
				      "flags 0x1 name " FIXTURE_BPF_A_NAME));
	TEST_ASSERT_VAL("ksymbol of prog B at the same address",
			strstr(o.out, "PERF_RECORD_KSYMBOL addr ffffffffc0001000 len 128 type 1 "
				      "flags 0x0 name " FIXTURE_BPF_B_NAME));
	TEST_ASSERT_VAL("bpf_event load of prog B",
			strstr(o.out, "PERF_RECORD_BPF_EVENT type 1, flags 0, id 12"));
	TEST_ASSERT_VAL("bpf_event unload of prog A",
			strstr(o.out, "PERF_RECORD_BPF_EVENT type 2, flags 0, id 11"));
no_text_events:
	TEST_ASSERT_VAL("exec comm", strstr(o.out, "PERF_RECORD_COMM exec: fixture32:4243/4243"));
	TEST_ASSERT_VAL("fork", strstr(o.out, "PERF_RECORD_FORK(4243:4243):(4242:4242)"));
	TEST_ASSERT_VAL("mmap2", strstr(o.out, "PERF_RECORD_MMAP2 4243/4243: [0x8048000(0x1000)"));
	TEST_ASSERT_EQUAL("samples printed", fixture__count(o.out, " cpu-clock:"),
			  f->nr_records[PERF_RECORD_SAMPLE]);
	perf_out__exit(&o);

	if (!pipe) {
		if (perf_out__run(&o, "perf evlist -v -i %s", input))
			goto out;
		TEST_ASSERT_VAL("perf evlist exits 0 without a warning", perf_out__clean(&o));
		pr_debug("%s", o.out);
		TEST_ASSERT_VAL("cpu-clock attr", strstr(o.out, "cpu-clock: type: 1, size: 128, "
					"{ sample_period, sample_freq }: 10000, sample_type: IP|TID|TIME|CPU|"
					"PERIOD|REGS_USER|IDENTIFIER"));
		TEST_ASSERT_VAL("identifier", strstr(o.out, "IDENTIFIER"));
		TEST_ASSERT_VAL("dummy attr with text_poke",
				strstr(o.out, "dummy:HG") && strstr(o.out, "text_poke: 1"));
		perf_out__exit(&o);
	}

	if (perf_out__run(&o, "perf report --header-only -I -i %s", input))
		goto out;
	TEST_ASSERT_VAL("perf report --header-only exits 0 without a warning",
			perf_out__clean(&o));
	pr_debug("%s", o.out);
	TEST_ASSERT_VAL("hostname", strstr(o.out, "# hostname : fixture-host"));
	TEST_ASSERT_VAL("os release", strstr(o.out, "# os release : 6.1.0-fixture"));
	TEST_ASSERT_VAL("perf version", strstr(o.out, "# perf version : 6.1.fixture"));
	TEST_ASSERT_VAL("arch", strstr(o.out, "# arch : x86_64"));
	TEST_ASSERT_VAL("nrcpus", strstr(o.out, "# nrcpus online : 2") &&
					  strstr(o.out, "# nrcpus avail : 2"));
	TEST_ASSERT_VAL("cpudesc", strstr(o.out, "# cpudesc : Fixture CPU @ 2.00GHz"));
	TEST_ASSERT_VAL("cpuid", strstr(o.out, "# cpuid : GenuineIntel,6,85,4"));
	TEST_ASSERT_VAL("total memory", strstr(o.out, "# total memory : 4194304 kB"));
	TEST_ASSERT_VAL("cmdline", strstr(o.out, "# cmdline : /usr/bin/perf record -e cpu-clock "
						 "--kcore -o perf.data fixture"));
	TEST_ASSERT_VAL("event desc", strstr(o.out, "# event : name = cpu-clock") &&
					      strstr(o.out, "# event : name = dummy:HG"));
	ret = TEST_OK;
out:
	perf_out__exit(&o);
	return ret;
}

static int run_mode(struct test_suite *t, unsigned int flags)
{
	struct fixture *f;
	char *input;
	int ret;

	if (!fixture__have_perf()) {
		test_skip(t, "stock perf not found");
		return TEST_SKIP;
	}
	f = fixture__new(flags);
	TEST_ASSERT_VAL("fixture written", f);
	if (flags & PERF_WRITER_PIPE) {
		if (asprintf(&input, "- < %s", f->path) < 0)
			input = NULL;
	} else {
		input = strdup(f->path);
	}
	ret = input ? check_fixture(f, input, flags & PERF_WRITER_PIPE,
						!(flags & FIXTURE_NO_TEXT_EVENTS)) : TEST_FAIL;
	free(input);
	fixture__delete(f);
	return ret;
}

static int test__writer_file(struct test_suite *t)
{
	return run_mode(t, 0);
}

static int test__writer_pipe(struct test_suite *t)
{
	return run_mode(t, PERF_WRITER_PIPE);
}

static int test__writer_zstd(struct test_suite *t)
{
	return run_mode(t, PERF_WRITER_ZSTD);
}

static int test__writer_zstd_pipe(struct test_suite *t)
{
	return run_mode(t, PERF_WRITER_ZSTD | PERF_WRITER_PIPE);
}

static int test__writer_directory(struct test_suite *t)
{
	return run_mode(t, PERF_WRITER_DIRECTORY);
}

static int test__writer_swapped(struct test_suite *t)
{
	/*
	 * stock perf 6.1 has no byte swapping for KSYMBOL, BPF_EVENT and
	 * TEXT_POKE ("failed to process type: 17"), so the other-endian
	 * check leaves them out
	 */
	return run_mode(t, PERF_WRITER_SWAPPED | FIXTURE_NO_TEXT_EVENTS);
}

struct test_suite suite__writer_file = { .desc = "writer: file read by stock perf", .func = test__writer_file, };
struct test_suite suite__writer_pipe = { .desc = "writer: pipe mode through perf script -i -", .func = test__writer_pipe, };
struct test_suite suite__writer_zstd = { .desc = "writer: zstd file read by stock perf", .func = test__writer_zstd, };
struct test_suite suite__writer_zstd_pipe = { .desc = "writer: zstd pipe read by stock perf", .func = test__writer_zstd_pipe, };
struct test_suite suite__writer_directory = { .desc = "writer: perf.data directory read by stock perf", .func = test__writer_directory, };
struct test_suite suite__writer_swapped = { .desc = "writer: other-endian file read by stock perf", .func = test__writer_swapped, };
