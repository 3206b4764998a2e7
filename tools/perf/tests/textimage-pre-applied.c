// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf record --kcore copies kcore after enabling text_poke events: pokes
 * made before the copy are already in it.  Fitting the copy's time finds
 * them pre-applied, not mismatched, and the samples taken before them
 * still read the code they ran.
 */
#include <stdio.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "../util/text-image.h"

static int check(struct fixture_kernel *fk, const struct text_image_opts *opts)
{
	static const u64 sites[] = {FK_JL5_SITE, FK_JL2_SITE, FK_SCALL_SITE, FK_FTRACE_SITE,
				    FK_KPROBE_SITE};
	size_t counts[TEXTPOKE_VERDICT__MAX], i;
	struct text_image *ti = text_image__load(fk->path, opts);
	int ret = TEST_FAIL;

	if (!ti)
		return TEST_FAIL;
	if (fixture_kernel__check(fk, ti, false) != 0)
		goto out;
	for (i = 0; i < ARRAY_SIZE(sites); i++) {
		enum textpoke_verdict v = text_image__verdict(ti, sites[i], FK_T0 + 2000 + 10 * i);

		if (v != TEXTPOKE_PRE_APPLIED) {
			pr_debug("poke at %#llx: %s, not pre-applied\n",
				 (unsigned long long)sites[i], textpoke_verdict__str(v));
			goto out;
		}
	}
	if (textpoke_image__count_verdicts(text_image__image(ti), counts) ||
	    counts[TEXTPOKE_MISMATCH] || counts[TEXTPOKE_PRE_APPLIED] != ARRAY_SIZE(sites))
		goto out;
	ret = TEST_OK;
out:
	text_image__delete(ti);
	return ret;
}

static int test__textimage_pre_applied(struct test_suite *t)
{
	struct text_image_opts at = {0};
	struct fixture_kernel *fk = fixture_kernel__new(FK_KCORE_AT);
	char when[32];
	int ret;

	TEST_ASSERT_VAL("fixture", fk);
	/* found by fitting */
	ret = check(fk, NULL);
	/* and told, as --kcore-time 1.000002500 */
	snprintf(when, sizeof(when), "%llu.%09llu", FK_KCORE_AT_TIME / 1000000000ULL,
		 FK_KCORE_AT_TIME % 1000000000ULL);
	if (ret == TEST_OK && (text_image_opts__parse_anchor(&at, when) ||
			       at.anchor_time != FK_KCORE_AT_TIME || check(fk, &at) != TEST_OK))
		ret = TEST_FAIL;
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_pre_applied = {
    .desc = "textimage: pokes taken before the kcore copy are pre-applied, not mismatches",
    .func = test__textimage_pre_applied,
};
