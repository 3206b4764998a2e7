// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke test: libtextpoke's verdict tests, shared with the library's
 * standalone runner (tools/lib/textpoke/tests/).  Detail with -v.
 */
#include "tests.h"

#define tp_test_log(...) pr_debug(__VA_ARGS__)
#include "../../lib/textpoke/tests/test-verdict.c"

static int test__textpoke_lib_verdict(struct test_suite *t __maybe_unused)
{
	return tp_tests__verdict() ? TEST_FAIL : TEST_OK;
}

struct test_suite suite__textpoke_lib_verdict = {
    .desc = "libtextpoke: consistency verdicts",
    .func = test__textpoke_lib_verdict,
};
