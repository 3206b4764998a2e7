// SPDX-License-Identifier: GPL-2.0-only
/*
 * script-srcline.sh: main() and leaf() built with -g, nodebug() from
 * srcline-nodebug.c built without: addr2line knows nodebug() by its ELF
 * symbol alone ("nodebug" / "??:?"), in an object that has a line table,
 * at every sample and frame there, leaf or caller.
 */
volatile unsigned long sink;
void nodebug(void);

__attribute__((noinline)) void leaf(void)
{
	for (int i = 0; i < 20000; i++)
		sink += i;
}

int main(void)
{
	for (int i = 0; i < 20000; i++)
		nodebug();
	return 0;
}
