// SPDX-License-Identifier: GPL-2.0-only
/* input files named by a path: regular files only, opened without blocking */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "input-file.h"

/* open(O_RDONLY) gives these for nothing else: they can say what the file is */
static int not_regular(mode_t mode)
{
	if (S_ISDIR(mode))
		return -EISDIR;
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return -ENODEV;
	/* what open() says of a socket */
	if (S_ISSOCK(mode))
		return -ENXIO;
	return -ESPIPE;
}

int input_file__open(const char *path, struct stat *st)
{
	int fd, flags, err;

	/*
	 * Opening some devices does something (a watchdog starts, a tape
	 * rewinds): look before opening, then check what was opened, in
	 * case the path changed in between.
	 */
	if (stat(path, st))
		return -errno;
	if (!S_ISREG(st->st_mode))
		return not_regular(st->st_mode);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		err = -errno;
		goto out_close;
	}
	if (!S_ISREG(st->st_mode)) {
		err = not_regular(st->st_mode);
		goto out_close;
	}
	/* regular files ignore O_NONBLOCK, but later readers need not know that */
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)) {
		err = -errno;
		goto out_close;
	}
	return fd;

out_close:
	close(fd);
	return err;
}

const char *input_file__strerror(int err)
{
	switch (err) {
	case -ESPIPE:
		return "a FIFO, not a regular file";
	case -ENODEV:
		return "a device, not a regular file";
	case -EISDIR:
		return "a directory, not a regular file";
	default:
		return strerror(-err);
	}
}
