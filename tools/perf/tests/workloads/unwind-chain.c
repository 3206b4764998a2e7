// SPDX-License-Identifier: GPL-2.0-only
/*
 * main -> level1 -> level2 -> level3, the time spent in level3, for the
 * unwinding tests.  Built -O2 -g -fomit-frame-pointer (and -m32): no
 * frame pointer to follow, so only the DWARF CFI can walk these frames.
 * noipa keeps each level a real call with its own name (no inlining, no
 * .constprop/.isra clone), and every caller uses the result after the
 * call, so no call becomes a tail jump that would drop a frame.
 * Usage: unwind-chain [seconds] (0.5 when omitted)
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned int sink;

__attribute__((noipa)) static unsigned int level3(unsigned int x)
{
	for (int i = 0; i < 200000; i++)
		x = x * 1103515245u + 12345u;
	return x;
}

__attribute__((noipa)) static unsigned int level2(unsigned int x)
{
	return level3(x ^ 0x5a5a) + 3;
}

__attribute__((noipa)) static unsigned int level1(unsigned int x)
{
	return level2(x + 1) * 7;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 0.5);
	unsigned int x = 1;

	/* a check of the clock every ~0.5 ms keeps the samples in level3 */
	while (now() < end) {
		x = level1(x);
		sink = x;
	}
	return 0;
}
