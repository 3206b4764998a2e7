// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sample density under the HTML timeline: bins one nanosecond wide,
 * each starting at a multiple of its width, doubling (aligned neighbours
 * merged) whenever the samples span more than 256 of them; and two
 * densities merged (a parallel report's workers' samples) into what one
 * reader counts.  The expected bins are worked out by hand:
 *
 *   samples at 10, 265        bin 1, start 10:  [0] 1, [255] 1
 *   then 266 (265 past 10)    bin 2, start 10:  [0] 1, [127] 1, [128] 1
 *   then 1010                 bin 4, start 8:   [0] 1, [64] 2, [250] 1
 *                             (265 and 266 both in 264..267)
 *   then 5 (the earliest)     bin 4, start 4:   [0] 1, [1] 1, [65] 2, [251] 1
 *
 * the same from {10, 1010} and {265, 266, 5} merged, either way round
 * (a wider density into a narrower one and the reverse) and with an empty
 * one; and a span of the whole u64 (0 and UINT64_MAX) ends in bins of
 * 2^56, the last sample in bin 255.
 *
 * Mutations caught: report_density__widen() summing counts[2 * i] alone
 * (the odd neighbour lost: 265 vanishes at bin 2); report_density__fit()
 * not moving the bins to the earliest sample (10 lands in [0] with 5).
 */
#include <stdint.h>
#include <string.h>

#include "../util/report-output.h"
#include "tests.h"

/* the last worked-out state: start 4, bins of 4 */
static int density__check(const struct report_density *d, const char *what)
{
	static const struct {
		size_t bin;
		u64 n;
	} want[] = {{0, 1}, {1, 1}, {65, 2}, {251, 1}};
	u64 sum = 0;

	pr_debug("density: %s\n", what);
	TEST_ASSERT_EQUAL("start", d->start, 4);
	TEST_ASSERT_EQUAL("bin 4", d->bin_ns, 4);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		TEST_ASSERT_EQUAL("a worked-out bin", d->counts[want[i].bin], want[i].n);
	for (size_t i = 0; i < REPORT_DENSITY_BINS; i++)
		sum += d->counts[i];
	TEST_ASSERT_EQUAL("every sample in a bin", sum, 5);
	TEST_ASSERT_EQUAL("samples", d->nr_samples, 5);
	TEST_ASSERT_EQUAL("bins in use", report_density__nr_bins(d), 252);
	return TEST_OK;
}

static void density__of(struct report_density *d, const u64 *t, size_t nr)
{
	report_density__init(d);
	for (size_t i = 0; i < nr; i++)
		report_density__add(d, t[i]);
}

static int test__report_output_density(struct test_suite *t)
{
	static const u64 a[] = {10, 1010}, b[] = {265, 266, 5};
	struct report_density d, x, y, none;

	report_density__init(&d);
	TEST_ASSERT_EQUAL("no bins without samples", report_density__nr_bins(&d), 0);
	report_density__add(&d, 10);
	report_density__add(&d, 265);
	TEST_ASSERT_EQUAL("bin 1", d.bin_ns, 1);
	TEST_ASSERT_EQUAL("[255]", d.counts[255], 1);
	report_density__add(&d, 266);
	TEST_ASSERT_EQUAL("bin 2", d.bin_ns, 2);
	TEST_ASSERT_EQUAL("[127]", d.counts[127], 1);
	TEST_ASSERT_EQUAL("[128]", d.counts[128], 1);
	report_density__add(&d, 1010);
	TEST_ASSERT_EQUAL("start 8", d.start, 8);
	TEST_ASSERT_EQUAL("[64]", d.counts[64], 2);
	TEST_ASSERT_EQUAL("[250]", d.counts[250], 1);
	report_density__add(&d, 5);
	if (density__check(&d, "one reader") != TEST_OK)
		return TEST_FAIL;

	/* the samples of two workers, merged either way round, and with none */
	density__of(&x, a, ARRAY_SIZE(a));
	density__of(&y, b, ARRAY_SIZE(b));
	report_density__init(&none);
	report_density__merge(&x, &y);
	report_density__merge(&x, &none);
	if (density__check(&x, "wider into narrower") != TEST_OK)
		return TEST_FAIL;
	density__of(&x, a, ARRAY_SIZE(a));
	report_density__merge(&y, &x);
	if (density__check(&y, "narrower into wider") != TEST_OK)
		return TEST_FAIL;
	report_density__merge(&none, &y);
	if (density__check(&none, "into none") != TEST_OK)
		return TEST_FAIL;

	report_density__init(&d);
	report_density__add(&d, 0);
	report_density__add(&d, UINT64_MAX);
	TEST_ASSERT_EQUAL("bin 2^56", d.bin_ns, 1ULL << 56);
	TEST_ASSERT_EQUAL("first", d.counts[0], 1);
	TEST_ASSERT_EQUAL("last", d.counts[255], 1);
	return TEST_OK;
}

struct test_suite suite__report_output_density = {
    .desc =
	"report --html: the sample density's aligned doubling bins and their merge, worked out by hand",
    .func = test__report_output_density,
};
