// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every fuzz target shares: the table of targets, memfds that let a
 * path-taking reader read an input without a file on disk, and the input
 * cursor.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "../util/write-all.h"

const struct fuzz_target fuzz_targets[] = {
    {"session", fuzz__session},	  {"sample", fuzz__sample},	{"textpoke", fuzz__textpoke},
    {"kcore", fuzz__kcore},	  {"kallsyms", fuzz__kallsyms}, {"unwind", fuzz__unwind},
    {"intel-pt", fuzz__intel_pt},
};
const size_t nr_fuzz_targets = sizeof(fuzz_targets) / sizeof(fuzz_targets[0]);

int fuzz__memfd(const u8 *data, size_t size, char *path, size_t path_size)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = size ? pwrite_all(fd, data, size, 0) : 0;
	if (err < 0) {
		close(fd);
		return err;
	}
	snprintf(path, path_size, "/proc/self/fd/%d", fd);
	return fd;
}

u64 fuzz_input__u64(struct fuzz_input *in, unsigned int bytes)
{
	u64 v = 0;

	for (unsigned int i = 0; i < bytes && i < 8; i++) {
		if (!in->left)
			break;
		v |= (u64)*in->p << (8 * i);
		in->p++;
		in->left--;
	}
	return v;
}
