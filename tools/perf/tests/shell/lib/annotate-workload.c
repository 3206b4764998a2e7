// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test workload for annotate-user.sh: two loops with different shares of
 * the time, each over a few instructions (so that several addresses of
 * a symbol get samples), and a function that runs only when asked, for
 * a symbol with no samples.  Built at test time with -O2 -g.
 * Usage: annotate-workload [n [never]]
 */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void alpha(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 3;
}

__attribute__((noinline)) static void beta(unsigned long n)
{
	for (unsigned long i = 0; i < 2 * n; i++)
		sink ^= i;
}

__attribute__((noinline)) static void never(unsigned long n)
{
	sink += n;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000UL;

	alpha(n);
	beta(n);
	if (argc > 2)
		never(n);
	return 0;
}
