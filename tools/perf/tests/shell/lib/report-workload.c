// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test workload for the report tests: two threads, the main one in three
 * functions with different shares of the time (one of them making system
 * calls, so kernel code shows too), the second in two others.  Built at
 * test time, 64-bit and -m32.  Usage: report-workload [n [program [arg...]]]:
 * with a program, exec it when done, so that one process runs a 32-bit and
 * then a 64-bit program with no shell between them (the real-kernel rig's
 * mixed recording).
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

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

__attribute__((noinline)) static void calls(unsigned long n)
{
	for (unsigned long i = 0; i < n / 64; i++)
		sink += getppid();
}

__attribute__((noinline)) static void *worker(void *arg)
{
	unsigned long n = *(unsigned long *)arg;

	alpha(n);
	beta(n / 2);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000UL;
	pthread_t t;

	if (pthread_create(&t, NULL, worker, &n))
		return 1;
	alpha(n);
	beta(n);
	calls(n);
	pthread_join(t, NULL);
	if (argc > 2) {
		execv(argv[2], argv + 2);
		return 127;
	}
	return 0;
}
