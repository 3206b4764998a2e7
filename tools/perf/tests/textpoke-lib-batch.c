// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke test: libtextpoke's batched reads equal single reads, shared
 * with the library's standalone runner (tools/lib/textpoke/tests/).  Detail with -v.
 */
#include "tests.h"

#define tp_test_log(...) pr_debug(__VA_ARGS__)
#include "../../lib/textpoke/tests/test-batch.c"

static int test__textpoke_lib_batch(struct test_suite *t __maybe_unused)
{
	return tp_tests__batch() ? TEST_FAIL : TEST_OK;
}

struct test_suite suite__textpoke_lib_batch = {
    .desc = "libtextpoke: batched reads equal single reads",
    .func = test__textpoke_lib_batch,
};
