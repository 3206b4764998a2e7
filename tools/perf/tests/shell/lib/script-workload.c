// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test workload for the script parity tests: spins in two frame-pointer
 * functions so that samples land in user code with a known callchain.
 * Built at test time, 64-bit and -m32.
 */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long work(unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n; i++)
		s += (i * i) ^ (s >> 3);
	return s;
}

__attribute__((noinline)) static void outer(unsigned long n)
{
	sink += work(n);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000UL;
	int k;

	for (k = 0; k < 4; k++)
		outer(n / 4);
	return 0;
}
