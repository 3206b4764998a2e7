/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_WRITE_ALL_H
#define __PERF_WRITE_ALL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * pwrite() all of @n bytes at @off.  A short write is retried, so that the
 * next one gives the reason (ENOSPC, EFBIG) instead of a guess: -errno, or
 * -EIO where the kernel wrote nothing and said nothing.
 */
int pwrite_all(int fd, const void *buf, size_t n, off_t off);

/*
 * Everything @in reads until EOF into @out from offset 0: a /proc file or
 * a pipe, whose size nothing tells before.  0 or -errno, and
 * *@read_failed says whether reading @in (true) or writing @out failed,
 * for the message naming the file.
 */
int copy_to_eof(int in, int out, bool *read_failed);

#endif /* __PERF_WRITE_ALL_H */
