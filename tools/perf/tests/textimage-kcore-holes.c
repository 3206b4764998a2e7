// SPDX-License-Identifier: GPL-2.0-only
/*
 * A kcore copy of the module area with holes: /proc/kcore reads free
 * module space as zeros.  Those zeros are no bytes: code that comes there
 * later (a trampoline, a module's jump label poked) is unknown before its
 * pokes say otherwise, its first poke is no mismatch, and the listing
 * says '??' there, not '00 00'.  The module's own page is code and stays
 * known.  The oracle is the fixture's model (fixture-kernel.c): which
 * pages it left unmapped, and the bytes it wrote.
 *
 * Mutation caught: kcore__open_dir() without kcore__drop_zero_pages()
 * (the late poke is a mismatch, the hole reads as known zeros).
 */
#include <string.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "../util/text-image.h"

static int test__textimage_kcore_holes(struct test_suite *t)
{
	struct fixture_kernel *fk = fixture_kernel__new(FK_MODULE_AREA);
	size_t counts[TEXTPOKE_VERDICT__MAX];
	struct text_image *ti = NULL;
	u8 buf[0x1000], known[0x1000];
	int ret = TEST_FAIL;
	enum textpoke_verdict v;

	TEST_ASSERT_VAL("fixture", fk);
	ti = text_image__load(fk->path, NULL);
	if (!ti)
		goto out;
	v = text_image__verdict(ti, FK_LATE_SITE, FK_LATE_TIME + 10);
	if (v != TEXTPOKE_UNKNOWN) {
		pr_debug("the poke in free module space: %s, expected unknown\n",
			 textpoke_verdict__str(v));
		goto out;
	}
	if (textpoke_image__count_verdicts(text_image__image(ti), counts) ||
	    counts[TEXTPOKE_MISMATCH]) {
		pr_debug("%zu mismatches, expected none\n", counts[TEXTPOKE_MISMATCH]);
		goto out;
	}
	/*
	 * Before anything came: the free pages unknown, every byte of them
	 * but the late poke's old bytes, which say what its site held
	 */
	for (u64 page = FK_MODS + 0x1000; page < FK_MODS + FK_MODS_LEN; page += 0x1000) {
		if (text_image__read(ti, page, sizeof(buf), FK_T0 + 1000, buf, known) < 0)
			goto out;
		for (size_t i = 0; i < sizeof(buf); i++) {
			u64 off = page + i - FK_LATE_SITE;

			if (off < 5 && known[i] && buf[i] == "\x0f\x1f\x44\x00\x00"[off])
				continue;
			if (known[i]) {
				pr_debug("%#llx: known (%02x) where nothing was mapped\n",
					 (unsigned long long)(page + i), buf[i]);
				goto out;
			}
		}
	}
	/* the module's page is code: known, as the model wrote it */
	if (text_image__read(ti, FK_MODS, 8, FK_T0 + 1000, buf, known) < 0 ||
	    memcmp(known, "\1\1\1\1\1\1\1\1", 8) ||
	    memcmp(buf, "\x55\x48\x89\xe5\x5d\xc3\xcc\xcc", 8)) {
		pr_debug("fk_mod's code is not read as the copy holds it\n");
		goto out;
	}
	/* after the poke: its new bytes, and nothing around them */
	if (text_image__read(ti, FK_LATE, 16, FK_LATE_TIME + 20, buf, known) < 0 || known[3] ||
	    !known[4] || buf[4] != 0xe9 || !known[8] || known[9]) {
		pr_debug("the late code is not the poke's bytes alone\n");
		goto out;
	}
	/* the samples of the rest read as before */
	if (fixture_kernel__check(fk, ti, false) != 0)
		goto out;
	ret = TEST_OK;
out:
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_kcore_holes = {
    .desc = "textimage: zeros a kcore copy read where nothing is mapped are unknown",
    .func = test__textimage_kcore_holes,
};
