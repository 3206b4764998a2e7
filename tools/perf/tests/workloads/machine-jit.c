// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stand-in JIT for the symbol tests: two copies of a counting loop in
 * anonymous executable memory, described in /tmp/perf-PID.map as JITs
 * describe their code to perf, then run.  x86-64 only.
 * Usage: machine-jit PIDFILE (the pid is written there so that the test
 * can remove the map file once perf script has read it)
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* mov ecx, 200000000; 1: dec ecx; jnz 1b; ret */
static const unsigned char loop[] = {0xb9, 0x00, 0xc2, 0xeb, 0x0b, 0xff, 0xc9, 0x75, 0xfc, 0xc3};

int main(int argc, char **argv)
{
	unsigned char *code;
	void (*one)(void), (*two)(void);
	char path[64];
	FILE *fp;
	int i;

#ifndef __x86_64__
	return 2;
#endif
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		    0);
	if (code == MAP_FAILED)
		return 2;
	memset(code, 0xcc, 4096);
	memcpy(code + 0x100, loop, sizeof(loop));
	memcpy(code + 0x200, loop, sizeof(loop));

	if (argc > 1) {
		fp = fopen(argv[1], "w");
		if (!fp)
			return 1;
		fprintf(fp, "%d\n", getpid());
		fclose(fp);
	}
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	fp = fopen(path, "w");
	if (!fp)
		return 1;
	fprintf(fp, "%lx %zx jitted_loop_one\n", (unsigned long)(code + 0x100), sizeof(loop));
	fprintf(fp, "%lx %zx jitted_loop_two\n", (unsigned long)(code + 0x200), sizeof(loop));
	fclose(fp);

	one = (void (*)(void))(code + 0x100);
	two = (void (*)(void))(code + 0x200);
	for (i = 0; i < 2; i++) {
		one();
		two();
	}
	return 0;
}
