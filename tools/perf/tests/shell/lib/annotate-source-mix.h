/* SPDX-License-Identifier: GPL-2.0-only */
	/* Inlined at annotate-source-workload.c:22, a comment perf takes for a file:line */
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	x ^= x >> 7;	/* a tab inside the line */
	return x * 0x9e3779b97f4a7c15UL;
}
