// SPDX-License-Identifier: GPL-2.0-only
/*
 * Finding tracefs, or mounting it, the way perf's tools/lib/api/fs does, so
 * that tracepoints work on a machine where nothing mounted tracefs yet (a
 * fresh boot, a container): stock perf record mounts it itself.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>

#include "debug.h"
#include "tracefs.h"

#define TRACEFS_MAGIC 0x74726163
#define DEBUGFS_MAGIC 0x64626720

#define TRACEFS_DEFAULT "/sys/kernel/tracing"
#define DEBUGFS_DEFAULT "/sys/kernel/debug"

static char tracefs_dir[PATH_MAX];
static int tracefs_err = -ENOENT;
static bool looked_up;

static bool is_fs(const char *dir, long magic)
{
	struct statfs st;

	return !statfs(dir, &st) && (long)st.f_type == magic;
}

/* the mount point of the first /proc/mounts line of type @type */
static bool mounts__find(const char *type, char *dir, size_t size)
{
	char *line = NULL;
	size_t n = 0;
	bool found = false;
	FILE *f = fopen("/proc/mounts", "re");

	if (!f)
		return false;
	while (!found && getline(&line, &n, f) > 0) {
		char mnt[PATH_MAX], fstype[64];

		/* octal escapes (\040) in @mnt are left as they are: perf does the same */
		if (sscanf(line, "%*s %4095s %63s", mnt, fstype) == 2 && !strcmp(fstype, type) &&
		    strlen(mnt) < size) {
			strcpy(dir, mnt);
			found = true;
		}
	}
	free(line);
	fclose(f);
	return found;
}

static bool set_dir(const char *dir, const char *sub)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s%s", dir, sub) >= (int)sizeof(path))
		return false;
	/* debugfs/tracing is tracefs once looked at: the kernel automounts it there */
	if (!is_fs(path, TRACEFS_MAGIC))
		return false;
	strcpy(tracefs_dir, path);
	return true;
}

static bool tracefs__find(void)
{
	static const char *const known[] = {
	    TRACEFS_DEFAULT,
	    DEBUGFS_DEFAULT "/tracing",
	    "/tracing",
	    "/trace",
	};
	char dir[PATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
		if (set_dir(known[i], ""))
			return true;
	}
	if (mounts__find("tracefs", dir, sizeof(dir)) && set_dir(dir, ""))
		return true;
	if (is_fs(DEBUGFS_DEFAULT, DEBUGFS_MAGIC) && set_dir(DEBUGFS_DEFAULT, "/tracing"))
		return true;
	return mounts__find("debugfs", dir, sizeof(dir)) && set_dir(dir, "/tracing");
}

/* -errno of the tracefs mount, the one that matters when both fail */
static int tracefs__mount(void)
{
	int err;

	if (!mount("nodev", TRACEFS_DEFAULT, "tracefs", 0, NULL)) {
		if (set_dir(TRACEFS_DEFAULT, ""))
			return 0;
		return -ENOTDIR;
	}
	err = -errno;
	/* a kernel older than tracefs (4.1) has the tracing files in debugfs only */
	if (!mount("nodev", DEBUGFS_DEFAULT, "debugfs", 0, NULL) &&
	    set_dir(DEBUGFS_DEFAULT, "/tracing"))
		return 0;
	return err;
}

const char *tracefs__path(void)
{
	const char *env;

	if (looked_up)
		return tracefs_dir;
	looked_up = true;
	env = getenv("TRACEFS_PATH");
	if (env && *env && strlen(env) < sizeof(tracefs_dir)) {
		/* perf's override for testing: taken as it is */
		strcpy(tracefs_dir, env);
		tracefs_err = 0;
	} else if (tracefs__find()) {
		tracefs_err = 0;
	} else {
		tracefs_err = tracefs__mount();
		if (tracefs_err) {
			strcpy(tracefs_dir, TRACEFS_DEFAULT);
			pr_debug("tracefs: not mounted, and mounting it at %s failed: %s\n",
				 TRACEFS_DEFAULT, strerror(-tracefs_err));
		} else {
			pr_debug("tracefs: mounted at %s\n", tracefs_dir);
		}
	}
	return tracefs_dir;
}

int tracefs__error(void)
{
	tracefs__path();
	return tracefs_err;
}
