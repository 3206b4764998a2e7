// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a writer's bytes go.
 *
 * A destination that is a regular file, a recording directory or nothing
 * yet is replaced atomically, as perf record replaces perf.data: the bytes
 * go to ".<name>.<pid>.XXXXXX" beside it, and close keeps what was there as
 * "<name>.old" and renames the new one into place.  A failed or aborted
 * recording removes its temporary name and leaves both alone.  Only
 * SIGKILL (or a crash) leaves one behind: the pid in the name tells the
 * next writer of the same output that its owner is gone, and it removes
 * it.
 *
 * Anything else (/dev/null, another device, a FIFO) is not ours to
 * replace: it is opened and written through, as a shell redirection
 * would, and never renamed nor removed.  A symlink is followed to what it
 * names, so the link stays and its target is the destination.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "output-path.h"
#include "writer-internal.h"

/* as the kernel's MAXSYMLINKS */
#define SYMLINK_HOPS 40

static int rm_rf_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) ? -1 : 0;
}

static int rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? -errno : 0;
	return nftw(path, rm_rf_one, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}

/*
 * What a recording leaves in a directory: data, data.N and kcore_dir, as
 * perf's rm_rf_perf_data() expects.  Anything else means the directory is
 * someone's, and -o naming it is a mistake to refuse, not to act on.
 */
static bool is_recording_dir(const char *path)
{
	struct dirent *de;
	DIR *d = opendir(path);
	bool ours = true;

	if (!d)
		return false;
	while (ours && (de = readdir(d))) {
		const char *n = de->d_name;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		ours = !strcmp(n, "data") || !strncmp(n, "data.", 5) || !strcmp(n, "kcore_dir");
	}
	closedir(d);
	return ours;
}

/*
 * May close replace @path (and remove @path.old)?  Regular files and
 * symlinks, which only name something, may go; a recording directory may;
 * any other directory is -ENOTEMPTY, a device or FIFO -EEXIST.
 */
static int may_replace(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode))
		return is_recording_dir(path) ? 0 : -ENOTEMPTY;
	return -EEXIST;
}

static char *old_name(const char *path)
{
	char *old;

	return asprintf(&old, "%s.old", path) < 0 ? NULL : old;
}

static int may_replace_both(const char *path)
{
	char *old = old_name(path);
	int err;

	if (!old)
		return -ENOMEM;
	err = may_replace(path);
	if (!err)
		err = may_replace(old);
	free(old);
	return err;
}

/*
 * The name a chain of symlinks ends at, which need not exist yet (a
 * dangling link names the file to create, as open(O_CREAT) would); *mode
 * is its lstat mode, 0 when it does not exist.
 */
static int follow_links(const char *path, char **target, mode_t *mode)
{
	char *cur = strdup(path), *next, link[PATH_MAX];
	struct stat st;
	int hops;

	if (!cur)
		return -ENOMEM;
	for (hops = 0;; hops++) {
		const char *slash;
		ssize_t n;

		if (lstat(cur, &st)) {
			if (errno != ENOENT) {
				free(cur);
				return -errno;
			}
			*mode = 0;
			break;
		}
		*mode = st.st_mode;
		if (!S_ISLNK(st.st_mode))
			break;
		n = hops < SYMLINK_HOPS ? readlink(cur, link, sizeof(link)) : -1;
		if (n < 0 || n == sizeof(link)) {
			int err = hops >= SYMLINK_HOPS ? -ELOOP : n < 0 ? -errno : -ENAMETOOLONG;

			free(cur);
			return err;
		}
		/* a relative link is relative to the directory that holds it */
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash)
			n = asprintf(&next, "%.*s", (int)n, link);
		else
			n = asprintf(&next, "%.*s%.*s", (int)(slash - cur + 1), cur, (int)n, link);
		free(cur);
		if (n < 0)
			return -ENOMEM;
		cur = next;
	}
	*target = cur;
	return 0;
}

/* "<dir>/.<base>.<pid>.XXXXXX" next to @path, so that rename() stays in one fs */
char *output_path__tmp(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dir_len = slash ? (int)(slash - path + 1) : 0;
	char *tmpl;

	output_path__clean_stale(path);
	if (asprintf(&tmpl, "%.*s.%s.%d.XXXXXX", dir_len, path, base, (int)getpid()) < 0)
		return NULL;
	return tmpl;
}

/* the pid of a temporary name of @base ".<base>.<pid>.XXXXXX", or 0 */
static pid_t stale_owner(const char *name, const char *base)
{
	size_t blen = strlen(base);
	const char *p;
	char *end;
	long pid;

	if (name[0] != '.' || strncmp(name + 1, base, blen) || name[1 + blen] != '.')
		return 0;
	p = name + 2 + blen;
	if (*p < '1' || *p > '9')
		return 0;
	pid = strtol(p, &end, 10);
	if (*end != '.' || strlen(end + 1) != 6 || pid <= 0 || pid > INT_MAX)
		return 0;
	return (pid_t)pid;
}

