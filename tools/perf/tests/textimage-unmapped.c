// SPDX-License-Identifier: GPL-2.0-only
/*
 * A poke where no map, KSYMBOL or kcore segment is (code announced only
 * later, or never): kept, so its bytes are known, and reported with its
 * address and time.  Stock perf drops it ("Failed to find kernel text
 * poke address map", under -v only).
 */
#include "tests.h"
#include "fixture-kernel.h"
#include "../util/text-image.h"

static int test__textimage_unmapped(struct test_suite *t)
{
	struct fixture_kernel *fk = fixture_kernel__new(FK_STRAY_POKE);
	const struct text_image_stats *st;
	struct text_image *ti = NULL;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("fixture", fk);
	ti = text_image__load(fk->path, NULL);
	if (!ti)
		goto out;
	st = text_image__stats(ti);
	if (st->nr_unmapped != 1 || st->unmapped[0].addr != FK_STRAY ||
	    st->unmapped[0].time != FK_STRAY_TIME || st->unmapped[0].new_len != 2) {
		pr_debug("%zu unmapped pokes\n", st->nr_unmapped);
		goto out;
	}
	/* kept: every sample reads right, the stray one included */
	if (fixture_kernel__check(fk, ti, false) != 0)
		goto out;
	ret = TEST_OK;
out:
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_unmapped = {
    .desc = "textimage: a poke no map covers is kept and reported",
    .func = test__textimage_unmapped,
};
