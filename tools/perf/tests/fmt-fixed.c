// SPDX-License-Identifier: GPL-2.0-only
/*
 * fmt_fixed2() prints what glibc's snprintf("%*.2f") prints, byte for
 * byte and in its return value: on the percentages a report computes
 * (period * 100.0 / total over many periods and totals), on every
 * thousandth from 0 to 200 (the ties: 0.125, 0.375 ... round to even),
 * on values spread over the doubles up to 10^14, every width 0..9, and
 * into buffers too small for the text.  glibc is the oracle: it shares
 * no code with the formatter.
 *
 * Mutation caught: ties rounded up instead of to even (0.125 printed
 * 0.13, glibc 0.12); v * 100 taken in double, not long double (0.015,
 * a double just below it, printed 0.02: glibc 0.01).
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "../util/fmt-fixed.h"

static int nr_bad;

static void check(double v, int width, size_t size)
{
	char want[64], got[64];
	int n_want, n_got;

	memset(want, 'x', sizeof(want));
	memset(got, 'x', sizeof(got));
	n_want = snprintf(want, size, "%*.2f", width, v);
	n_got = fmt_fixed2(got, size, width, v);
	if (n_want == n_got && !memcmp(want, got, sizeof(want)))
		return;
	if (nr_bad++ < 10)
		pr_debug("%.17g width %d size %zu: glibc \"%.*s\" (%d), ours \"%.*s\" (%d)\n", v,
			 width, size, (int)(size ? size - 1 : 0), want, n_want,
			 (int)(size ? size - 1 : 0), got, n_got);
}

static int test__fmt_fixed(struct test_suite *t __maybe_unused)
{
	unsigned long long x = 88172645463325252ULL;
	long i;

	nr_bad = 0;
	for (i = 0; i <= 200000; i++)
		check(i / 1000.0, (int)(i % 10), 64);
	for (i = 0; i < 400000; i++) {
		u64 total, period;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		total = 1 + x % 100000000000ULL;
		period = (x >> 20) % (total + 1);
		check(100.0 * period / total, 6, 64);
		check((double)(x >> 11) * 0x1p-53 * 1e14, (int)(x % 10), 64);
	}
	for (i = 0; i < 20000; i++)
		check(i / 100.0 + 0.005, 7, (size_t)(i % 12));
	check(0.0, 0, 64);
	check(99.995, 6, 64);
	check(-1.5, 6, 64);
	return nr_bad ? TEST_FAIL : TEST_OK;
}

struct test_suite suite__fmt_fixed = {
    .desc = "Fixed-point formatting: fmt_fixed2() prints what glibc's %.2f prints",
    .func = test__fmt_fixed,
};
