/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TEXT_IMAGE_OPTIONS_H
#define __PERF_TEXTPOKE_TEXT_IMAGE_OPTIONS_H

#include "parse-options.h"
#include "text-image.h"

/*
 * The options that say where kernel code starts from, shared by every
 * command that builds a text image (script, code): one spelling, one help
 * text, one parser.  The ids sit above any command's own.
 */
enum {
	TEXT_IMAGE_OPT_KCORE = 0x1000,
	TEXT_IMAGE_OPT_KCORE_TIME,
	TEXT_IMAGE_OPT_NO_KCORE,
	TEXT_IMAGE_OPT_VMLINUX,
	TEXT_IMAGE_OPT_SYMFS,
	TEXT_IMAGE_OPT_KALLSYMS,
};

/* entries for a struct popt table */
#define TEXT_IMAGE_POPTS                                                         \
	{0,                                                                      \
	 "kcore",                                                                \
	 required_argument,                                                      \
	 "dir",                                                                  \
	 "kernel code from this kcore_dir instead of the recording's",           \
	 TEXT_IMAGE_OPT_KCORE},                                                  \
	    {0,                                                                  \
	     "kcore-time",                                                       \
	     required_argument,                                                  \
	     "when",                                                             \
	     "when the kcore was copied: start, end, fit (default) or a time",   \
	     TEXT_IMAGE_OPT_KCORE_TIME},                                         \
	    {0,                                                                  \
	     "no-kcore",                                                         \
	     no_argument,                                                        \
	     NULL,                                                               \
	     "use no kcore: only poked bytes are known",                         \
	     TEXT_IMAGE_OPT_NO_KCORE},                                           \
	    {'k',                                                                \
	     "vmlinux",                                                          \
	     required_argument,                                                  \
	     "file",                                                             \
	     "vmlinux: the kernel symbols, and the kernel code at boot",         \
	     TEXT_IMAGE_OPT_VMLINUX},                                            \
	    {0,                                                                  \
	     "kallsyms",                                                         \
	     required_argument,                                                  \
	     "file",                                                             \
	     "kernel symbols from this kallsyms",                                \
	     TEXT_IMAGE_OPT_KALLSYMS},                                           \
	{                                                                        \
		0, "symfs", required_argument, "directory",                      \
		    "look for the installed vmlinux relative to this directory", \
		    TEXT_IMAGE_OPT_SYMFS                                         \
	}

/*
 * Apply option @id with @arg: 1 when it was one of these, 0 when it is
 * not, -EINVAL with the reason printed for a bad value.
 */
int text_image_opts__parse_option(struct text_image_opts *opts, int id, const char *arg);

/*
 * Once the options are read: the files they name exist and are regular
 * (a kcore_dir holding a kcore, a vmlinux), never blocking on a FIFO.
 * 0, or -EINVAL with an error naming the option and the file printed.
 */
int text_image_opts__check(const struct text_image_opts *opts);

#endif /* __PERF_TEXTPOKE_TEXT_IMAGE_OPTIONS_H */
