// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "input-file.h"
#include "text-image-options.h"

/*
 * Files the user names are looked at once the options are read, as perf
 * looks at -k and --kallsyms up front: a command that builds no text
 * image (script without insn) must not take a missing file silently
 * either.  What is in them, and whether it is the recorded kernel, is
 * checked when the image is built (kcore.c, text-image.c).
 */
static int check_kcore_dir(const char *dir)
{
	struct stat st;
	char *path;
	int fd;

	if (stat(dir, &st)) {
		pr_err("--kcore %s: %s\n", dir, input_file__strerror(-errno));
		return -EINVAL;
	}
	if (!S_ISDIR(st.st_mode)) {
		pr_err("--kcore %s: not a directory (a kcore_dir holding kcore)\n", dir);
		return -EINVAL;
	}
	if (asprintf(&path, "%s/kcore", dir) < 0)
		return -ENOMEM;
	fd = input_file__open(path, &st);
	if (fd < 0)
		pr_err("--kcore %s: %s: %s\n", dir, path, input_file__strerror(fd));
	else
		close(fd);
	free(path);
	return fd < 0 ? -EINVAL : 0;
}

/* @path, given as @opt, is a regular file that can be read: "<opt> <path>: why" */
static int check_file(const char *opt, const char *path)
{
	struct stat st;
	int fd = input_file__open(path, &st);

	if (fd < 0) {
		pr_err("%s %s: %s\n", opt, path, input_file__strerror(fd));
		return -EINVAL;
	}
	close(fd);
	return 0;
}

int text_image_opts__parse_option(struct text_image_opts *opts, int id, const char *arg)
{
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
		opts->kallsyms = arg;
		return 1;
	default:
		return 0;
	}
}

int text_image_opts__check(const struct text_image_opts *opts)
{
	if (opts->kcore_dir && !opts->no_kcore && check_kcore_dir(opts->kcore_dir))
		return -EINVAL;
	if (opts->vmlinux && check_file("--vmlinux", opts->vmlinux))
		return -EINVAL;
	if (opts->kallsyms && check_file("--kallsyms", opts->kallsyms))
		return -EINVAL;
	return 0;
}
