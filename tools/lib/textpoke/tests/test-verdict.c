// SPDX-License-Identifier: GPL-2.0-only
/*
 * libtextpoke: every poke's old bytes checked against the image at that
 * moment: a dropped poke is a mismatch with its address and time; a kcore
 * copied after a poke is pre-applied, not a mismatch.
 */
#include "tp-test.h"

#define TP_MAX_CHECKS 16

struct tp_checks {
	int nr;
	struct {
		enum textpoke_verdict verdict;
		uint64_t time, addr;
		uint8_t old[8], before[8], before_known[8], after[8], after_known[8];
	} c[TP_MAX_CHECKS];
};

static int tp_collect(const struct textpoke_check *check, void *arg)
{
	struct tp_checks *cs = arg;
	size_t olen = check->poke.old_len < 8 ? check->poke.old_len : 8;
	size_t nlen = check->poke.new_len < 8 ? check->poke.new_len : 8;

	if (cs->nr == TP_MAX_CHECKS)
		return -1;
	cs->c[cs->nr].verdict = check->verdict;
	cs->c[cs->nr].time = check->poke.time;
	cs->c[cs->nr].addr = check->poke.addr;
	memcpy(cs->c[cs->nr].old, check->poke.old_bytes, olen);
	memcpy(cs->c[cs->nr].before, check->before, olen);
	memcpy(cs->c[cs->nr].before_known, check->before_known, olen);
	memcpy(cs->c[cs->nr].after, check->after, nlen);
	memcpy(cs->c[cs->nr].after_known, check->after_known, nlen);
	cs->nr++;
	return 0;
}

static int test_verdict_strings(void)
{
	TP_CHECK(!strcmp(textpoke_verdict__str(TEXTPOKE_VERIFIED), "verified"));
	TP_CHECK(!strcmp(textpoke_verdict__str(TEXTPOKE_PRE_APPLIED), "pre-applied"));
	TP_CHECK(!strcmp(textpoke_verdict__str(TEXTPOKE_MISMATCH), "mismatch"));
	TP_CHECK(!strcmp(textpoke_verdict__str(TEXTPOKE_UNKNOWN), "unknown"));
	TP_CHECK(!strcmp(textpoke_verdict__str(TEXTPOKE_VERDICT__MAX), "invalid"));
	return 0;
}

/* nop -> jmp at 100, the jmp -> nop at 200 lost, nop -> jmp at 300 */
static int test_dropped_poke_is_a_mismatch(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct tp_checks cs = {0};
	size_t counts[TEXTPOKE_VERDICT__MAX];

	TP_CHECK(img);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR + 8, NOP5, 5, NULL), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR + 8, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 300, KADDR + 8, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__for_each_check(img, tp_collect, &cs), 0);
	TP_CHECK_EQ(cs.nr, 2);
	TP_CHECK_EQ(cs.c[0].verdict, TEXTPOKE_VERIFIED);
	TP_CHECK_EQ(cs.c[1].verdict, TEXTPOKE_MISMATCH);
	TP_CHECK_EQ(cs.c[1].time, 300);
	TP_CHECK_EQ(cs.c[1].addr, KADDR + 8);
	TP_CHECK(!memcmp(cs.c[1].old, NOP5, 5));
	TP_CHECK(!memcmp(cs.c[1].before, JMP5, 5)); /* what the image held */
	TP_CHECK(!memcmp(cs.c[1].before_known, "\1\1\1\1\1", 5));
	TP_CHECK_EQ(textpoke_image__count_verdicts(img, counts), 0);
	TP_CHECK_EQ(counts[TEXTPOKE_MISMATCH], 1);
	TP_CHECK_EQ(counts[TEXTPOKE_VERIFIED], 1);
	textpoke_image__delete(img);
	return 0;
}

/*
 * perf record copies kcore after enabling the events: pokes between
 * enabling and the copy are already in the copy.
 */
