// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stock perf as the oracle: on a kcore_dir recording, perf 6.1's
 * `perf script -F ip,insn` (which writes each TEXT_POKE's new bytes over
 * its copy of kcore, in time order) and our `insn` printer agree byte for
 * byte when the kcore was copied before the recording.  When it was
 * copied later (during the recording, or at its end), perf shows the
 * later bytes for samples taken before those pokes: there we check the
 * generator's model instead, and that perf is wrong exactly there.
 * The sample at the armed kprobe (no slot in these recordings) is ours
 * "cc [kprobed]" where perf prints "cc": the bytes are compared without
 * the tag, and the tag must be on that one sample alone.
 * Mutation caught: text_poke__scnprintf_insn() not asking
 * kprobe_site__find(): the armed kprobe's sample is not tagged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "fixture-kernel.h"
#include "../util/text-image.h"
#include "../util/text-poke-print.h"

/* the line perf script -F ip,insn prints for sample @i, from the model */
static void model_line(const struct fixture_kernel_sample *e, char *buf, size_t size)
{
	int i, n = snprintf(buf, size, " %16llx insn:", (unsigned long long)e->ip);

	for (i = 0; i < e->len; i++)
		n += snprintf(buf + n, size - n, " %02x", e->bytes[i]);
}

static int check_one(unsigned int flags, int expect_perf_wrong)
{
	struct fixture_kernel *fk = fixture_kernel__new(flags);
	char *cmd = NULL, *out = NULL, *line, *save = NULL, *tag;
	struct text_image *ti = NULL;
	int i, perf_wrong = 0, kprobed = 0, ret = TEST_FAIL;

	if (!fk)
		return TEST_FAIL;
	ti = text_image__load(fk->path, NULL);
	if (!ti)
		goto out;
	if (asprintf(&cmd, "perf script -i %s -F ip,insn 2>/dev/null", fk->path) < 0)
		goto out;
	if (fixture__run(cmd, &out, NULL) != 0 || !out)
		goto out;
	line = strtok_r(out, "\n", &save);
	for (i = 0; i < fk->nr_samples; i++, line = strtok_r(NULL, "\n", &save)) {
		const struct fixture_kernel_sample *e = &fk->samples[i];
		char ours[128], model[128];
		int n;

		n = snprintf(ours, sizeof(ours), " %16llx", (unsigned long long)e->ip);
		text_poke__scnprintf_insn(ours + n, sizeof(ours) - n, ti, e->ip, e->time);
		tag = strstr(ours, KPROBED_TAG);
		if (tag) {
			*tag = '\0';
			if (e->ip != FK_KPROBE_SITE || e->time != FK_T0 + 2104) {
				pr_debug("time %llu: %s tagged kprobed\n",
					 (unsigned long long)e->time, ours);
				goto out;
			}
			kprobed++;
		}
		model_line(e, model, sizeof(model));
		if (!line) {
			pr_debug("perf printed %d lines for %d samples\n", i, fk->nr_samples);
			goto out;
		}
		if (strcmp(ours, model)) {
			pr_debug("time %llu: ours '%s', model '%s'\n", (unsigned long long)e->time,
				 ours, model);
			goto out;
		}
		if (strcmp(line, model)) {
			pr_debug("time %llu: perf '%s', model '%s' (perf is wrong here)\n",
				 (unsigned long long)e->time, line, model);
			perf_wrong++;
		}
	}
	if (line) {
		pr_debug("perf printed more lines than samples: '%s'\n", line);
		goto out;
	}
	if (kprobed != 1) {
		pr_debug("the armed kprobe's sample is not tagged kprobed\n");
		goto out;
	}
	if (perf_wrong != expect_perf_wrong) {
		pr_debug("flags %#x: perf differs from the model on %d samples, expected %d\n",
			 flags, perf_wrong, expect_perf_wrong);
		goto out;
	}
	ret = TEST_OK;
out:
	free(cmd);
	free(out);
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

static int test__textimage_perf(struct test_suite *t)
{
	if (!fixture__have_perf()) {
		test_skip(t, "stock perf not installed");
		return TEST_SKIP;
	}
	/* kcore before the recording: perf is right everywhere, byte for byte */
	TEST_ASSERT_VAL("kcore at the start", check_one(0, 0) == TEST_OK);
	/*
	 * Copied after the first five pokes: perf shows them already made in
	 * the five samples taken before them.
	 */
	TEST_ASSERT_VAL("kcore during the recording", check_one(FK_KCORE_AT, 5) == TEST_OK);
	/* copied at the end: the two jump labels poked last look poked from the start */
	TEST_ASSERT_VAL("kcore at the end", check_one(FK_KCORE_END, 2) == TEST_OK);
	return TEST_OK;
}

struct test_suite suite__textimage_perf = {
    .desc = "textimage: insn equals stock perf's -F insn where perf is right",
    .func = test__textimage_perf,
};
