// SPDX-License-Identifier: GPL-2.0-only
/*
 * Can this machine run a program?  Built twice at test time: with -m32 it
 * is the program (it just exits 0), built natively it is the prober:
 *
 *	exec-probe ./exec-probe32
 *
 * runs it in a child with execve() and prints why not when it cannot run.
 * execve() and not execvp(): on ENOEXEC the latter (and every shell)
 * falls back to reading the file as a script, which turns "this kernel
 * runs no 32-bit code" into a shell syntax error.  The suite's 32-bit
 * parts take their skip from this, never from the code under test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *args[] = {argv[1], NULL}, *envp[] = {NULL};
	int fds[2], err = 0, status;
	ssize_t n;
	pid_t pid;

	if (argc < 2)
		return 0;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		perror("pipe2");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		execve(argv[1], args, envp);
		err = errno;
		if (write(fds[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(fds[1]);
	/* the close-on-exec pipe ends empty exactly when execve() worked */
	n = read(fds[0], &err, sizeof(err));
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return 1;
	}
	if (n == sizeof(err)) {
		printf("execve: %s\n", strerror(err));
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("it ran but did not exit 0 (status 0x%x)\n", status);
		return 1;
	}
	return 0;
}
