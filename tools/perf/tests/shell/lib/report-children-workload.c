// SPDX-License-Identifier: GPL-2.0-only
/*
 * Workload of the report-children tests: main -> level1 -> level2 ->
 * level3, each level spending time of its own, level3 also in libc
 * (memset), so that every level has both Self and Children.  Built at
 * test time with frame pointers (perf record -g), and -O2
 * -fomit-frame-pointer, 64-bit and -m32 (--call-graph dwarf).  The
 * levels are noinline and use their callee's result, so that no call is
 * a tail call and every level keeps a frame of its own.
 */
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;
static char buf[4096];

/* a loop of the caller's own: not a call, so its time is the caller's Self */
#define SPIN(n, k)                                         \
	do {                                               \
		for (unsigned long i_ = 0; i_ < (n); i_++) \
			sink += i_ * (k);                  \
	} while (0)

__attribute__((noinline)) static unsigned long level3(unsigned long n)
{
	unsigned long r = 0;

	SPIN(n, 3);
	for (unsigned long i = 0; i < n / 32; i++) {
		memset(buf, (int)i, sizeof(buf));
		r += buf[i % sizeof(buf)];
	}
	return r;
}

/*
 * Inlined into level2, and level3 called from it: a --call-graph dwarf
 * unwind splits level2's frames into "descend (inlined)" and level2
 */
__attribute__((always_inline)) static inline unsigned long descend(unsigned long n)
{
	SPIN(n / 4, 4);
	return level3(n) + 1;
}

__attribute__((noinline)) static unsigned long level2(unsigned long n)
{
	SPIN(n / 4, 2);
	return descend(n) + 1;
}

__attribute__((noinline)) static unsigned long level1(unsigned long n)
{
	SPIN(n / 2, 1);
	return level2(n) + 1;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000UL;

	SPIN(n / 4, 5);
	sink = level1(n);
	return 0;
}
