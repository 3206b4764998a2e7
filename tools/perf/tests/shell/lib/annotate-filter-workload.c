// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test workload for annotate-filters.sh: one function, alpha, run by
 * three tasks that the filters tell apart: the main thread, a second
 * thread named ann-thread (another tid and comm, the same pid), and a
 * child process named ann-child (another pid).  The child runs on cpu 1
 * and the parent's threads on cpu 0 when there are two cpus, so that -C
 * splits them too.  Prints "child PID" and "thread TID" for the test.
 * Usage: annotate-filter-workload [n]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void alpha(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 3;
}

/* best effort: with one cpu the test does not use -C */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *worker(void *arg)
{
	prctl(PR_SET_NAME, "ann-thread");
	printf("thread %d\n", gettid());
	fflush(stdout);
	alpha(*(unsigned long *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000000UL;
	pthread_t t;
	pid_t child;

	fflush(stdout);
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		pin(1);
		prctl(PR_SET_NAME, "ann-child");
		alpha(2 * n);
		return 0;
	}
	printf("child %d\n", child);
	fflush(stdout);
	pin(0);
	if (pthread_create(&t, NULL, worker, &n))
		return 1;
	alpha(n);
	pthread_join(t, NULL);
	waitpid(child, NULL, 0);
	return 0;
}