void output_path__clean_stale(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = !slash	  ? strdup(".") :
		    slash == path ? strdup("/") :
				    strndup(path, slash - path);
	struct dirent *de;
	DIR *d;

	if (!dir || !*base)
		goto out;
	d = opendir(dir);
	if (!d)
		goto out;
	while ((de = readdir(d))) {
		pid_t pid = stale_owner(de->d_name, base);
		char *stale;

		/* a live owner, or one we may not signal, is still writing it */
		if (!pid || pid == getpid() || !kill(pid, 0) || errno != ESRCH)
			continue;
		if (asprintf(&stale, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", de->d_name) < 0)
			continue;
		if (!rm_rf(stale))
			pr_warning("%s: removed %s, left by a killed run (pid %d)\n", path, stale,
				   (int)pid);
		free(stale);
	}
	closedir(d);
out:
	free(dir);
}

/*
 * A device or FIFO.  O_NONBLOCK so that a FIFO nobody reads fails at once
 * with ENXIO instead of blocking in open() until someone does; writes
 * block again afterwards, as any pipe writer's do.  The file format goes
 * back to rewrite its header: it needs an fd that seeks (/dev/null does).
 */
static int open_through(struct perf_writer *w, unsigned int flags)
{
	int fl;

	if (flags & PERF_WRITER_DIRECTORY)
		return -ENOTDIR;
	w->fd = open(w->path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (w->fd < 0)
		return -errno;
	w->own_fd = true;
	w->through = true;
	fl = fcntl(w->fd, F_GETFL);
	if (fl < 0 || fcntl(w->fd, F_SETFL, fl & ~O_NONBLOCK))
		return -errno;
	if (!(flags & PERF_WRITER_PIPE) && lseek(w->fd, 0, SEEK_CUR) < 0)
		return -errno;
	w->data_path = strdup(w->path);
	return w->data_path ? 0 : -ENOMEM;
}

static int open_tmp(struct perf_writer *w, unsigned int flags)
{
	int err = may_replace_both(w->path);

	if (err)
		return err;
	w->tmp_path = output_path__tmp(w->path);
	if (!w->tmp_path)
		return -ENOMEM;
	if (flags & PERF_WRITER_DIRECTORY) {
		if (!mkdtemp(w->tmp_path)) {
			err = -errno;
			zfree(&w->tmp_path);
			return err;
		}
		if (asprintf(&w->data_path, "%s/data", w->tmp_path) < 0) {
			w->data_path = NULL;
			return -ENOMEM;
		}
		/* read and write, as mkostemp() opens the plain file: the recorder reads back */
		w->fd = open(w->data_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	} else {
		w->fd = mkostemp(w->tmp_path, O_CLOEXEC);
		if (w->fd < 0) {
			err = -errno;
			zfree(&w->tmp_path);
			return err;
		}
		w->data_path = strdup(w->tmp_path);
		if (!w->data_path)
			return -ENOMEM;
	}
	if (w->fd < 0)
		return -errno;
	w->own_fd = true;
	return 0;
}

int output_path__resolve(const char *path, char **target, bool *through)
{
	size_t len = strlen(path);
	enum output_path_kind kind;
	char *name;
	mode_t mode;
	int err;

	while (len > 1 && path[len - 1] == '/')
		len--;
	name = strndup(path, len);
	if (!name)
		return -ENOMEM;
	/*
	 * What open() would reach is what counts: /dev/stdout and other
	 * /proc magic links to a pipe read back as "pipe:[n]", no path.
	 */
	kind = output_path__kind(name);
	if (kind == OUTPUT_PATH_STREAM || kind == OUTPUT_PATH_DEVICE) {
		*target = name;
		*through = true;
		return 0;
	}
	err = follow_links(name, target, &mode);
	free(name);
	if (!err)
		*through = mode && !S_ISREG(mode) && !S_ISDIR(mode);
	return err;
}

int writer_output__open(struct perf_writer *w, const char *path, unsigned int flags)
{
	bool through;
	int err = output_path__resolve(path, &w->path, &through);

	if (err)
		return err;
	return through ? open_through(w, flags) : open_tmp(w, flags);
}

/* keep an existing destination as <path>.old, as perf record does */
static int keep_old(const char *path)
{
	struct stat st;
	char *old;
	int err;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	old = old_name(path);
	if (!old)
		return -ENOMEM;
	err = rm_rf(old);
	if (!err && rename(path, old))
		err = -errno;
	free(old);
	return err;
}

int writer_output__commit(struct perf_writer *w)
{
	int err;

	if (w->through || !w->tmp_path)
		return 0;
	/* checked at open too; asked again since a recording can take hours */
	err = may_replace_both(w->path);
	if (!err)
		err = keep_old(w->path);
	if (!err && rename(w->tmp_path, w->path))
		err = -errno;
	if (!err)
		zfree(&w->tmp_path);
	return err;
}

void writer_output__discard(struct perf_writer *w)
{
	if (w->tmp_path)
		rm_rf(w->tmp_path);
}
