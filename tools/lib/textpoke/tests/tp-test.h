/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The assertions of libtextpoke's tests.  The test files are included by
 * the perf textpoke test suites (tools/perf/tests/textpoke-lib-*.c) and by
 * the standalone runner (tests/main.c); each defines tp_test_log() first.
 */
#ifndef __TEXTPOKE_TP_TEST_H
#define __TEXTPOKE_TP_TEST_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <textpoke/textpoke.h>

#ifndef tp_test_log
#define tp_test_log(...) fprintf(stderr, __VA_ARGS__)
#endif

#define TP_CHECK(cond)                                                                \
	do {                                                                          \
		if (!(cond)) {                                                        \
			tp_test_log("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond); \
			return -1;                                                    \
		}                                                                     \
	} while (0)

#define TP_CHECK_EQ(val, expected)                                                         \
	do {                                                                               \
		long long __v = (long long)(val), __e = (long long)(expected);             \
		if (__v != __e) {                                                          \
			tp_test_log("FAILED %s:%d: %s == %lld, expected %lld\n", __FILE__, \
				    __LINE__, #val, __v, __e);                             \
			return -1;                                                         \
		}                                                                          \
	} while (0)

#define TP_RUN(fn)                                          \
	do {                                                \
		if (fn()) {                                 \
			tp_test_log("  %s: FAILED\n", #fn); \
			return -1;                          \
		}                                           \
		tp_test_log("  %s: ok\n", #fn);             \
	} while (0)

/* A fixed-seed generator, so that a failure reproduces */
static inline uint64_t tp_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

static inline int tp_print_to_log(enum textpoke_print_level level, const char *fmt, va_list ap,
				  void *arg)
{
	char buf[512];

	(void)level;
	(void)arg;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	tp_test_log("libtextpoke: %s", buf);
	return 0;
}

#define KADDR 0xffffffff81000000ULL

static const uint8_t NOP5[5] __attribute__((unused)) = {0x0f, 0x1f, 0x44, 0x00, 0x00};
static const uint8_t JMP5[5] __attribute__((unused)) = {0xe9, 0x10, 0x20, 0x00, 0x00};
static const uint8_t INT3 __attribute__((unused)) = 0xcc;

#endif /* __TEXTPOKE_TP_TEST_H */
