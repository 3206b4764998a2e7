// SPDX-License-Identifier: GPL-2.0-only
/*
 * Chains through a signal frame, in two threads: main runs interrupted()
 * while a SIGALRM every millisecond spends its time in handler(), so the
 * handler's caller is the kernel's signal frame (libc's __restore_rt) and
 * below it the interrupted function, at the very instruction that was
 * interrupted (no "- 1": it was not calling).  A second thread spins in
 * spin() from its own start routine.  Built -O2 -g -fomit-frame-pointer,
 * as the other unwind-*.c workloads (and -pthread).
 * Usage: unwind-signal [seconds] (0.5 when omitted)
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static volatile unsigned int sink;
static volatile int done;

__attribute__((noipa)) static unsigned int spin(unsigned int x)
{
	for (int i = 0; i < 300000; i++)
		x = x * 1103515245u + 12345u;
	return x;
}

__attribute__((noipa)) static void handler(int sig)
{
	sink = spin((unsigned int)sig) + 1;
}

__attribute__((noipa)) static unsigned int interrupted(unsigned int x)
{
	for (int i = 0; i < 100000; i++)
		x = x * 69069u + 1;
	return x + 1;
}

__attribute__((noipa)) static void *spinner(void *arg)
{
	unsigned int x = 3;

	while (!done)
		x = spin(x) + 1;
	sink = x;
	return arg;
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
	struct itimerval every_ms = {{0, 1000}, {0, 1000}}, off = {{0, 0}, {0, 0}};
	struct sigaction sa = {.sa_handler = handler};
	unsigned int x = 1;
	pthread_t thread;

	/* SIGALRM to this thread only: the spinner blocks it */
	sigset_t alrm;

	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, NULL);
	if (pthread_create(&thread, NULL, spinner, NULL))
		return 1;
	pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &every_ms, NULL))
		return 1;
	while (now() < end) {
		x = interrupted(x);
		sink = x;
	}
	setitimer(ITIMER_REAL, &off, NULL);
	done = 1;
	pthread_join(thread, NULL);
	return 0;
}
