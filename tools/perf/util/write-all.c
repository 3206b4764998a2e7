// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <unistd.h>

#include "interrupt.h"
#include "write-all.h"

int pwrite_all(int fd, const void *buf, size_t n, off_t off)
{
	const char *p = buf;

	while (n) {
		ssize_t r = pwrite(fd, p, n, off);

		if (r < 0 && errno == EINTR && !interrupt__pending())
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		p += r;
		n -= r;
		off += r;
	}
	return 0;
}

int copy_to_eof(int in, int out, bool *read_failed)
{
	char buf[65536];
	off_t off = 0;
	ssize_t n;
	int err;

	*read_failed = false;
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR && !interrupt__pending())
			continue;
		if (n < 0) {
			*read_failed = true;
			return -errno;
		}
		err = pwrite_all(out, buf, n, off);
		if (err)
			return err;
		off += n;
	}
	return 0;
}
