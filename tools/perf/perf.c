// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-textpoke: reached as "perf textpoke <sub>" through perf's lookup of
 * perf-<name> on PATH, or run directly.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin.h"

/*
 * A handler, not SIG_IGN: a write to a pipe nobody reads returns EPIPE
 * instead of killing us, and what we exec (a record workload, a shell
 * test) starts with the default again, as execve() resets handlers but
 * keeps ignored signals ignored.
 */
static void sigpipe__noop(int sig)
{
	(void)sig;
}

/*
 * What perf's run_builtin() does once a command returns.  perf's own
 * commands die of SIGPIPE quietly, but ours runs as a child of the perf
 * wrapper, which says "FATAL: unable to run" for a child killed by a
 * signal: so a reader that went away (head, a pager quit early) is a
 * normal end, and any other failure to write stdout gets one line.
 */
static int stdout__finish(int status)
{
	struct stat st;

	if (status)
		return status & 0xff;
	if (fstat(fileno(stdout), &st))
		return 0;
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		return 0;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "perf textpoke: write failure on standard output: %s\n",
			strerror(errno ?: EIO));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = sigpipe__noop, .sa_flags = SA_RESTART};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	return stdout__finish(cmd_textpoke(argc, argv));
}
