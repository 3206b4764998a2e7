// SPDX-License-Identifier: GPL-2.0-only
/*
 * "perf textpoke <sub> --help" and "perf textpoke help <sub>" open the man
 * page, as "perf <cmd> --help" and "perf help <cmd>" do.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "help-man.h"

/*
 * perf puts its own man directory before the system's; ours is found from
 * the binary, <prefix>/bin/perf-textpoke -> <prefix>/share/man, so that an
 * install under any prefix or DESTDIR opens its own pages.
 */
static void man_path__setup(void)
{
	char exe[PATH_MAX], dir[PATH_MAX + 16], *slash, *path;
	const char *old = getenv("MANPATH");
	struct stat st;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(dir, sizeof(dir), "%s/../share/man", exe);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return;
	/* a trailing ':' keeps man's own search path after ours */
	if (asprintf(&path, "%s:%s", dir, old ? old : "") < 0)
		return;
	setenv("MANPATH", path, 1);
	free(path);
}

int help__show_man_page(const char *page)
{
	const char *viewer = getenv("PERF_MAN_VIEWER");
	int err;

	man_path__setup();
	fflush(stdout);
	fflush(stderr);
	if (viewer && *viewer && strcmp(viewer, "man")) {
		execlp(viewer, viewer, page, (char *)NULL);
		pr_warning("cannot run the man viewer '%s' (%s), trying man\n", viewer,
			   strerror(errno));
	}
	execlp("man", "man", page, (char *)NULL);
	err = -errno;
	pr_err("cannot run man to show %s: %s\n", page, strerror(-err));
	return err;
}
