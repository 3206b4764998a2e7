// SPDX-License-Identifier: GPL-2.0-only
/*
 * A kcore copy read while the kernel poked it: our recorder writes when
 * it read each range (kcore_dir/kcore_times), and each range is anchored
 * at its own read.  The fixture (FK_KCORE_TORN) reads jump label 5's
 * range before its poke, jump label 2's after its poke, and the static
 * call's during text_poke_bp()'s int3 phase (cc and the old tail).  The
 * copy is explained, not alarmed: no mismatch, no site that disagrees,
 * each poke verified or pre-applied as the fixture's description says,
 * and every sample reads the bytes of the fixture's model (the one at
 * the static call before its poke reads the call, not the int3).
 *
 *
 * The same copy as stock perf leaves it (FK_KCORE_UNTIMED: no times, no
 * sample before the copy ends): one ascending pass before the first
 * sample, each page (or piece of a torn page) at the first moment in
 * that window, and after the page before, that its sites agree with.
 *
 * The timed copy once more after perf textpoke inject with no mode: the
 * output's kcore_dir keeps kcore_times, so the same holds on it.
 *
 * Mutations caught: kcore__open_dir() not reading kcore_times (one
 * moment for the whole copy: mismatches); tp_site__int3_phase() always
 * false (the static call's range agrees at no moment of its read: 4 of
 * 5 sites); tp_site__segment_value()
 * reading the int3 phase's base for the time before it (the sample at
 * 1002 reads cc); ti__fit() never trying the pass (untimed: a mismatch
 * at jump label 2); ti__fit_pass() without p.lo = fit.from (untimed:
 * every piece anchored at the window's start, jump label 2 a mismatch);
 * inject copying only kcore, kallsyms and modules (the injected copy:
 * mismatches).
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "../util/inject.h"
#include "../util/text-image.h"

static int check_torn(unsigned int flags, bool injected)
{
	static const struct {
		u64 addr, time;
		enum textpoke_verdict verdict;
	} want[] = {
	    {FK_JL5_SITE, FK_T0 + 2000, TEXTPOKE_VERIFIED},
	    {FK_JL2_SITE, FK_T0 + 2010, TEXTPOKE_PRE_APPLIED},
	    {FK_SCALL_SITE, FK_T0 + 2020, TEXTPOKE_VERIFIED},
	    {FK_FTRACE_SITE, FK_T0 + 2030, TEXTPOKE_VERIFIED},
	    {FK_KPROBE_SITE, FK_T0 + 2040, TEXTPOKE_VERIFIED},
	};
	struct fixture_kernel *fk = fixture_kernel__new(FK_KCORE_TORN | flags);
	size_t counts[TEXTPOKE_VERDICT__MAX];
	const struct text_image_stats *st;
	struct text_image *ti = NULL;
	char *path = NULL;
	int ret = TEST_FAIL, bad;

	if (!fk)
		return TEST_FAIL;
	if (injected) {
		struct inject_opts o = {.input = fk->path, .quiet = true};

		if (asprintf(&path, "%s/injected.data", fk->dir) < 0) {
			path = NULL;
			goto out;
		}
		o.output = path;
		if (inject__run(&o)) {
			pr_debug("inject %s -> %s failed\n", fk->path, path);
			goto out;
		}
	}
	ti = text_image__load(injected ? path : fk->path, NULL);
	if (!ti)
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		enum textpoke_verdict v = text_image__verdict(ti, want[i].addr, want[i].time);

		if (v != want[i].verdict) {
			pr_debug("poke at %#llx time %llu: %s, expected %s\n",
				 (unsigned long long)want[i].addr, (unsigned long long)want[i].time,
				 textpoke_verdict__str(v), textpoke_verdict__str(want[i].verdict));
			goto out;
		}
	}
	if (textpoke_image__count_verdicts(text_image__image(ti), counts) ||
	    counts[TEXTPOKE_MISMATCH]) {
		pr_debug("%zu mismatches, expected none\n", counts[TEXTPOKE_MISMATCH]);
		goto out;
	}
	/* timed: one piece a range read; untimed: pieces of the pass, more than one moment */
	st = text_image__stats(ti);
	if ((flags ? st->nr_pieces < 2 : st->nr_pieces != FK_TEXT_LEN / FK_TORN_RANGE) ||
	    st->fit.agree != st->fit.sites || st->fit.sites != ARRAY_SIZE(want)) {
		pr_debug("%zu pieces, %zu of %zu sites agree; expected %s, all %zu\n",
			 st->nr_pieces, st->fit.agree, st->fit.sites,
			 flags ? "more than one" : "one a range", ARRAY_SIZE(want));
		goto out;
	}
	bad = fixture_kernel__check(fk, ti, false);
	if (bad) {
		pr_debug("%d samples read other bytes than the model's\n", bad);
		goto out;
	}
	ret = TEST_OK;
out:
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	free(path);
	return ret;
}

static int test__textimage_kcore_torn(struct test_suite *t __maybe_unused)
{
	if (check_torn(0, false)) {
		pr_debug("our copy, with kcore_times: failed\n");
		return TEST_FAIL;
	}
	if (check_torn(0, true)) {
		pr_debug("our copy after perf textpoke inject: failed\n");
		return TEST_FAIL;
	}
	if (check_torn(FK_KCORE_UNTIMED, false)) {
		pr_debug("stock perf's copy, no times: failed\n");
		return TEST_FAIL;
	}
	return TEST_OK;
}

struct test_suite suite__textimage_kcore_torn = {
    .desc = "textimage: a kcore copy read range by range while pokes land is explained",
    .func = test__textimage_kcore_torn,
};
