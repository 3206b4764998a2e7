// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <unistd.h>

#include "write-all.h"

int pwrite_all(int fd, const void *buf, size_t n, off_t off)
{
	const char *p = buf;

	while (n) {
		ssize_t r = pwrite(fd, p, n, off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		p += r;
		n -= r;
		off += r;
	}
	return 0;
}
