// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text image of a recording with a kcore copied before it started:
 * every sample's instruction bytes are those the kernel ran.
 */
#include "tests.h"
#include "fixture-kernel.h"
#include "../util/text-image.h"

static int test__textimage_kcore_start(struct test_suite *t)
{
	struct text_image_opts opts = {.anchor = TEXT_IMAGE_ANCHOR_START};
	struct fixture_kernel *fk = fixture_kernel__new(0);
	const struct text_image_stats *st;
	struct text_image *ti;
	size_t counts[TEXTPOKE_VERDICT__MAX];
	int ret = TEST_FAIL, round;

	TEST_ASSERT_VAL("fixture", fk);
	/* anchored as told, and as found by fitting: the same answers */
	for (round = 0; round < 2; round++) {
		opts.anchor = round ? TEXT_IMAGE_ANCHOR_FIT : TEXT_IMAGE_ANCHOR_START;
		ti = text_image__load(fk->path, &opts);
		if (!ti)
			goto out;
		st = text_image__stats(ti);
		pr_debug("round %d: %llu pokes, base %s anchor %d at %llu\n", round,
			 (unsigned long long)st->nr_pokes, st->base_path, st->base_anchor,
			 (unsigned long long)st->base_time);
		if (fixture_kernel__check(fk, ti, false) != 0 || st->nr_unmapped ||
		    st->nr_bpf_loaded != 2 || st->nr_ool != 1 ||
		    textpoke_image__count_verdicts(text_image__image(ti), counts) ||
		    counts[TEXTPOKE_MISMATCH]) {
			text_image__delete(ti);
			goto out;
		}
		text_image__delete(ti);
	}
	ret = TEST_OK;
out:
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_kcore_start = {
    .desc = "textimage: kcore copied at the start, every sample's bytes",
    .func = test__textimage_kcore_start,
};
