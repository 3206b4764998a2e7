/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_H
#define __PERF_TEXTPOKE_TESTS_H

#include <stdbool.h>
#include <stdio.h>

#include "../util/debug.h"
#include "../util/types.h"

enum {
	TEST_OK = 0,
	TEST_FAIL = -1,
	TEST_SKIP = -2,
};

/*
 * A C test suite.  Define one per file as
 *
 *	struct test_suite suite__name = {
 *		.desc = "What it proves",
 *		.func = test__name,
 *	};
 *
 * at file scope on one line up to the '=': the build collects these into
 * the numbered table (tools/build/gen-tests-list.sh).  A test that skips
 * sets t->skip_reason.
 */
struct test_suite {
	const char *desc;
	int (*func)(struct test_suite *t);
	/*
	 * runs alone under test -j: it loads BPF programs or records the
	 * whole system, and another test's programs or processes would be in
	 * what it checks
	 */
	bool exclusive;
	char skip_reason[256];
};

extern struct test_suite *const builtin_tests[];

/* where the source tree and the public corpus are ($TEXTPOKE_SRCDIR) */
const char *test_srcdir(void);
const char *test_corpus_dir(void);
/* path of the perf-textpoke binary being tested */
const char *test_self_exe(void);

/*
 * 0 when gcc -m32 builds a program and this kernel runs it; else -1 and
 * the reason in @why, for a 32-bit part's skip.  Builds its probe in @dir.
 */
int test_why_no_32bit(const char *dir, char *why, size_t len);

void test_skip(struct test_suite *t, const char *fmt, ...) __printf(2, 3);
/* appends "; reason" to t->skip_reason */
void test_skip_part(struct test_suite *t, const char *fmt, ...) __printf(2, 3);
/* after every part passed: TEST_SKIP when a part was skipped, else TEST_OK */
int test_result(const struct test_suite *t);

#define TEST_ASSERT_VAL(text, cond)                                              \
	do {                                                                     \
		if (!(cond)) {                                                   \
			pr_debug("FAILED %s:%d %s\n", __FILE__, __LINE__, text); \
			return TEST_FAIL;                                        \
		}                                                                \
	} while (0)

#define TEST_ASSERT_EQUAL(text, val, expected)                                                 \
	do {                                                                                   \
		long long __v = (long long)(val), __e = (long long)(expected);                 \
		if (__v != __e) {                                                              \
			pr_debug("FAILED %s:%d %s (%lld != %lld)\n", __FILE__, __LINE__, text, \
				 __v, __e);                                                    \
			return TEST_FAIL;                                                      \
		}                                                                              \
	} while (0)

#endif /* __PERF_TEXTPOKE_TESTS_H */
