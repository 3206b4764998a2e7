// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
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
	const size_t size = 1 << 18;
	char *buf = malloc(size);
	size_t len = 0;
	off_t off = 0;
	ssize_t n = 1;
	int err = 0;

	*read_failed = false;
	if (!buf)
		return -ENOMEM;
	/*
	 * The buffer is filled before it is written: a /proc file's read()
	 * gives at most a page, and a write() per page cost the kallsyms
	 * copy more than its reads' copying
	 */
	while (n && !err) {
		n = read(in, buf + len, size - len);
		if (n < 0 && errno == EINTR && !interrupt__pending())
			continue;
		if (n < 0) {
			*read_failed = true;
			err = -errno;
			break;
		}
		len += n;
		if (len < size && n)
			continue;
		err = pwrite_all(out, buf, len, off);
		off += len;
		len = 0;
	}
	free(buf);
	return err;
}
