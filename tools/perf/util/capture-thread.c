// SPDX-License-Identifier: GPL-2.0-only
/* The per-CPU side-band readers' common ground: which CPUs, pinned, real-time. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "capture-thread.h"

int capture__online_cpus(int **cpus)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	int *c;

	if (n <= 0)
		n = 1;
	c = calloc(n, sizeof(int));
	if (!c)
		return -ENOMEM;
	for (long i = 0; i < n; i++)
		c[i] = i;
	*cpus = c;
	return n;
}

void capture__pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

void capture__set_fifo(bool fifo)
{
	struct sched_param sp = {.sched_priority = fifo ? 1 : 0};

	pthread_setschedparam(pthread_self(), fifo ? SCHED_FIFO : SCHED_OTHER, &sp);
}
