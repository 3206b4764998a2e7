// SPDX-License-Identifier: GPL-2.0-only
/*
 * No kcore at all (perf record without /proc/kcore, or --no-kcore): stock
 * perf prints no insn then; the pokes themselves still tell the bytes
 * they touched, before (old bytes) and after (new bytes), and the BPF JIT
 * images tell the programs' code.  So they do when the recording's kcore
 * is damaged.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdio.h>

#include "tests.h"
#include "fixture.h"
#include "fixture-kernel.h"
#include "../util/text-image.h"

static int test__textimage_no_kcore(struct test_suite *t)
{
	struct text_image_opts no_kcore = {.no_kcore = true};
	struct fixture_kernel *fk = fixture_kernel__new(FK_NO_KCORE);
	struct text_image *ti = NULL;
	int ret = TEST_FAIL, known;
	char *kcore = NULL;
	u8 buf[16], mask[16];

	TEST_ASSERT_VAL("fixture", fk);
	ti = text_image__load(fk->path, NULL);
	if (!ti || text_image__stats(ti)->base_path)
		goto out;
	if (fixture_kernel__check(fk, ti, true) != 0)
		goto out;
	/* what no poke touched stays unknown, never zero */
	known = text_image__read(ti, FK_JL5_SITE - 4, 4, FK_T0 + 1000, buf, mask);
	if (known != 0 || memchr(mask, 1, 4))
		goto out;
	/* the same recording with its kcore ignored */
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	fk = fixture_kernel__new(0);
	ti = fk ? text_image__load(fk->path, &no_kcore) : NULL;
	if (!ti || text_image__stats(ti)->base_path || fixture_kernel__check(fk, ti, true) != 0)
		goto out;
	/* a damaged kcore in the recording: a warning, and the pokes still tell */
	text_image__delete(ti);
	ti = NULL;
	if (asprintf(&kcore, "%s/kcore", fk->kcore_dir) < 0 || truncate(kcore, 0x1100))
		goto out;
	ti = text_image__load(fk->path, NULL);
	if (!ti || text_image__stats(ti)->base_path || fixture_kernel__check(fk, ti, true) != 0)
		goto out;
	ret = TEST_OK;
out:
	free(kcore);
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_no_kcore = {
    .desc = "textimage: no kcore, the poked bytes and JIT images are still known",
    .func = test__textimage_no_kcore,
};
