// SPDX-License-Identifier: GPL-2.0-only
/*
 * A kcore copied at the end of the recording: the bytes of earlier
 * moments come from applying the pokes backwards with their old bytes.
 * Stock perf shows the end state for samples taken before the last pokes.
 */
#include "tests.h"
#include "fixture-kernel.h"
#include "../util/text-image.h"

static int test__textimage_kcore_end(struct test_suite *t)
{
	struct text_image_opts opts = {0};
	struct fixture_kernel *fk = fixture_kernel__new(FK_KCORE_END);
	size_t counts[TEXTPOKE_VERDICT__MAX];
	struct text_image *ti;
	int ret = TEST_FAIL;
	u8 b[5], k[5];

	TEST_ASSERT_VAL("fixture", fk);
	TEST_ASSERT_VAL("parse end", !text_image_opts__parse_anchor(&opts, "end"));
	ti = text_image__load(fk->path, &opts);
	if (!ti || text_image__stats(ti)->base_anchor != TEXTPOKE_ANCHOR_AFTER)
		goto out;
	if (fixture_kernel__check(fk, ti, false) != 0)
		goto out;
	/* the first jump label: a jmp in the copy, a nop5 before its first poke */
	if (text_image__read(ti, FK_JL5_SITE, 5, FK_T0 + 1, b, k) != 5 || b[0] != 0x0f ||
	    text_image__read(ti, FK_JL5_SITE, 5, FK_T0 + 7000, b, k) != 5 || b[0] != 0xe9)
		goto out;
	if (textpoke_image__count_verdicts(text_image__image(ti), counts) ||
	    counts[TEXTPOKE_MISMATCH])
		goto out;
	text_image__delete(ti);
	/* and found by fitting, without being told */
	ti = text_image__load(fk->path, NULL);
	if (!ti || fixture_kernel__check(fk, ti, false) != 0)
		goto out;
	ret = TEST_OK;
out:
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_kcore_end = {
    .desc = "textimage: kcore copied at the end, earlier bytes by backward application",
    .func = test__textimage_kcore_end,
};