static int test_kcore_copied_after_pokes(void)
{
	for (int anchored = 0; anchored < 2; anchored++) {
		struct textpoke_base_opts opts = {
		    .sz = sizeof(opts),
		    .anchor = anchored ? TEXTPOKE_ANCHOR_AT : TEXTPOKE_ANCHOR_BEFORE,
		    .time = 250,
		};
		struct textpoke_image *img = textpoke_image__new(NULL);
		struct tp_checks cs = {0};
		uint8_t buf[5];

		TP_CHECK(img);
		TP_CHECK_EQ(textpoke_image__add_base(img, KADDR + 8, JMP5, 5, &opts), 0);
		TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR + 8, NOP5, 5, JMP5, 5), 0);
		TP_CHECK_EQ(textpoke_image__add_poke(img, 300, KADDR + 8, JMP5, 5, NOP5, 5), 0);
		TP_CHECK_EQ(textpoke_image__for_each_check(img, tp_collect, &cs), 0);
		TP_CHECK_EQ(cs.nr, 2);
		TP_CHECK_EQ(cs.c[1].verdict, TEXTPOKE_VERIFIED);
		if (!anchored) {
			/* what stock perf assumes: the copy is the start, so it looks wrong */
			TP_CHECK_EQ(cs.c[0].verdict, TEXTPOKE_MISMATCH);
		} else {
			TP_CHECK_EQ(cs.c[0].verdict, TEXTPOKE_PRE_APPLIED);
			TP_CHECK_EQ(cs.c[0].time, 100);
			TP_CHECK(!memcmp(cs.c[0].after, JMP5, 5));
			TP_CHECK(!memcmp(cs.c[0].after_known, "\1\1\1\1\1", 5));
			/* and before the poke, the old bytes, not the copy */
			TP_CHECK_EQ(textpoke_image__read(img, KADDR + 8, 5, 50, buf, NULL), 5);
			TP_CHECK(!memcmp(buf, NOP5, 5));
		}
		textpoke_image__delete(img);
	}
	return 0;
}

/* the copy's time, from the pokes: between the flip it holds and the next */
static int test_fit_anchor(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct textpoke_anchor_fit fit;
	uint8_t copy[32];

	TP_CHECK(img);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR + 8, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 300, KADDR + 8, JMP5, 5, NOP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 150, KADDR + 20, NOP5, 5, JMP5, 5), 0);
	memset(copy, 0x90, sizeof(copy));
	memcpy(copy + 8, JMP5, 5);
	memcpy(copy + 20, JMP5, 5);
	TP_CHECK_EQ(textpoke_image__fit_anchor(img, KADDR, copy, sizeof(copy), &fit), 0);
	TP_CHECK_EQ(fit.sites, 2);
	TP_CHECK_EQ(fit.agree, 2);
	TP_CHECK_EQ(fit.from, 150);
	TP_CHECK_EQ(fit.to, 300);
	/* the second site holds what no version held: it never agrees */
	copy[21] = 0x77;
	TP_CHECK_EQ(textpoke_image__fit_anchor(img, KADDR, copy, sizeof(copy), &fit), 0);
	TP_CHECK_EQ(fit.sites, 2);
	TP_CHECK_EQ(fit.agree, 1);
	TP_CHECK_EQ(fit.from, 100);
	TP_CHECK_EQ(fit.to, 300);
	/* a copy of something else: no poked site inside */
	TP_CHECK_EQ(textpoke_image__fit_anchor(img, KADDR + 64, copy, sizeof(copy), &fit), 0);
	TP_CHECK_EQ(fit.sites, 0);
	TP_CHECK_EQ(fit.agree, 0);
	textpoke_image__delete(img);
	return 0;
}

/* a copy at the end that disagrees with the last poke: an event was lost after it */
static int test_end_image_disagrees(void)
{
	struct textpoke_base_opts after = {.sz = sizeof(after), .anchor = TEXTPOKE_ANCHOR_AFTER};
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct tp_checks cs = {0};

	TP_CHECK(img);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, NOP5, 5, &after), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__for_each_check(img, tp_collect, &cs), 0);
	TP_CHECK_EQ(cs.nr, 1);
	TP_CHECK_EQ(cs.c[0].verdict, TEXTPOKE_MISMATCH);
	TP_CHECK(!memcmp(cs.c[0].after, NOP5, 5));
	textpoke_image__delete(img);
	return 0;
}

static int test_nothing_to_compare(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct tp_checks cs = {0};

	TP_CHECK(img);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 200, KADDR, JMP5, 5, NOP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__for_each_check(img, tp_collect, &cs), 0);
	TP_CHECK_EQ(cs.nr, 2);
	TP_CHECK_EQ(cs.c[0].verdict, TEXTPOKE_UNKNOWN);
	TP_CHECK(!memcmp(cs.c[0].before_known, "\0\0\0\0\0", 5));
	TP_CHECK_EQ(cs.c[1].verdict, TEXTPOKE_VERIFIED);
	textpoke_image__delete(img);
	return 0;
}

static int tp_stop_at_first(const struct textpoke_check *check, void *arg)
{
	(void)check;
	(*(int *)arg)++;
	return 7;
}

static int test_iteration_stops(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	int calls = 0;

	TP_CHECK(img);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR + 64, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__for_each_check(img, tp_stop_at_first, &calls), 7);
	TP_CHECK_EQ(calls, 1);
	textpoke_image__delete(img);
	return 0;
}

static int tp_tests__verdict(void)
{
	TP_RUN(test_verdict_strings);
	TP_RUN(test_dropped_poke_is_a_mismatch);
	TP_RUN(test_kcore_copied_after_pokes);
	TP_RUN(test_fit_anchor);
	TP_RUN(test_end_image_disagrees);
	TP_RUN(test_nothing_to_compare);
	TP_RUN(test_iteration_stops);
	return 0;
}
