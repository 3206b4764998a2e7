// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "text-image-options.h"

int text_image_opts__parse_option(struct text_image_opts *opts, int id, const char *arg)
{
	struct stat st;

	switch (id) {
	case TEXT_IMAGE_OPT_KCORE:
		opts->kcore_dir = arg;
		return 1;
	case TEXT_IMAGE_OPT_KCORE_TIME:
		if (text_image_opts__parse_anchor(opts, arg)) {
			pr_err("--kcore-time %s: expected start, end, fit or a time\n", arg);
			return -EINVAL;
		}
		return 1;
	case TEXT_IMAGE_OPT_NO_KCORE:
		opts->no_kcore = true;
		return 1;
	case TEXT_IMAGE_OPT_VMLINUX:
		opts->vmlinux = arg;
		return 1;
	case TEXT_IMAGE_OPT_SYMFS:
		opts->symfs = arg;
		return 1;
	case TEXT_IMAGE_OPT_KALLSYMS:
		/* as perf checks it, and never a FIFO that would block the read */
		if (stat(arg, &st) || access(arg, R_OK)) {
			pr_err("--kallsyms %s: %s\n", arg, strerror(errno));
			return -EINVAL;
		}
		if (!S_ISREG(st.st_mode)) {
			pr_err("--kallsyms %s: not a regular file\n", arg);
			return -EINVAL;
		}
		opts->kallsyms = arg;
		return 1;
	default:
		return 0;
	}
}
