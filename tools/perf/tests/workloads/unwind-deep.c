// SPDX-License-Identifier: GPL-2.0-only
/*
 * A frame larger than perf's stack dump: big() keeps 16 kB of locals and
 * calls leaf(), where the time goes.  perf record --call-graph dwarf
 * copies 8 kB of stack by default, so the return address of big() lies
 * past the dump: an unwinder gets leaf and big, then must stop (stock
 * perf prints one more frame there, at ffffffffffffffff).  Built -O2 -g
 * -fomit-frame-pointer, as the other unwind-*.c workloads.
 * Usage: unwind-deep [seconds] (0.5 when omitted)
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned int sink;

__attribute__((noipa)) static unsigned int leaf(unsigned int x)
{
	for (int i = 0; i < 100000; i++)
		x = x * 1103515245u + 12345u;
	return x;
}

__attribute__((noipa)) static unsigned int big(unsigned int x)
{
	char buf[16384];

	memset(buf, (int)x, sizeof(buf));
	sink = buf[x % sizeof(buf)];
	return leaf(x) + buf[5];
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

	while (now() < end) {
		x = big(x);
		sink = x;
	}
	return 0;
}
