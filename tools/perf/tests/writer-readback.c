// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fixture in every mode the writer has (file, pipe, directory, zstd,
 * other endian, and their mixes) must read back identically through this
 * project's own `script`: the byte order and the container may not change
 * a single output line.  This also covers what stock perf 6.1 cannot
 * read: other-endian pipes (it does not swap HEADER_FEATURE ids) and
 * other-endian KSYMBOL/BPF_EVENT/TEXT_POKE records (it has no swap for
 * them), and other-endian MMAP2 prot/flags (it prints "---p").
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
	fixture__delete(f);
	TEST_ASSERT_VAL("script reads the native file", want);
	pr_debug("%s", want);
	TEST_ASSERT_VAL("text pokes listed", strstr(want, "PERF_RECORD_TEXT_POKE"));
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
