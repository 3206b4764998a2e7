// SPDX-License-Identifier: GPL-2.0-only
/*
 * Code that no object file holds, as a JIT's: a countdown loop copied
 * into an anonymous executable mapping, called from run() below main.
 * No CFI covers it, so an unwinder can give its IP and nothing past it
 * (stock perf prints that one frame, in /tmp/perf-PID.map).  Built -O2 -g
 * -fomit-frame-pointer, as the other unwind-*.c workloads.
 * Usage: unwind-jit [seconds] (0.5 when omitted)
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* 1: dec %rdi; jnz 1b; ret */
static const unsigned char countdown[] = {0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3};

__attribute__((noipa)) static int run(void (*code)(long), long n)
{
	code(n);
	return 1;
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
	void *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int calls = 0;

	if (code == MAP_FAILED)
		return 1;
	memcpy(code, countdown, sizeof(countdown));
	if (mprotect(code, 4096, PROT_READ | PROT_EXEC))
		return 1;
	while (now() < end)
		calls += run((void (*)(long))code, 1000000);
	return calls > 0 ? 0 : 1;
}
