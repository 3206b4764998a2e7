// SPDX-License-Identifier: GPL-2.0-only
/* built without -g: see srcline-workload.c */
extern volatile unsigned long sink;
void leaf(void);

__attribute__((noinline)) void nodebug(void)
{
	for (int i = 0; i < 20000; i++)
		sink += i;
	leaf();
}
