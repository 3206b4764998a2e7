// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "kcore-copy.h"

/* /proc files report size 0: copy until EOF; a missing @from gives an empty file */
static int copy_proc_file(const char *from, const char *to)
{
	char buf[65536];
	int in, out, err = 0;
	ssize_t n;

	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return -errno;
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		goto out_close;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n) {
			err = -EIO;
			break;
		}
	}
	if (n < 0)
		err = -errno;
	close(in);
out_close:
	if (close(out) && !err)
		err = -errno;
	return err;
}

int kcore_dir__write(const char *dir, bool quiet)
{
	char path[4096];
	int err;

	snprintf(path, sizeof(path), "%s/kcore_dir", dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/kcore_dir/kallsyms", dir);
	err = copy_proc_file("/proc/kallsyms", path);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/kcore_dir/modules", dir);
	err = copy_proc_file("/proc/modules", path);
	if (err)
		return err;
	if (!quiet) {
		if (access("/proc/kcore", R_OK))
			fprintf(stderr, "perf textpoke record: no /proc/kcore: kcore_dir holds kallsyms "
					"and modules only, kernel text comes from the text pokes\n");
		else
			fprintf(stderr, "perf textpoke record: kcore_dir holds kallsyms and modules "
					"only (copying kernel text from /proc/kcore is not done yet)\n");
	}
	return 0;
}
