// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whether this machine runs 32-bit x86 programs, for the C tests' 32-bit
 * parts: the shell tests' probe (shell/lib/exec-probe.c), built with gcc
 * natively and with -m32, decides it with execve() alone.  A kernel
 * without IA-32 emulation refuses the program with ENOEXEC.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "tests.h"

int test_why_no_32bit(const char *dir, char *why, size_t len)
{
	const char *src = test_srcdir();
	char cmd[8192], *nl;
	FILE *f;
	int status;

	snprintf(
	    cmd, sizeof(cmd),
	    "src='%s/tools/perf/tests/shell/lib/exec-probe.c'; "
	    "gcc -O1 -o '%s/exec-probe' \"$src\" 2>/dev/null || "
	    "{ echo 'gcc cannot build shell/lib/exec-probe.c'; exit 1; }; "
	    "gcc -m32 -O1 -o '%s/exec-probe32' \"$src\" 2>/dev/null || "
	    "{ echo 'gcc -m32 cannot build a 32-bit program (gcc-multilib missing)'; exit 1; }; "
	    "why=$('%s/exec-probe' '%s/exec-probe32') || "
	    "{ echo \"this kernel runs no 32-bit program (a gcc -m32 build: $why)\"; exit 1; }",
	    src, dir, dir, dir, dir);
	f = popen(cmd, "r");
	if (!f) {
		snprintf(why, len, "cannot run the 32-bit probe");
		return -1;
	}
	if (!fgets(why, len, f))
		why[0] = '\0';
	status = pclose(f);
	nl = strchr(why, '\n');
	if (nl)
		*nl = '\0';
	if (status == 0)
		return 0;
	if (!why[0])
		snprintf(why, len, "the 32-bit probe failed (status 0x%x)", status);
	return -1;
}
