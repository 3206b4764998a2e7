// SPDX-License-Identifier: GPL-2.0-only
/*
 * A libc-heavy loop for the unwinding tests: qsort calling back into
 * the program's comparator (frames of the program below and above
 * libc.so.6's), snprintf, strlen, memcpy, malloc and free, and
 * clock_gettime() in the vdso.  Built
 * -O2 -g -fomit-frame-pointer, as unwind-chain.c.
 * Usage: unwind-libc [seconds] (0.5 when omitted)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NR_WORDS 2000

static volatile size_t sink;

__attribute__((noipa)) static int compare_words(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

__attribute__((noipa)) static size_t make_words(char **words, unsigned int seed)
{
	char buf[64];
	size_t total = 0;

	for (int i = 0; i < NR_WORDS; i++) {
		int len;

		seed = seed * 1103515245u + 12345u;
		len = snprintf(buf, sizeof(buf), "w%08x-%u", seed, seed % 977);
		words[i] = malloc(len + 1);
		if (!words[i])
			exit(1);
		memcpy(words[i], buf, len + 1);
		total += strlen(words[i]);
	}
	return total;
}

/*
 * words on the heap: a 16 kB array on the stack would put the frames
 * below sort_words past the end of perf's 8 kB stack dump
 */
__attribute__((noipa)) static size_t sort_words(char **words, unsigned int seed)
{
	size_t total = make_words(words, seed);

	qsort(words, NR_WORDS, sizeof(words[0]), compare_words);
	total += words[0][1];
	for (int i = 0; i < NR_WORDS; i++)
		free(words[i]);
	return total;
}

/* clock_gettime() is the vdso's: frames of the [vdso] image above libc's */
__attribute__((noipa)) static long read_clock(int n)
{
	struct timespec ts;
	long sum = 0;

	for (int i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += ts.tv_nsec;
	}
	return sum;
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
	char **words = malloc(NR_WORDS * sizeof(*words));
	unsigned int seed = 1;

	if (!words)
		return 1;
	while (now() < end) {
		sink += sort_words(words, seed);
		sink += read_clock(10000);
		seed++;
	}
	free(words);
	return 0;
}
