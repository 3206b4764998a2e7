// SPDX-License-Identifier: GPL-2.0-only
/*
 * libtextpoke's tests on their own, without perf: make -C tools/lib/textpoke test
 * (-v shows every step).  The same tests run in perf textpoke test.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool tp_verbose;

#define tp_test_log(...) (tp_verbose ? fprintf(stderr, __VA_ARGS__) : 0)

#include "test-image.c"
#include "test-verdict.c"
#include "test-random.c"
#include "test-limits.c"
#include "test-batch.c"

static const struct {
	const char *name;
	int (*fn)(void);
} groups[] = {
    {"image", tp_tests__image},	  {"verdict", tp_tests__verdict}, {"random", tp_tests__random},
    {"limits", tp_tests__limits}, {"batch", tp_tests__batch},
};

int main(int argc, char **argv)
{
	int failed = 0;

	tp_verbose = argc > 1 && !strcmp(argv[1], "-v");
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		int err = groups[i].fn();

		printf("libtextpoke %-8s: %s\n", groups[i].name, err ? "FAILED" : "Ok");
		failed += !!err;
	}
	return failed ? 1 : 0;
}
