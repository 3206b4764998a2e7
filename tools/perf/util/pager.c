// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output through a pager, as perf does it (tools/lib/subcmd/pager.c): the
 * pager is a child reading our stdout through a pipe, and we outlive it
 * only by waiting for it, so the shell prompt comes back after the pager.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pager.h"

static pid_t pager_pid = -1;

static void pager__wait(void)
{
	fflush(stdout);
	fflush(stderr);
	/* the pager sees end of input once no end of the pipe is ours */
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static void pager__signal(int sig)
{
	pager__wait();
	signal(sig, SIG_DFL);
	raise(sig);
}

static const char *pager__choose(void)
{
	const char *pager = getenv("PERF_PAGER");

	if (!pager)
		pager = getenv("PAGER");
	if (!pager && !access("/usr/bin/pager", X_OK))
		pager = "/usr/bin/pager";
	if (!pager && !access("/usr/bin/less", X_OK))
		pager = "/usr/bin/less";
	if (!pager || !*pager || !strcmp(pager, "cat"))
		return NULL;
	return pager;
}

void pager__setup(void)
{
	const char *pager;
	int fds[2];

	if (pager_pid != -1 || !isatty(STDOUT_FILENO))
		return;
	pager = pager__choose();
	if (!pager || pipe(fds))
		return;
	fflush(stdout);
	pager_pid = fork();
	if (pager_pid < 0) {
		close(fds[0]);
		close(fds[1]);
		pager_pid = -1;
		return;
	}
	if (!pager_pid) {
		fd_set in, ex;

		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		/* as perf: start less only once there is something to show */
		FD_ZERO(&in);
		FD_SET(STDIN_FILENO, &in);
		ex = in;
		select(1, &in, NULL, &ex, NULL);
		setenv("LESS", "FRSX", 0);
		execlp("sh", "sh", "-c", pager, (char *)NULL);
		fprintf(stderr, "cannot run the pager '%s': %s\n", pager, strerror(errno));
		_exit(127);
	}
	dup2(fds[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(fds[1], STDERR_FILENO);
	close(fds[0]);
	close(fds[1]);
	signal(SIGINT, pager__signal);
	signal(SIGHUP, pager__signal);
	signal(SIGTERM, pager__signal);
	signal(SIGQUIT, pager__signal);
	/* SIGPIPE stays as main() set it: a pager quit early is a normal end */
	atexit(pager__wait);
}
