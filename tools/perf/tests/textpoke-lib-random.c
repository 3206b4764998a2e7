// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke test: libtextpoke's random tests, shared with the library's
 * standalone runner (tools/lib/textpoke/tests/).  Detail with -v.
 */
#include "tests.h"

#define tp_test_log(...) pr_debug(__VA_ARGS__)
#include "../../lib/textpoke/tests/test-random.c"

static int test__textpoke_lib_random(struct test_suite *t __maybe_unused)
{
	return tp_tests__random() ? TEST_FAIL : TEST_OK;
}

struct test_suite suite__textpoke_lib_random = {
    .desc = "libtextpoke: random histories against references",
    .func = test__textpoke_lib_random,
};
