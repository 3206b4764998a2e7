// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke test: libtextpoke's image tests, shared with the library's
 * standalone runner (tools/lib/textpoke/tests/).  Detail with -v.
 */
#include "tests.h"

#define tp_test_log(...) pr_debug(__VA_ARGS__)
#include "../../lib/textpoke/tests/test-image.c"

static int test__textpoke_lib_image(struct test_suite *t __maybe_unused)
{
	return tp_tests__image() ? TEST_FAIL : TEST_OK;
}

struct test_suite suite__textpoke_lib_image = {
    .desc = "libtextpoke: bytes from start, end, midway or no image",
    .func = test__textpoke_lib_image,
};
