// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fixture in every mode the writer has (file, pipe, directory, zstd,
 * other endian, and their mixes) must read back identically through this
 * project's own `script`: the byte order and the container may not change
 * a single output line.  This also covers what stock perf 6.1 cannot
 * read: other-endian pipes (it does not swap HEADER_FEATURE ids) and
 * other-endian KSYMBOL/BPF_EVENT/TEXT_POKE records (it has no swap for
 * them), and other-endian MMAP2 prot/flags (it prints "---p").  The
 * native output is itself checked against what the fixture wrote (its
 * record counts) and lines derived by hand from fixture.h: the pokes'
 * bytes (jmp rel32 0x7b to JL5 + 0x80, jmp rel8 0x0e to JL2 + 0x10) and
 * the first KSYMBOL.
 * Mutation caught: a text poke's new bytes printed from its old bytes
 * (every mode alike, so the comparison between modes cannot see it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "../util/writer.h"

static char *script_output(struct fixture *f, bool pipe)
{
	char *cmd, *out = NULL, *err = NULL;
	int status;

	if (asprintf(
		&cmd,
		"'%s' script --show-task-events --show-mmap-events "
		"--show-bpf-events --show-text-poke-events -F comm,tid,time,event,ip,sym,uregs "
		"-i %s%s",
		test_self_exe(), pipe ? "- < " : "", f->path) < 0)
		return NULL;
	status = fixture__run(cmd, &out, &err);
	pr_debug("$ %s -> %d\n%s", cmd, status, err ? err : "");
	free(cmd);
	free(err);
	if (status) {
		free(out);
		return NULL;
	}
	return out;
}

static int count_lines(const char *out, const char *needle)
{
	int n = 0;

	for (; (out = strstr(out, needle)); out += strlen(needle))
		n++;
	return n;
}

/* the native output against the fixture's description */
static int check_by_hand(const struct fixture *f, const char *out)
{
	char ksym[256], poke5[128], poke2[128];
	static const char *const lines[] = {
	    "            Old bytes: 0f 1f 44 00 00\n            New bytes: e9 7b 00 00 00\n",
	    "            Old bytes: 66 90\n            New bytes: eb 0e\n",
	    "            Old bytes: e9 7b 00 00 00\n            New bytes: 0f 1f 44 00 00\n",
	    "            Old bytes: eb 0e\n            New bytes: 66 90\n",
	};
	size_t i;

	snprintf(ksym, sizeof(ksym),
		 "PERF_RECORD_KSYMBOL addr %llx len %d type 1 flags 0x0 name %s\n",
		 FIXTURE_BPF_ADDR, FIXTURE_BPF_A_LEN, FIXTURE_BPF_A_NAME);
	/*
	 * The symbol between address and lengths is the running kernel's
	 * when its _text is where the fixture's kernel was (as in perf), so
	 * it is not part of what is matched.
	 */
	snprintf(poke5, sizeof(poke5), "PERF_RECORD_TEXT_POKE %llx ", FIXTURE_JL5_ADDR);
	snprintf(poke2, sizeof(poke2), "PERF_RECORD_TEXT_POKE %llx ", FIXTURE_JL2_ADDR);
	TEST_ASSERT_EQUAL("a line per TEXT_POKE", count_lines(out, "PERF_RECORD_TEXT_POKE "),
			  f->nr_records[PERF_RECORD_TEXT_POKE]);
	TEST_ASSERT_EQUAL("a line per KSYMBOL", count_lines(out, "PERF_RECORD_KSYMBOL "),
			  f->nr_records[PERF_RECORD_KSYMBOL]);
	TEST_ASSERT_EQUAL("a line per BPF_EVENT", count_lines(out, "PERF_RECORD_BPF_EVENT "),
			  f->nr_records[PERF_RECORD_BPF_EVENT]);
	TEST_ASSERT_EQUAL("a line per sample", count_lines(out, " cpu-clock: "),
			  f->nr_records[PERF_RECORD_SAMPLE]);
	TEST_ASSERT_EQUAL("JL5 pokes", count_lines(out, poke5), 2);
	TEST_ASSERT_EQUAL("JL2 pokes", count_lines(out, poke2), 2);
	TEST_ASSERT_EQUAL("5-byte pokes", count_lines(out, " old len 5 new len 5\n"), 2);
	TEST_ASSERT_EQUAL("2-byte pokes", count_lines(out, " old len 2 new len 2\n"), 2);
	TEST_ASSERT_VAL("prog A's KSYMBOL", strstr(out, ksym));
	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		if (!strstr(out, lines[i])) {
			pr_debug("no poke with\n%s", lines[i]);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

static int test__writer_readback(struct test_suite *t)
{
	static const unsigned int modes[] = {
	    PERF_WRITER_PIPE,
	    PERF_WRITER_ZSTD,
	    PERF_WRITER_ZSTD | PERF_WRITER_PIPE,
	    PERF_WRITER_SWAPPED,
	    PERF_WRITER_SWAPPED | PERF_WRITER_PIPE,
	    PERF_WRITER_SWAPPED | PERF_WRITER_ZSTD | PERF_WRITER_PIPE,
	};
	struct fixture *f;
	char *want, *got;
	size_t i;
	int ret = TEST_OK;

	if (asprintf(&want, "'%s' script -h", test_self_exe()) < 0)
		return TEST_FAIL;
	i = fixture__run(want, NULL, NULL);
	free(want);
	if (i) {
		test_skip(t, "script subcommand not built yet");
		return TEST_SKIP;
	}
	f = fixture__new(0);
	TEST_ASSERT_VAL("fixture", f);
	want = script_output(f, false);
	if (!want || check_by_hand(f, want)) {
		pr_debug("%s", want ?: "script cannot read the native file\n");
		fixture__delete(f);
		free(want);
		return TEST_FAIL;
	}
	fixture__delete(f);
	pr_debug("%s", want);
	TEST_ASSERT_VAL("ABI 1 sample listed", strstr(want, "ABI:1"));

	for (i = 0; ret == TEST_OK && i < ARRAY_SIZE(modes); i++) {
		f = fixture__new(modes[i]);
		if (!f) {
			ret = TEST_FAIL;
			break;
		}
		got = script_output(f, modes[i] & PERF_WRITER_PIPE);
		if (!got || strcmp(got, want)) {
			pr_debug("mode %#x: output differs:\n%s", modes[i], got ? got : "(failed)");
			ret = TEST_FAIL;
		}
		free(got);
		fixture__delete(f);
	}
	free(want);
	return ret;
}

struct test_suite suite__writer_readback = {
    .desc = "writer: every mode reads back identically through script",
    .func = test__writer_readback,
};
