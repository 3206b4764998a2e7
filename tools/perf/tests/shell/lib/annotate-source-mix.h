/* SPDX-License-Identifier: GPL-2.0-only */
/* Inlined into annotate-source-workload.c: source lines of a second file */
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	x ^= x >> 7;	/* a tab inside the line */
	return x * 0x9e3779b97f4a7c15UL;
}
