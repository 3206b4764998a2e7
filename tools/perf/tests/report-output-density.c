// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sample density under the HTML timeline: bins one nanosecond wide
 * from the first sample, doubling (neighbours merged) whenever a sample
 * falls past the last bin.  The expected bins are worked out by hand:
 *
 *   samples at 10, 265        bin 1:  [0] 1, [255] 1
 *   then 266 (offset 256)     bin 2:  [0] 1, [127] 1, [128] 1
 *   then 1010 (offset 1000)   bin 4:  [0] 1, [63] 1, [64] 1, [250] 1
 *   then 5 (before the first) [0] 2
 *
 * and a span of the whole u64 (0 and UINT64_MAX) ends in bins of 2^56,
 * the last sample in bin 255.
 *
 * Mutation caught: report_density__widen() summing counts[2 * i] alone
 * (the odd neighbour lost) makes the 255 sample vanish at bin 2.
 */
#include <stdint.h>

#include "../util/report-output.h"
#include "tests.h"

static int test__report_output_density(struct test_suite *t)
{
	struct report_density d;
	size_t i;
	u64 sum = 0;

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
	report_density__add(&d, 5);
	TEST_ASSERT_EQUAL("start", d.start, 10);
	TEST_ASSERT_EQUAL("bin 4", d.bin_ns, 4);
	TEST_ASSERT_EQUAL("[0]", d.counts[0], 2);
	TEST_ASSERT_EQUAL("[63]", d.counts[63], 1);
	TEST_ASSERT_EQUAL("[64]", d.counts[64], 1);
	TEST_ASSERT_EQUAL("[250]", d.counts[250], 1);
	for (i = 0; i < REPORT_DENSITY_BINS; i++)
		sum += d.counts[i];
	TEST_ASSERT_EQUAL("every sample in a bin", sum, 5);
	TEST_ASSERT_EQUAL("samples", d.nr_samples, 5);
	TEST_ASSERT_EQUAL("bins in use", report_density__nr_bins(&d), 251);

	report_density__init(&d);
	report_density__add(&d, 0);
	report_density__add(&d, UINT64_MAX);
	TEST_ASSERT_EQUAL("bin 2^56", d.bin_ns, 1ULL << 56);
	TEST_ASSERT_EQUAL("first", d.counts[0], 1);
	TEST_ASSERT_EQUAL("last", d.counts[255], 1);
	return TEST_OK;
}

struct test_suite suite__report_output_density = {
    .desc = "report --html: the sample density's doubling bins, worked out by hand",
    .func = test__report_output_density,
};
