// SPDX-License-Identifier: GPL-2.0-only
/*
 * A poke the kernel made but the file lacks (a lost event): the next poke
 * at that site finds other bytes than its old ones, and that is reported
 * as a mismatch naming the address and the time, never silently applied.
 * Stock perf writes the new bytes and says nothing.
 */
#include "tests.h"
#include "fixture-kernel.h"
#include "../util/text-image.h"

struct dropped {
	int nr_mismatch;
	u64 addr, time;
	u8 before[2];
};

static int on_check(const struct textpoke_check *c, void *arg)
{
	struct dropped *d = arg;

	if (c->verdict != TEXTPOKE_MISMATCH)
		return 0;
	d->nr_mismatch++;
	d->addr = c->poke.addr;
	d->time = c->poke.time;
	if (c->poke.old_len == 2 && c->before) {
		d->before[0] = c->before[0];
		d->before[1] = c->before[1];
	}
	pr_debug("mismatch at %#llx time %llu\n", (unsigned long long)c->poke.addr,
		 (unsigned long long)c->poke.time);
	return 0;
}

static int test__textimage_dropped(struct test_suite *t)
{
	struct fixture_kernel *fk = fixture_kernel__new(FK_DROP_POKE);
	struct dropped d = {0};
	struct text_image *ti;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("fixture", fk);
	ti = text_image__load(fk->path, NULL);
	if (!ti)
		goto out;
	textpoke_image__for_each_check(text_image__image(ti), on_check, &d);
	/* the jump label 2 poke at 6010 expected 66 90, the image held eb 10 */
	if (d.nr_mismatch != 1 || d.addr != FK_JL2_SITE || d.time != FK_T0 + 6010 ||
	    d.before[0] != 0xeb || d.before[1] != 0x10)
		goto out;
	if (text_image__verdict(ti, FK_JL2_SITE, FK_T0 + 6010) != TEXTPOKE_MISMATCH ||
	    text_image__verdict(ti, FK_JL5_SITE, FK_T0 + 6000) != TEXTPOKE_VERIFIED)
		goto out;
	ret = TEST_OK;
out:
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_dropped = {
    .desc = "textimage: a dropped poke is reported as a mismatch with address and time",
    .func = test__textimage_dropped,
};
