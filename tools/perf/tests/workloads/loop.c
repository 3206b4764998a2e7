// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload that burns user time in a few named functions, so samples
 * land on known symbols; built -m64 and -m32 by tests, the demo and the
 * benchmark.  Usage: loop [seconds [depth]]: with a depth, middle() is
 * called through that many frames of down(), for long callchains (the
 * benchmark's big recording); without, as before.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noinline)) static unsigned long middle(unsigned long x)
{
	return leaf(x) ^ leaf(x + 1);
}

__attribute__((noinline)) static unsigned long down(int depth, unsigned long x)
{
	unsigned long r = depth ? down(depth - 1, x) : middle(x);

	/* after the call: no tail call, every frame stays */
	sink = r;
	return r;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.5;
	int depth = argc > 2 ? atoi(argv[2]) : 0;
	double end = now() + secs;
	unsigned long x = 1;

	while (now() < end) {
		x = depth ? down(depth, x) : middle(x);
		sink = x;
	}
	return 0;
}
