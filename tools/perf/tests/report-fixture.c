// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke report on the writer's fixture recording (tests/fixture.h),
 * whose model says what each sample is: one sample in BPF program A and,
 * after A was unloaded and B loaded at the same address, one in B.  The
 * profile must count one sample for each program (attributed at the
 * sample's time, not to whichever program held the address last), --time
 * must keep only A's before B's load, and the abi key must count the
 * fixture's samples of each ABI.
 *
 * Mutation caught: entries keyed by the symbol's start address alone
 * (the object, name and end left out of key_hash() and key_equal()):
 * the samples of A and B, at one address, become one entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"

/* the Samples column of the row whose last column is @key, -1 if none */
static long row_samples(const char *out, const char *key)
{
	const char *line = out;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		size_t klen = strlen(key);
		char pct[16];
		long n;

		/* a column other than the symbol is padded to its width */
		while (len && line[len - 1] == ' ')
			len--;
		if (line[0] != '#' && len > klen && !strncmp(line + len - klen, key, klen) &&
		    line[len - klen - 1] == ' ' && sscanf(line, "%15s %ld", pct, &n) == 2)
			return n;
		line = end ? end + 1 : NULL;
	}
	return -1;
}

static char *run_report(const char *path, const char *opts)
{
	char *cmd, *out = NULL;
	int st;

	if (asprintf(&cmd, "'%s' report -i '%s' --no-changes -n %s", test_self_exe(), path, opts) <
	    0)
		return NULL;
	st = fixture__run(cmd, &out, NULL);
	free(cmd);
	if (st) {
		free(out);
		return NULL;
	}
	return out;
}

static int test__report_fixture(struct test_suite *t)
{
	struct fixture *f = fixture__new(0);
	char *out = NULL, time_a[64];
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("fixture", f);
	out = run_report(f->path, "--sort sym");
	if (!out) {
		pr_debug("report --sort sym failed\n");
		goto out;
	}
	if (row_samples(out, "[k] " FIXTURE_BPF_A_NAME) != 1 ||
	    row_samples(out, "[k] " FIXTURE_BPF_B_NAME) != 1) {
		pr_debug("not one sample in each BPF program:\n%s", out);
		goto out;
	}
	free(out);

	/* up to prog A's unload: B's sample is later */
	snprintf(time_a, sizeof(time_a), "--sort sym --time ,%llu.%09llu",
		 (FIXTURE_T0 + 2200) / 1000000000ULL, (FIXTURE_T0 + 2200) % 1000000000ULL);
	out = run_report(f->path, time_a);
	if (!out || row_samples(out, "[k] " FIXTURE_BPF_A_NAME) != 1 ||
	    row_samples(out, "[k] " FIXTURE_BPF_B_NAME) != -1) {
		pr_debug("%s: not A alone:\n%s", time_a, out ?: "");
		goto out;
	}
	free(out);

	out = run_report(f->path, "--sort abi");
	if (!out || row_samples(out, "64") != f->nr_samples_abi[2] ||
	    row_samples(out, "32") != f->nr_samples_abi[1] ||
	    row_samples(out, "none") != f->nr_samples_abi[0]) {
		pr_debug("abi rows not %d/%d/%d (none/32/64):\n%s", f->nr_samples_abi[0],
			 f->nr_samples_abi[1], f->nr_samples_abi[2], out ?: "");
		goto out;
	}
	ret = TEST_OK;
out:
	free(out);
	fixture__delete(f);
	return ret;
}

struct test_suite suite__report_fixture = {
    .desc = "report: BPF programs reusing an address split by time, abi counts of the fixture",
    .func = test__report_fixture,
};
