/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_DSO_DATA_H
#define __PERF_TEXTPOKE_DSO_DATA_H

#include <stddef.h>
#include <sys/types.h>

#include "types.h"

/*
 * The bytes of object files, by path and file offset, for the insn field
 * of user samples (what perf's dso__data_read_offset() gives perf
 * script).  A listing reads a few bytes per sample from a handful of
 * objects, so each file is mapped read-only once and kept: a bounded
 * number of them (DSO_DATA_FILES), the least recently used one making
 * room.  What is not a regular file (a device, a FIFO) is read with
 * pread() instead, and opened without blocking.
 */
struct dso_data;

#define DSO_DATA_FILES 64

struct dso_data *dso_data__new(void);
void dso_data__delete(struct dso_data *dd);

/*
 * Up to @len bytes of @path at @offset into @buf: the count (fewer past
 * the end of the file, 0 at or after it) or -errno.  *@elf64 is false
 * for a 32-bit ELF object only: the ELF class decides how perf decodes an
 * object's code, 64-bit when there is none.  @key (the caller's object,
 * may be NULL) finds the file without comparing paths first; the path
 * still decides.
 */
ssize_t dso_data__read(struct dso_data *dd, const void *key, const char *path, u64 offset, u8 *buf,
		       size_t len, bool *elf64);

#endif /* __PERF_TEXTPOKE_DSO_DATA_H */
