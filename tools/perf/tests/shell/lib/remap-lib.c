// SPDX-License-Identifier: GPL-2.0-only
/*
 * One library built twice under two names (-DNAME=alpha, -DNAME=beta):
 * the same code at the same offsets, other symbols.  report-remap.sh maps
 * one, then the other at the same address.
 */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)

volatile int sink;

__attribute__((noinline)) void CAT(NAME, leaf)(void)
{
	for (int i = 0; i < 100; i++)
		sink += i;
}

__attribute__((noinline)) void CAT(NAME, mid)(void)
{
	CAT(NAME, leaf)();
	sink++;
}

__attribute__((noinline)) void CAT(NAME, top)(void)
{
	CAT(NAME, mid)();
	sink++;
}
