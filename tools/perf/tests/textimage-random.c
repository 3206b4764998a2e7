// SPDX-License-Identifier: GPL-2.0-only
/*
 * script reads in time order, report and code in any order: the answer
 * to "which bytes at A at T" must not depend on what was asked before.
 * Reads at every site and its neighbourhood, at every poke's time and
 * around it, in time order, through a forward view, and shuffled.  The
 * in-order reference is itself anchored by hand: a few reads whose bytes
 * follow from the fixture's description (fixture-kernel.h), and at the
 * end every sample against the generator's model.
 * Mutation caught: every TEXT_POKE applied one tick early (ti__text_poke()
 * given time - 1): every read path agrees, so only the hand-derived read
 * at the kprobe site at FK_T0 + 2039 sees it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "../util/text-image.h"

#define RD 16

static const u64 addrs[] = {
    FK_JL5_SITE - 3,
    FK_JL5_SITE,
    FK_JL5_SITE + 2,
    FK_JL2_SITE - 1,
    FK_JL2_SITE,
    FK_SCALL_SITE,
    FK_SCALL_SITE + 4,
    FK_FTRACE_SITE - 8,
    FK_FTRACE_SITE,
    FK_KPROBE_SITE,
    FK_KPROBE_SITE - 15,
    FK_TRAMP,
    FK_TRAMP + 4,
    FK_TRAMP + 0x18,
    FK_BPF,
    FK_BPF + 5,
    FK_BPF + 0x28,
    FK_TEXT,
    FK_TEXT + FK_TEXT_LEN - 8,
    0xffffffff80000000ULL,
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* bytes the fixture's description gives at an address and time */
static int check_by_hand(struct text_image *ti)
{
	static const struct {
		u64 addr, time;
		u8 len, bytes[5];
		bool known;
	} cases[] = {
	    {FK_JL5_SITE, FK_T0 + 1000, 5, {0x0f, 0x1f, 0x44, 0x00, 0x00}, true},
	    {FK_JL2_SITE, FK_T0 + 1000, 2, {0x66, 0x90}, true},
	    /* the kprobe's int3 from its poke at 2040 until the reversal at 5040 */
	    {FK_KPROBE_SITE, FK_T0 + 2039, 3, {0x48, 0x89, 0xe5}, true},
	    {FK_KPROBE_SITE, FK_T0 + 2040, 3, {0xcc, 0x89, 0xe5}, true},
	    {FK_KPROBE_SITE, FK_T0 + 4400, 3, {0xcc, 0x89, 0xe5}, true},
	    {FK_KPROBE_SITE, FK_T0 + 5100, 3, {0x48, 0x89, 0xe5}, true},
	    /* no kcore segment covers the BPF address: unknown before the load */
	    {FK_BPF, FK_T0 + 1000, 5, {0}, false},
	};
	u8 buf[5], known[5];
	size_t i;
	int k;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		text_image__read(ti, cases[i].addr, cases[i].len, cases[i].time, buf, known);
		for (k = 0; k < cases[i].len; k++) {
			if (!known[k] != !cases[i].known ||
			    (cases[i].known && buf[k] != cases[i].bytes[k])) {
				pr_debug("%#llx at %llu: byte %d is %02x (known %d), by hand %02x"
					 " (known %d)\n",
					 (unsigned long long)cases[i].addr,
					 (unsigned long long)cases[i].time, k, buf[k], known[k],
					 cases[i].bytes[k], cases[i].known);
				return -1;
			}
		}
	}
	return 0;
}

static int test__textimage_random(struct test_suite *t)
{
	static const u64 base[] = {0,	 1000, 2000, 2010, 2020, 2030, 2040, 3000,
				   3001, 3100, 3200, 3201, 4000, 4200, 4300, 5000,
				   5010, 5020, 5030, 5040, 6000, 6010, 9000};
	enum { NT = 3 * ARRAY_SIZE(base), NA = ARRAY_SIZE(addrs) };
	struct fixture_kernel *fk = fixture_kernel__new(0);
	u8(*want)[2][RD] = NULL, buf[RD], known[RD];
	struct textpoke_view *view = NULL;
	struct text_image *ti = NULL;
	unsigned int seed = 42;
	u64 times[NT];
	int *order = NULL, i, j, ret = TEST_FAIL;

	TEST_ASSERT_VAL("fixture", fk);
	for (i = 0; i < (int)ARRAY_SIZE(base); i++) {
		times[3 * i] = FK_T0 + base[i] - (base[i] ? 1 : 0);
		times[3 * i + 1] = FK_T0 + base[i];
		times[3 * i + 2] = FK_T0 + base[i] + 1;
	}
	times[0] = 0;
	/* neighbours of close times overlap: put them in order for the view */
	qsort(times, NT, sizeof(times[0]), cmp_u64);
	ti = text_image__load(fk->path, NULL);
	want = calloc(NT * NA, sizeof(*want));
	order = calloc(NT * NA, sizeof(*order));
	if (!ti || !want || !order || check_by_hand(ti))
		goto out;
	/* in time order: the reference */
	for (i = 0; i < NT; i++)
		for (j = 0; j < NA; j++)
			text_image__read(ti, addrs[j], RD, times[i], want[i * NA + j][0],
					 want[i * NA + j][1]);
	/* a forward view gives the same */
	view = textpoke_view__new(text_image__image(ti), times[0]);
	if (!view) {
		pr_debug("no view: %s\n", strerror(errno));
		goto out;
	}
	for (i = 0; i < NT; i++) {
		if (textpoke_view__advance(view, times[i])) {
			pr_debug("view: cannot advance to %llu\n", (unsigned long long)times[i]);
			goto out;
		}
		for (j = 0; j < NA; j++) {
			textpoke_view__read(view, addrs[j], RD, buf, known);
			if (memcmp(buf, want[i * NA + j][0], RD) ||
			    memcmp(known, want[i * NA + j][1], RD)) {
				pr_debug("view differs at %#llx time %llu\n",
					 (unsigned long long)addrs[j],
					 (unsigned long long)times[i]);
				goto out;
			}
		}
	}
	/* shuffled (a fixed seed: the same order every run) */
	for (i = 0; i < NT * NA; i++)
		order[i] = i;
	for (i = NT * NA - 1; i > 0; i--) {
		int k = rand_r(&seed) % (i + 1), tmp = order[i];

		order[i] = order[k];
		order[k] = tmp;
	}
	for (i = 0; i < NT * NA; i++) {
		int q = order[i];

		text_image__read(ti, addrs[q % NA], RD, times[q / NA], buf, known);
		if (memcmp(buf, want[q][0], RD) || memcmp(known, want[q][1], RD)) {
			pr_debug("random order differs at %#llx time %llu\n",
				 (unsigned long long)addrs[q % NA],
				 (unsigned long long)times[q / NA]);
			goto out;
		}
	}
	ret = fixture_kernel__check(fk, ti, false) == 0 ? TEST_OK : TEST_FAIL;
out:
	textpoke_view__delete(view);
	free(want);
	free(order);
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_random = {
    .desc = "textimage: queries in random time order equal the in-order answers",
    .func = test__textimage_random,
};
