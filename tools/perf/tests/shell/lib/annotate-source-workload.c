// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test workload for annotate-source.sh: a loop whose body is two inlined
 * functions, one from a header, so that the annotation interleaves the
 * source lines of two files and names the inlined function, and two
 * functions of top-level asm, which have a name but no line (addr2line:
 * "??:?"), the second with half the first one's work.  Built at test time with -O2 -g.
 * Usage: annotate-source-workload [n]
 */
#include <stdlib.h>

#include "annotate-source-mix.h"

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long step(unsigned long i)
{
	return mix(i) + (i << 3);
}

__attribute__((noinline)) static void gamma_loop(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += step(i);
}

void asm_loop(unsigned long n);
asm(".text\n"
    ".globl asm_loop\n"
    ".type asm_loop, @function\n"
    "asm_loop:\n"
    "1:	dec %rdi\n"
    "	jnz 1b\n"
    "	ret\n"
    ".size asm_loop, .-asm_loop\n"
    ".globl asm_loop2\n"
    ".type asm_loop2, @function\n"
    "asm_loop2:\n"
    "1:	dec %rdi\n"
    "	jnz 1b\n"
    "	ret\n"
    ".size asm_loop2, .-asm_loop2\n");
void asm_loop2(unsigned long n);

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000UL;

	gamma_loop(n);
	asm_loop(n / 2 + 1);
	asm_loop2(n / 4 + 1);
	return 0;
}
