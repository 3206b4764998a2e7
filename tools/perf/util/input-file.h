/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INPUT_FILE_H
#define __PERF_TEXTPOKE_INPUT_FILE_H

#include <sys/stat.h>

/*
 * Files named by a path, by the user or by a recording (a kcore, a
 * vmlinux, a kallsyms), are read only when they are regular files: open()
 * of a FIFO blocks until some writer comes, and a device such as
 * /dev/zero never ends.  The path is looked at with stat() first, so that
 * no device is even opened, then opened with O_NONBLOCK and what was
 * opened looked at with fstat(), so that nothing blocks and nothing
 * changes between the look and the read.
 *
 * Returns a blocking, O_CLOEXEC, read-only fd and fills @st, or -errno:
 * what stat() or open() said, or for a file that is not regular -ESPIPE
 * (a FIFO), -ENODEV (a device), -EISDIR (a directory) or -ENXIO (a
 * socket).
 */
int input_file__open(const char *path, struct stat *st);

/*
 * The reason for @err, for "<path>: <reason>" messages: the three codes
 * above say "a FIFO, not a regular file" and the like, others strerror().
 */
const char *input_file__strerror(int err);

#endif /* __PERF_TEXTPOKE_INPUT_FILE_H */
