// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's --time syntax (perf 6.1 util/time-utils.c, the perf-script man
 * page), parsed by perf_time__parse_ranges(): each expected range worked
 * out by hand from that description, with a recording whose samples span
 * 1000..2000 ns for the percentages.  The parity with stock perf on real
 * recordings is script-opt-filters.sh; this pins the edges it cannot
 * reach (the 1 ns step back, reltime's shifted open end, the errors).
 *
 * Mutation caught: percent_interval() without "r->end--" (10% ends at
 * 1100, not 1099).
 */
#include <errno.h>
#include <stdlib.h>

#include "tests.h"
#include "../util/time-utils.h"

#define S 1000000000ULL

struct time_case {
	const char *str;
	bool reltime;
	u64 first, last;
	int nr; /* or the negative errno */
	struct perf_time_interval want[2];
};

static const struct time_case cases[] = {
    {"10.5,11", false, 0, 0, 1, {{10 * S + S / 2, 11 * S}}},
    {"10,", false, 0, 0, 1, {{10 * S, 0}}},
    {",11", false, 0, 0, 1, {{0, 11 * S}}},
    {",", false, 0, 0, 1, {{0, 0}}},
    {"1,2 3,4", false, 0, 0, 2, {{S, 2 * S}, {3 * S, 4 * S}}},
    {"1, 2 3,4", false, 0, 0, 2, {{S, 2 * S}, {3 * S, 4 * S}}},
    {"1.000000001,2", false, 0, 0, 1, {{S + 1, 2 * S}}},
    {"1,2,3", false, 0, 0, -EINVAL, {{0}}},
    {"2,1", false, 0, 0, -EINVAL, {{0}}},
    {"1,2 1.5,3", false, 0, 0, -EINVAL, {{0}}},
    {"1,2 ", false, 0, 0, -EINVAL, {{0}}},
    {"1.0000000001,", false, 0, 0, -EINVAL, {{0}}},
    {"x", false, 0, 0, -EINVAL, {{0}}},
    {"", false, 0, 0, -EINVAL, {{0}}},
    /* a slice ends 1 ns short of the next one, unless it ends at the last sample */
    {"10%", false, 1000, 2000, 1, {{1000, 1099}}},
    {"10%/2", false, 1000, 2000, 1, {{1100, 1199}}},
    {"10%/2,10%/4", false, 1000, 2000, 2, {{1100, 1199}, {1300, 1399}}},
    {"0%-100%", false, 1000, 2000, 1, {{1000, 2000}}},
    {"0%-10%,50%-60%", false, 1000, 2000, 2, {{1000, 1099}, {1500, 1599}}},
    {"50%-10%", false, 1000, 2000, 1, {{1500, 1100}}},
    {"10%/11", false, 1000, 2000, -EINVAL, {{0}}},
    {"0%/1", false, 1000, 2000, -EINVAL, {{0}}},
    {"10%,20%", false, 1000, 2000, -EINVAL, {{0}}},
    {"10%", false, 0, 0, -ENODATA, {{0}}},
    /* --reltime: every bound moves by the first sample time, an open end too */
    {"1,2", true, 5 * S, 9 * S, 1, {{6 * S, 7 * S}}},
    {"1,", true, 5 * S, 9 * S, 1, {{6 * S, 5 * S}}},
    {"1,2", true, 0, 0, -ENODATA, {{0}}},
};

static int test__script_opt_time(struct test_suite *t)
{
	static const struct perf_time_interval one = {10, 20}, open = {10, 0};
	static const struct perf_time_interval two[] = {{10, 20}, {30, 40}};
	size_t i;

	(void)t;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct time_case *c = &cases[i];
		struct perf_time_interval *r;
		int nr = perf_time__parse_ranges(c->str, c->first, c->last, c->reltime, &r);
		bool ok = nr == c->nr;

		for (int j = 0; ok && j < nr; j++)
			ok = r[j].start == c->want[j].start && r[j].end == c->want[j].end;
		if (!ok) {
			pr_debug("--time '%s'%s: %d ranges", c->str, c->reltime ? " --reltime" : "",
				 nr);
			for (int j = 0; j < nr; j++)
				pr_debug(" [%llu, %llu]", (unsigned long long)r[j].start,
					 (unsigned long long)r[j].end);
			pr_debug(", want %d\n", c->nr);
		}
		if (nr < 0 && r)
			ok = false; /* nothing to free after an error */
		free(r);
		TEST_ASSERT_VAL("--time ranges as perf parses them", ok);
	}
	TEST_ASSERT_VAL("before", perf_time__ranges_skip(&one, 1, 5));
	TEST_ASSERT_VAL("inside", !perf_time__ranges_skip(&one, 1, 15));
	TEST_ASSERT_VAL("bounds inclusive", !perf_time__ranges_skip(&one, 1, 20));
	TEST_ASSERT_VAL("after", perf_time__ranges_skip(&one, 1, 25));
	TEST_ASSERT_VAL("no time is kept", !perf_time__ranges_skip(&one, 1, 0));
	TEST_ASSERT_VAL("open end", !perf_time__ranges_skip(&open, 1, 1000));
	TEST_ASSERT_VAL("between two", perf_time__ranges_skip(two, 2, 25));
	TEST_ASSERT_VAL("in the second", !perf_time__ranges_skip(two, 2, 35));
	TEST_ASSERT_VAL("after both", perf_time__ranges_skip(two, 2, 45));
	TEST_ASSERT_VAL("no range", !perf_time__ranges_skip(NULL, 0, 45));
	return TEST_OK;
}

struct test_suite suite__script_opt_time = {
    .desc = "script: --time strings parsed into perf's ranges, worked out by hand",
    .func = test__script_opt_time,
};
