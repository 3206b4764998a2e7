/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INPUT_FILE_H
#define __PERF_TEXTPOKE_INPUT_FILE_H

#include <sys/stat.h>

/*
 * Files named by a path, by the user or by a recording (a kcore, a
 * vmlinux, a kallsyms), are read only when they are regular files: open()
 * of a FIFO blocks until some writer comes, and a device such as
 * /dev/zero never ends.  The file is opened with O_NONBLOCK and what was
 * opened is looked at with fstat(), so that nothing blocks and nothing
 * changes between the look and the read.
 *
 * Returns a blocking, O_CLOEXEC, read-only fd and fills @st, or -errno:
 * what open() said, or for a file that is not regular -ESPIPE (a FIFO or
 * a socket), -ENODEV (a device) or -EISDIR (a directory).
 */
int input_file__open(const char *path, struct stat *st);

/*
 * The reason for @err, for "<path>: <reason>" messages: the three codes
 * above say "a FIFO, not a regular file" and the like, others strerror().
 */
const char *input_file__strerror(int err);

#endif /* __PERF_TEXTPOKE_INPUT_FILE_H */
